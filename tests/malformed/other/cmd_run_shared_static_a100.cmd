# limit: 200000 bytes of static shared memory on an A100 (166912 a block) in timing mode
run other/shared_static.ptx --kernel fits_h100 --grid 1 --block 32 --gpu a100
