#!/usr/bin/env python3
"""Writes the small zips that ZipInflateTests read: one entry each, deflated, whole or damaged.

Usage:
    scripts/make_damaged_zips.py OUTDIR

Python 3 standard library only; deterministic (fixed content, fixed times, the zip headers
written here byte by byte, so that each damage is exactly where it is said to be). Every zip
holds one entry, `export.xml`, whose content (about 1 MB of XML-like lines, several of the
readers' 256 KiB chunks) is also written to OUTDIR/content.xml:

    whole.zip             the content, deflated (level 6), every header right
    descriptor-zip64.zip  the content written by Python's zipfile to a stream that cannot seek:
                          a data descriptor after the data, a Zip64 extra field
    stored.zip            the content stored, not deflated (libzip reads it, not the inflater)
    empty.zip             an empty entry, deflated (the two bytes of an empty final block)
    bad-crc.zip           the CRC-32 in both headers wrong
    corrupt-stream.zip    the first deflate block of reserved type 3 (invalid from its first byte)
    corrupt-middle.zip    64 bytes in the middle of the deflate stream replaced by 0xFF (still valid codes:
                          wrong bytes come out, and the CRC-32 finds them)
    truncated-stream.zip  the deflate stream cut in the middle, its compressed size saying so
    size-too-large.zip    the uncompressed size in both headers 1,000 bytes more than the content
    size-too-small.zip    the uncompressed size in both headers 1,000 bytes less than the content
    trailing-bytes.zip    16 bytes after the deflate stream's end, inside the compressed size
    encrypted.zip         whole.zip with the encryption flag set in both headers (libzip refuses it)
"""

from __future__ import annotations

import io
import struct
import sys
import zipfile
import zlib
from pathlib import Path

NAME = b"export.xml"
DOS_TIME, DOS_DATE = (9 << 11) | (15 << 5), ((2024 - 1980) << 9) | (3 << 5) | 4


def content() -> bytes:
    """Lines with varying numbers, so the stream has literals and matches over many blocks."""
    lines = [b'<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n']
    state = 12345
    for index in range(6000):
        state = (state * 1103515245 + 12345) % (1 << 31)
        lines.append(b' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" '
                     b'startDate="2024-03-%02d %02d:%02d:00 +0300" endDate="2024-03-%02d %02d:%02d:00 +0300" value="%d"/>\n'
                     % (1 + index % 28, index % 24, state % 60, 1 + index % 28, index % 24, state % 60, state % 5000))
    lines.append(b"</HealthData>\n")
    return b"".join(lines)


def raw_deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def zip_one(data: bytes, method: int = 8, crc: int | None = None, size: int | None = None, flags: int = 0) -> bytes:
    """One entry whose stored bytes are `data` (already deflated when `method` is 8)."""
    crc = crc if crc is not None else 0
    size = size if size is not None else len(data)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, method, DOS_TIME, DOS_DATE, crc, len(data), size,
                        len(NAME), 0) + NAME
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, method, DOS_TIME, DOS_DATE, crc, len(data),
                          size, len(NAME), 0, 0, 0, 0, 0o644 << 16, 0) + NAME
    directory_at = len(local) + len(data)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), directory_at, 0)
    return local + data + central + end


def deflated(text: bytes, **overrides) -> bytes:
    crc = overrides.pop("crc", zlib.crc32(text))
    size = overrides.pop("size", len(text))
    stream = overrides.pop("stream", raw_deflate(text))
    return zip_one(stream, crc=crc, size=size, flags=overrides.pop("flags", 0))


def descriptor_zip64(text: bytes) -> bytes:
    class Unseekable(io.RawIOBase):
        def __init__(self) -> None:
            self.buffer = bytearray()

        def writable(self) -> bool:
            return True

        def write(self, chunk) -> int:
            self.buffer += chunk
            return len(chunk)

    sink = Unseekable()
    with zipfile.ZipFile(sink, "w") as archive:
        info = zipfile.ZipInfo("export.xml", (2024, 3, 4, 9, 15, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(info, "w", force_zip64=True) as member:
            member.write(text)
    return bytes(sink.buffer)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    text = content()
    stream = raw_deflate(text)
    middle = len(stream) // 2
    corrupt_first = bytes([stream[0] | 0x07]) + stream[1:]
    corrupt_middle = stream[:middle] + b"\xff" * 64 + stream[middle + 64:]
    zips = {
        "whole.zip": deflated(text),
        "descriptor-zip64.zip": descriptor_zip64(text),
        "stored.zip": zip_one(text, method=0, crc=zlib.crc32(text)),
        "empty.zip": deflated(b""),
        "bad-crc.zip": deflated(text, crc=zlib.crc32(text) ^ 0xDEADBEEF),
        "corrupt-stream.zip": deflated(text, stream=corrupt_first),
        "corrupt-middle.zip": deflated(text, stream=corrupt_middle),
        "truncated-stream.zip": deflated(text, stream=stream[:middle]),
        "size-too-large.zip": deflated(text, size=len(text) + 1000),
        "size-too-small.zip": deflated(text, size=len(text) - 1000),
        "trailing-bytes.zip": deflated(text, stream=stream + b"\x00" * 16),
        "encrypted.zip": deflated(text, flags=1),
    }
    for name, data in zips.items():
        (out / name).write_bytes(data)
    (out / "content.xml").write_bytes(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
