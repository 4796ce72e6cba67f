#!/usr/bin/env python3
"""tools/calibrate/fit.py - turn calibrate's measurements into a .gpu file.

    fit.py MEASUREMENTS TEMPLATE.gpu NAME [REFERENCE] > NAME.gpu
    fit.py ncu NCU.csv >> MEASUREMENTS     (the profiler's cycles of the empty launches)

REFERENCE, when given, is the tool's measurements of the template's own GPU
(tools/calibrate/h100.txt for configs/h100.gpu): a template value that was
measured on that GPU ([M]) is then scaled by this GPU's figure over the
reference's, so the benchmarks' own offsets from the model's parameters
cancel; other values are this GPU's measurements as they are.

MEASUREMENTS is what tools/calibrate/calibrate printed (NAME VALUE # how).
Every parameter the measurements give is fitted, and its comment cites the
measurement and the rule; the rest keep the template's value, marked [T]
(doc/calibrate.md lists which is which).  The measurements are appended as
comments, so the file carries its own evidence.  Errors: a message and exit
status 65 (bad or incomplete measurements) or 66 (unreadable file).
"""
import csv
import os
import statistics
import sys


class Bad(Exception):
    pass


def read_measurements(path):
    vals, lines = {}, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            body = line.split('#', 1)[0].strip()
            if not body:
                continue
            lines.append(line)
            key, _, val = body.partition(' ')
            val = val.strip()
            if key == 'device_name':
                vals[key] = val
                continue
            try:
                vals[key] = float(val)
            except ValueError:
                raise Bad('%s:%d: error: %s: not a number: %r' % (path, n, key, val))
    return vals, lines


def read_template(path):
    """[(name, value, comment)] in file order; standalone comments are dropped."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            body, _, comment = line.rstrip('\n').partition('#')
            if not body.strip():
                continue
            name, eq, value = body.partition('=')
            if not eq:
                raise Bad('%s:%d: error: expected NAME = VALUE' % (path, n))
            out.append((name.strip(), value.strip(), comment.strip()))
    return out


def ncu_lines(path):
    """The empty launches' sm__cycles_elapsed.max from an ncu --csv log."""
    with open(path, newline='') as f:
        rows = list(csv.reader(l for l in f if l.startswith('"')))
    if not rows:
        raise Bad('%s: error: no CSV rows (not an ncu --csv log?)' % path)
    head = rows[0]
    try:
        kc, mc, vc = head.index('Kernel Name'), head.index('Metric Name'), head.index('Metric Value')
    except ValueError:
        raise Bad('%s: error: no Kernel Name / Metric Name / Metric Value columns' % path)
    cyc = {}
    for r in rows[1:]:
        if len(r) == len(head) and r[mc] == 'sm__cycles_elapsed.max':
            k = r[kc].split('(')[0].strip()
            cyc.setdefault(k, []).append(float(r[vc].replace(',', '')))
    out = []
    for k in ('empty', 'empty_grid'):
        if k not in cyc:
            raise Bad('%s: error: no sm__cycles_elapsed.max of kernel %s' % (path, k))
        out.append('%-22s %8.0f  # Nsight Compute sm__cycles_elapsed.max of the %d %s launches (base clocks, caches flushed): the median'
                   % ('ncu_%s_cycles' % k, statistics.median(cyc[k]), len(cyc[k]), k))
    return out


def dram_line_cycles(m):
    """(hops_dram_warp - hops_dram_one) / 31: a 32-line request from DRAM
    over a 1-line one, per line (None where the file lacks them: older files)."""
    if 'hops_dram_one' in m and 'hops_dram_warp' in m:
        return (m['hops_dram_warp'] - m['hops_dram_one']) / 31
    return None


def need(m, key):
    if key not in m:
        raise Bad('fit.py: error: the measurements lack %s' % key)
    return m[key]


def series(m, prefix):
    """{size: value} of the keys PREFIX<size>, sorted by size."""
    return dict(sorted((int(k[len(prefix):]), v) for k, v in m.items() if k.startswith(prefix) and k[len(prefix):].isdigit()))


