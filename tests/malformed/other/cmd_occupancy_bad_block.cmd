# command line: occupancy with --block 0
occupancy other/gpu_kernel.ptx --kernel k --block 0
