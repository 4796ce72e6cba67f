# kernel fault: an indirect call through an address that is no function
run other/faults.ptx --kernel call_not_function
