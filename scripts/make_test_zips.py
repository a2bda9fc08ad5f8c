#!/usr/bin/env python3
"""Writes the Apple Health export zips that AppleExportLocatorTests read.

Usage:
    scripts/make_test_zips.py OUTDIR

Python 3 standard library only. Deterministic: every entry has a fixed timestamp and
fixed attributes, so two runs (with the same zlib) give the same bytes.

Every zip that holds an export holds the same small export XML (embedded below) or a
variant of it that must read the same way, so one `expected.json` (written into OUTDIR
too) holds the day totals for all of them (`{"days":[{"date","steps","source","sources"}]}`,
the highest single source per day with every source beside it, each sample placed in its
own written offset), and a few counts the reader must report:

    localized-ru.zip         Russian name `экспорт.xml` (UTF-8 flag set), `export_cda.xml`,
                             an AppleDouble `._экспорт.xml` under `__MACOSX/`, a GPX route
    localized-tr-noflag.zip  `dışa aktarılan.xml`, UTF-8 bytes WITHOUT the UTF-8 flag
    cp437-name.zip           `Exportación.xml` in CP437 bytes, without the UTF-8 flag
    capitalised.zip          `Export.xml` + `Export_cda.xml`
    zip64-descriptor.zip     written to a non-seekable stream: data descriptors + Zip64 extra
    nested.zip               `export.zip` inside the zip
    control-chars.zip        stray `\\x0b` bytes inside attribute values
    broken-dtd.zip           the iOS 16 DTD (`<!ATTLIST VisionPrescription` never closed)

and the ones that must be refused:

    two-exports.zip          two different exports (`a/export.xml`, `b/export.xml`): ambiguous
    nested-two-exports.zip   `export.zip` holding two-exports.zip's entries: ambiguous too
    no-export.zip            `notes.txt` and a GPX: not an export
    health-connect.zip       `health_connect_export.db` (SQLite): not Apple, use `stepimport hc`
    decoys-only.zip          only `__MACOSX/.../._export.xml` and `export_cda.xml`: not an export

The decoys are traps: the AppleDouble file's resource fork and the CDA document both carry
`<!DOCTYPE HealthData` / `<HealthData` in their first KiB, so a locator that recognised
exports by content alone, without skipping decoys by name, would pick them up (and then
report an ambiguity, or fail to parse them).
"""

from __future__ import annotations

import io
import json
import struct
import sys
import zipfile
from pathlib import Path

# Every entry's timestamp: the export's own date.
FIXED_TIME = (2024, 3, 4, 9, 15, 0)
EXPORT_DIR = "apple_health_export"

IPHONE = "Ayşe’s iPhone"
WATCH = "Ayşe’s Apple Watch"
STEP = "HKQuantityTypeIdentifierStepCount"
DEVICE_IPHONE = "&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:17.3.1&gt;"
DEVICE_WATCH = "&lt;&lt;HKDevice: 0x2&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;"

# ---------------------------------------------------------------------------
# The step samples: (source, startDate, endDate, value), exactly as written in the XML.
# ---------------------------------------------------------------------------

STEPS = [
    # 2024-03-01 (+0300, Istanbul)
    (IPHONE, "2024-03-01 08:00:00 +0300", "2024-03-01 08:10:00 +0300", "500"),
    (WATCH, "2024-03-01 08:00:00 +0300", "2024-03-01 08:10:00 +0300", "520"),
    (IPHONE, "2024-03-01 12:00:00 +0300", "2024-03-01 12:20:00 +0300", "1200"),
    (WATCH, "2024-03-01 12:00:00 +0300", "2024-03-01 12:20:00 +0300", "1180"),
    (WATCH, "2024-03-01 18:00:00 +0300", "2024-03-01 18:30:00 +0300", "300"),
    # Crosses local midnight: 30 of its 60 minutes on each day, 60 + 60.
    (IPHONE, "2024-03-01 23:30:00 +0300", "2024-03-02 00:30:00 +0300", "120"),
    # 2024-03-02
    (IPHONE, "2024-03-02 09:00:00 +0300", "2024-03-02 09:30:00 +0300", "2500"),
    # An exact duplicate of the record above: collapsed, counted once.
    (IPHONE, "2024-03-02 09:00:00 +0300", "2024-03-02 09:30:00 +0300", "2500"),
    (WATCH, "2024-03-02 09:00:00 +0300", "2024-03-02 09:30:00 +0300", "2400"),
    # 2024-03-03: 01:30 +0300 is 2024-03-02 22:30 UTC; the written offset puts it on 03-03.
    (WATCH, "2024-03-03 01:30:00 +0300", "2024-03-03 01:45:00 +0300", "700"),
    # Written in +0100 (a trip): 23:30 +0100 is 2024-03-04 01:30 in +0300, but 03-03 in its own offset.
    (IPHONE, "2024-03-03 23:30:00 +0100", "2024-03-03 23:50:00 +0100", "800"),
]

