# command line: a bad -e launch-file line
run other/gpu_kernel.ptx --kernel k -e 'buffer b lots zero'
