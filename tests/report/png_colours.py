#!/usr/bin/env python3
"""tests/report/png_colours.py PNG [RRGGBB ...] - decode an 8-bit RGB or
RGBA PNG with the standard library only and print
  'WIDTH HEIGHT DISTINCT_COLOURS' and one line per RRGGBB given:
  'RRGGBB PIXELS' (pixels within 3 of that colour in every channel).
Exit status 2 when the file is not such a PNG."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError('unsupported PNG (depth %d, colour type %d)' % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b''.join(idat))
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    try:
        w, h, bpp, rows = pixels(sys.argv[1])
    except (OSError, ValueError, zlib.error, struct.error, TypeError) as e:
        print('bad PNG: %s' % e)
        return 2
    counts = {}
    for line in rows:
        for i in range(0, len(line), bpp):
            px = line[i:i + 3]
            counts[px] = counts.get(px, 0) + 1
    print(w, h, len(counts))
    for want in sys.argv[2:]:
        t = bytes.fromhex(want)
        n = sum(c for px, c in counts.items() if all(abs(px[k] - t[k]) <= 3 for k in range(3)))
        print(want, n)
    return 0


if __name__ == '__main__':
    sys.exit(main())