# What the rules give, worked out by hand (highest single source per day):
#   03-01  iPhone 500 + 1200 + 60 = 1760   Watch 520 + 1180 + 300 = 2000  -> Watch 2000
#   03-02  iPhone 60 + 2500 (duplicate dropped) = 2560   Watch 2400       -> iPhone 2560
#   03-03  Watch 700   iPhone 800                                         -> iPhone 800
HAND_TOTALS = [
    {"date": "2024-03-01", "steps": 2000, "source": WATCH,
     "sources": [{"source": WATCH, "steps": 2000}, {"source": IPHONE, "steps": 1760}]},
    {"date": "2024-03-02", "steps": 2560, "source": IPHONE,
     "sources": [{"source": IPHONE, "steps": 2560}, {"source": WATCH, "steps": 2400}]},
    {"date": "2024-03-03", "steps": 800, "source": IPHONE,
     "sources": [{"source": IPHONE, "steps": 800}, {"source": WATCH, "steps": 700}]},
]
# A step record inside a Correlation: Apple repeats such records at top level, so a reader
# must ignore the nested copy. Its value is unlike any other so that counting it shows.
NESTED_STEP = (IPHONE, "2024-03-02 15:00:00 +0300", "2024-03-02 15:10:00 +0300", "9999")

# In control-chars.zip a stray vertical tab (\x0b) goes into the device string and a metadata
# value of the heart-rate record, and into the sourceName of the first step record, where
# dropping it must leave "Ayşe’s iPhone".

# ---------------------------------------------------------------------------
# The export XML
# ---------------------------------------------------------------------------

DTD = """<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 12 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT VisionPrescription EMPTY>
<!ATTLIST VisionPrescription
  type CDATA #REQUIRED
  dateIssued CDATA #REQUIRED
  expirationDate CDATA #REQUIRED
  brand CDATA #IMPLIED
>
<!ELEMENT RightEye EMPTY>
<!ATTLIST RightEye
  sphere CDATA #IMPLIED
  sphereUnit CDATA #IMPLIED
>
]>
"""

# The iOS 16 defect: the VisionPrescription attribute list is never closed.
BROKEN_FROM = """  brand CDATA #IMPLIED
>
<!ELEMENT RightEye EMPTY>"""
BROKEN_TO = """  brand CDATA #IMPLIED
<!ELEMENT RightEye EMPTY>"""


def step_record(sample, attribute_order: int, source_text: str | None = None, metadata: str | None = None) -> str:
    """One step record; `source_text` replaces the sourceName as written, `metadata` adds a child."""
    source, start, end, value = sample
    written_source = source_text if source_text is not None else source
    close = f'>\n  <MetadataEntry key="{metadata}" value="1"/>\n </Record>\n' if metadata else "/>\n"
    if attribute_order == 0:
        # The order of iOS 16-17 exports.
        return (f' <Record type="{STEP}" sourceName="{written_source}" sourceVersion="17.3.1" '
                f'device="{DEVICE_WATCH if source == WATCH else DEVICE_IPHONE}" unit="count" '
                f'creationDate="{end}" startDate="{start}" endDate="{end}" value="{value}"{close}')
    # A shuffled order, as some iOS versions write.
    return (f' <Record value="{value}" endDate="{end}" startDate="{start}" creationDate="{end}" '
            f'unit="count" sourceName="{written_source}" sourceVersion="17.3.1" type="{STEP}"{close}')


