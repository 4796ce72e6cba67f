# command line: an unknown dis option
dis --raw other/gpu_kernel.ptx
