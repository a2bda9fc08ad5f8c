#!/usr/bin/env python3
"""Writes hostile inputs for the tests that check stepimport's promises on them (issue 11).

Usage:
    scripts/make_hostile.py KIND OUT     write one input to OUT ("-" for standard output)
    scripts/make_hostile.py --list       the kinds, one per line

The big inputs are 1 GiB, or HOSTILE_MIB MiB when that is set. Python 3 standard library only; nothing large is held in memory (big inputs are written in
chunks, zips are deflated as they are written). The kinds and what each holds:

    billion-laughs.xml   Apple export whose DOCTYPE nests 10 entities 10 deep (10^10 copies)
    quadratic.xml        Apple export with one 100 KB entity referenced 20,000 times
    deep.xml             Apple export with elements nested 10,000,000 deep
    deep.json            JSON arrays nested 1,000,000 deep
    long-string.json     a Health Connect JSON record whose source is a 100 MB string
    long-line.json       1 GiB of spaces on one line, then an empty JSON array
    long-line.xml        an Apple export whose root holds 1 GiB of spaces on one line
    tall-tags.xml        an Apple export of 1 GiB of heart-rate records (a type nobody asked for)
                         whose start tags have 20,000 attributes on as many lines, then steps
    samsung-long-field.csv       Samsung Health's step_daily_trend whose first row's first field is 1 GiB
    samsung-utf16-long-line.csv  the same in UTF-16 (little-endian, with its mark), whose first row
                                 is 1 GiB of one character with no comma and no line end
    bomb.zip             an Apple export.zip whose XML inflates to 1 GiB (about 1 MB deflated)
    many-entries.zip     100,000 empty entries and then the Apple export
    nested-deep.zip      the Apple export zipped inside a zip 5 times over
    encrypted.zip        the Apple export, its entry marked encrypted (traditional PKWARE)
    bad-crc.zip          the Apple export with a wrong CRC-32 in both headers
"""

from __future__ import annotations

import io
import os
import struct
import sys
import zipfile
import zlib

# The size of the big inputs (long lines, the bomb), in MiB: HOSTILE_MIB, else 1 GiB.
BIG = int(os.environ.get("HOSTILE_MIB", "1024")) << 20
# How deep deep.xml nests (libxml2 itself sets no bound for a SAX parser that builds no tree).
DEPTH = 10_000_000
FIXED_TIME = (2024, 3, 4, 9, 15, 0)

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '{doctype}'
        '<HealthData locale="en_US">\n')
RECORD = (' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="{source}" unit="count" '
          'startDate="2024-03-01 10:00:00 +0100" endDate="2024-03-01 10:05:00 +0100" value="{value}"/>\n')
TAIL = '</HealthData>\n'


def export(records: int = 3, doctype: str = "", source: str = "Phone") -> bytes:
    """A small Apple export with `records` step records of 100 steps on 2024-03-01."""
    body = "".join(RECORD.format(source=source, value=100) for _ in range(records))
    return (HEAD.format(doctype=doctype) + body + TAIL).encode()


def chunks(count: int, unit: bytes = b" ", per_block: int = 1 << 20):
    """`count` copies of `unit`, in blocks of `per_block` copies."""
    full, rest = divmod(count, per_block)
    block = unit * per_block
    for _ in range(full):
        yield block
    if rest:
        yield unit * rest


def write_stream(out, parts) -> None:
    for part in parts:
        out.write(part)


def billion_laughs() -> bytes:
    entities = '<!ENTITY l0 "lol">'
    for level in range(1, 11):
        entities += f'<!ENTITY l{level} "' + f"&l{level - 1};" * 10 + '">'
    return export(doctype=f"<!DOCTYPE HealthData [{entities}]>\n", source="&l10;")


def quadratic() -> bytes:
    entity = f'<!ENTITY a "{"x" * 100_000}">'
    return export(doctype=f"<!DOCTYPE HealthData [{entity}]>\n", source="&a;" * 20_000)


def deep_xml(out) -> None:
    out.write(HEAD.format(doctype="").encode())
    write_stream(out, chunks(DEPTH, b"<a>", 1 << 16))
    write_stream(out, chunks(DEPTH, b"</a>", 1 << 16))
    out.write(TAIL.encode())


def deep_json(out) -> None:
    write_stream(out, chunks(1_000_000, b"["))
    write_stream(out, chunks(1_000_000, b"]"))


def long_string_json(out) -> None:
    out.write(b'{"records":[{"startTime":"2024-03-01T10:00:00Z","endTime":"2024-03-01T10:05:00Z",'
              b'"count":100,"metadata":{"dataOrigin":"')
    write_stream(out, chunks(100 << 20, b"a"))
    out.write(b'"}}]}\n')


def long_line_json(out) -> None:
    write_stream(out, chunks(BIG))
    out.write(b"[]\n")


def long_line_xml(out) -> None:
    out.write(HEAD.format(doctype="").encode())
    write_stream(out, chunks(BIG))
    out.write(export(records=2)[len(HEAD.format(doctype="")):])


