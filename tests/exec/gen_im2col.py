#!/usr/bin/env python3
"""Writes async_im2col.launch, its probe list and expected shared-memory images.

The reference follows the PTX ISA's description of the im2col mode of
cp.async.bulk.tensor (not ptxemu's code): the bounding box covers, in each
spatial dimension, lower .. dim - 1 + upper; a load walks pixelsPerColumn
pixel positions of that box, W fastest, then H, then the batch N, starting
at the instruction's {w, h, n}; pixel p is read at its position plus the
instruction's offsets {offset w, offset h} (unsigned 16-bit: -1 is 65535),
channelsPerPixel channels from channel c, zero outside the tensor; shared
memory gets the pixels one after another.  The images this writes are
identical to what an H100 produced for async_im2col.launch (recorded with
tests/triton/hw_record.cu).
Tensor: NHWC u32, C 8, W 6, H 5, N 2, element i holding i + 1."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
C, W, H, N = 8, 6, 5, 2
# start pixels inside every map's bounding box (W 0..4, H 0..2)
PROBES = [(0, 0, 0, 0, 0, 0), (0, 1, 1, 0, 1, 1), (0, 2, 1, 0, 0, 0), (0, 0, 2, 0, 2, 2),
          (0, 4, 2, 0, 0, 1), (0, 0, 0, 1, 0, 0), (4, 0, 0, 0, 0, 0), (0, 4, 2, 1, -1, -1)]
MAPS = [("pad1", (-1, -1), (-1, -1), 8, 16), ("nopad", (0, 0), (0, 0), 4, 32), ("skew", (-2, -1), (0, -2), 8, 24)]


def value(c, w, h, n):
    if 0 <= c < C and 0 <= w < W and 0 <= h < H and 0 <= n < N:
        return ((n * H + h) * W + w) * C + c + 1
    return 0


def load(lower, upper, chans, pixels, probe):
    c, w, h, n, ow, oh = probe
    ow, oh = ow & 0xFFFF, oh & 0xFFFF                 # unsigned offsets
    ws = list(range(lower[0], W + upper[0]))          # box positions in W
    hs = list(range(lower[1], H + upper[1]))
    box = [(pw, ph, pn) for pn in range(N) for ph in hs for pw in ws]
    start = box.index((w, h, n))
    words = []
    for p in range(pixels):
        pw, ph, pn = box[start + p] if start + p < len(box) else (None, None, None)
        for k in range(chans):
            words.append(value(c + k, pw + ow, ph + oh, pn) if pw is not None else 0)
    return words + [0xEEEEEEEE] * (256 - len(words))


with open(os.path.join(HERE, "async_im2col_probes.bin"), "wb") as f:
    f.write(struct.pack("<48i", *[v for p in PROBES for v in p]))
text = ["""# TMA im2col loads (async_im2col.ptx), written by gen_im2col.py, whose
# docstring gives the reference (the PTX ISA's description, with the
# unsigned offsets an H100 showed; its images match the H100's).
# An NHWC u32 tensor C 8, W 6, H 5, N 2 holding index + 1; three im2col
# maps; 8 probes each (c, w, h, n, offset w, offset h).
ptx async_im2col.ptx
buffer x %d ramp u32 1 1
buffer probes 192 file async_im2col_probes.bin
""" % (C * W * H * N * 4)]
for name, lower, upper, chans, pixels in MAPS:
    img = [w for p in PROBES for w in load(lower, upper, chans, pixels, p)]
    with open(os.path.join(HERE, "async_im2col_%s.bin" % name), "wb") as f:
        f.write(struct.pack("<%dI" % len(img), *img))
    text.append("""
tensormap m_%s u32 4 x dims %d %d %d %d strides %d %d %d lower %d %d upper %d %d channels %d pixels %d
buffer o_%s 8192 zero
launch im2col_probe grid 1 1 1 block 32 1 1 shared 1040
arg tensormap m_%s
arg ptr probes
arg ptr o_%s
arg u32 %d
expect o_%s async_im2col_%s.bin exact
""" % (name, C, W, H, N, C * 4, C * W * 4, C * W * H * 4, lower[0], lower[1], upper[0], upper[1], chans, pixels,
       name, name, name, chans * pixels * 4, name, name))
with open(os.path.join(HERE, "async_im2col.launch"), "w") as f:
    f.write("".join(text).lstrip())
