# limit: a 2^32-byte .shared array and a variable after it (no 32-bit wrap to offset 0)
run other/shared_static.ptx --kernel wraps --grid 1 --block 32
