#!/usr/bin/env python3
"""Independent reference implementation of stepimport's Apple Health day totals.

Python 3.11+, standard library only. It deliberately shares no code or logic with
the Swift tool: it exists to check the Swift tool's numbers on real fixtures.
It favours being obviously correct over being fast.

Usage:
    scripts/reference_totals.py [--tz Area/City] [--since YYYY-MM-DD]
                                [--until YYYY-MM-DD] [--exclude-manual]
                                [-o OUT.json] INPUT

INPUT is an Apple Health export.zip (also a zip holding that zip) or a bare
export XML. Output (stdout, or -o): JSON
    {"days":[{"date":"YYYY-MM-DD","steps":N,"source":"..."}],
     "sources":{"<source>":{"YYYY-MM-DD":N}}}
A human-readable summary goes to stderr. Exit status: 0 ok, 1 when a sample
was rejected (end before start, unreadable date or value; each is reported on
stderr and left out of the totals), 2 when the input cannot be read at all.

Rules (see docs/rules.md, "The highest-source rule"):
  * Only top-level <Record type="HKQuantityTypeIdentifierStepCount"> elements
    (direct children of <HealthData>); Records nested in a Correlation (or any
    other element) are ignored. value is a number (fractions allowed); a
    missing sourceName is "(unknown)".
  * Exact duplicates, identical in (sourceName, start instant, end instant,
    value), are collapsed to one sample.
  * Zone rule, default "file offset": a sample is placed in the offset written
    in its startDate string; local interval = [start+off, end+off] with the
    START's offset for both ends. With --tz Area/City every sample is placed in
    that IANA zone, splitting the UTC interval at the UTC instants of the zone's
    local midnights.
  * A sample crossing local midnight is split across days in proportion to
    time; a zero-length sample counts whole on its day.
  * Per source and day the split values are summed as floats (in file order)
    and rounded half away from zero. Per day the highest source wins; ties go to
    the source name that sorts first by Unicode code point. Days whose winning
    total is 0 are dropped. --since/--until keep days in [since, until].
  * --exclude-manual leaves out the step records typed in by hand: those with a
    <MetadataEntry key="HKWasUserEntered" value="1"/> inside them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import math
import re
import sys
import xml.etree.ElementTree as ET
import zipfile
from fractions import Fraction
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

STEP_TYPE = "HKQuantityTypeIdentifierStepCount"
UNKNOWN_SOURCE = "(unknown)"
CHUNK = 1 << 20
DAY = 86400

# C0 control bytes other than TAB (09), LF (0A), CR (0D).
C0_DROP = bytes(b for b in range(0x20) if b not in (0x09, 0x0A, 0x0D))

DATE_RE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})", re.ASCII
)


class InputError(Exception):
    """The input cannot be read at all (exit 2)."""


# --------------------------------------------------------------------------
# Finding the main XML
# --------------------------------------------------------------------------

def looks_like_health_xml(head: bytes) -> bool:
    return b"<!DOCTYPE HealthData" in head or b"<HealthData" in head


def entry_is_skipped(name: str) -> str | None:
    """Return the reason an entry is skipped, or None."""
    parts = name.split("/")
    base = parts[-1]
    if "__MACOSX" in parts[:-1] or name.startswith("__MACOSX"):
        return "__MACOSX"
    if base.startswith("._"):
        return "AppleDouble"
    if "cda" in name.lower():
        return "cda"
    return None


def find_xml_in_zip(zf: zipfile.ZipFile, label: str, notes: list[str], depth: int = 0):
    """Return (opened binary stream, description) of the main XML in zf."""
    candidates = []
    inner_zips = []
    for info in zf.infolist():
        if info.is_dir():
            continue
        if entry_is_skipped(info.filename):
            continue
        with zf.open(info) as f:
            head = f.read(1024)
        if head.startswith(b"PK\x03\x04"):
            inner_zips.append(info)
        elif looks_like_health_xml(head):
            candidates.append(info)
    if candidates:
        if len(candidates) > 1:
            notes.append(
                "several main-XML candidates: "
                + ", ".join(c.filename for c in candidates)
                + f"; using the first ({candidates[0].filename})"
            )
        info = candidates[0]
        return zf.open(info), f"{label}!{info.filename}"
    if inner_zips and depth < 2:
        for info in inner_zips:
            data = zf.read(info)
            inner = zipfile.ZipFile(io.BytesIO(data))
            try:
                return find_xml_in_zip(inner, f"{label}!{info.filename}", notes, depth + 1)
            except InputError:
                continue
    raise InputError(f"{label}: no Apple Health XML found in the zip")


def open_input(path: str, notes: list[str]):
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic == b"PK\x03\x04":
        zf = zipfile.ZipFile(path)
        return find_xml_in_zip(zf, path, notes)
    f = open(path, "rb")
    head = f.read(1024)
    f.seek(0)
    if not looks_like_health_xml(head):
        f.close()
        raise InputError(f"{path}: not a zip and no <HealthData in its first KiB")
    return f, path


# --------------------------------------------------------------------------
# Byte filter: strip the internal DTD, drop C0 controls
# --------------------------------------------------------------------------

def filtered_chunks(stream, stats: dict):
    """Yield the XML bytes with the DOCTYPE replaced by as many newlines as it
    spanned, and C0 control bytes (other than TAB/LF/CR) removed."""
    state = "head"  # head -> (doctype) -> body
    buf = b""
    while True:
        data = stream.read(CHUNK)
        eof = not data
        buf += data
        if state == "head":
            i = buf.find(b"<!DOCTYPE")
            h = buf.find(b"<HealthData")
            if i != -1 and (h == -1 or i < h):
                yield clean(buf[:i], stats)
                buf = buf[i:]
                state = "doctype"
            elif h != -1 or len(buf) > (1 << 16) or eof:
                state = "body"
            else:
                continue
        if state == "doctype":
            # A DOCTYPE ends at its first '>' unless an internal subset '['
            # comes first; then it ends at the first ']>' (broken DTDs included).
            lb = buf.find(b"[")
            gt = buf.find(b">")
            end = None
            if gt != -1 and (lb == -1 or gt < lb):
                end = gt + 1
            elif lb != -1:
                e = buf.find(b"]>", lb)
                if e != -1:
                    end = e + 2
            if end is None:
                if eof:
                    raise InputError("unterminated <!DOCTYPE (no ']>' found)")
                continue
            stats["dtd_stripped_lines"] = buf[:end].count(b"\n")
            yield b"\n" * buf[:end].count(b"\n")
            buf = buf[end:]
            state = "body"
        if state == "body":
            if buf:
                yield clean(buf, stats)
            buf = b""
        if eof:
            return


def clean(b: bytes, stats: dict) -> bytes:
    out = b.translate(None, C0_DROP)
    stats["control_bytes_dropped"] += len(b) - len(out)
    return out


# --------------------------------------------------------------------------
# Dates and values
# --------------------------------------------------------------------------

def parse_date(s: str):
    """'yyyy-MM-dd HH:mm:ss +hhmm' -> (utc epoch seconds, offset seconds)."""
    m = DATE_RE.fullmatch(s)
    if not m:
        raise ValueError(f"bad date {s!r}")
    y, mo, d, hh, mi, ss = (int(m.group(k)) for k in range(1, 7))
    off = (int(m.group(8)) * 3600 + int(m.group(9)) * 60) * (1 if m.group(7) == "+" else -1)
    naive = dt.datetime(y, mo, d, hh, mi, ss)  # raises on 2015-02-30 etc.
    local_seconds = (naive - dt.datetime(1970, 1, 1)) // dt.timedelta(seconds=1)
    return local_seconds - off, off


def day_string(epoch_day: int) -> str:
    return (dt.date(1970, 1, 1) + dt.timedelta(days=epoch_day)).isoformat()


def round_half_away(x: float) -> int:
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def round_half_away_exact(x: Fraction) -> int:
    a = abs(x)
    n = math.floor(a + Fraction(1, 2))
    return n if x >= 0 else -n


# --------------------------------------------------------------------------
# Splitting a sample into (date, fraction-of-sample) pieces
# --------------------------------------------------------------------------

def pieces_file_offset(start: int, end: int, off: int):
    """Local interval [start+off, end+off]; yields (date, numerator_seconds).
    For a zero-length sample yields (date, None)."""
    ls, le = start + off, end + off
    if ls == le:
        yield day_string(ls // DAY), None
        return
    t = ls
    while t < le:
        day = t // DAY
        boundary = (day + 1) * DAY
        stop = min(boundary, le)
        yield day_string(day), stop - t
        t = stop


def pieces_zone(start: int, end: int, zone: ZoneInfo):
    def local_date(t: int) -> dt.date:
        return dt.datetime.fromtimestamp(t, tz=zone).date()

    def next_midnight_utc(t: int, d: dt.date) -> int:
        # UTC instant of the local midnight that starts day d+1 (the earliest
        # such instant after t; fold covers midnights that occur twice, and a
        # midnight skipped by a DST gap maps to the transition instant).
        nd = d + dt.timedelta(days=1)
        best = None
        for fold in (0, 1):
            u = int(dt.datetime(nd.year, nd.month, nd.day, tzinfo=zone, fold=fold).timestamp())
            if u > t and (best is None or u < best):
                best = u
        assert best is not None
        return best

    if start == end:
        yield local_date(start).isoformat(), None
        return
    t = start
    while t < end:
        d = local_date(t)
        stop = min(next_midnight_utc(t, d), end)
        yield d.isoformat(), stop - t
        t = stop


# --------------------------------------------------------------------------
# Main computation
# --------------------------------------------------------------------------

def compute(path: str, zone: ZoneInfo | None, since: str | None, until: str | None,
            exclude_manual: bool = False):
    notes: list[str] = []
    errors: list[str] = []
    stats = {
        "control_bytes_dropped": 0,
        "dtd_stripped_lines": 0,
        "step_records_top_level": 0,
        "step_records_nested_ignored": 0,
        "duplicates_collapsed": 0,
        "midnight_crossing": 0,
        "zero_length": 0,
        "end_before_start": 0,
        "rejected_other": 0,
        "fractional_values": 0,
        "negative_values": 0,
        "units": {},
        "start_offsets": {},
        "start_end_offset_differs": 0,
        "min_start": None,
        "max_end": None,
        "top_level_elements": {},
        "hand_entered_left_out": 0,
    }

    stream, described = open_input(path, notes)
    parser = ET.XMLPullParser(events=("start", "end"))
    depth = 0
    root_tag = None
    seen = set()  # dedup keys
    samples_per_source: dict[str, int] = {}
    totals: dict[tuple[str, str], float] = {}  # (source, date) -> float sum
    exact: dict[tuple[str, str], Fraction] = {}  # same in exact arithmetic
    stack: list[ET.Element] = []

    def handle_record(el: ET.Element):
        a = el.attrib
        stats["step_records_top_level"] += 1
        if exclude_manual and any(m.get("key") == "HKWasUserEntered" and m.get("value") == "1"
                                  for m in el.iter("MetadataEntry")):
            stats["hand_entered_left_out"] += 1
            return
        src = a.get("sourceName", UNKNOWN_SOURCE)
        unit = a.get("unit", "(none)")
        stats["units"][unit] = stats["units"].get(unit, 0) + 1
        where = f"step record #{stats['step_records_top_level']} ({src!r}, start {a.get('startDate')!r})"
        try:
            s, soff = parse_date(a.get("startDate", ""))
            e, eoff = parse_date(a.get("endDate", ""))
        except ValueError as ex:
            stats["rejected_other"] += 1
            errors.append(f"{where}: {ex}")
            return
        raw_value = a.get("value")
        try:
            if not _is_decimal(raw_value):  # ASCII number only: float() also takes "nan", "١٢"
                raise ValueError
            value = float(raw_value)
            if not math.isfinite(value):
                raise ValueError
        except (TypeError, ValueError):
            stats["rejected_other"] += 1
            errors.append(f"{where}: bad value {raw_value!r}")
            return
        offs = a["startDate"][-5:]
        stats["start_offsets"][offs] = stats["start_offsets"].get(offs, 0) + 1
        if soff != eoff:
            stats["start_end_offset_differs"] += 1
        if e < s:
            stats["end_before_start"] += 1
            errors.append(
                f"{where}: end {a['endDate']!r} is before start; rejected")
            return
        key = (src, s, e, value)
        if key in seen:
            stats["duplicates_collapsed"] += 1
            return
        seen.add(key)
        samples_per_source[src] = samples_per_source.get(src, 0) + 1
        if value != int(value):
            stats["fractional_values"] += 1
        if value < 0:
            stats["negative_values"] += 1
        if stats["min_start"] is None or s < stats["min_start"][0]:
            stats["min_start"] = (s, a["startDate"])
        if stats["max_end"] is None or e > stats["max_end"][0]:
            stats["max_end"] = (e, a["endDate"])

        if zone is None:
            parts = list(pieces_file_offset(s, e, soff))
        else:
            parts = list(pieces_zone(s, e, zone))
        length = e - s
        if length == 0:
            stats["zero_length"] += 1
        if len(parts) > 1:
            stats["midnight_crossing"] += 1
        exact_value = Fraction(raw_value.strip())
        for date, num in parts:
            k = (src, date)
            if num is None:
                share = value
                share_exact = exact_value
            else:
                share = value * num / length
                share_exact = exact_value * num / length
            totals[k] = totals.get(k, 0.0) + share
            exact[k] = exact.get(k, Fraction(0)) + share_exact

    try:
        for chunk in filtered_chunks(stream, stats):
            parser.feed(chunk)
            for event, el in parser.read_events():
                if event == "start":
                    depth += 1
                    stack.append(el)
                    if depth == 1:
                        root_tag = el.tag
                        if root_tag != "HealthData":
                            raise InputError(f"root element is <{root_tag}>, not <HealthData>")
                    continue
                # end event
                if depth == 2:
                    tle = stats["top_level_elements"]
                    tle[el.tag] = tle.get(el.tag, 0) + 1
                    if el.tag == "Record" and el.get("type") == STEP_TYPE:
                        handle_record(el)
                    else:
                        n = sum(1 for r in el.iter("Record") if r.get("type") == STEP_TYPE and r is not el)
                        stats["step_records_nested_ignored"] += n
                    stack[0].remove(el)  # keep memory flat
                stack.pop()
                depth -= 1
        parser.close()
    except ET.ParseError as ex:
        raise InputError(f"{described}: XML error: {ex}")
    finally:
        stream.close()
    if root_tag is None:
        raise InputError(f"{described}: no root element")

    # Round per source per day.
    per_source: dict[str, dict[str, int]] = {src: {} for src in samples_per_source}
    rounding_disagreements = []
    near_half = []
    for (src, date), x in totals.items():
        r = round_half_away(x)
        rx = round_half_away_exact(exact[(src, date)])
        if r != rx:
            rounding_disagreements.append((src, date, x, float(exact[(src, date)])))
        frac = abs(x) - math.floor(abs(x))
        if abs(frac - 0.5) < 1e-6:
            near_half.append((src, date, x))
        per_source[src][date] = r

    # Choose the winner per day.
    all_dates = sorted({d for (_, d) in totals})
    days = []
    zero_days = 0
    negative_days = []
    close_calls = []
    for date in all_dates:
        if since and date < since:
            continue
        if until and date > until:
            continue
        cands = [(src, per_source[src][date]) for src in per_source if date in per_source[src]]
        # highest total; ties -> smallest name by code point
        cands.sort(key=lambda sv: (-sv[1], sv[0]))
        src, steps = cands[0]
        if len(cands) > 1 and cands[1][1] == steps:
            close_calls.append((date, steps, [c[0] for c in cands if c[1] == steps]))
        if steps == 0:
            zero_days += 1
            continue
        if steps < 0:
            negative_days.append((date, steps))
        days.append({"date": date, "steps": steps, "source": src})

    sources_out = {}
    for src in sorted(per_source):
        sources_out[src] = {
            d: v for d, v in sorted(per_source[src].items())
            if v != 0 and (not since or d >= since) and (not until or d <= until)
        }

    result = {"days": days, "sources": sources_out}
    info = {
        "input": described,
        "rule": f"--tz {zone.key}" if zone else "file offset (offset written in each startDate)",
        "notes": notes,
        "errors": errors,
        "stats": stats,
        "samples_per_source": samples_per_source,
        "unique_samples": len(seen),
        "rounding_disagreements": rounding_disagreements,
        "near_half": near_half,
        "tie_days": close_calls,
        "zero_days_dropped": zero_days,
        "negative_days": negative_days,
    }
    return result, info


def _is_decimal(s) -> bool:
    return isinstance(s, str) and re.fullmatch(
        r"\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*", s, re.ASCII) is not None


def print_summary(result: dict, info: dict, out=sys.stderr):
    st = info["stats"]
    p = lambda *a: print(*a, file=out)
    p(f"input: {info['input']}")
    p(f"zone rule: {info['rule']}")
    for n in info["notes"]:
        p(f"note: {n}")
    if st["dtd_stripped_lines"]:
        p(f"internal DTD stripped ({st['dtd_stripped_lines']} newlines kept)")
    if st["control_bytes_dropped"]:
        p(f"control bytes dropped: {st['control_bytes_dropped']}")
    if st["top_level_elements"]:
        p("top-level elements: " + ", ".join(
            f"{t}={n}" for t, n in sorted(st["top_level_elements"].items())))
    p(f"step records seen (top-level): {st['step_records_top_level']}")
    if st["step_records_nested_ignored"]:
        p(f"step records nested in other elements (ignored): {st['step_records_nested_ignored']}")
    p(f"duplicates collapsed: {st['duplicates_collapsed']}")
    p(f"unique samples: {info['unique_samples']}")
    p(f"sources: {len(info['samples_per_source'])}")
    for src, n in sorted(info["samples_per_source"].items()):
        p(f"  {src!r}: {n} unique samples, {len(result['sources'].get(src, {}))} non-zero days")
    p(f"midnight-crossing samples: {st['midnight_crossing']}")
    p(f"zero-length samples: {st['zero_length']}")
    p(f"end before start (rejected, error): {st['end_before_start']}")
    if st["rejected_other"]:
        p(f"other rejected records (error): {st['rejected_other']}")
    p(f"fractional values: {st['fractional_values']}; negative values: {st['negative_values']}")
    if st["units"]:
        p("units: " + ", ".join(f"{u}={n}" for u, n in sorted(st["units"].items())))
    if st["start_offsets"]:
        p("startDate offsets: " + ", ".join(f"{o}={n}" for o, n in sorted(st["start_offsets"].items())))
    if st["start_end_offset_differs"]:
        p(f"records whose endDate offset differs from startDate's: {st['start_end_offset_differs']}")
    if st["min_start"]:
        p(f"sample range: {st['min_start'][1]} .. {st['max_end'][1]}")
    p(f"days output: {len(result['days'])} (zero days dropped: {info['zero_days_dropped']})")
    if result["days"]:
        p(f"day range: {result['days'][0]['date']} .. {result['days'][-1]['date']}")
    if info["tie_days"]:
        p(f"days decided by the name tie-break: {len(info['tie_days'])}")
        for date, steps, names in info["tie_days"][:10]:
            p(f"  {date}: {steps} steps, tied {names}")
    if info["negative_days"]:
        p(f"WARNING days with a negative winning total: {info['negative_days']}")
    if info["rounding_disagreements"]:
        p(f"WARNING source-days where float and exact arithmetic round differently: "
          f"{len(info['rounding_disagreements'])}")
        for src, date, x, ex in info["rounding_disagreements"][:10]:
            p(f"  {src!r} {date}: float {x!r} exact {ex!r}")
    if info["near_half"]:
        p(f"source-days whose float sum is within 1e-6 of .5 (fragile rounding): {len(info['near_half'])}")
        for src, date, x in info["near_half"][:10]:
            p(f"  {src!r} {date}: {x!r}")
    if info["errors"]:
        p(f"ERRORS: {len(info['errors'])}")
        for e in info["errors"][:50]:
            p(f"  {e}")
        if len(info["errors"]) > 50:
            p(f"  ... {len(info['errors']) - 50} more")


def valid_day(s: str) -> str:
    try:
        dt.date.fromisoformat(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a YYYY-MM-DD date: {s!r}")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        raise argparse.ArgumentTypeError(f"not a YYYY-MM-DD date: {s!r}")
    return s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description="Reference day step totals for an Apple Health export (zip or XML).")
    ap.add_argument("input", help="export.zip or export XML")
    ap.add_argument("--tz", metavar="Area/City",
                    help="place every sample in this IANA zone (default: the offset in each startDate)")
    ap.add_argument("--since", type=valid_day, metavar="YYYY-MM-DD", help="first day kept (inclusive)")
    ap.add_argument("--until", type=valid_day, metavar="YYYY-MM-DD", help="last day kept (inclusive)")
    ap.add_argument("--exclude-manual", action="store_true",
                    help="leave out step records typed in by hand (HKWasUserEntered = 1)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write the JSON here instead of stdout")
    args = ap.parse_args(argv)

    zone = None
    if args.tz:
        try:
            zone = ZoneInfo(args.tz)
        except (ZoneInfoNotFoundError, ValueError):
            print(f"error: unknown time zone {args.tz!r}", file=sys.stderr)
            return 2
    try:
        result, info = compute(args.input, zone, args.since, args.until, args.exclude_manual)
    except (InputError, OSError, zipfile.BadZipFile) as ex:
        print(f"error: {ex}", file=sys.stderr)
        return 2

    text = json.dumps(result, ensure_ascii=False, indent=2) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print_summary(result, info)
    return 1 if info["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
