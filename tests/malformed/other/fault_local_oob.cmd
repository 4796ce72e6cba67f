# kernel fault: a .local load past the end of the thread's frame
run other/faults.ptx --kernel local_oob --arg u32:16
