# command line: an unknown command
frobnicate other/gpu_kernel.ptx
