# limit: occupancy of a 2048-thread block
occupancy other/gpu_kernel.ptx --kernel k --block 2048
