# command line: --arg without TYPE:
run other/gpu_kernel.ptx --kernel k --arg 5