def export_xml(broken_dtd: bool = False, control_chars: bool = False) -> bytes:
    """The export; `broken_dtd` and `control_chars` give the variants that must read the same."""
    dtd = DTD.replace(BROKEN_FROM, BROKEN_TO) if broken_dtd else DTD
    if broken_dtd and (BROKEN_FROM in dtd or not dtd.endswith("]>\n")):
        raise SystemExit("the broken DTD is not broken as iOS 16 breaks it")
    vt = "\x0b" if control_chars else ""
    device_iphone = DEVICE_IPHONE.replace("name:iPhone,", f"name:iPhone{vt},")
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n', dtd,
             '<HealthData locale="tr_TR">\n',
             ' <ExportDate value="2024-03-04 09:15:00 +0300"/>\n',
             ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-05-17" '
             'HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" '
             'HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" '
             'HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>\n',
             # A non-step record with Apple's device string, and a metadata child.
             f' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="{WATCH}" sourceVersion="10.3" '
             f'device="{device_iphone}" unit="count/min" creationDate="2024-03-01 08:05:00 +0300" '
             'startDate="2024-03-01 08:04:00 +0300" endDate="2024-03-01 08:04:00 +0300" value="96">\n',
             f'  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="{vt}1{vt}"/>\n',
             ' </Record>\n']
    for index, sample in enumerate(STEPS):
        source_text = f"Ayşe{vt}’s iPhone" if index == 0 else None
        metadata = "HKMetadataKeySyncVersion" if index == 4 else None
        parts.append(step_record(sample, attribute_order=index % 2, source_text=source_text, metadata=metadata))
        if index == 8:
            # A non-step manual entry among the step records.
            parts.append(f' <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="{IPHONE}" '
                         'unit="kcal" creationDate="2024-03-02 20:00:00 +0300" startDate="2024-03-02 19:00:00 +0300" '
                         'endDate="2024-03-02 19:30:00 +0300" value="85.5">\n'
                         '  <MetadataEntry key="HKWasUserEntered" value="1"/>\n'
                         ' </Record>\n')
    source, start, end, value = NESTED_STEP
    parts.append(f' <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="{source}" '
                 f'creationDate="{end}" startDate="{start}" endDate="{end}">\n'
                 f'  <Record type="{STEP}" sourceName="{source}" unit="count" '
                 f'creationDate="{end}" startDate="{start}" endDate="{end}" value="{value}"/>\n'
                 ' </Correlation>\n')
    parts.append(' <ActivitySummary dateComponents="2024-03-03" activeEnergyBurned="310" '
                 'activeEnergyBurnedGoal="400" activeEnergyBurnedUnit="kcal"/>\n')
    parts.append('</HealthData>\n')
    return "".join(parts).encode("utf-8")


def other_export_xml() -> bytes:
    """A second, different export, for the ambiguity case."""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<HealthData locale="en_US">\n'
            ' <ExportDate value="2024-01-10 08:00:00 +0000"/>\n'
            f' <Record type="{STEP}" sourceName="Jo’s iPhone" unit="count" '
            'creationDate="2024-01-09 10:10:00 +0000" startDate="2024-01-09 10:00:00 +0000" '
            'endDate="2024-01-09 10:10:00 +0000" value="321"/>\n'
            '</HealthData>\n').encode("utf-8")


# The clinical document: malformed (the <section> is never closed), not HealthData, and
# mentioning <HealthData> in its first KiB (see the module docstring).
CDA_XML = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>\n'
           '<!-- Summary of <HealthData> in CDA form; <!DOCTYPE HealthData is not used here -->\n'
           '<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
           ' <realmCode code="US"/>\n'
           ' <title>Health Data</title>\n'
           ' <component><structuredBody><component><section>\n'
           '  <entry><observation classCode="OBS" moodCode="EVN"><value xsi:type="PQ" value="96" unit="/min"/></observation></entry>\n'
           ' </component></structuredBody></component>\n'
           '</ClinicalDocument>\n').encode("utf-8")

GPX = ('<?xml version="1.0" encoding="UTF-8"?>\n'
       '<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">\n'
       ' <trk><name>Route 2024-03-01 8:00am</name><trkseg>\n'
       '  <trkpt lon="28.978" lat="41.008"><ele>35.1</ele><time>2024-03-01T05:00:00Z</time></trkpt>\n'
       '  <trkpt lon="28.979" lat="41.009"><ele>35.4</ele><time>2024-03-01T05:00:05Z</time></trkpt>\n'
       ' </trkseg></trk>\n'
       '</gpx>\n').encode("utf-8")


def apple_double(resource_fork: bytes) -> bytes:
    """An AppleDouble file (`._name`): magic 0x00051607, version 2, Finder info and a resource fork."""
    finder_info = b"TEXT" + b"R*ch" + bytes(24)
    header_length = 4 + 4 + 16 + 2 + 2 * 12
    finder_offset = header_length
    fork_offset = finder_offset + len(finder_info)
    data = struct.pack(">II16sH", 0x00051607, 0x00020000, b"Mac OS X        ", 2)
    data += struct.pack(">III", 9, finder_offset, len(finder_info))
    data += struct.pack(">III", 2, fork_offset, len(resource_fork))
    data += finder_info + resource_fork
    assert data[:4] == b"\x00\x05\x16\x07"
    return data