def tall_tags_xml(out) -> None:
    # A start tag of many lines is not plain; each was once scanned again to its `>` after every
    # line feed and quote, quadratic in the tag (9 s for 9 MB).
    tag = (' <Record type="HKQuantityTypeIdentifierHeartRate" '
           + "".join(f'a{index}="b"\n' for index in range(20_000)) + '/>\n').encode()
    out.write(HEAD.format(doctype="").encode())
    for _ in range(max(1, BIG // len(tag))):
        out.write(tag)
    out.write(export(records=2)[len(HEAD.format(doctype="")):])


SAMSUNG_HEAD = ("\ufeffcom.samsung.shealth.step_daily_trend,6307003,6\n"
                "binning_data,update_time,create_time,source_pkg_name,source_type,count,speed,distance,calorie,"
                "deviceuuid,pkg_name,datauuid,day_time\n")
SAMSUNG_ROW = ",2025-12-10 14:24:01.065,2025-12-10 14:24:01.065,com.sec.android.app.shealth,-2,1930,1.39,1453.05,62.1,"\
              "VfS0qUERdZ,com.sec.android.app.shealth,266392d6,1764806400000,\n"


def samsung_long_field(out) -> None:
    out.write(SAMSUNG_HEAD.encode())
    write_stream(out, chunks(BIG, b"a"))
    out.write(SAMSUNG_ROW.encode())


def samsung_utf16_long_line(out) -> None:
    # The text's own mark (U+FEFF) starts it, as UTF-16 files written by Windows do.
    out.write(SAMSUNG_HEAD.encode("utf-16-le"))
    write_stream(out, chunks(BIG // 2, "x".encode("utf-16-le")))


def entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def zip_bytes(entries: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries:
            archive.writestr(entry(name), data)
    return buffer.getvalue()


def bomb(out) -> None:
    """export.xml of 1 GiB: the head, spaces, two records; deflated as it is written."""
    with zipfile.ZipFile(out, "w") as archive:
        with archive.open(entry("apple_health_export/export.xml"), "w", force_zip64=True) as member:
            member.write(HEAD.format(doctype="").encode())
            write_stream(member, chunks(BIG))
            member.write(export(records=2)[len(HEAD.format(doctype="")):])


def many_entries(out) -> None:
    with zipfile.ZipFile(out, "w") as archive:
        for index in range(100_000):
            info = zipfile.ZipInfo(f"apple_health_export/workout-routes/route_{index:06}.gpx", FIXED_TIME)
            archive.writestr(info, b"")
        archive.writestr(entry("apple_health_export/export.xml"), export())


def nested_deep() -> bytes:
    data = zip_bytes([("apple_health_export/export.xml", export())])
    for _ in range(5):
        data = zip_bytes([("export.zip", data)])
    return data


def patch_headers(data: bytes, change) -> bytes:
    """Applies `change(buffer, header_offset, is_central)` to every local and central header."""
    buffer = bytearray(data)
    offset = 0
    while True:
        local = buffer.find(b"PK\x03\x04", offset)
        if local < 0:
            break
        change(buffer, local, False)
        offset = local + 4
    offset = 0
    while True:
        central = buffer.find(b"PK\x01\x02", offset)
        if central < 0:
            break
        change(buffer, central, True)
        offset = central + 4
    return bytes(buffer)


def encrypted() -> bytes:
    def mark(buffer: bytearray, at: int, central: bool) -> None:
        flags_at = at + (8 if central else 6)
        flags = struct.unpack_from("<H", buffer, flags_at)[0]
        struct.pack_into("<H", buffer, flags_at, flags | 1)
    return patch_headers(zip_bytes([("apple_health_export/export.xml", export())]), mark)


def bad_crc() -> bytes:
    def corrupt(buffer: bytearray, at: int, central: bool) -> None:
        crc_at = at + (16 if central else 14)
        crc = struct.unpack_from("<I", buffer, crc_at)[0]
        struct.pack_into("<I", buffer, crc_at, crc ^ 0xDEADBEEF)
    return patch_headers(zip_bytes([("apple_health_export/export.xml", export())]), corrupt)


WRITERS = {
    "billion-laughs.xml": billion_laughs,
    "quadratic.xml": quadratic,
    "deep.xml": deep_xml,
    "deep.json": deep_json,
    "long-string.json": long_string_json,
    "long-line.json": long_line_json,
    "long-line.xml": long_line_xml,
    "tall-tags.xml": tall_tags_xml,
    "samsung-long-field.csv": samsung_long_field,
    "samsung-utf16-long-line.csv": samsung_utf16_long_line,
    "bomb.zip": bomb,
    "many-entries.zip": many_entries,
    "nested-deep.zip": nested_deep,
    "encrypted.zip": encrypted,
    "bad-crc.zip": bad_crc,
}

STREAMED = {"deep.xml", "deep.json", "long-string.json", "long-line.json", "long-line.xml", "tall-tags.xml",
            "bomb.zip", "many-entries.zip", "samsung-long-field.csv", "samsung-utf16-long-line.csv"}


def main(argv: list[str]) -> int:
    if argv[1:] == ["--list"]:
        print("\n".join(WRITERS))
        return 0
    if len(argv) != 3 or argv[1] not in WRITERS:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    kind, path = argv[1], argv[2]
    writer = WRITERS[kind]
    out = sys.stdout.buffer if path == "-" else open(path, "wb")
    try:
        if kind in STREAMED:
            if kind in {"bomb.zip", "many-entries.zip"} and path == "-":
                print(f"{kind} needs a file (zip writing seeks)", file=sys.stderr)
                return 64
            writer(out)
        else:
            out.write(writer())
        out.flush()
    except BrokenPipeError:
        # The reader stopped early (it found what it needed or gave up): not our failure.
        return 0
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
