# kernel fault: a call of an extern function without a body
run other/faults.ptx --kernel call_bodiless
