# kernel fault: unbounded recursion
run other/faults.ptx --kernel stack_overflow
