#!/usr/bin/env python3
"""Draws the app's icons: web/icon.svg and the PNGs web/icon-192.png and web/icon-512.png.

The icon is the favicon's board with three white pieces in a mill and two black pieces, on
wood that fills the whole square (so that a phone may cut it to any mask shape), the board
kept within the middle 85 %. The PNGs are drawn here pixel by pixel with 4x4 samples per
pixel and written with zlib, so that nothing but Python is needed.

Run from crates/server: python3 tools/icons.py
"""

import math
import struct
import zlib

WOOD = (0xDF, 0xB7, 0x7A)
LINE = (0x5B, 0x3B, 0x1B)
WHITE = (0xFB, 0xF7, 0xEE)
WHITE_EDGE = (0x8F, 0x82, 0x6B)
BLACK = (0x23, 0x23, 0x27)
BLACK_EDGE = (0x00, 0x00, 0x00)
SCALE = 0.85  # the board's share of the icon

SEGMENTS = [
    ((12, 12), (52, 12)), ((52, 12), (52, 52)), ((52, 52), (12, 52)), ((12, 52), (12, 12)),
    ((24, 24), (40, 24)), ((40, 24), (40, 40)), ((40, 40), (24, 40)), ((24, 40), (24, 24)),
    ((32, 12), (32, 24)), ((32, 40), (32, 52)), ((12, 32), (24, 32)), ((40, 32), (52, 32)),
]
PIECES = [((12, 12), WHITE, WHITE_EDGE), ((32, 12), WHITE, WHITE_EDGE), ((52, 12), WHITE, WHITE_EDGE),
          ((24, 32), BLACK, BLACK_EDGE), ((40, 40), BLACK, BLACK_EDGE)]
LINE_HALF = 1.5
RADIUS = 6.0
EDGE = 1.5


def seg_distance(p, a, b):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def color_at(u, v):
    """The colour at a point of the 64-unit icon."""
    x = (u - 32) / SCALE + 32
    y = (v - 32) / SCALE + 32
    for (cx, cy), fill, edge in PIECES:
        d = math.hypot(x - cx, y - cy)
        if d <= RADIUS:
            return edge if d > RADIUS - EDGE else fill
    if any(seg_distance((x, y), a, b) <= LINE_HALF for a, b in SEGMENTS):
        return LINE
    return WOOD


def png(size):
    samples = 4
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            acc = [0, 0, 0]
            for sj in range(samples):
                for si in range(samples):
                    u = (i + (si + 0.5) / samples) * 64 / size
                    v = (j + (sj + 0.5) / samples) * 64 / size
                    c = color_at(u, v)
                    for k in range(3):
                        acc[k] += c[k]
            row.extend(round(a / samples ** 2) for a in acc)
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def svg():
    hexc = lambda c: "#%02x%02x%02x" % c
    t = f'translate(32 32) scale({SCALE}) translate(-32 -32)'
    lines = " ".join(f"M{a[0]} {a[1]}L{b[0]} {b[1]}" for a, b in SEGMENTS)
    pieces = "\n".join(
        f'    <circle cx="{cx}" cy="{cy}" r="{RADIUS - EDGE / 2}" fill="{hexc(f)}" stroke="{hexc(e)}" stroke-width="{EDGE}"/>'
        for (cx, cy), f, e in PIECES)
    return f'''<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" fill="{hexc(WOOD)}"/>
  <g transform="{t}">
    <path d="{lines}" fill="none" stroke="{hexc(LINE)}" stroke-width="{2 * LINE_HALF}" stroke-linecap="round"/>
{pieces}
  </g>
</svg>
'''


if __name__ == "__main__":
    with open("web/icon.svg", "w") as f:
        f.write(svg())
    for size in (192, 512):
        with open(f"web/icon-{size}.png", "wb") as f:
            f.write(png(size))