# The resource fork carries the export's first bytes: the trap described above.
DECOY = apple_double(export_xml()[:200])

NOTES = b"Exported on 2024-03-04 from the Health app.\n"
SQLITE_HEAD = b"SQLite format 3\x00" + struct.pack(">HBBBBBBIIII", 4096, 1, 1, 0, 64, 32, 32, 1, 3, 0, 0) + bytes(4096 - 16 - 24)

# ---------------------------------------------------------------------------
# Zips
# ---------------------------------------------------------------------------


def entry_info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
    info.compress_type = zipfile.ZIP_STORED if name.endswith("/") else zipfile.ZIP_DEFLATED
    info.create_system = 3  # Unix, whatever the platform running this
    # Unix mode in the high 16 bits; 0x10 is the MS-DOS directory bit.
    info.external_attr = (0o40755 << 16 | 0x10) if name.endswith("/") else 0o100644 << 16
    return info


def make_zip(entries: list[tuple[str, bytes]]) -> bytes:
    """A deflated zip (written to a seekable buffer: sizes in the local headers)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(entry_info(name), data)
    return buffer.getvalue()


class NonSeekable(io.RawIOBase):
    """A write-only stream without tell/seek, like a pipe: zipfile then writes data descriptors."""

    def __init__(self):
        self.chunks: list[bytes] = []

    def writable(self):
        return True

    def seekable(self):
        return False

    def tell(self):
        raise OSError("not seekable")

    def seek(self, *args):
        raise OSError("not seekable")

    def write(self, data):
        self.chunks.append(bytes(data))
        return len(data)

    def getvalue(self) -> bytes:
        return b"".join(self.chunks)


def make_streamed_zip64(entries: list[tuple[str, bytes]]) -> bytes:
    stream = NonSeekable()
    with zipfile.ZipFile(stream, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            with archive.open(entry_info(name), "w", force_zip64=True) as target:
                target.write(data)
    return stream.getvalue()


def local_headers(data: bytes) -> list[dict]:
    """Walks the central directory and reads each entry's central and local header."""
    end = data.rfind(b"PK\x05\x06")
    if end < 0:
        raise SystemExit("no end of central directory record")
    count, _, directory_offset = struct.unpack_from("<HII", data, end + 10)
    if directory_offset == 0xFFFFFFFF:
        locator = data.rfind(b"PK\x06\x07", 0, end)
        (zip64_end,) = struct.unpack_from("<Q", data, locator + 8)
        (count, _, directory_offset) = struct.unpack_from("<QQQ", data, zip64_end + 32)
    headers = []
    position = directory_offset
    for _ in range(count):
        if data[position:position + 4] != b"PK\x01\x02":
            raise SystemExit(f"no central header at {position}")
        (central_flags,) = struct.unpack_from("<H", data, position + 8)
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", data, position + 28)
        (local_offset,) = struct.unpack_from("<I", data, position + 42)
        central_name = data[position + 46:position + 46 + name_length]
        position += 46 + name_length + extra_length + comment_length
        if data[local_offset:local_offset + 4] != b"PK\x03\x04":
            raise SystemExit(f"no local header at {local_offset}")
        (local_flags,) = struct.unpack_from("<H", data, local_offset + 6)
        local_name_length, local_extra_length = struct.unpack_from("<HH", data, local_offset + 26)
        local_name = data[local_offset + 30:local_offset + 30 + local_name_length]
        extra = data[local_offset + 30 + local_name_length:local_offset + 30 + local_name_length + local_extra_length]
        extra_ids = []
        at = 0
        while at + 4 <= len(extra):
            header_id, size = struct.unpack_from("<HH", extra, at)
            extra_ids.append(header_id)
            at += 4 + size
        headers.append({"central_flags": central_flags, "central_name": central_name,
                        "local_flags": local_flags, "local_name": local_name, "local_extra_ids": extra_ids})
    return headers


