"""Draws the app icons (static/icons/icon-192.png, icon-512.png) with the standard library only: the
favicon's card (cream, green edge, red pip) on the table's felt, inside the maskable safe zone.
Run from the repository root: python deploy/make_icons.py"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

FELT = (17, 62, 41)
CARD = (255, 250, 240)
EDGE = (22, 61, 42)
PIP = (214, 56, 58)


def pixel(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y) in a unit square."""
    # The card: 44% wide, 58% tall, centred (inside the 80% circle a maskable icon keeps).
    left, right, top, bottom, radius = 0.28, 0.72, 0.21, 0.79, 0.07
    dx = max(left + radius - x, 0.0, x - (right - radius))
    dy = max(top + radius - y, 0.0, y - (bottom - radius))
    inside = dx * dx + dy * dy <= radius * radius and left <= x <= right and top <= y <= bottom
    if not inside:
        return FELT
    edge = 0.022
    dx2 = max(left + radius - x, 0.0, x - (right - radius))
    dy2 = max(top + radius - y, 0.0, y - (bottom - radius))
    inner = (radius - edge) ** 2
    if (
        x < left + edge
        or x > right - edge
        or y < top + edge
        or y > bottom - edge
        or (dx2 > 0 and dy2 > 0 and dx2 * dx2 + dy2 * dy2 > inner)
    ):
        return EDGE
    if (x - 0.5) ** 2 + (y - 0.5) ** 2 <= 0.12**2:
        return PIP
    return CARD


def png(size: int) -> bytes:
    samples = 3  # 3x3 supersampling softens the edges
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        for i in range(size):
            total = [0, 0, 0]
            for sj in range(samples):
                for si in range(samples):
                    colour = pixel((i + (si + 0.5) / samples) / size, (j + (sj + 0.5) / samples) / size)
                    for c in range(3):
                        total[c] += colour[c]
            rows.extend(round(t / samples**2) for t in total)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    out = Path(__file__).resolve().parents[1] / "static" / "icons"
    out.mkdir(exist_ok=True)
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(png(size))
