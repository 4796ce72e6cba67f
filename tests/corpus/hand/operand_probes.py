#!/usr/bin/env python3
"""Operand forms: what ptxas accepts, and whether ptxemu agrees.

Writes one small module per form (one instruction in a kernel that
declares registers of every type) and runs ptxas -arch=sm_90 and
ptxemu asm --check on each.  The forms: mov/add/and/ld/st/cvt with each
register type as destination and as source against each instruction type,
immediates of 16..64 bits (incl. 64-bit all-ones) for 16/32/64-bit types,
and a register, symbol or address plus an offset (and its neighbours:
-imm, imm+name, in braces, as a destination, of special registers).  Prints the count of forms per
category and every form where the two disagree; operand_probes.txt keeps
the result and why each remaining difference is there.

    tests/corpus/hand/operand_probes.py [PTXEMU] (PTXAS=... to override)
"""
import concurrent.futures, os, subprocess, sys, tempfile

PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
PTXEMU = sys.argv[1] if len(sys.argv) > 1 else "./ptxemu"
REGT = ["b8", "u8", "s8", "b16", "u16", "s16", "f16", "b32", "u32", "s32", "f32",
        "b64", "u64", "s64", "f64", "pred"]


def module(body):
    regs = "\n".join("\t.reg .%s r_%s, s_%s;" % (t, t, t) for t in REGT)
    return (".version 8.0\n.target sm_90\n.address_size 64\n"
            ".visible .entry k(.param .u64 p)\n{\n%s\n\t.reg .b64 ad;\n\t.global .b32 gv[4];\n"
            "\tld.param.u64 ad, [p];\n\t%s\n\tret;\n}\n" % (regs, body))


