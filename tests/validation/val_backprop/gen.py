#!/usr/bin/env python3
import os, sys
IN, HID = 65536, 16
NBLK = IN // 16
os.makedirs(sys.argv[1], exist_ok=True)
s = '''# val_backprop (validation set): two training steps of a 65536-16-1 perceptron (layerforward, hidden sum, adjust_weights)
ptx kernel.ptx
buffer in %d zero
buffer w %d zero
buffer oldw %d zero
buffer partial %d zero
buffer w2 128 zero
buffer oldw2 128 zero
buffer hidden 128 zero
buffer hdelta 128 zero
buffer out 16 zero
launch init grid 264 1 1 block 256 1 1 shared 0
arg ptr in
arg ptr w
arg ptr w2
arg u32 %d
arg u32 %d
''' % ((IN + 1) * 4, (IN + 1) * (HID + 1) * 4, (IN + 1) * (HID + 1) * 4, NBLK * HID * 4, IN, HID)
for r in range(2):
    s += '''launch layerforward grid 1 %d 1 block 16 16 1 shared 0
arg ptr in
arg ptr w
arg ptr partial
arg s32 %d
arg s32 %d
launch hidden_sum grid 1 1 1 block 256 1 1 shared 0
arg ptr partial
arg ptr w
arg ptr w2
arg ptr oldw2
arg ptr hidden
arg ptr hdelta
arg ptr out
arg s32 %d
launch adjust_weights grid 1 %d 1 block 16 16 1 shared 0
arg ptr hdelta
arg s32 %d
arg ptr in
arg s32 %d
arg ptr w
arg ptr oldw
''' % (NBLK, IN, HID, NBLK, NBLK, HID, IN)
open(os.path.join(sys.argv[1], 'case.txt'), 'w').write(s)
