/* report/html.c - HTML text helpers and the page's style sheet. */
#include <stdio.h>
#include <string.h>
#include "report/internal.h"

void html_esc_n(FILE *f, const char *s, size_t maxlen) {
  if (!s) return;
  for (size_t i = 0; s[i] && i < maxlen; i++) {
    switch (s[i]) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&#39;", f); break;
    case '\t': fputs("    ", f); break;
    default:
      /* control characters would make the page invalid; keep UTF-8 as is */
      if ((unsigned char)s[i] < 0x20 && s[i] != '\n') fputc('?', f);
      else fputc(s[i], f);
    }
  }
}

void html_esc(FILE *f, const char *s) { html_esc_n(f, s, (size_t)-1); }

void html_num(FILE *f, long long v) {
  char d[32];
  int n = snprintf(d, sizeof d, "%lld", v < 0 ? -v : v);
  if (v < 0) fputc('-', f);
  for (int i = 0; i < n; i++) {
    fputc(d[i], f);
    if ((n - i - 1) % 3 == 0 && i < n - 1) fputc(',', f);
  }
}

void html_fmt_bytes(char *out, size_t n, double b) {
  static const char *const unit[] = { "B", "KB", "MB", "GB", "TB" };
  int u = 0;
  while (b >= 1000 && u < 4) { b /= 1000; u++; }
  snprintf(out, n, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

void html_note(FILE *f, const char *text) {
  fputs("<p class=\"note\">", f);
  html_esc(f, text);
  fputs("</p>\n", f);
}

/* Stall colours follow Nsight Compute's families: issue green, memory
 * waits red/orange, barriers purple, throttles brown, fetch/dispatch grey. */
const char html_style[] =
  "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1280px;padding:0 16px 40px;color:#222;background:#fff}\n"
  "h1{font-size:22px;margin:18px 0 4px}h2{font-size:18px;margin:28px 0 6px;border-bottom:2px solid #ccd}\n"
  "h3{font-size:15px;margin:18px 0 4px}nav a{margin-right:10px}\n"
  "table{border-collapse:collapse;margin:6px 0}td,th{padding:2px 8px;border-bottom:1px solid #e4e4ea;text-align:right;white-space:nowrap}\n"
  "th{background:#f2f2f6;position:sticky;top:0}td.l,th.l{text-align:left}\n"
  ".kv td:first-child{color:#555;text-align:left}.kv td{text-align:left;white-space:normal}\n"
  ".note{color:#555;font-style:italic;margin:4px 0}\n"
  ".fig{overflow-x:auto}svg{display:block;max-width:100%;height:auto;font-size:11px}\n"
  "svg text{fill:#333}svg .ax{stroke:#888;stroke-width:1}svg .grid{stroke:#ddd;stroke-width:1}\n"
  "svg .big{font-size:13px;font-weight:600}\n"
  ".legend span{display:inline-block;margin:2px 10px 2px 0}.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-2px}\n"
  /* stall reasons (stall_reasons.stall_id) */
  ".s0{fill:#ccc;background:#ccc}.s1{fill:#2ca02c;background:#2ca02c}.s2{fill:#98df8a;background:#98df8a}\n"
  ".s3{fill:#d62728;background:#d62728}.s4{fill:#ff9896;background:#ff9896}.s5{fill:#1f77b4;background:#1f77b4}\n"
  ".s6{fill:#9467bd;background:#9467bd}.s7{fill:#c5b0d5;background:#c5b0d5}.s8{fill:#8c564b;background:#8c564b}\n"
  ".s9{fill:#c49c94;background:#c49c94}.s10{fill:#ff7f0e;background:#ff7f0e}.s11{fill:#ffbb78;background:#ffbb78}\n"
  ".s12{fill:#17becf;background:#17becf}.s13{fill:#7f7f7f;background:#7f7f7f}.s14{fill:#bcbd22;background:#bcbd22}\n"
  ".s15{fill:#e377c2;background:#e377c2}.s16{fill:#dbdb8d;background:#dbdb8d}.s17{fill:#555;background:#555}\n"
  ".s18{fill:#393b79;background:#393b79}\n"
  /* active threads of a warp (functional timeline) */
  ".t0{fill:#fde0c5;background:#fde0c5}.t1{fill:#facba6;background:#facba6}.t2{fill:#f59e72;background:#f59e72}\n"
  ".t3{fill:#e8694f;background:#e8694f}.t4{fill:#1f5f8b;background:#1f5f8b}.mem{fill:#111;background:#111}\n"
  ".occ{fill:none;stroke:#1f77b4;stroke-width:1.5}.elig{fill:none;stroke:#2ca02c;stroke-width:1.2;stroke-dasharray:4 3}\n"
  ".occmax{fill:none;stroke:#aec7e8;stroke-width:1}.bar{fill:#4e79a7}.barbg{fill:#eceff4}\n"
  ".hit{fill:transparent}.res{fill:#eef0f6;background:#eef0f6}\n"
  ".box{fill:#f4f6fb;stroke:#667;stroke-width:1.2}.arrow{stroke:#667;stroke-width:1.5;fill:none}.ah{fill:#667}\n"
  /* annotated PTX: heat of a line */
  ".src td{font:12px/1.3 ui-monospace,'DejaVu Sans Mono',monospace;border:0;padding:0 6px}\n"
  ".src td.t{text-align:left;white-space:pre}.src tr:hover{outline:1px solid #889}\n"
  ".h1{background:#fff5eb}.h2{background:#feebd4}.h3{background:#fee0bd}.h4{background:#fdd0a2}\n"
  ".h5{background:#fdbe85}.h6{background:#fdae6b}.h7{background:#fd9b53}.h8{background:#fd8d3c}.h9{background:#f77b2a}\n"
  ".src .d{color:#b00}\n";
