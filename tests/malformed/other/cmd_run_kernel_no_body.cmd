# kernel: a launch of an entry that is only declared (no body to run)
run other/kernel_no_body.ptx --kernel k --grid 1 --block 32
