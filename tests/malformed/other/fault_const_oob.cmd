# kernel fault: a .const load past the end of the constant array
run other/faults.ptx --kernel const_oob --arg u32:4
