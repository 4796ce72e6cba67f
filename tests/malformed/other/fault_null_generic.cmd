# kernel fault: a generic load through a null pointer
run other/faults.ptx --kernel null_generic
