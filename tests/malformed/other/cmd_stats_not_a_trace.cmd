# input: stats of a file that is not a SQLite trace
stats other/gpu_kernel.ptx
