# limit: a kernel that never ends, stopped by --max-insts
run other/spin.ptx --kernel spin --max-insts 10000
