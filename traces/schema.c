/* traces/schema.c - the SQL schema of a trace database (ptxemu-trace(5)).
 *
 * Keep this text, man/ptxemu-trace.5 and TRACE_SCHEMA_VERSION in step: a
 * change of any table or view is a new schema version. */
#include "traces/trace.h"

/* Idioms used below:
 *  - a launch's rows of warp_runs / mem_accesses are the id range
 *    [first_run_id, last_run_id] / [first_mem_id, last_mem_id] stored in
 *    its launches row, so per-launch aggregates walk the integer primary key
 *    and need no index;
 *  - a warp_runs row stands for n consecutive instructions of one warp with
 *    one active mask; only its last instruction may have a guard mask that
 *    differs from the active mask, or be a branch;
 *  - metric views take their numbers from the recorded rows when the launch
 *    was recorded at a level that includes them, and otherwise from the
 *    emulator's whole-launch counters in launches (NULL where those do not
 *    determine the metric). */
/* warp_runs and mem_accesses declare no NOT NULL: each would be one more
 * instruction per column and row of the inserts (the writer never leaves
 * out a column that ptxemu-trace(5) does not call nullable). */
/* The memory-request sums of a group of mem_accesses rows m (per launch,
 * per PTX line). */
#define MEM_SUMS \
  "  sum(m.space_id = 0 AND m.kind_id = 0) AS gld_requests,\n" \
  "  sum(CASE WHEN m.space_id = 0 AND m.kind_id = 0 THEN m.sectors END) AS gld_sectors,\n" \
  "  sum(CASE WHEN m.space_id = 0 AND m.kind_id = 0 THEN m.lines END) AS gld_lines,\n" \
  "  sum(CASE WHEN m.space_id = 0 AND m.kind_id = 0 THEN CASE WHEN m.l1_cached THEN 128 * m.lines ELSE 32 * m.sectors END END)\n" \
  "    AS gld_transaction_bytes,\n" \
  "  sum(CASE WHEN m.space_id = 0 AND m.kind_id = 0 THEN m.bytes END) AS gld_bytes,\n" \
  "  sum(m.space_id = 0 AND m.kind_id = 1) AS gst_requests,\n" \
  "  sum(CASE WHEN m.space_id = 0 AND m.kind_id = 1 THEN m.sectors END) AS gst_sectors,\n" \
  "  sum(CASE WHEN m.space_id = 0 AND m.kind_id = 1 THEN m.lines END) AS gst_lines,\n" \
  "  sum(CASE WHEN m.space_id = 0 AND m.kind_id = 1 THEN m.bytes END) AS gst_bytes,\n" \
  "  sum(m.space_id = 1 AND m.kind_id = 0) AS shared_ld_requests,\n" \
  "  sum(CASE WHEN m.space_id = 1 AND m.kind_id = 0 THEN m.wavefronts END) AS shared_ld_wavefronts,\n" \
  "  sum(CASE WHEN m.space_id = 1 AND m.kind_id = 0 THEN m.conflicts END) AS shared_ld_bank_conflicts,\n" \
  "  sum(m.space_id = 1 AND m.kind_id = 1) AS shared_st_requests,\n" \
  "  sum(CASE WHEN m.space_id = 1 AND m.kind_id = 1 THEN m.wavefronts END) AS shared_st_wavefronts,\n" \
  "  sum(CASE WHEN m.space_id = 1 AND m.kind_id = 1 THEN m.conflicts END) AS shared_st_bank_conflicts,\n" \
  "  sum(m.space_id = 1 AND m.kind_id IN (2, 3)) AS shared_atom_requests,\n" \
  "  sum(CASE WHEN m.space_id = 1 AND m.kind_id IN (2, 3) THEN m.wavefronts END) AS shared_atom_rounds,\n" \
  "  sum(CASE WHEN m.space_id = 1 AND m.kind_id IN (2, 3) THEN m.conflicts END) AS shared_atom_conflicts,\n" \
  "  sum(CASE WHEN m.space_id = 1 AND m.kind_id IN (0, 1) THEN m.bytes END) AS shared_bytes,\n" \
  "  sum(CASE WHEN m.space_id = 1 AND m.kind_id IN (0, 1) THEN m.wavefronts END) AS shared_wavefronts,\n" \
  "  sum(m.l1_hit_sectors) AS l1_hit_sectors,\n" \
  "  sum(CASE WHEN m.l1_hit_sectors IS NOT NULL THEN m.sectors END) AS l1_sectors,\n" \
  "  sum(m.l2_hit_sectors) AS l2_hit_sectors,\n" \
  "  sum(CASE WHEN m.l2_hit_sectors IS NOT NULL THEN m.sectors - coalesce(m.l1_hit_sectors, 0) END) AS l2_sectors,\n" \
  "  sum(CASE WHEN m.kind_id = 0 THEN m.dram_sectors END) AS dram_read_sectors\n"

