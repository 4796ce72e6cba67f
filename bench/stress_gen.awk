# bench/stress_gen.awk - PTX modules whose size is fine but whose shape
# defeats analyses that are not linear in the module (bench/stress_bench.sh
# and tests/check_scale.sh use them):
#   awk -v kind=doubling -v n=40     functions f0..f40, each fi calls f(i+1) twice
#                                    (2^40 paths through the call graph)
#   awk -v kind=chain -v n=50000     f0..fn, each calling the next once
#   awk -v kind=ladder -v n=10000    one kernel of n overlapping loops (block i
#                                    branches back to block i-1), a register each
#   awk -v kind=straight -v n=50000  one basic block of n adds of distinct constants
# Every kernel is k; ladder and straight store a result through their first
# parameter (ladder, with its second parameter P: 1 + n*P; straight: n(n+1)/2 mod 2^32).
BEGIN {
  print ".version 8.0\n.target sm_90\n.address_size 64"
  if (kind == "doubling" || kind == "chain") {
    print ".func f" n "()\n{\n\tret;\n}"
    for (i = n - 1; i >= 0; i--) {
      printf ".func f%d()\n{\n\tcall.uni f%d;\n", i, i + 1
      if (kind == "doubling") printf "\tcall.uni f%d;\n", i + 1
      print "\tret;\n}"
    }
    print ".visible .entry k()\n{\n\tcall.uni f0;\n\tret;\n}"
  } else if (kind == "ladder") {
    print ".visible .entry k(.param .u64 out, .param .u32 p)\n{\n.reg .pred %p<2>;\n.reg .u32 %r<" n + 3 ">;\n.reg .u64 %rd<2>;"
    print "ld.param.u32 %r0,[p];\nmov.u32 %r1,0;\nL0:\nadd.u32 %r1,%r1,1;"
    for (i = 1; i <= n; i++)
      print "L" i ":\nadd.u32 %r" i + 1 ",%r" i ",%r0;\nsetp.lt.u32 %p1,%r" i + 1 ",%r0;\n@%p1 bra L" i - 1 ";"
    print "ld.param.u64 %rd1,[out];\nst.global.u32 [%rd1],%r" n + 1 ";\nret;\n}"
  } else if (kind == "straight") {
    print ".visible .entry k(.param .u64 out)\n{\n.reg .u32 %r<2>;\n.reg .u64 %rd<2>;\nmov.u32 %r1,0;"
    for (i = 1; i <= n; i++) print "add.u32 %r1,%r1," i ";"
    print "ld.param.u64 %rd1,[out];\nst.global.u32 [%rd1],%r1;\nret;\n}"
  } else {
    print "stress_gen.awk: unknown kind '" kind "'" > "/dev/stderr"
    exit 1
  }
}