def with_raw_name(entries: list[tuple[str, bytes]], raw_name: bytes) -> bytes:
    """A zip whose first entry is named `raw_name` (bytes as given) with the UTF-8 flag clear.

    zipfile sets the flag on any non-ASCII name, so the entry is written under an ASCII
    placeholder of the same length and the name bytes are swapped in afterwards.
    """
    placeholder = b"#" * len(raw_name)
    archive = make_zip([(placeholder.decode("ascii"), entries[0][1])] + entries[1:])
    if archive.count(placeholder) != 2:
        raise SystemExit("placeholder name is not unique in the zip; choose another")
    archive = archive.replace(placeholder, raw_name)
    header = local_headers(archive)[0]
    if header["local_name"] != raw_name or header["central_name"] != raw_name:
        raise SystemExit("raw name not in place")
    if (header["local_flags"] | header["central_flags"]) & 0x800:
        raise SystemExit("the UTF-8 flag is set on the raw-named entry")
    return archive


def check_utf8_flag(archive: bytes, name: str) -> None:
    for header in local_headers(archive):
        if header["central_name"] == name.encode("utf-8"):
            if not (header["local_flags"] & header["central_flags"] & 0x800):
                raise SystemExit(f"{name}: UTF-8 flag missing")
            return
    raise SystemExit(f"{name}: not in the zip")


def check_streamed_zip64(archive: bytes) -> None:
    headers = local_headers(archive)
    if not headers:
        raise SystemExit("zip64-descriptor.zip: no entries")
    for header in headers:
        name = header["central_name"].decode("utf-8")
        if not (header["local_flags"] & 0x08 and header["central_flags"] & 0x08):
            raise SystemExit(f"zip64-descriptor.zip: {name}: data-descriptor flag (bit 3) not set")
        if 0x0001 not in header["local_extra_ids"]:
            raise SystemExit(f"zip64-descriptor.zip: {name}: no Zip64 extra field in the local header")
    if b"PK\x07\x08" not in archive:
        raise SystemExit("zip64-descriptor.zip: no data descriptor signature")


# ---------------------------------------------------------------------------
# Expected totals, computed from STEPS with plain arithmetic
# ---------------------------------------------------------------------------


def parse_timestamp(text: str) -> tuple[int, int]:
    """`yyyy-MM-dd HH:mm:ss ±hhmm` -> (local seconds since 1970 on the written clock, offset seconds)."""
    import datetime
    local = datetime.datetime.strptime(text[:19], "%Y-%m-%d %H:%M:%S")
    sign = -1 if text[20] == "-" else 1
    offset = sign * (int(text[21:23]) * 3600 + int(text[23:25]) * 60)
    local_seconds = int((local - datetime.datetime(1970, 1, 1)).total_seconds())
    return local_seconds, offset


