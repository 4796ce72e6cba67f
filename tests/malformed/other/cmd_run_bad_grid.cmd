# command line: a grid that is not a number
run other/gpu_kernel.ptx --kernel k --grid many
