# command line: --kernel as the last argument
run other/gpu_kernel.ptx --kernel
