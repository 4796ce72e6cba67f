# command line: an unknown asm option
asm --fast other/gpu_kernel.ptx
