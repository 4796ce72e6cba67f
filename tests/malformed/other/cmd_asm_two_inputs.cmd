# command line: two inputs to asm
asm other/gpu_kernel.ptx other/object_base.ptx
