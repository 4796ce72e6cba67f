# limit: a module variable larger than the device memory cap
run other/global_too_large.ptx --kernel k --max-memory 1G
