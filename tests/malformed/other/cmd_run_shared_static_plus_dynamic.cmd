# limit: 200000 bytes of static shared memory and 40000 dynamic, together above 232448
run other/shared_static.ptx --kernel fits_h100 --grid 1 --block 32 --shared 40000
