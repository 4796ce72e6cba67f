#!/usr/bin/env python3
"""fuzz/short_forms.py OUTDIR FILE.ptx... - seeds for fuzz_emu: each
instruction spelling of the files whose operand count may vary
(N(min,max) in isa/opcodes.def), once, with its operand list cut short to
every count from min up, in a copy of its module.  The assembler must
refuse a form or the emulator run it: a handler that reads an operand the
count let go missing crashes on the seed itself (mbarrier.arrive with one
operand read its address through a null pointer)."""
import os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
ops = []
for line in open(os.path.join(here, '..', 'isa', 'opcodes.def')):
    m = re.match(r'OP\(\w+,\s*"([^"]+)".*?N\((\d+),(\d+)\)', line)
    if m and m.group(2) != m.group(3):
        ops.append((m.group(1), int(m.group(2))))
ops.sort(key=lambda o: -len(o[0]))            # dotted bases: the longest match wins


def split_operands(s):
    parts, depth, cur = [], 0, ''
    for ch in s:
        if ch in '[{(':
            depth += 1
        elif ch in ']})':
            depth -= 1
        if ch == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += ch
    return parts + [cur.strip()]


out, seen, n = sys.argv[1], set(), 0
os.makedirs(out, exist_ok=True)
for path in sys.argv[2:]:
    lines = open(path, errors='replace').read().split('\n')
    for i, text in enumerate(lines):
        m = re.match(r'^\s*(@!?%\w+\s+)?([a-z][\w.:]*)\s+(.*);\s*$', text)
        if not m or m.group(2) in seen:
            continue
        low = next((lo for name, lo in ops if m.group(2) == name or m.group(2).startswith(name + '.')), None)
        if low is None:
            continue
        seen.add(m.group(2))
        parts = split_operands(m.group(3))
        for k in range(low, len(parts)):
            short = lines[:i] + ['  ' + (m.group(1) or '') + m.group(2) + ' ' + ', '.join(parts[:k]) + ';'] + lines[i + 1:]
            n += 1
            with open(os.path.join(out, 'short_%03d.ptx' % n), 'w') as f:
                f.write('\n'.join(short))
print(n)
