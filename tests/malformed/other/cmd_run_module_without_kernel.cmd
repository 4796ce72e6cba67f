# command line: a module without --kernel
run other/gpu_kernel.ptx
