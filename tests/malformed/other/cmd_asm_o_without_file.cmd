# command line: -o as the last argument, without its file
asm other/gpu_kernel.ptx -o
