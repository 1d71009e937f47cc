"""PNG files on a fixed palette, written from bands of rows compressed one by one.

Each band is an independent piece of the deflate stream (no reference to an earlier band,
ended on a byte boundary), so a band whose rows did not change since an earlier picture can
be reused as it was compressed, and the file is the same bytes as if all of it had been
compressed now. The zlib trailer's checksum is combined from the bands' own checksums.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: zlib header: deflate, 32 KB window, fastest-compression hint (a multiple of 31).
ZLIB_HEADER = b"\x78\x01"
#: An empty final fixed-Huffman block: ends the stream after the bands' sync-flushed blocks.
FINAL_BLOCK = b"\x03\x00"
#: Speed against size, measured on the bands of whole matches' table pictures (``python -m
#: benchmarks.render`` prints the comparison): run-length matching alone ("RLE") is both
#: faster and smaller than level 1's general matching on these palette pictures, which are
#: long runs of one colour; levels 3-6 save a tenth to a quarter of the bytes for 1.2-4x the
#: time. Filtering rows costs time and, on a palette, makes them larger.
LEVEL = 1
STRATEGY = zlib.Z_RLE
MEM_LEVEL = 8
_MOD = 65521


@dataclass(frozen=True, slots=True)
class Band:
    """Some rows of a picture, deflated on their own: the bytes and the rows' Adler-32."""

    data: bytes
    adler: int
    length: int  # bytes of filtered rows (one filter byte per row, then the pixels)


def rows(img: Image.Image) -> bytes:
    """The rows of a palette image, each after its filter byte ("none")."""
    width = img.width
    pixels = img.tobytes()
    return b"".join(b"\x00" + pixels[i : i + width] for i in range(0, len(pixels), width))


def compress_band(raw: bytes, level: int = LEVEL, strategy: int = STRATEGY) -> Band:
    """Deflate filtered rows (see :func:`rows`) as an independent band."""
    c = zlib.compressobj(level, zlib.DEFLATED, -15, MEM_LEVEL, strategy)
    data = c.compress(raw) + c.flush(zlib.Z_SYNC_FLUSH)
    return Band(data, zlib.adler32(raw), len(raw))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's (zlib's method)."""
    rem = second_length % _MOD
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _MOD
    sum1 += (second & 0xFFFF) + _MOD - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _MOD - rem
    sum1 %= _MOD
    sum2 %= _MOD
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(data, zlib.crc32(kind)))


def write(width: int, height: int, palette: bytes, bands: Sequence[Band]) -> bytes:
    """The PNG file of a palette picture (8 bits a pixel) made of ``bands``, top to bottom."""
    adler = 1
    for band in bands:
        adler = adler32_combine(adler, band.adler, band.length)
    idat = b"".join([ZLIB_HEADER, *(b.data for b in bands), FINAL_BLOCK,
                     struct.pack(">I", adler)])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join([SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", idat), _chunk(b"IEND", b"")])
