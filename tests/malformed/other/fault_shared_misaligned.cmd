# kernel fault: a misaligned .shared load
run other/faults.ptx --kernel shared_misaligned