def expected_days() -> list[dict]:
    import datetime
    from fractions import Fraction
    seen = set()
    sums: dict[tuple[str, str], Fraction] = {}
    for source, start, end, value in STEPS:
        start_local, start_offset = parse_timestamp(start)
        end_local, end_offset = parse_timestamp(end)
        key = (source, start_local - start_offset, end_local - end_offset, value)
        if key in seen:
            continue
        seen.add(key)
        # The start's offset places both ends.
        first = start_local
        last = end_local - end_offset + start_offset
        steps = Fraction(value)
        piece_start = first
        while True:
            midnight = (piece_start // 86400 + 1) * 86400
            piece_end = min(last, midnight)
            share = steps if last == first else steps * (piece_end - piece_start) / (last - first)
            day = (datetime.date(1970, 1, 1) + datetime.timedelta(days=piece_start // 86400)).isoformat()
            sums[(day, source)] = sums.get((day, source), Fraction(0)) + share
            piece_start = piece_end
            if piece_start >= last:
                break
    by_day: dict[str, list[tuple[int, str]]] = {}
    for (day, source), total in sums.items():
        rounded = int(total + Fraction(1, 2)) if total >= 0 else -int(-total + Fraction(1, 2))
        by_day.setdefault(day, []).append((rounded, source))
    days = []
    for day in sorted(by_day):
        ranked = sorted(by_day[day], key=lambda pair: (-pair[0], pair[1].encode("utf-8")))
        if ranked[0][0] > 0:
            days.append({"date": day, "steps": ranked[0][0], "source": ranked[0][1],
                         "sources": [{"source": source, "steps": steps} for steps, source in ranked if steps != 0]})
    return days


# ---------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 64
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)

    days = expected_days()
    if days != HAND_TOTALS:
        raise SystemExit(f"computed totals {days} differ from the hand-worked {HAND_TOTALS}")

    xml = export_xml()
    broken = export_xml(broken_dtd=True)
    dirty = export_xml(control_chars=True)
    # The variants must read as the same data once the filter has done its work.
    if dirty.replace(b"\x0b", b"") != xml or broken == xml:
        raise SystemExit("the XML variants do not differ from the clean XML as intended")
    control_characters = dirty.count(b"\x0b")
    if not xml.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!-- HealthKit Export Version: 12 -->'):
        raise SystemExit("export XML head is not as Apple writes it")
    if b"<!DOCTYPE HealthData" not in xml[:1024]:
        raise SystemExit("export XML is not recognisable from its first KiB")

    zips: dict[str, bytes] = {}
    ru_name = f"{EXPORT_DIR}/экспорт.xml"
    zips["localized-ru.zip"] = make_zip([
        (f"{EXPORT_DIR}/", b""),
        (ru_name, xml),
        (f"{EXPORT_DIR}/export_cda.xml", CDA_XML),
        (f"__MACOSX/{EXPORT_DIR}/._экспорт.xml", DECOY),
        (f"{EXPORT_DIR}/workout-routes/route_1.gpx", GPX),
    ])
    check_utf8_flag(zips["localized-ru.zip"], ru_name)

    zips["localized-tr-noflag.zip"] = with_raw_name(
        [(None, xml), (f"{EXPORT_DIR}/workout-routes/route_1.gpx", GPX)],
        f"{EXPORT_DIR}/dışa aktarılan.xml".encode("utf-8"))

    cp437_name = f"{EXPORT_DIR}/Exportación.xml".encode("cp437")
    try:
        cp437_name.decode("utf-8")
        raise SystemExit("the CP437 name is also valid UTF-8: it would not test CP437")
    except UnicodeDecodeError:
        pass
    zips["cp437-name.zip"] = with_raw_name([(None, xml)], cp437_name)

    zips["capitalised.zip"] = make_zip([
        (f"{EXPORT_DIR}/Export.xml", xml),
        (f"{EXPORT_DIR}/Export_cda.xml", CDA_XML),
    ])

    zips["zip64-descriptor.zip"] = make_streamed_zip64([
        (f"{EXPORT_DIR}/export.xml", xml),
        (f"{EXPORT_DIR}/export_cda.xml", CDA_XML),
    ])
    check_streamed_zip64(zips["zip64-descriptor.zip"])

    inner = make_zip([(f"{EXPORT_DIR}/export.xml", xml)])
    zips["nested.zip"] = make_zip([("export.zip", inner)])

    two_exports = [("a/export.xml", xml), ("b/export.xml", other_export_xml())]
    zips["two-exports.zip"] = make_zip(two_exports)
    zips["nested-two-exports.zip"] = make_zip([("export.zip", make_zip(two_exports))])
    zips["no-export.zip"] = make_zip([("notes.txt", NOTES), ("workout-routes/route_1.gpx", GPX)])
    zips["health-connect.zip"] = make_zip([("health_connect_export.db", SQLITE_HEAD)])
    zips["decoys-only.zip"] = make_zip([
        (f"__MACOSX/{EXPORT_DIR}/._export.xml", DECOY),
        (f"{EXPORT_DIR}/export_cda.xml", CDA_XML),
    ])
    zips["control-chars.zip"] = make_zip([
        (f"{EXPORT_DIR}/export.xml", dirty),
        (f"{EXPORT_DIR}/export_cda.xml", CDA_XML),
        (f"__MACOSX/{EXPORT_DIR}/._export.xml", DECOY),
    ])
    zips["broken-dtd.zip"] = make_zip([
        (f"{EXPORT_DIR}/export.xml", broken),
        ("__MACOSX/._export.xml", DECOY),
    ])

    for name, data in zips.items():
        # Every zip must read back with an independent reader, entry by entry.
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if archive.testzip() is not None:
                raise SystemExit(f"{name}: a CRC does not match")
            for info in archive.infolist():
                if not info.is_dir() and info.compress_type != zipfile.ZIP_DEFLATED:
                    raise SystemExit(f"{name}: {info.filename} is not deflated")
        (out / name).write_bytes(data)

    expected = {
        "days": days,
        "locale": "tr_TR",
        # Top-level step records, the exact duplicate included; the Correlation's one is nested.
        "stepRecords": len(STEPS),
        "nestedStepRecords": 1,
        # Top-level Records of any type.
        "records": len(STEPS) + 2,
        # \x0b bytes in control-chars.zip's XML.
        "droppedControlCharacters": control_characters,
        # Bytes of each XML variant, as stored in the zips (before any filtering).
        "xmlBytes": {"clean": len(xml), "broken-dtd": len(broken), "control-chars": len(dirty)},
    }
    (out / "expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
