-- tests/report/fake_timing.sql - fill the timing columns of a trace that a
-- timing run left NULL (issue/complete cycles, stall reasons, block cycles,
-- SM samples) with a made-up but deterministic schedule, so that the
-- report's timed figures can be tested on any trace of n = 1 rows:
--   each warp issues in wseq order; the wait before an instruction and its
--   stall reason depend on its kind (barrier 40 cycles 'barrier', global
--   memory 30 'long_scoreboard', shared 8 'short_scoreboard', branch 6
--   'branch_resolving', others 1 to 3 cycles 'selected'/'not_selected');
--   blocks start 10 cycles apart.
UPDATE warp_runs SET issue_cycle = t.ic, complete_cycle = t.ic + t.lat, stall_id = t.st
FROM (SELECT r.id, 10 * (r.block % 16) + sum(g.gap) OVER (PARTITION BY r.launch_id, r.block, r.warp ORDER BY r.wseq, r.id) AS ic,
             g.lat, g.st
      FROM warp_runs r JOIN (
        SELECT i.insn_id, w.warp,
          CASE WHEN i.opname LIKE 'bar%' THEN 40 WHEN i.opname LIKE '%.global%' THEN 30 WHEN i.opname LIKE '%.shared%' THEN 8
               WHEN i.opname = 'bra' THEN 6 ELSE 1 + w.warp % 3 END AS gap,
          CASE WHEN i.opname LIKE '%.global%' THEN 300 WHEN i.opname LIKE '%.shared%' THEN 30 ELSE 4 END AS lat,
          CASE WHEN i.opname LIKE 'bar%' THEN 6 WHEN i.opname LIKE '%.global%' THEN 3 WHEN i.opname LIKE '%.shared%' THEN 4
               WHEN i.opname = 'bra' THEN 12 WHEN w.warp % 3 = 0 THEN 1 ELSE 2 END AS st
        FROM instructions i CROSS JOIN (SELECT DISTINCT warp FROM warp_runs) w) g
        ON g.insn_id = r.insn_id AND g.warp = r.warp) t
WHERE warp_runs.id = t.id;

-- each issue's wait: the cycles since its warp's previous issue (0 for the
-- first), all of them for its one reason
UPDATE warp_runs SET stall_cycles = t.sc, stall2_id = NULL, stall2_cycles = NULL, stall3_id = NULL, stall3_cycles = NULL
FROM (SELECT id, coalesce(issue_cycle - lag(issue_cycle) OVER (PARTITION BY launch_id, block, warp ORDER BY wseq, id) - 1, 0) AS sc
      FROM warp_runs WHERE issue_cycle IS NOT NULL) t
WHERE warp_runs.id = t.id;

UPDATE blocks SET start_cycle = t.s, end_cycle = t.e
FROM (SELECT launch_id, block, min(issue_cycle) - 1 AS s, max(complete_cycle) AS e FROM warp_runs GROUP BY launch_id, block) t
WHERE blocks.launch_id = t.launch_id AND blocks.block = t.block;

UPDATE launches SET cycles = (SELECT max(complete_cycle) + 10 FROM warp_runs r WHERE r.launch_id = launches.launch_id),
                    max_warps_per_sm = coalesce(max_warps_per_sm, 64);

-- a sample every 16 cycles on every SM that ran blocks
INSERT INTO sm_samples(launch_id, sm, cycle, active_warps, eligible_warps)
WITH RECURSIVE t(launch_id, c, last) AS (
  SELECT launch_id, 0, cycles FROM launches WHERE cycles IS NOT NULL
  UNION ALL SELECT launch_id, c + 16, last FROM t WHERE c + 16 <= last),
s AS (SELECT DISTINCT launch_id, sm FROM blocks)
SELECT t.launch_id, s.sm, t.c,
  (SELECT coalesce(sum(b.warps), 0) FROM blocks b WHERE b.launch_id = t.launch_id AND b.sm = s.sm AND b.start_cycle <= t.c AND t.c < b.end_cycle),
  (SELECT coalesce(sum(b.warps), 0) / 2 FROM blocks b WHERE b.launch_id = t.launch_id AND b.sm = s.sm AND b.start_cycle <= t.c AND t.c < b.end_cycle)
FROM t JOIN s ON s.launch_id = t.launch_id;

-- caches: half the sectors of a request hit L1, half the rest hit L2, the
-- others come from DRAM (loads)
UPDATE mem_accesses SET l1_hit_sectors = sectors / 2, l2_hit_sectors = (sectors - sectors / 2) / 2,
  dram_sectors = sectors - sectors / 2 - (sectors - sectors / 2) / 2, latency = 300
WHERE space_id = 0;