def forms():
    for it in ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64", "pred"]:
        for rt in REGT:
            yield "mov dst", "mov.%s r_%s, s_%s;" % (it, rt, it)
            yield "mov src", "mov.%s r_%s, s_%s;" % (it, it, rt)
    for it in ["u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64", "b16", "b32", "b64"]:
        op = "and" if it[0] == "b" else "add"
        for rt in REGT:
            yield op + " dst", "%s.%s r_%s, s_%s, s_%s;" % (op, it, rt, it, it)
            yield op + " src", "%s.%s r_%s, s_%s, s_%s;" % (op, it, it, rt, it)
    for it in ["u8", "s8", "b8", "u16", "s16", "b16", "f16", "u32", "s32", "b32", "f32", "u64", "s64", "b64", "f64"]:
        for rt in REGT:
            yield "ld dst", "ld.global.%s r_%s, [ad];" % (it, rt)
            yield "st src", "st.global.%s [ad], s_%s;" % (it, rt)
    for dt in ["u16", "u32", "u64", "s32", "f32", "f64"]:
        for st in ["u16", "u32", "u64", "s32", "f32", "f64"]:
            if dt[0] == "f" and (st[0] != "f" or (dt, st) == ("f32", "f64")):
                rnd = ".rn"
            elif dt[0] != "f" and st[0] == "f":
                rnd = ".rzi"
            else:
                rnd = ""
            for rt in REGT:
                yield "cvt dst", "cvt%s.%s.%s r_%s, s_%s;" % (rnd, dt, st, rt, st)
                yield "cvt src", "cvt%s.%s.%s r_%s, s_%s;" % (rnd, dt, st, dt, rt)
    imms = ["0xffffffffffffffffU", "0xffffffffffffffff", "0xffffffff", "0xffffffffU", "-1",
            "0x100000000", "0xffffffff00000000", "0x7fffffffffffffff", "0x8000000000000000",
            "4294967296U", "-4294967296", "65536", "-32769", "0xffff", "0x1ffffffff"]
    for it in ["u32", "s32", "b32", "u16", "s16", "b16", "u64", "s64"]:
        for im in imms:
            op = "and" if it[0] == "b" else "add"
            yield op + " imm", "%s.%s r_%s, s_%s, %s;" % (op, it, it, it, im)
            yield "mov imm", "mov.%s r_%s, %s;" % (it, it, im)
            if it in ("u32", "s32", "u64", "s64"):
                yield "add.cc imm", "add.cc.%s r_%s, %s, 1;" % (it, it, im)
    for it in ["u16", "u32", "u64", "s32", "b32", "f32", "f64", "f16", "pred"]:
        ar = it if it[0] not in "bp" else "u32" if it == "b32" else it
        yield "reg+imm", "mov.%s r_%s, s_%s+4;" % (it, it, it)
        yield "reg+imm", "mov.%s r_%s, s_%s+-4;" % (it, it, it)
        yield "reg-imm", "mov.%s r_%s, s_%s-4;" % (it, it, it)
        yield "imm+reg", "mov.%s r_%s, 4+s_%s;" % (it, it, it)
        if it != "pred":
            yield "reg+imm", "add.%s r_%s, s_%s+1, s_%s;" % (ar, it, it, it)
            yield "reg+imm", "add.%s r_%s, s_%s, s_%s+0x100000001;" % (ar, it, it, it)
            yield "reg+imm", "setp.eq.%s r_pred, s_%s+1, s_%s;" % (ar, it, it)
            yield "reg+imm dst", "add.%s r_%s+1, s_%s, s_%s;" % (ar, it, it, it)
        if it[0] in "usb":
            yield "reg+imm", "st.global.%s [ad], s_%s+1;" % (it, it)
            yield "reg+imm", "mad.lo.%s r_%s, s_%s+1, s_%s+2, s_%s+3;" % (ar, it, it, it, it)
            yield "reg+imm", "cvt.rn.f32.%s r_f32, s_%s+4;" % (it, it)
            yield "reg+imm", "add.%s r_%s, s_%s+(2*3), s_%s;" % (ar, it, it, it)
            yield "reg+imm", "add.%s r_%s, s_%s+4-2, s_%s;" % (ar, it, it, it)
            yield "reg+imm", "add.%s r_%s, s_%s+WARP_SZ, s_%s;" % (ar, it, it, it)
            yield "reg+imm", "st.global.v2.%s [ad], {s_%s+1, s_%s};" % (it, it, it)
    yield "reg+imm", "cvt.u32.u8 r_u32, s_b8+1;"
    yield "reg+imm", "add.f32 r_f32, s_b32+1, s_f32;"
    yield "reg+imm", "mov.b32 r_f32, s_b32+1;"
    yield "reg+imm", "mov.u64 r_u64, ad+8;"
    yield "reg+imm", "mov.u32 r_u32, %laneid+4;"
    yield "reg+imm", "mov.u32 r_u32, %tid.x+4;"
    yield "reg+imm", "mov.u32 r_u32, WARP_SZ+4;"
    yield "reg+imm", "shfl.sync.bfly.b32 r_b32, s_b32+1, 1, 31, -1;"
    yield "reg+imm", "vadd.u32.u32.u32.sat r_u32, s_u32+1, s_u32, s_u32;"
    yield "sym+imm", "mov.u64 r_u64, gv+4;"
    yield "sym+imm", "mov.u64 r_u64, gv+-4;"
    yield "sym+imm", "mov.u64 r_u64, gv-4;"
    yield "sym+imm", "mov.u64 r_u64, 4+gv;"
    yield "sym+imm", "cvta.global.u64 r_u64, gv+4;"
    yield "sym+imm", "mov.u64 r_u64, k+4;"
    yield "sym+imm", "bra L+4; L:"
    yield "addr+imm", "ld.global.u32 r_u32, [ad+4];"
    yield "addr+imm", "ld.global.u32 r_u32, [ad+-4];"
    yield "addr+imm", "ld.global.u32 r_u32, [ad-4];"
    yield "addr+imm", "ld.global.u32 r_u32, [4+ad];"
    yield "addr+imm", "ld.global.u32 r_u32, [ad+4-8];"
    yield "addr+imm", "ld.global.u32 r_u32, [gv+-4];"
    yield "addr+imm", "ld.global.u32 r_u32, [gv-4];"


def run(arg):
    i, (cat, body), tmp = arg
    path = os.path.join(tmp, "f%d.ptx" % i)
    with open(path, "w") as f:
        f.write(module(body))
    try:   # ptxas 13.0 runs away on some forms it accepts (p+1 that is used); none here is
        a = subprocess.run([PTXAS, "-arch=sm_90", path, "-o", "/dev/null"], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        a = subprocess.CompletedProcess([], 124)
    e = subprocess.run([PTXEMU, "asm", "--check", path], capture_output=True, text=True)
    why = [l.split(" error: ", 1)[1] for l in e.stderr.splitlines() if " error: " in l]
    return cat, body, a.returncode == 0, e.returncode == 0, why[0] if why else ""


def main():
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(i, c, tmp) for i, c in enumerate(forms())]
        with concurrent.futures.ThreadPoolExecutor(4) as ex:
            res = list(ex.map(run, cases))
    cats = {}
    for cat, body, a, e, why in res:
        n = cats.setdefault(cat, [0, 0, 0, 0])
        n[0] += 1; n[1] += a; n[2] += e; n[3] += a != e
    print("%-12s %6s %13s %14s %9s" % ("category", "forms", "ptxas takes", "ptxemu takes", "disagree"))
    for cat, n in cats.items():
        print("%-12s %6d %13d %14d %9d" % (cat, n[0], n[1], n[2], n[3]))
    print()
    for cat, body, a, e, why in res:
        if a != e:
            print("%-7s %-7s %s%s" % ("ptxas" if a else "-", "ptxemu" if e else "-", body, "  [" + why + "]" if why else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