def fit(m, tmpl, name):
    """{param: (value, comment)} for the parameters the measurements give."""
    t = {k: v for k, v, _ in tmpl}
    f = {}
    A = '[A] cuDeviceGetAttribute'
    arch = 'sm_%d%d' % (need(m, 'attr_cc_major'), need(m, 'attr_cc_minor'))
    f['name'] = (name, 'the name --gpu takes')
    f['description'] = ('%s (tools/calibrate)' % m.get('device_name', name), 'cuDeviceGetName')
    f['arch'] = (arch, A + ' COMPUTE_CAPABILITY_MAJOR/MINOR')
    f['sms'] = (int(need(m, 'attr_sms')), A + ' MULTIPROCESSOR_COUNT')
    clk = need(m, 'clock_mhz_run')
    base = 'ncu_empty_cycles' in m
    f['clock_mhz'] = (int(round(clk)), '[C] clock_mhz_run %.1f: %%clock64 against %%globaltimer%s' %
                      (clk, ', under Nsight Compute\'s base-clock control' if base else ' (no clock control: the clock the run had)'))
    warp = need(m, 'attr_warp_size')
    f['max_threads_per_sm'] = (int(need(m, 'attr_threads_per_sm')), A + ' MAX_THREADS_PER_MULTIPROCESSOR')
    f['max_warps_per_sm'] = (int(m['attr_threads_per_sm'] // warp), A + ' MAX_THREADS_PER_MULTIPROCESSOR / WARP_SIZE')
    f['max_ctas_per_sm'] = (int(need(m, 'attr_blocks_per_sm')), A + ' MAX_BLOCKS_PER_MULTIPROCESSOR')
    f['max_threads_per_cta'] = (int(need(m, 'attr_threads_per_block')), A + ' MAX_THREADS_PER_BLOCK')
    f['regs_per_sm'] = (int(need(m, 'attr_regs_per_sm')), A + ' MAX_REGISTERS_PER_MULTIPROCESSOR')
    f['shared_per_sm'] = (int(need(m, 'attr_shared_per_sm')), A + ' MAX_SHARED_MEMORY_PER_MULTIPROCESSOR')
    f['shared_per_cta'] = (int(need(m, 'attr_shared_per_block_optin')), A + ' MAX_SHARED_MEMORY_PER_BLOCK_OPTIN')
    f['shared_reserved_per_cta'] = (int(need(m, 'attr_shared_reserved_per_block')), A + ' RESERVED_SHARED_MEMORY_PER_BLOCK')
    f['l2_bytes'] = (int(need(m, 'attr_l2_bytes')), A + ' L2_CACHE_SIZE')
    bus, mclk = need(m, 'attr_bus_bits'), need(m, 'attr_mem_clock_khz')
    peak = 2 * mclk * 1e3 * bus / 8 / 1e9
    meas = m.get('bw_dram_gbs')
    f['dram_bandwidth_gbs'] = (int(round(peak)), '[A] 2 x MEMORY_CLOCK_RATE %d kHz x GLOBAL_MEMORY_BUS_WIDTH %d bits (peak)%s' %
                               (mclk, bus, '; bw_dram_gbs measured %.0f (%.0f%% of it)' % (meas, 100 * meas / peak) if meas else ''))
    if 'HBM' in t.get('dram', ''):
        f['dram_channels'] = (int(bus // 32), '[A] GLOBAL_MEMORY_BUS_WIDTH %d / 32 bits per HBM pseudo-channel' % bus)

    def lat(param, key, what):
        v = need(m, key)
        f[param] = (max(1, int(round(v))), '[C] %s %.2f: %s' % (key, v, what))
    lat('lat_int', 'lat_int', 'dependent IADD3/LOP3 chain, cycles per instruction')
    lat('lat_fp32', 'lat_fp32', 'dependent FFMA chain')
    lat('lat_fp16', 'lat_fp16', 'dependent HFMA2 chain')
    lat('lat_fp64', 'lat_fp64', 'dependent DFMA chain')
    lat('lat_sfu', 'lat_sfu', 'dependent MUFU.RSQ chain')
    lat('lat_cvt', 'lat_cvt', 'dependent f32 -> f16 -> f32 chain (F2FP, HADD2.F32)')
    lat('lat_tensor', 'lat_mma', 'dependent mma.sync m16n8k16 f16->f32 chain')
    lat('lat_shared', 'lat_smem', 'dependent ld.shared chase')
    lat('lat_atomic', 'lat_atom', 'dependent atom.global.add round trips')

    # issue intervals: a sub-partition issues one warp instruction of a pipe every ii cycles
    sp = int(t['sub_partitions'])
    # the ALU's rate from SHF/LOP3 pairs where measured: the IADD3/LOP3 pairs of ipc_int issue on the
    # FMA pipe too (ptxas makes IMAD.IADD of adds), which doubled ii_int's rate
    alu = ('ii_int', 'ipc_alu', 'SHF/LOP3') if 'ipc_alu' in m else ('ii_int', 'ipc_int', 'IADD3/LOP3')
    for param, key, what in (alu, ('ii_fp32', 'ipc_fp32', 'FFMA'), ('ii_fp16', 'ipc_fp16', 'HFMA2'),
                             ('ii_fp64', 'ipc_fp64', 'DFMA'), ('ii_sfu', 'ipc_sfu', 'MUFU'), ('ii_tensor', 'ipc_mma', 'mma.sync')):
        v = need(m, key)
        f[param] = (max(1, int(round(sp / v))), '[C] %s %.3f %s warp instructions per cycle per SM: %d sub-partitions / %.3f' % (key, v, what, sp, v))

    # caches: latency plateaus and the L1 capacity from the footprint sweep
    ca, cg = series(m, 'chase_ca_'), series(m, 'chase_cg_')
    if not ca or not cg:
        raise Bad('fit.py: error: the measurements lack the chase_ca_*/chase_cg_* sweeps')
    small = [v for s, v in ca.items() if s <= 32768] or [next(iter(ca.values()))]
    l1 = statistics.median(small)
    f['lat_l1'] = (int(round(l1)), '[C] chase_ca_* %.2f: ld.global.ca chase, the median over footprints up to 32 KiB' % l1)
    l2v = [v for s, v in cg.items() if s <= 4 << 20]
    l2 = statistics.median(l2v)
    # L1 capacity: where half the hops miss (interpolated between the sweep's
    # points, to its 8 KiB step); the cache is not LRU, so misses begin early
    prev = None
    for s_, v in ca.items():
        miss = (v - l1) / (l2 - l1)
        if miss >= 0.5 and prev:
            ps, pm = prev
            cap = ps + (s_ - ps) * (0.5 - pm) / (miss - pm)
            step = 8192
            f['l1_bytes'] = (int(round(cap / step)) * step,
                             '[C] chase_ca_*: half the hops miss L1 at %.0f KiB (chase_ca_%d %.2f, chase_ca_%d %.2f, lat_l1 %.2f, lat_l2 %.2f; no shared carveout)'
                             % (cap / 1024, ps, ps and ca[ps], s_, v, l1, l2))
            break
        prev = (s_, miss)
    f['lat_l2'] = (int(round(l2)), '[C] chase_cg_* %.2f: ld.global.cg chase, the median over footprints of 1-4 MiB' % l2)
    l2knee = max([s for s, v in cg.items() if v < 1.5 * l2] or [0])
    f['l2_bytes'] = (f['l2_bytes'][0], f['l2_bytes'][1] + '; the cg sweep stays under 1.5 x lat_l2 up to %d MiB' % (l2knee >> 20))
    lat('lat_dram', 'chase_dram', 'ld.global.cg chase over cold lines a new page apart')

    # a request's sectors that miss in L2 leave for DRAM one after another:
    # 32 lanes chasing a sector each from DRAM against one lane, per sector, less
    # the L1's spacing of every miss (the template's l1_miss_line_cycles;
    # the tool's L2 chases read lines every SM wrote, which cost more a line
    # than the clean lines of a profiled kernel: doc/calibrate.md).  Optional:
    # older measurement files lack it
    v = dram_line_cycles(m)
    if v is not None:
        l1 = next((float(tv) for k, tv, _ in tmpl if k == 'l1_miss_line_cycles'), 0.0)
        f['l2_miss_sector_cycles'] = (round(max(0.0, v - l1), 2),
                                    '[C] (hops_dram_warp %.2f - hops_dram_one %.2f) / 31 - l1_miss_line_cycles %g: 32 lanes chasing a line each from DRAM, cycles a line more'
                                    % (m['hops_dram_warp'], m['hops_dram_one'], l1))

    # shared memory banks: the stride from which a wider stride costs no more
    st = series(m, 'smem_stride_')
    banks = 0
    for s, v in st.items():
        if s > 1 and s // 2 in st and v >= 1.4 * st[s // 2]:
            banks = s
    if banks:
        f['shared_banks'] = (banks, '[C] smem_stride_*: cycles per warp load double with the stride up to %d words (%s)' %
                             (banks, ', '.join('%d: %.2f' % (s, v) for s, v in st.items())))

    # one load's own conflict wavefronts: a 32-way conflicting chase against a conflict-free one
    if 'lat_smem_lanes_1' in m and 'lat_smem_lanes_32' in m:
        a, b = m['lat_smem_lanes_1'], m['lat_smem_lanes_32']
        f['shared_replay_cycles'] = (round(max(1.0, (b - a) / 31), 1), '[C] (lat_smem_lanes_32 %.2f - lat_smem_lanes_1 %.2f) / 31: '
                                     'a 32-way conflicting load, cycles a wavefront after the first' % (b, a))

    v = need(m, 'atom_same_cycles')
    f['l2_atomic_cycles'] = (round(v, 2), '[C] atom_same_cycles %.4f: red.global.add of every thread to one word, cycles per update' % v)
    # a warp's bar.sync round: its issue cycle, its arrival through the SM's
    # barrier unit (the slope of a round over warps), the release
    v = need(m, 'bar_1_warps')
    w = max(0.0, (m['bar_32_warps'] - v) / 31) if 'bar_32_warps' in m else 0.0
    if w:
        f['bar_arrive_cycles'] = (round(w, 1), '[C] (bar_32_warps %.2f - bar_1_warps %.2f) / 31: cycles the SM\'s barrier unit takes a warp\'s arrival' % (m['bar_32_warps'], v))
    f['barrier_cycles'] = (max(0, int(round(v - w - 1))), '[C] bar_1_warps %.2f less bar_arrive_cycles and the issue cycle: bar.sync rounds of one warp' % v)
    blocks_per_sm = need(m, 'launch_grid_blocks') / f['sms'][0]
    if base:
        one, grid = m['ncu_empty_cycles'], need(m, 'ncu_empty_grid_cycles')
        f['launch_cycles'] = (int(round(one)), '[C] ncu_empty_cycles %.0f: an empty launch, Nsight Compute sm__cycles_elapsed.max' % one)
        f['cta_retire_cycles'] = (max(0, int(round((grid - one) / (blocks_per_sm - 1)))),
                                  '[C] (ncu_empty_grid_cycles %.0f - ncu_empty_cycles) / %.0f empty blocks per SM' % (grid, blocks_per_sm - 1))
    else:
        one, grid = need(m, 'launch_one_ns'), need(m, 'launch_grid_ns')
        f['launch_cycles'] = (int(round(one * clk / 1e3)), '[C] launch_one_ns %.0f x clock_mhz: an empty launch between two events' % one)
        f['cta_retire_cycles'] = (max(0, int(round((grid - one) * clk / 1e3 / (blocks_per_sm - 1)))),
                                  '[C] (launch_grid_ns %.0f - launch_one_ns) x clock_mhz / %.0f empty blocks per SM' % (grid, blocks_per_sm - 1))
    return f


def raw_values(m):
    """The unrounded figure behind each parameter the relative rule can scale."""
    r = {}
    for p_, k in (('lat_int', 'lat_int'), ('lat_fp32', 'lat_fp32'), ('lat_fp16', 'lat_fp16'), ('lat_fp64', 'lat_fp64'),
                  ('lat_sfu', 'lat_sfu'), ('lat_cvt', 'lat_cvt'), ('lat_tensor', 'lat_mma'), ('lat_shared', 'lat_smem'),
                  ('lat_atomic', 'lat_atom'), ('lat_dram', 'chase_dram'), ('barrier_cycles', 'bar_1_warps'),
                  ('l2_atomic_cycles', 'atom_same_cycles'), ('launch_cycles', 'ncu_empty_cycles')):
        if k in m:
            r[p_] = (m[k], k)
    for p_, k in (('ii_int', 'ipc_int'), ('ii_fp32', 'ipc_fp32'), ('ii_fp16', 'ipc_fp16'), ('ii_fp64', 'ipc_fp64'),
                  ('ii_sfu', 'ipc_sfu'), ('ii_tensor', 'ipc_mma')):
        if m.get(k):
            r[p_] = (1 / m[k], k + ' (its inverse)')
    ca, cg = series(m, 'chase_ca_'), series(m, 'chase_cg_')
    small = [v for s_, v in ca.items() if s_ <= 32768]
    if small:
        r['lat_l1'] = (statistics.median(small), 'chase_ca_*')
    l2v = [v for s_, v in cg.items() if s_ <= 4 << 20]
    if l2v:
        r['lat_l2'] = (statistics.median(l2v), 'chase_cg_*')
    return r


def relative(f, m, ref, tmpl, rname, tname):
    """Where the template's value was measured on its own GPU ([M...] in its
    comment) and the reference file holds the same benchmark run there, the
    value is the template's scaled by this GPU's figure over the reference's:
    the template's value carries the model's tuning, the ratio this GPU."""
    new, old = raw_values(m), raw_values(ref)
    for k, v, c in tmpl:
        if k not in f or k not in new or k not in old or '[M' not in c or not old[k][0]:
            continue
        ratio = new[k][0] / old[k][0]
        val = float(v) * ratio
        val = round(val, 2) if '.' in v else max(0, int(round(val)))
        f[k] = (val, '[C] %s %.4g, the reference %.4g (%s): %s x %s %s' % (new[k][1], new[k][0], old[k][0], rname, tname, v, 'x %.3f' % ratio))


def fmt(v):
    if isinstance(v, float):
        return ('%.4f' % v).rstrip('0').rstrip('.')
    return str(v)


def write(out, m, mlines, tmpl, tpath, name, ref=None, rpath=None):
    f = fit(m, tmpl, name)
    tname = os.path.basename(tpath)
    rname = os.path.basename(rpath) if rpath else None
    if ref:
        relative(f, m, ref, tmpl, rname, tname)
    out.write('# %s.gpu - %s, written by tools/calibrate/fit.py from measurements alone\n' % (name, f['description'][0]))
    out.write('# (doc/calibrate.md; do not edit by hand: re-run the tool).  Sources of the values:\n')
    out.write('# [A] the CUDA driver (cuDeviceGetAttribute) on this GPU;\n')
    out.write('# [C] measured by tools/calibrate/calibrate on this GPU: the measurement named (listed at the end);\n')
    out.write('# [T] not measured by the tool: the value of the architecture template %s, whose own source follows.\n' % tname)
    if ref:
        out.write('# Where %s measured a value on its own GPU ([M]), the tool ran the same benchmark there too\n' % tname)
        out.write('# (%s): such a value is the template\'s times this GPU\'s figure over the reference\'s.\n' % rname)
    for k, v, c in tmpl:
        if k in f:
            val, why = f[k]
            out.write('%-22s = %-10s # %s\n' % (k, fmt(val), why))
        else:
            out.write('%-22s = %-10s # [T] %s%s\n' % (k, v, tname, (': ' + c) if c else ''))
    missing = [k for k in f if k not in {k for k, _, _ in tmpl}]
    for k in missing:
        val, why = f[k]
        out.write('%-22s = %-10s # %s\n' % (k, fmt(val), why))
    out.write('\n# ---- the measurements (tools/calibrate/calibrate) ----\n')
    for l in mlines:
        out.write('#  %s\n' % l)


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == 'ncu':
            print('\n'.join(ncu_lines(argv[2])))
            return 0
        if len(argv) not in (4, 5):
            sys.stderr.write('usage: fit.py MEASUREMENTS TEMPLATE.gpu NAME [REFERENCE] > NAME.gpu\n       fit.py ncu NCU.csv\n')
            return 64
        m, mlines = read_measurements(argv[1])
        tmpl = read_template(argv[2])
        ref = read_measurements(argv[4])[0] if len(argv) == 5 else None
        write(sys.stdout, m, mlines, tmpl, argv[2], argv[3], ref, argv[4] if ref else None)
        return 0
    except OSError as e:
        sys.stderr.write('fit.py: %s: %s\n' % (e.filename, e.strerror))
        return 66
    except Bad as e:
        sys.stderr.write('%s\n' % e)
        return 65


if __name__ == '__main__':
    sys.exit(main(sys.argv))