const char trace_schema_sql[] =
  /* ---- the run and the static program ---------------------------------- */
  "CREATE TABLE runs(\n"
  "  run_id INTEGER PRIMARY KEY,\n"
  "  tool_version TEXT NOT NULL,\n"
  "  command_line TEXT NOT NULL,\n"
  "  launch_file TEXT,\n"
  "  gpu_config TEXT NOT NULL,\n"
  "  gpu_params TEXT,\n"
  "  trace_level TEXT NOT NULL,\n"
  "  filters TEXT,\n"
  "  started_at TEXT NOT NULL,\n"
  "  finished_at TEXT,\n"
  "  exit_status INTEGER);\n"
  "CREATE TABLE files(\n"
  "  file_id INTEGER PRIMARY KEY,\n"
  "  run_id INTEGER NOT NULL REFERENCES runs,\n"
  "  kind TEXT NOT NULL,\n"                       /* 'ptx', or 'source' for .file */
  "  path TEXT NOT NULL);\n"
  "CREATE TABLE ptx_lines(\n"
  "  file_id INTEGER NOT NULL REFERENCES files,\n"
  "  line INTEGER NOT NULL,\n"
  "  text TEXT NOT NULL,\n"
  "  PRIMARY KEY(file_id, line)) WITHOUT ROWID;\n"
  "CREATE TABLE modules(\n"
  "  module_id INTEGER PRIMARY KEY,\n"
  "  run_id INTEGER NOT NULL REFERENCES runs,\n"
  "  file_id INTEGER REFERENCES files,\n"
  "  ptx_version TEXT,\n"
  "  target TEXT,\n"
  "  address_size INTEGER);\n"
  "CREATE TABLE kernels(\n"
  "  kernel_id INTEGER PRIMARY KEY,\n"
  "  module_id INTEGER NOT NULL REFERENCES modules,\n"
  "  name TEXT NOT NULL,\n"
  "  entry INTEGER NOT NULL,\n"
  "  registers INTEGER,\n"
  "  shared_bytes INTEGER,\n"
  "  local_bytes INTEGER,\n"
  "  param_bytes INTEGER,\n"
  "  file_id INTEGER REFERENCES files,\n"
  "  ptx_line INTEGER,\n"
  "  first_insn_id INTEGER,\n"
  "  ninsns INTEGER);\n"
  "CREATE TABLE units(\n"
  "  unit_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL UNIQUE);\n"
  "CREATE TABLE opcodes(\n"
  "  opcode_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL UNIQUE,\n"
  "  unit_id INTEGER REFERENCES units);\n"
  "CREATE TABLE instructions(\n"
  "  insn_id INTEGER PRIMARY KEY,\n"
  "  kernel_id INTEGER NOT NULL REFERENCES kernels,\n"
  "  pc INTEGER NOT NULL,\n"
  "  opcode_id INTEGER NOT NULL REFERENCES opcodes,\n"
  "  opname TEXT NOT NULL,\n"
  "  text TEXT NOT NULL,\n"
  "  unit_id INTEGER NOT NULL REFERENCES units,\n"
  "  guarded INTEGER NOT NULL,\n"
  "  branch INTEGER NOT NULL,\n"
  "  sass_insts INTEGER NOT NULL,\n"
  "  file_id INTEGER REFERENCES files,\n"
  "  ptx_line INTEGER,\n"
  "  src_file_id INTEGER REFERENCES files,\n"
  "  src_line INTEGER);\n"
  /* ---- launches ---------------------------------------------------------- */
  "CREATE TABLE launches(\n"
  "  launch_id INTEGER PRIMARY KEY,\n"
  "  run_id INTEGER NOT NULL REFERENCES runs,\n"
  "  kernel_id INTEGER NOT NULL REFERENCES kernels,\n"
  "  launch_index INTEGER NOT NULL,\n"
  "  grid_x INTEGER NOT NULL, grid_y INTEGER NOT NULL, grid_z INTEGER NOT NULL,\n"
  "  block_x INTEGER NOT NULL, block_y INTEGER NOT NULL, block_z INTEGER NOT NULL,\n"
  "  dynamic_shared INTEGER NOT NULL,\n"
  "  cluster_x INTEGER NOT NULL, cluster_y INTEGER NOT NULL, cluster_z INTEGER NOT NULL,\n"
  "  status TEXT NOT NULL CHECK (status IN ('unfinished', 'completed', 'faulted', 'truncated')),\n"
  "  fault TEXT,\n"
  "  fault_insn_id INTEGER REFERENCES instructions,\n"
  "  trace_level TEXT NOT NULL,\n"
  "  filtered INTEGER NOT NULL,\n"
  "  first_run_id INTEGER NOT NULL, last_run_id INTEGER NOT NULL,\n"
  "  first_mem_id INTEGER NOT NULL, last_mem_id INTEGER NOT NULL,\n"
  "  inst_executed INTEGER, thread_inst_executed INTEGER,\n"
  "  gld_requests INTEGER, gld_sectors INTEGER, gst_requests INTEGER, gst_sectors INTEGER,\n"
  "  shared_ld_requests INTEGER, shared_ld_wavefronts INTEGER, shared_ld_bank_conflicts INTEGER,\n"
  "  shared_st_requests INTEGER, shared_st_wavefronts INTEGER, shared_st_bank_conflicts INTEGER,\n"
  "  branches INTEGER, divergent_branches INTEGER,\n"
  "  wall_ns INTEGER,\n"
  "  cycles INTEGER,\n"
  "  max_warps_per_sm INTEGER,\n"
  "  l1_hits INTEGER, l1_lookups INTEGER, l2_hits INTEGER, l2_lookups INTEGER,\n"
  "  dram_read_bytes INTEGER, dram_write_bytes INTEGER,\n"
  "  metric_set TEXT, clock_mhz INTEGER, shared_bank_mode INTEGER,\n"
  "  gld_lines INTEGER, gst_lines INTEGER, shared_atom_requests INTEGER, shared_atom_rounds INTEGER);\n"
  "CREATE TABLE blocks(\n"
  "  launch_id INTEGER NOT NULL REFERENCES launches,\n"
  "  block INTEGER NOT NULL,\n"
  "  x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL,\n"
  "  sm INTEGER NOT NULL,\n"
  "  warps INTEGER NOT NULL,\n"
  "  inst_executed INTEGER NOT NULL,\n"
  "  first_run_id INTEGER, last_run_id INTEGER,\n"
  "  start_cycle INTEGER, end_cycle INTEGER,\n"
  "  PRIMARY KEY(launch_id, block)) WITHOUT ROWID;\n"
  /* sanitizer findings (--sanitize): one row per distinct finding of a launch */
  "CREATE TABLE hazards(\n"
  "  hazard_id INTEGER PRIMARY KEY,\n"
  "  launch_id INTEGER NOT NULL REFERENCES launches,\n"
  "  tool TEXT NOT NULL CHECK (tool IN ('racecheck', 'synccheck', 'initcheck')),\n"
  "  kind TEXT NOT NULL,\n"
  "  space TEXT,\n"
  "  count INTEGER NOT NULL,\n"
  "  address INTEGER,\n"
  "  size INTEGER,\n"
  "  variable TEXT,\n"
  "  access1 TEXT, pc1 INTEGER, ptx_line1 INTEGER, cuda_file1 TEXT, cuda_line1 INTEGER,\n"
  "  block1_x INTEGER, block1_y INTEGER, block1_z INTEGER, thread1_x INTEGER, thread1_y INTEGER, thread1_z INTEGER,\n"
  "  access2 TEXT, pc2 INTEGER, ptx_line2 INTEGER, cuda_file2 TEXT, cuda_line2 INTEGER,\n"
  "  block2_x INTEGER, block2_y INTEGER, block2_z INTEGER, thread2_x INTEGER, thread2_y INTEGER, thread2_z INTEGER,\n"
  "  message TEXT NOT NULL);\n"
  "CREATE TABLE sm_samples(\n"
  "  launch_id INTEGER NOT NULL REFERENCES launches,\n"
  "  sm INTEGER NOT NULL,\n"
  "  cycle INTEGER NOT NULL,\n"
  "  active_warps INTEGER NOT NULL,\n"
  "  eligible_warps INTEGER,\n"
  "  PRIMARY KEY(launch_id, sm, cycle)) WITHOUT ROWID;\n"
  /* ---- dynamic rows --------------------------------------------------------- */
  "CREATE TABLE stall_reasons(\n"
  "  stall_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL UNIQUE,\n"
  "  description TEXT NOT NULL);\n"
  "CREATE TABLE warp_runs(\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  launch_id INTEGER REFERENCES launches,\n"
  "  sm INTEGER,\n"
  "  block INTEGER,\n"
  "  warp INTEGER,\n"
  "  wseq INTEGER,\n"
  "  insn_id INTEGER REFERENCES instructions,\n"
  "  n INTEGER,\n"
  "  reps INTEGER,\n"
  "  active INTEGER,\n"
  "  threads INTEGER,\n"
  "  guard INTEGER,\n"
  "  pred_threads INTEGER,\n"
  "  taken INTEGER,\n"
  "  issue_cycle INTEGER,\n"
  "  complete_cycle INTEGER,\n"
  "  stall_id INTEGER REFERENCES stall_reasons,\n"
  "  stall_cycles INTEGER,\n"
  "  stall2_id INTEGER REFERENCES stall_reasons,\n"
  "  stall2_cycles INTEGER,\n"
  "  stall3_id INTEGER REFERENCES stall_reasons,\n"
  "  stall3_cycles INTEGER);\n"
  /* 0 .. 4095: the repetitions of a warp_runs row (reps <= 4096, MAX_REPS) */
  "CREATE TABLE counter(k INTEGER PRIMARY KEY);\n"
  "WITH RECURSIVE c(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM c WHERE k < 4095) INSERT INTO counter SELECT k FROM c;\n"
  "CREATE TABLE spaces(\n"
  "  space_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL UNIQUE);\n"
  "CREATE TABLE access_kinds(\n"
  "  kind_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL UNIQUE);\n"
  "CREATE TABLE mem_accesses(\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  launch_id INTEGER REFERENCES launches,\n"
  "  insn_id INTEGER REFERENCES instructions,\n"
  "  block INTEGER,\n"
  "  warp INTEGER,\n"
  "  wseq INTEGER,\n"
  "  space_id INTEGER REFERENCES spaces,\n"
  "  kind_id INTEGER REFERENCES access_kinds,\n"
  "  size INTEGER,\n"
  "  threads INTEGER,\n"
  "  bytes INTEGER,\n"
  "  addr INTEGER,\n"
  "  sectors INTEGER,\n"
  "  lines INTEGER,\n"
  "  wavefronts INTEGER,\n"
  "  conflicts INTEGER,\n"
  "  l1_hit_sectors INTEGER,\n"
  "  l2_hit_sectors INTEGER,\n"
  "  dram_sectors INTEGER,\n"
  "  latency INTEGER,\n"
  "  l1_cached INTEGER);\n"
  /* ---- lookup rows ------------------------------------------------------------ */
  "INSERT INTO spaces VALUES (0, 'global'), (1, 'shared'), (2, 'local');\n"
  "INSERT INTO access_kinds VALUES (0, 'load'), (1, 'store'), (2, 'atomic'), (3, 'reduction');\n"
  "INSERT INTO stall_reasons VALUES\n"
  "  (1, 'selected', 'issued without waiting'),\n"
  "  (2, 'not_selected', 'eligible, another warp was selected'),\n"
  "  (3, 'long_scoreboard', 'waiting for a global/local memory (L1TEX) result'),\n"
  "  (4, 'short_scoreboard', 'waiting for a shared memory or special-function result'),\n"
  "  (5, 'wait', 'fixed-latency dependency'),\n"
  "  (6, 'barrier', 'waiting at a CTA barrier'),\n"
  "  (7, 'membar', 'waiting for a memory barrier'),\n"
  "  (8, 'math_pipe_throttle', 'the functional unit was busy'),\n"
  "  (9, 'mio_throttle', 'the memory input/output queue was full'),\n"
  "  (10, 'lg_throttle', 'the local/global memory queue was full'),\n"
  "  (11, 'tex_throttle', 'the texture queue was full'),\n"
  "  (12, 'branch_resolving', 'waiting for a branch target'),\n"
  "  (13, 'no_instruction', 'instruction fetch miss'),\n"
  "  (14, 'dispatch_stall', 'the dispatcher stalled'),\n"
  "  (15, 'drain', 'draining memory stores at exit'),\n"
  "  (16, 'sleeping', 'nanosleep or a warp-level wait'),\n"
  "  (17, 'misc', 'any other reason'),\n"
  "  (18, 'imc_miss', 'waiting for the constant bank (kernel parameters) to be fetched');\n"
  /* ---- expansion of warp_runs -------------------------------------------------- */
  "CREATE VIEW warp_insts AS\n"
  "SELECT r.id AS run_id, c.k AS rep, r.launch_id, r.sm, r.block, r.warp,\n"
  "  r.wseq + c.k * r.n + i.insn_id - r.insn_id AS wseq, i.insn_id, i.pc,\n"
  "  r.active,\n"
  "  CASE WHEN i.insn_id = r.insn_id + r.n - 1 THEN r.guard ELSE r.active END AS guard,\n"
  "  CASE WHEN i.insn_id = r.insn_id + r.n - 1 THEN r.taken END AS taken,\n"
  "  r.threads,\n"
  "  CASE WHEN i.insn_id = r.insn_id + r.n - 1 THEN r.pred_threads ELSE r.threads END AS pred_threads,\n"
  "  r.issue_cycle, r.complete_cycle, r.stall_id\n"
  "FROM warp_runs r CROSS JOIN counter c ON c.k < r.reps\n"
  "  CROSS JOIN instructions i ON i.insn_id BETWEEN r.insn_id AND r.insn_id + r.n - 1;\n"
  /* ---- per-launch aggregates ---------------------------------------------------- */
  "CREATE VIEW launch_warp_stats AS\n"
  "SELECT l.launch_id,\n"
  "  sum(r.n * r.reps) AS inst_executed,\n"
  "  sum(r.n * r.reps * r.threads) AS thread_inst_executed,\n"
  "  sum(r.reps * ((r.n - 1) * r.threads + r.pred_threads)) AS pred_thread_inst_executed,\n"
  "  sum(r.reps * (r.taken IS NOT NULL)) AS branches,\n"
  "  sum(r.reps * (r.taken IS NOT NULL AND r.taken <> 0 AND r.taken <> r.active)) AS divergent_branches,\n"
  "  count(DISTINCT r.block * 64 + r.warp) AS warps,\n"
  "  sum(r.reps * (r.issue_cycle IS NOT NULL)) AS timed_insts\n"
  "FROM launches l JOIN warp_runs r ON r.id BETWEEN l.first_run_id AND l.last_run_id\n"
  "GROUP BY l.launch_id;\n"
  "CREATE VIEW launch_mem_stats AS\n"
  "SELECT l.launch_id,\n"
  MEM_SUMS
  "FROM launches l JOIN mem_accesses m ON m.id BETWEEN l.first_mem_id AND l.last_mem_id\n"
  "GROUP BY l.launch_id;\n"
  /* ---- every per-launch metric in one row ------------------------------------------ */
  "CREATE VIEW launch_metrics AS\n"
  "SELECT l.launch_id, k.name AS kernel, l.launch_index, l.status, l.trace_level, coalesce(l.metric_set, 'ncu') AS metric_set,\n"
  "  CASE WHEN l.trace_level IN ('warp', 'all') THEN w.inst_executed ELSE l.inst_executed END AS inst_executed,\n"
  "  CASE WHEN l.trace_level IN ('warp', 'all') THEN w.thread_inst_executed ELSE l.thread_inst_executed END AS thread_inst_executed,\n"
  "  CASE WHEN l.trace_level IN ('warp', 'all') THEN 100.0 * (w.branches - w.divergent_branches) / nullif(w.branches, 0)\n"
  "       ELSE 100.0 * (l.branches - l.divergent_branches) / nullif(l.branches, 0) END AS branch_efficiency,\n"
  "  CASE WHEN l.trace_level IN ('warp', 'all') THEN 100.0 * w.thread_inst_executed / (32.0 * nullif(w.inst_executed, 0))\n"
  "       ELSE 100.0 * l.thread_inst_executed / (32.0 * nullif(l.inst_executed, 0)) END AS warp_execution_efficiency,\n"
  "  CASE WHEN l.trace_level IN ('warp', 'all') THEN 100.0 * w.pred_thread_inst_executed / (32.0 * nullif(w.inst_executed, 0))\n"
  "       END AS warp_nonpred_execution_efficiency,\n"
  "  CASE WHEN l.trace_level IN ('warp', 'all') THEN 1.0 * w.inst_executed / nullif(w.warps, 0)\n"
  "       ELSE 1.0 * l.inst_executed / (l.grid_x * l.grid_y * l.grid_z * ((l.block_x * l.block_y * l.block_z + 31) / 32)) END AS inst_per_warp,\n"
  "  CASE WHEN l.trace_level IN ('warp', 'all') THEN 1.0 * (SELECT sum(r.reps * (SELECT sum(i.sass_insts) FROM instructions i\n"
  "         WHERE i.insn_id BETWEEN r.insn_id AND r.insn_id + r.n - 1))\n"
  "       FROM warp_runs r WHERE r.id BETWEEN l.first_run_id AND l.last_run_id) / nullif(w.warps, 0) END AS sass_inst_per_warp,\n"
  /* nvprof (metric_set 'nvprof', Fermi/Kepler): a transaction is a
   * 128-byte line, and a load cached in L1 fetches whole lines; Nsight
   * Compute: 32-byte sectors */
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN 100.0 * m.gld_bytes / nullif(CASE WHEN l.metric_set = 'nvprof'\n"
  "       THEN m.gld_transaction_bytes ELSE 32.0 * m.gld_sectors END, 0) END AS gld_efficiency,\n"
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN 100.0 * m.gst_bytes / (32.0 * nullif(m.gst_sectors, 0)) END AS gst_efficiency,\n"
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN CASE WHEN l.metric_set = 'nvprof' THEN m.gld_lines ELSE m.gld_sectors END\n"
  "       ELSE CASE WHEN l.metric_set = 'nvprof' THEN l.gld_lines ELSE l.gld_sectors END END AS gld_transactions,\n"
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN CASE WHEN l.metric_set = 'nvprof' THEN m.gst_lines ELSE m.gst_sectors END\n"
  "       ELSE CASE WHEN l.metric_set = 'nvprof' THEN l.gst_lines ELSE l.gst_sectors END END AS gst_transactions,\n"
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN 1.0 * CASE WHEN l.metric_set = 'nvprof' THEN m.gld_lines ELSE m.gld_sectors END\n"
  "         / nullif(m.gld_requests, 0)\n"
  "       ELSE 1.0 * CASE WHEN l.metric_set = 'nvprof' THEN l.gld_lines ELSE l.gld_sectors END / nullif(l.gld_requests, 0)\n"
  "       END AS gld_transactions_per_request,\n"
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN 1.0 * CASE WHEN l.metric_set = 'nvprof' THEN m.gst_lines ELSE m.gst_sectors END\n"
  "         / nullif(m.gst_requests, 0)\n"
  "       ELSE 1.0 * CASE WHEN l.metric_set = 'nvprof' THEN l.gst_lines ELSE l.gst_sectors END / nullif(l.gst_requests, 0)\n"
  "       END AS gst_transactions_per_request,\n"
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN 1.0 * m.shared_ld_wavefronts / nullif(m.shared_ld_requests, 0)\n"
  "       ELSE 1.0 * l.shared_ld_wavefronts / nullif(l.shared_ld_requests, 0) END AS shared_load_transactions_per_request,\n"
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN 1.0 * m.shared_st_wavefronts / nullif(m.shared_st_requests, 0)\n"
  "       ELSE 1.0 * l.shared_st_wavefronts / nullif(l.shared_st_requests, 0) END AS shared_store_transactions_per_request,\n"
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN 1.0 * m.shared_atom_rounds / nullif(m.shared_atom_requests, 0)\n"
  "       ELSE 1.0 * l.shared_atom_rounds / nullif(l.shared_atom_requests, 0) END AS shared_atom_transactions_per_request,\n"
  "  CASE WHEN l.trace_level IN ('mem', 'all') THEN 100.0 * m.shared_bytes / (128.0 * nullif(m.shared_wavefronts, 0)) END AS shared_efficiency,\n"
  "  coalesce(100.0 * m.l1_hit_sectors / nullif(m.l1_sectors, 0), 100.0 * l.l1_hits / nullif(l.l1_lookups, 0)) AS l1_hit_rate,\n"
  "  coalesce(100.0 * m.l2_hit_sectors / nullif(m.l2_sectors, 0), 100.0 * l.l2_hits / nullif(l.l2_lookups, 0)) AS l2_hit_rate,\n"
  "  coalesce(32 * m.dram_read_sectors, l.dram_read_bytes) AS dram_read_bytes,\n"
  /* the modelled GPU's time: cycles at its clock; bytes per ns = GB/s */
  "  l.cycles AS cycles,\n"
  "  1.0 * l.cycles / l.clock_mhz AS time_us,\n"
  "  coalesce(32 * m.dram_read_sectors, l.dram_read_bytes) / (1000.0 * l.cycles / l.clock_mhz) AS dram_read_throughput,\n"
  "  l.dram_write_bytes / (1000.0 * l.cycles / l.clock_mhz) AS dram_write_throughput,\n"
  "  32.0 * l.l2_lookups / (1000.0 * l.cycles / l.clock_mhz) AS l2_throughput,\n"
  "  l.wall_ns / 1e6 AS emulator_wall_ms,\n"
  "  100.0 * (SELECT avg(s.active_warps) FROM sm_samples s WHERE s.launch_id = l.launch_id) / l.max_warps_per_sm AS achieved_occupancy,\n"
  "  1.0 * CASE WHEN l.trace_level IN ('warp', 'all') THEN w.inst_executed ELSE l.inst_executed END\n"
  "    / (l.cycles * (SELECT nullif(count(DISTINCT b.sm), 0) FROM blocks b WHERE b.launch_id = l.launch_id)) AS ipc\n"
  "FROM launches l JOIN kernels k USING (kernel_id)\n"
  "  LEFT JOIN launch_warp_stats w USING (launch_id)\n"
  "  LEFT JOIN launch_mem_stats m USING (launch_id);\n"
#define METRIC_VIEW(name) \
  "CREATE VIEW " #name " AS SELECT launch_id, kernel, " #name " AS value FROM launch_metrics;\n"
  METRIC_VIEW(inst_executed)
  METRIC_VIEW(thread_inst_executed)
  METRIC_VIEW(branch_efficiency)
  METRIC_VIEW(warp_execution_efficiency)
  METRIC_VIEW(warp_nonpred_execution_efficiency)
  METRIC_VIEW(inst_per_warp)
  METRIC_VIEW(sass_inst_per_warp)
  METRIC_VIEW(gld_efficiency)
  METRIC_VIEW(gst_efficiency)
  METRIC_VIEW(gld_transactions)
  METRIC_VIEW(gst_transactions)
  METRIC_VIEW(gld_transactions_per_request)
  METRIC_VIEW(gst_transactions_per_request)
  METRIC_VIEW(shared_load_transactions_per_request)
  METRIC_VIEW(shared_store_transactions_per_request)
  METRIC_VIEW(shared_atom_transactions_per_request)
  METRIC_VIEW(shared_efficiency)
  METRIC_VIEW(l1_hit_rate)
  METRIC_VIEW(l2_hit_rate)
  METRIC_VIEW(dram_read_bytes)
  METRIC_VIEW(cycles)
  METRIC_VIEW(time_us)
  METRIC_VIEW(dram_read_throughput)
  METRIC_VIEW(dram_write_throughput)
  METRIC_VIEW(l2_throughput)
  METRIC_VIEW(achieved_occupancy)
  METRIC_VIEW(ipc)
  /* all of them in long form: one row per launch and metric */
#define METRIC_ARM(name) "SELECT launch_id, kernel, '" #name "' AS metric, " #name " AS value FROM m"
  "CREATE VIEW metrics AS WITH m AS (SELECT * FROM launch_metrics)\n"
  METRIC_ARM(inst_executed) " UNION ALL\n"
  METRIC_ARM(thread_inst_executed) " UNION ALL\n"
  METRIC_ARM(branch_efficiency) " UNION ALL\n"
  METRIC_ARM(warp_execution_efficiency) " UNION ALL\n"
  METRIC_ARM(warp_nonpred_execution_efficiency) " UNION ALL\n"
  METRIC_ARM(inst_per_warp) " UNION ALL\n"
  METRIC_ARM(sass_inst_per_warp) " UNION ALL\n"
  METRIC_ARM(gld_efficiency) " UNION ALL\n"
  METRIC_ARM(gst_efficiency) " UNION ALL\n"
  METRIC_ARM(gld_transactions) " UNION ALL\n"
  METRIC_ARM(gst_transactions) " UNION ALL\n"
  METRIC_ARM(gld_transactions_per_request) " UNION ALL\n"
  METRIC_ARM(gst_transactions_per_request) " UNION ALL\n"
  METRIC_ARM(shared_load_transactions_per_request) " UNION ALL\n"
  METRIC_ARM(shared_store_transactions_per_request) " UNION ALL\n"
  METRIC_ARM(shared_atom_transactions_per_request) " UNION ALL\n"
  METRIC_ARM(shared_efficiency) " UNION ALL\n"
  METRIC_ARM(l1_hit_rate) " UNION ALL\n"
  METRIC_ARM(l2_hit_rate) " UNION ALL\n"
  METRIC_ARM(dram_read_bytes) " UNION ALL\n"
  METRIC_ARM(cycles) " UNION ALL\n"
  METRIC_ARM(time_us) " UNION ALL\n"
  METRIC_ARM(dram_read_throughput) " UNION ALL\n"
  METRIC_ARM(dram_write_throughput) " UNION ALL\n"
  METRIC_ARM(l2_throughput) " UNION ALL\n"
  METRIC_ARM(achieved_occupancy) " UNION ALL\n"
  METRIC_ARM(ipc) ";\n"
  /* stall breakdown: warp states (emu/timing.h, doc/stall-reasons.md), the share of
   * all warp cycles in each: the cycles a warp waited before an issue are its
   * instruction's stall_id's, stall2_id's and stall3_id's, the issue cycle
   * itself 'selected' (id 1) */
  "CREATE VIEW stall_breakdown AS\n"
  "WITH r AS (SELECT l.launch_id, r.stall_id, r.stall_cycles, r.stall2_id, r.stall2_cycles, r.stall3_id, r.stall3_cycles,\n"
  "             r.n * r.reps AS issues\n"
  "           FROM launches l JOIN warp_runs r ON r.id BETWEEN l.first_run_id AND l.last_run_id\n"
  "           WHERE r.stall_id IS NOT NULL),\n"
  "     c AS (SELECT launch_id, stall_id, sum(n) AS n FROM\n"
  "             (SELECT launch_id, stall_id, stall_cycles AS n FROM r UNION ALL SELECT launch_id, 1, issues FROM r\n"
  "              UNION ALL SELECT launch_id, stall2_id, stall2_cycles FROM r WHERE stall2_id IS NOT NULL\n"
  "              UNION ALL SELECT launch_id, stall3_id, stall3_cycles FROM r WHERE stall3_id IS NOT NULL)\n"
  "           GROUP BY 1, 2),\n"
  "     t AS (SELECT launch_id, sum(n) AS total FROM c GROUP BY launch_id)\n"
  "SELECT l.launch_id, k.name AS kernel, s.name AS reason,\n"
  "  CASE WHEN t.total > 0 THEN 100.0 * coalesce(c.n, 0) / t.total END AS value\n"
  "FROM launches l JOIN kernels k USING (kernel_id) CROSS JOIN stall_reasons s\n"
  "  LEFT JOIN t ON t.launch_id = l.launch_id\n"
  "  LEFT JOIN c ON c.launch_id = l.launch_id AND c.stall_id = s.stall_id;\n"
  /* ---- per PTX line ------------------------------------------------------------------ */
  /* runs of the same instructions are summed first, then spread over their lines */
  "CREATE VIEW line_warp_stats AS\n"
  "WITH g AS (SELECT l.launch_id, r.insn_id, r.n, sum(r.reps) AS execs, sum(r.reps * r.threads) AS threads,\n"
  "             sum(r.reps * r.pred_threads) AS last_pred, sum(r.reps * (r.taken IS NOT NULL)) AS branches,\n"
  "             sum(r.reps * (r.taken IS NOT NULL AND r.taken <> 0 AND r.taken <> r.active)) AS divergent\n"
  "           FROM launches l JOIN warp_runs r ON r.id BETWEEN l.first_run_id AND l.last_run_id\n"
  "           GROUP BY l.launch_id, r.insn_id, r.n)\n"
  "SELECT g.launch_id, i.file_id, i.ptx_line, min(i.src_file_id) AS src_file_id, min(i.src_line) AS src_line,\n"
  "  sum(g.execs) AS inst_executed,\n"
  "  sum(g.execs * i.sass_insts) AS sass_inst_executed,\n"
  "  sum(g.threads) AS thread_inst_executed,\n"
  "  sum(CASE WHEN i.insn_id = g.insn_id + g.n - 1 THEN g.last_pred ELSE g.threads END) AS pred_thread_inst_executed,\n"
  "  sum(CASE WHEN i.insn_id = g.insn_id + g.n - 1 THEN g.branches ELSE 0 END) AS branches,\n"
  "  sum(CASE WHEN i.insn_id = g.insn_id + g.n - 1 THEN g.divergent ELSE 0 END) AS divergent_branches\n"
  "FROM g CROSS JOIN instructions i ON i.insn_id BETWEEN g.insn_id AND g.insn_id + g.n - 1\n"
  "GROUP BY g.launch_id, i.file_id, i.ptx_line;\n"
  "CREATE VIEW line_mem_stats AS\n"
  "SELECT l.launch_id, i.file_id, i.ptx_line, min(i.src_file_id) AS src_file_id, min(i.src_line) AS src_line,\n"
  MEM_SUMS
  "FROM launches l JOIN mem_accesses m ON m.id BETWEEN l.first_mem_id AND l.last_mem_id\n"
  "  JOIN instructions i ON i.insn_id = m.insn_id\n"
  "GROUP BY l.launch_id, i.file_id, i.ptx_line;\n"
/* the CUDA (.loc) position of each PTX line is in cuda_file/cuda_line, NULL
 * for PTX without .loc; the _by_cuda_line views sum the PTX lines of each
 * CUDA line first (cuda_line_warp_stats, cuda_line_mem_stats) and list them
 * in ptx_lines */
#define LINE_VIEW(name, stats, expr, cond) \
  "CREATE VIEW " #name "_by_line AS\n" \
  "SELECT s.launch_id, k.name AS kernel, f.path AS ptx_file, s.ptx_line, " expr " AS value,\n" \
  "  trim(replace(replace(p.text, char(9), ' '), '  ', ' ')) AS ptx_text, sf.path AS cuda_file, s.src_line AS cuda_line\n" \
  "FROM " stats " s JOIN launches l USING (launch_id) JOIN kernels k USING (kernel_id)\n" \
  "  LEFT JOIN files f ON f.file_id = s.file_id LEFT JOIN ptx_lines p ON p.file_id = s.file_id AND p.line = s.ptx_line\n" \
  "  LEFT JOIN files sf ON sf.file_id = s.src_file_id\n" \
  "WHERE " cond ";\n" \
  "CREATE VIEW " #name "_by_cuda_line AS\n" \
  "SELECT s.launch_id, k.name AS kernel, sf.path AS cuda_file, s.src_line AS cuda_line, " expr " AS value, s.ptx_lines\n" \
  "FROM cuda_" stats " s JOIN launches l USING (launch_id) JOIN kernels k USING (kernel_id)\n" \
  "  JOIN files sf ON sf.file_id = s.src_file_id\n" \
  "WHERE " cond ";\n"
#define CUDA_SUM(c) "sum(" #c ") AS " #c
  "CREATE VIEW cuda_line_warp_stats AS\n"
  "SELECT launch_id, src_file_id, src_line, group_concat(ptx_line, ' ') AS ptx_lines,\n"
  "  " CUDA_SUM(inst_executed) ", " CUDA_SUM(sass_inst_executed) ", " CUDA_SUM(thread_inst_executed) ",\n"
  "  " CUDA_SUM(pred_thread_inst_executed) ", " CUDA_SUM(branches) ", " CUDA_SUM(divergent_branches) "\n"
  "FROM (SELECT * FROM line_warp_stats WHERE src_line IS NOT NULL ORDER BY launch_id, ptx_line)\n"
  "GROUP BY launch_id, src_file_id, src_line;\n"
  "CREATE VIEW cuda_line_mem_stats AS\n"
  "SELECT launch_id, src_file_id, src_line, group_concat(ptx_line, ' ') AS ptx_lines,\n"
  "  " CUDA_SUM(gld_requests) ", " CUDA_SUM(gld_sectors) ", " CUDA_SUM(gld_lines) ", " CUDA_SUM(gld_transaction_bytes) ",\n"
  "  " CUDA_SUM(gld_bytes) ", " CUDA_SUM(gst_requests) ", " CUDA_SUM(gst_sectors) ", " CUDA_SUM(gst_lines) ",\n"
  "  " CUDA_SUM(gst_bytes) ", " CUDA_SUM(shared_ld_requests) ", " CUDA_SUM(shared_ld_wavefronts) ",\n"
  "  " CUDA_SUM(shared_atom_requests) ", " CUDA_SUM(shared_atom_rounds) ", " CUDA_SUM(shared_atom_conflicts) ",\n"
  "  " CUDA_SUM(shared_ld_bank_conflicts) ", " CUDA_SUM(shared_st_requests) ", " CUDA_SUM(shared_st_wavefronts) ",\n"
  "  " CUDA_SUM(shared_st_bank_conflicts) ", " CUDA_SUM(shared_bytes) ", " CUDA_SUM(shared_wavefronts) ",\n"
  "  " CUDA_SUM(l1_hit_sectors) ", " CUDA_SUM(l1_sectors) ", " CUDA_SUM(l2_hit_sectors) ", " CUDA_SUM(l2_sectors) ",\n"
  "  " CUDA_SUM(dram_read_sectors) "\n"
  "FROM (SELECT * FROM line_mem_stats WHERE src_line IS NOT NULL ORDER BY launch_id, ptx_line)\n"
  "GROUP BY launch_id, src_file_id, src_line;\n"
  LINE_VIEW(inst_executed, "line_warp_stats", "s.inst_executed", "1")
  LINE_VIEW(thread_inst_executed, "line_warp_stats", "s.thread_inst_executed", "1")
  LINE_VIEW(branch_efficiency, "line_warp_stats", "100.0 * (s.branches - s.divergent_branches) / s.branches", "s.branches > 0")
  LINE_VIEW(warp_execution_efficiency, "line_warp_stats", "100.0 * s.thread_inst_executed / (32.0 * s.inst_executed)", "1")
  LINE_VIEW(warp_nonpred_execution_efficiency, "line_warp_stats", "100.0 * s.pred_thread_inst_executed / (32.0 * s.inst_executed)", "1")
  LINE_VIEW(gld_efficiency, "line_mem_stats", "100.0 * s.gld_bytes / CASE WHEN l.metric_set = 'nvprof' THEN s.gld_transaction_bytes "
            "ELSE 32.0 * s.gld_sectors END", "s.gld_requests > 0")
  LINE_VIEW(gst_efficiency, "line_mem_stats", "100.0 * s.gst_bytes / (32.0 * s.gst_sectors)", "s.gst_requests > 0")
  LINE_VIEW(gld_transactions_per_request, "line_mem_stats", "1.0 * CASE WHEN l.metric_set = 'nvprof' THEN s.gld_lines "
            "ELSE s.gld_sectors END / s.gld_requests", "s.gld_requests > 0")
  LINE_VIEW(gst_transactions_per_request, "line_mem_stats", "1.0 * CASE WHEN l.metric_set = 'nvprof' THEN s.gst_lines "
            "ELSE s.gst_sectors END / s.gst_requests", "s.gst_requests > 0")
  LINE_VIEW(shared_load_transactions_per_request, "line_mem_stats", "1.0 * s.shared_ld_wavefronts / s.shared_ld_requests", "s.shared_ld_requests > 0")
  LINE_VIEW(shared_store_transactions_per_request, "line_mem_stats", "1.0 * s.shared_st_wavefronts / s.shared_st_requests", "s.shared_st_requests > 0")
  LINE_VIEW(shared_atom_transactions_per_request, "line_mem_stats", "1.0 * s.shared_atom_rounds / s.shared_atom_requests",
            "s.shared_atom_requests > 0")
  LINE_VIEW(shared_efficiency, "line_mem_stats", "100.0 * s.shared_bytes / (128.0 * s.shared_wavefronts)", "s.shared_wavefronts > 0")
  LINE_VIEW(l1_hit_rate, "line_mem_stats", "100.0 * s.l1_hit_sectors / nullif(s.l1_sectors, 0)", "s.gld_requests + s.gst_requests > 0")
  LINE_VIEW(l2_hit_rate, "line_mem_stats", "100.0 * s.l2_hit_sectors / nullif(s.l2_sectors, 0)", "s.gld_requests + s.gst_requests > 0")
  LINE_VIEW(dram_read_bytes, "line_mem_stats", "32 * s.dram_read_sectors", "s.gld_requests > 0")
  "CREATE VIEW stall_breakdown_by_line AS\n"
  "WITH r AS (SELECT l.launch_id, r.insn_id, r.stall_id, r.stall_cycles, r.stall2_id, r.stall2_cycles, r.stall3_id,\n"
  "             r.stall3_cycles, r.n * r.reps AS issues\n"
  "           FROM launches l JOIN warp_runs r ON r.id BETWEEN l.first_run_id AND l.last_run_id\n"
  "           WHERE r.stall_id IS NOT NULL),\n"
  "     g AS (SELECT launch_id, insn_id, stall_id, sum(n) AS n FROM\n"
  "             (SELECT launch_id, insn_id, stall_id, stall_cycles AS n FROM r UNION ALL SELECT launch_id, insn_id, 1, issues FROM r\n"
  "              UNION ALL SELECT launch_id, insn_id, stall2_id, stall2_cycles FROM r WHERE stall2_id IS NOT NULL\n"
  "              UNION ALL SELECT launch_id, insn_id, stall3_id, stall3_cycles FROM r WHERE stall3_id IS NOT NULL)\n"
  "           GROUP BY 1, 2, 3),\n"
  "     c AS (SELECT g.launch_id, i.file_id, i.ptx_line, g.stall_id, sum(g.n) AS n,\n"
  "             min(i.src_file_id) AS src_file_id, min(i.src_line) AS src_line\n"
  "           FROM g JOIN instructions i ON i.insn_id = g.insn_id GROUP BY 1, 2, 3, 4),\n"
  "     t AS (SELECT launch_id, file_id, ptx_line, sum(n) AS total, min(src_file_id) AS src_file_id,\n"
  "             min(src_line) AS src_line FROM c GROUP BY 1, 2, 3)\n"
  "SELECT t.launch_id, k.name AS kernel, f.path AS ptx_file, t.ptx_line, s.name AS reason,\n"
  "  CASE WHEN t.total > 0 THEN 100.0 * coalesce(c.n, 0) / t.total END AS value, sf.path AS cuda_file, t.src_line AS cuda_line\n"
  "FROM t JOIN launches l USING (launch_id) JOIN kernels k USING (kernel_id)\n"
  "  LEFT JOIN files f ON f.file_id = t.file_id LEFT JOIN files sf ON sf.file_id = t.src_file_id CROSS JOIN stall_reasons s\n"
  "  LEFT JOIN c ON c.launch_id = t.launch_id AND c.file_id IS t.file_id AND c.ptx_line IS t.ptx_line AND c.stall_id = s.stall_id;\n";

const char *const trace_level_names[4] = { "launch", "warp", "mem", "all" };
