# kernel: --kernel names no kernel of the module (lists them)
run other/gpu_kernel.ptx --kernel kk
