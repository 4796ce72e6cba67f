# kernel: occupancy of a kernel the module lacks
occupancy other/gpu_kernel.ptx --kernel kk --block 32
