/* Where an instruction came from in the CUDA (or other high-level) source:
 * the .loc in force at it, resolved through the module's .file table.
 * Fault reports, sanitizers, the debugger and traces all ask here, so a
 * position is spelled the same way everywhere. */
#include "isa/isa.h"

const char *isa_file_path(const isa_module *m, uint32_t file_id) {
  for (uint32_t k = 0; k < m->nfiles; k++)
    if (m->files[k].id == file_id) return m->files[k].path;
  return NULL;
}

bool isa_source_pos(const isa_module *m, const isa_func *f, const isa_insn *in, isa_source *out) {
  *out = (isa_source){ 0 };
  if (!m || !f || !in || !in->loc || in->loc > f->nlocs) return false;
  const isa_locinfo *li = &f->locs[in->loc - 1];
  out->path = isa_file_path(m, li->file);
  if (!out->path || !li->line) return false;
  out->line = li->line;
  out->col = li->col;
  if (li->inlined) {
    out->inlined_in = li->function_name;
    out->call_path = isa_file_path(m, li->in_file);
    out->call_line = li->in_line;
  }
  return true;
}

/* The last path component: messages say "vecadd.cu:12", not the compile
 * machine's absolute path. */
const char *isa_path_base(const char *path) {
  const char *b = path;
  for (const char *p = path; p && *p; p++) if (*p == '/') b = p + 1;
  return b;
}
