"""PNG files on a fixed palette, written from bands of rows compressed one by one.

Each band is an independent piece of the deflate stream (no reference to an earlier band,
ended on a byte boundary), so a band whose rows did not change since an earlier picture can
be reused as it was compressed, and the file is the same bytes as if all of it had been
compressed now. The zlib trailer's checksum is combined from the bands' own checksums.

Bands are deflated by zlib-ng (``zlib-ng``), whose run-length matching gives the bytes of
zlib's in less time; :class:`Encoder` names the library and its settings.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType

from PIL import Image
from zlib_ng import zlib_ng

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: zlib header: deflate, 32 KB window, fastest-compression hint (a multiple of 31).
ZLIB_HEADER = b"\x78\x01"
#: An empty final fixed-Huffman block: ends the stream after the bands' sync-flushed blocks.
FINAL_BLOCK = b"\x03\x00"


@dataclass(frozen=True, slots=True)
class Encoder:
    """A deflate library (``zlib``, ``zlib_ng`` or ``isal_zlib``), its level and its strategy."""

    name: str
    library: ModuleType
    level: int
    strategy: int = zlib.Z_DEFAULT_STRATEGY

    def deflate(self, raw: bytes | memoryview) -> bytes:
        """``raw`` as a raw deflate piece that refers to nothing before it, sync-flushed."""
        lib = self.library
        if self.strategy == zlib.Z_DEFAULT_STRATEGY:
            c = lib.compressobj(self.level, lib.DEFLATED, -15)
        else:
            c = lib.compressobj(self.level, lib.DEFLATED, -15, 8, self.strategy)
        return c.compress(raw) + c.flush(lib.Z_SYNC_FLUSH)


#: Speed against size, measured on the bands of whole matches' table pictures (``python -m
#: benchmarks.render`` prints the comparison): run-length matching alone ("RLE") is both
#: faster and smaller than level 1's general matching on these palette pictures, which are
#: long runs of one colour, and zlib-ng's is faster than zlib's; levels 3-6 save a tenth to
#: a quarter of the bytes for 1.2-4x the time. ISA-L's levels 1-2 are faster still for the
#: same size, but their bytes vary now and then from one run to the next (the same rows once
#: gave 396 bytes instead of 394), and a band reused must be the bytes a full redraw makes.
#: Filtering rows costs time and, on a palette, makes them larger.
ENCODER = Encoder("zlib-ng RLE", zlib_ng, 1, zlib_ng.Z_RLE)

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


def compress_band(raw: bytes | memoryview, encoder: Encoder = ENCODER) -> Band:
    """Deflate filtered rows (see :func:`rows`) as an independent band."""
    return Band(encoder.deflate(raw), zlib_ng.adler32(raw), len(raw))


def adler32_join(pieces: Iterable[tuple[int, int]]) -> int:
    """The Adler-32 of byte strings one after the other, from each one's Adler-32 and length
    (zlib's combination, summed over all of them before one reduction)."""
    total, weighted = 1, 0
    for adler, length in pieces:
        weighted += (adler >> 16) + (total - 1) * length
        total += (adler & 0xFFFF) - 1
    return total % _MOD | (weighted % _MOD) << 16


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib_ng.crc32(data, zlib_ng.crc32(kind)))


def write(width: int, height: int, palette: bytes, bands: Sequence[Band]) -> bytes:
    """The PNG file of a palette picture (8 bits a pixel) made of ``bands``, top to bottom."""
    adler = adler32_join((band.adler, band.length) for band in bands)
    idat = b"".join([ZLIB_HEADER, *(b.data for b in bands), FINAL_BLOCK,
                     struct.pack(">I", adler)])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join([SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", idat), _chunk(b"IEND", b"")])
