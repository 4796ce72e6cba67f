# command line: a block of 0 threads
run other/gpu_kernel.ptx --kernel k --block 0
