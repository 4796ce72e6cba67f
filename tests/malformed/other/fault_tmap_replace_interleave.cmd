# kernel fault: tensormap.replace (interleave in other/tmap_replace.ptx)
run other/tmap_replace.ptx --kernel interleave -e 'buffer maps 256 zero' -e 'buffer A 2048 zero' -e 'tensormap m0 u32 2 A dims 32 16 strides 128 box 8 4 into maps+0' --arg ptr:maps
