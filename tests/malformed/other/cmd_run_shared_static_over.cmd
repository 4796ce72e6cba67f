# limit: 300000 bytes of static shared memory, above an H100 block's 232448
run other/shared_static.ptx --kernel over --grid 1 --block 32
