"""tools/sass/sweep.py - what the SASS sweeps (ifconv_sweep.py,
unroll_sweep.py, chain_sweep.py) share: their options, compiling PTX
kernels with ptxas and the opcodes of a cubin's functions, read with
stall_pairs.py's checked ELF reader."""
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stall_pairs import text_sections  # noqa: E402 (the ELF reader beside this file)


def options(doc):
    """[--arch sm_90] [--keep DIR] from sys.argv: (arch, the folder to work in)"""
    arch, keep = 'sm_90', None
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == '--arch' and args: arch = args.pop(0)
        elif a == '--keep' and args: keep = args.pop(0)
        else: sys.exit(doc)
    tmp = keep or tempfile.mkdtemp()
    os.makedirs(tmp, exist_ok=True)
    return arch, tmp


def opcodes(cubin):
    """name -> list of 12-bit opcodes of each .text.NAME section"""
    with open(cubin, 'rb') as f:
        return {n[6:]: [struct.unpack_from('<Q', code, 16 * k)[0] & 0xfff for k in range(len(code) // 16)]
                for n, code in text_sections(f.read())}


def ptx_opcodes(arch, tmp, stem, kernels):
    """name -> opcodes of PTX kernels (text, after one module header)
    compiled by ptxas as tmp/stem.ptx"""
    ptx, cubin = os.path.join(tmp, stem + '.ptx'), os.path.join(tmp, stem + '.cubin')
    with open(ptx, 'w') as f:
        f.write('.version 8.0\n.target %s\n.address_size 64\n\n' % arch)
        for k in kernels:
            f.write(k + '\n')
    subprocess.run(['ptxas', '-arch=' + arch, ptx, '-o', cubin], check=True)
    return opcodes(cubin)
