/* debug/examine.c - memory of any space as the focus sees it, and the x
 * command (x/NFU SPACE ADDR, as gdb's). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "debug/internal.h"

static const char *skip_ws(const char *s) { while (*s == ' ' || *s == '\t') s++; return s; }

const uint8_t *dbg_mem(dbg *d, int space, uint64_t addr, uint32_t n) {
  emu *e = d->e;
  if (!e) { dbg_printf(d, "The program is not running: memory can be read once it runs.\n"); return NULL; }
  const uint8_t *p = NULL;
  const char *sn = ptx_space_names[space];
  if (space == PTX_SPACE_GLOBAL || space == PTX_SPACE_CONST) {
    p = emu_host_ptr(e, addr, n);
    if (!p) dbg_printf(d, "Cannot read %u bytes of %s memory at 0x%llx: no allocation holds them.\n", n, sn, (unsigned long long)addr);
    return p;
  }
  if (!dbg_is_running(d, true)) return NULL;
  if (space == PTX_SPACE_PARAM) {
    uint32_t have = d->launch.param_size;
    if (addr + n > have) { dbg_printf(d, "The kernel has %u bytes of parameters: cannot read %u at 0x%llx.\n", have, n, (unsigned long long)addr); return NULL; }
    return emu_host_ptr(e, e->param_addr + addr, n);
  }
  int lane;
  const warp *w = dbg_focus_warp(d, &lane);
  if (!w) { dbg_printf(d, "The focused block is not running.\n"); return NULL; }
  if (space == PTX_SPACE_SHARED) {
    const cta *c = w->cta;
    if (addr >= c->shared_size || n > c->shared_size - addr) {
      dbg_printf(d, "Block (%u,%u,%u) has a shared window of %u bytes (its variables from 0x%x): cannot read %u at 0x%llx.\n",
                 c->id[0], c->id[1], c->id[2], c->shared_size, EMU_SHARED_RESERVED, n, (unsigned long long)addr);
      return NULL;
    }
    return c->shared + addr;
  }
  if (space == PTX_SPACE_LOCAL) {
    if (addr >= w->local_stride || n > w->local_stride - addr) {
      dbg_printf(d, "Each thread has %u bytes of local memory: cannot read %u at 0x%llx.\n", w->local_stride, n, (unsigned long long)addr);
      return NULL;
    }
    return w->local + (size_t)lane * w->local_stride + addr;
  }
  dbg_printf(d, "Cannot read the %s space.\n", sn);
  return NULL;
}

int dbg_cmd_examine(dbg *d, const char *fmt, const char *args) {
  uint32_t count = 0;
  char f = 'x', u = 'w';
  for (const char *p = fmt; *p; p++) {
    if (isdigit((unsigned char)*p)) { count = count * 10 + (uint32_t)(*p - '0'); if (count > 4096) { dbg_printf(d, "x shows at most 4096 units.\n"); return -1; } }
    else if (strchr("xduofc", *p)) f = *p;
    else if (strchr("bhwg", *p)) u = *p;
    else { dbg_printf(d, "Bad format '/%s': N (count), a format x d u o f c, a unit b (1 byte) h (2) w (4) g (8); e.g. x/16wx.\n", fmt); return -1; }
  }
  if (!count) count = 1;
  uint32_t size = u == 'b' ? 1 : u == 'h' ? 2 : u == 'w' ? 4 : 8;
  args = skip_ws(args);
  int space = PTX_SPACE_GLOBAL;
  static const struct { const char *n; int s; } spaces[] = { { "global", PTX_SPACE_GLOBAL }, { "shared", PTX_SPACE_SHARED },
    { "local", PTX_SPACE_LOCAL }, { "const", PTX_SPACE_CONST }, { "param", PTX_SPACE_PARAM } };
  for (size_t k = 0; k < sizeof spaces / sizeof *spaces; k++) {
    size_t l = strlen(spaces[k].n);
    if (strncmp(args, spaces[k].n, l) == 0 && (args[l] == ' ' || args[l] == '\t')) { space = spaces[k].s; args = skip_ws(args + l); break; }
  }
  if (!*args) { dbg_printf(d, "x needs an address: x/4wx shared 0x0, x/8wx global 0x..., or a variable name.\n"); return -1; }
  uint64_t addr, sym_base = 0;
  char *e;
  char label[300], sym[256] = "";
  if (isdigit((unsigned char)*args)) {
    addr = strtoull(args, &e, 0);
    if (*skip_ws(e)) { dbg_printf(d, "Bad address '%s'.\n", args); return -1; }
  } else {
    char name[256];
    size_t nl = strcspn(args, "+ \t");
    snprintf(name, sizeof name, "%.*s", (int)(nl < 255 ? nl : 255), args);
    int type, sp;
    uint64_t ssize;
    if (!dbg_symbol(d, name, &sp, &addr, &ssize, &type)) { dbg_printf(d, "No variable '%s': give a number, e.g. x/4wx shared 0x0.\n", name); return -1; }
    space = sp;
    snprintf(sym, sizeof sym, "%s", name);
    sym_base = addr;
    const char *p = skip_ws(args + nl);
    if (*p == '+') {
      uint64_t off = strtoull(skip_ws(p + 1), &e, 0);
      if (*skip_ws(e)) { dbg_printf(d, "Bad offset in '%s'.\n", args); return -1; }
      addr += off;
    } else if (*p) { dbg_printf(d, "Bad address '%s'.\n", args); return -1; }
  }
  const uint8_t *mem = dbg_mem(d, space, addr, count * size);
  if (!mem) return -1;
  uint32_t per_line = size == 8 ? 2 : size == 4 ? 4 : 8;
  for (uint32_t i = 0; i < count; i++) {
    if (i % per_line == 0) {
      if (sym[0]) snprintf(label, sizeof label, "%s+0x%llx:", sym, (unsigned long long)(addr - sym_base + (uint64_t)i * size));
      else snprintf(label, sizeof label, "%s 0x%llx:", ptx_space_names[space], (unsigned long long)(addr + (uint64_t)i * size));
      dbg_printf(d, "%s%-18s", i ? "\n" : "", label);
    }
    uint64_t v = 0;
    for (uint32_t b = 0; b < size; b++) v |= (uint64_t)mem[i * size + b] << (8 * b);
    char buf[64];
    int t;
    switch (f) {
    case 'd': t = size == 1 ? PTX_T_S8 : size == 2 ? PTX_T_S16 : size == 4 ? PTX_T_S32 : PTX_T_S64; dbg_format_value(buf, sizeof buf, t, v); break;
    case 'u': t = size == 1 ? PTX_T_U8 : size == 2 ? PTX_T_U16 : size == 4 ? PTX_T_U32 : PTX_T_U64; dbg_format_value(buf, sizeof buf, t, v); break;
    case 'o': snprintf(buf, sizeof buf, "0%llo", (unsigned long long)v); break;
    case 'c': snprintf(buf, sizeof buf, v >= 32 && v < 127 ? "'%c'" : "%u", (unsigned)v); break;
    case 'f':
      if (size == 4 || size == 8 || size == 2) { dbg_format_value(buf, sizeof buf, size == 4 ? PTX_T_F32 : size == 8 ? PTX_T_F64 : PTX_T_F16, v); break; }
      snprintf(buf, sizeof buf, "0x%02llx", (unsigned long long)v);   /* bytes have no float format */
      break;
    default: snprintf(buf, sizeof buf, "0x%0*llx", (int)size * 2, (unsigned long long)v);
    }
    dbg_printf(d, "\t%s", buf);
  }
  dbg_printf(d, "\n");
  return 0;
}
