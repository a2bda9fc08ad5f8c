#!/usr/bin/env python3
"""Independent reference implementation of stepimport's day totals of a Samsung Health export.

Python 3.11+, standard library only. It shares no code or logic with the Swift tool: it exists
to check the Swift tool's numbers on the real Samsung fixture and on generated exports.

Usage:
    scripts/reference_samsung.py [-o OUT.json] INPUT...

Each INPUT is a Samsung Health "Download personal data" export: its folder, a zip of it, or one
or more of its CSVs. Output (stdout, or -o): JSON
{"days":[{"date","steps","source"}], "distance":[{"date","metres"}]}.

Rules (docs/samsung.md):
  * A CSV is the export's when its first line (after a byte-order mark; UTF-8 or UTF-16) is
    `com.samsung.shealth.<type>,<n>,<n>` or `com.samsung.health.<type>,<n>,<n>`; its name does
    not matter. Files under jsons/ are never read.
  * One copy of the steps: step_daily_trend when there is one, else
    tracker.pedometer_step_count. The other types are not read.
  * Line 2 is the header; a column's name is what follows its last dot. Rows whose fields are
    all empty are passed over.
  * step_daily_trend: each row is one source's total of the date day_time names (epoch ms at a
    UTC midnight, or text YYYY-MM-DD...). source_type -2 is "Samsung Health"; 0 is
    "Samsung Health (phone, <deviceuuid>)", 102 "(watch, ...)", others "(device type N, ...)".
  * tracker.pedometer_step_count: each row is a sample from start_time to end_time (UTC text)
    of "Samsung Health (device <deviceuuid>)", placed in its time_offset (UTC+HHMM), split at
    local midnight in proportion to time.
  * Rows identical in source, times (or date) and count count once. Per source and day the sum
    is rounded half away from zero; the day is the highest source (ties: the name first in
    UTF-8 order); days with 0 are dropped. Distance (metres) follows the same rule.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
import zipfile
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

PREFIXES = ("com.samsung.shealth.", "com.samsung.health.")


def decode(data: bytes) -> str:
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        return data.decode("utf-16")
    if len(data) >= 2 and data[1] == 0 and data[0] != 0:
        return data.decode("utf-16-le")
    if len(data) >= 2 and data[0] == 0 and data[1] != 0:
        return data.decode("utf-16-be")
    return data.decode("utf-8-sig")


def file_type(text: str) -> str | None:
    """The type the metadata line names, or None."""
    first = text.split("\n", 1)[0].rstrip("\r")
    fields = first.split(",")
    while len(fields) > 3 and fields[-1].strip() == "":
        fields.pop()
    if len(fields) != 3 or not fields[1].isdigit() or not fields[2].isdigit():
        return None
    for prefix in PREFIXES:
        if fields[0].startswith(prefix) and len(fields[0]) > len(prefix):
            return fields[0][len(prefix):]
    return None


def csv_files(inputs: list[str]) -> list[tuple[str, str]]:
    """(name, text) of every CSV outside jsons/ in the inputs."""
    found = []
    for argument in inputs:
        path = Path(argument)
        if path.is_dir():
            for file in sorted(path.rglob("*")):
                relative = file.relative_to(path).parts
                if file.is_file() and file.suffix.lower() == ".csv" and "jsons" not in (p.lower() for p in relative[:-1]):
                    found.append((str(file), decode(file.read_bytes())))
        elif zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                for name in archive.namelist():
                    parts = name.split("/")
                    if name.lower().endswith(".csv") and "jsons" not in (p.lower() for p in parts[:-1]):
                        found.append((f"{path}: {name}", decode(archive.read(name))))
        else:
            found.append((str(path), decode(path.read_bytes())))
    return found


def rows(text: str) -> tuple[list[str], list[list[str]]]:
    lines = list(csv.reader(io.StringIO(text)))
    header = [name.strip().lower().split(".")[-1] for name in lines[1]]
    data = [line for line in lines[2:] if any(field.strip() for field in line)]
    return header, data


def trend_date(text: str) -> date:
    text = text.strip()
    if text.isdigit():
        milliseconds = int(text)
        assert milliseconds % 86_400_000 == 0, f"day_time {text} is not at a UTC midnight"
        return date(1970, 1, 1) + timedelta(days=milliseconds // 86_400_000)
    return date.fromisoformat(text[:10])


def device_name(source_type: int | None, device: str) -> str:
    if source_type == -2:
        return "Samsung Health"
    if source_type is None:
        kind = "device"
    else:
        kind = {0: "phone", 102: "watch"}.get(source_type, f"device type {source_type}")
    if not device:
        return f"Samsung Health ({kind})"
    return f"Samsung Health ({kind} {device})" if source_type is None else f"Samsung Health ({kind}, {device})"


def read_trend(text: str, steps: dict, metres: dict) -> None:
    header, data = rows(text)
    column = {name: header.index(name) for name in ("day_time", "count", "source_type", "deviceuuid", "distance")
              if name in header}
    seen = set()
    for row in data:
        assert len(row) == len(header) + 1 and row[-1] == "", f"a row of {len(row)} fields"
        day = trend_date(row[column["day_time"]])
        source = device_name(int(row[column["source_type"]]), row[column["deviceuuid"]].strip())
        count = float(row[column["count"]])
        if (source, day, count) in seen:
            continue
        seen.add((source, day, count))
        steps[(source, day)] = steps.get((source, day), 0.0) + count
        if "distance" in column and row[column["distance"]].strip():
            metres[(source, day)] = metres.get((source, day), 0.0) + float(row[column["distance"]])


def offset_of(text: str) -> timedelta:
    text = text.strip()
    if not text:
        return timedelta(0)
    assert text.startswith("UTC"), text
    if text == "UTC":
        return timedelta(0)
    sign = -1 if text[3] == "-" else 1
    digits = text[4:].replace(":", "")
    return sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:4]))


def utc_time(text: str) -> datetime:
    text = text.strip()
    if text.isdigit():
        return datetime.fromtimestamp(int(text) / 1000, timezone.utc).replace(tzinfo=None)
    return datetime.fromisoformat(text.replace(" ", "T"))


def add_split(totals: dict, source: str, start: datetime, end: datetime, value: float) -> None:
    """Adds a sample, split at each local midnight in proportion to time."""
    if end <= start:
        totals[(source, start.date())] = totals.get((source, start.date()), 0.0) + value
        return
    length = (end - start).total_seconds()
    cursor = start
    while cursor < end:
        midnight = datetime.combine(cursor.date() + timedelta(days=1), datetime.min.time())
        stop = min(end, midnight)
        share = value * (stop - cursor).total_seconds() / length
        totals[(source, cursor.date())] = totals.get((source, cursor.date()), 0.0) + share
        cursor = stop


def read_bins(text: str, steps: dict, metres: dict) -> None:
    header, data = rows(text)
    column = {name: header.index(name) for name in ("start_time", "end_time", "time_offset", "count", "deviceuuid", "distance")
              if name in header}
    seen = set()
    for row in data:
        assert len(row) == len(header) + 1 and row[-1] == "", f"a row of {len(row)} fields"
        offset = offset_of(row[column["time_offset"]]) if "time_offset" in column else timedelta(0)
        start = utc_time(row[column["start_time"]]) + offset
        end = utc_time(row[column["end_time"]]) + offset
        source = device_name(None, row[column["deviceuuid"]].strip())
        count = float(row[column["count"]])
        key = (source, start, end, count)
        if key in seen:
            continue
        seen.add(key)
        add_split(steps, source, start, end, count)
        if "distance" in column and row[column["distance"]].strip():
            add_split(metres, source, start, end, float(row[column["distance"]]))


def round_half_away(value: float) -> int:
    return int(math.floor(abs(value) + 0.5)) * (1 if value >= 0 else -1)


def highest(totals: dict) -> dict:
    """Per day, (value, source) of the highest source, rounded; days of 0 left out."""
    best: dict = {}
    for (source, day), value in totals.items():
        rounded = round_half_away(value)
        if rounded <= 0:
            continue
        current = best.get(day)
        if current is None or rounded > current[0] or (rounded == current[0] and source.encode() < current[1].encode()):
            best[day] = (rounded, source)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output")
    parser.add_argument("inputs", nargs="+")
    arguments = parser.parse_args()

    typed = [(name, file_type(text), text) for name, text in csv_files(arguments.inputs)]
    trends = [item for item in typed if item[1] == "step_daily_trend"]
    bins = [item for item in typed if item[1] == "tracker.pedometer_step_count"]
    steps: dict = {}
    metres: dict = {}
    if trends:
        assert len(trends) == 1, f"several step_daily_trend files: {[name for name, _, _ in trends]}"
        read_trend(trends[0][2], steps, metres)
        read = trends[0][0]
    elif bins:
        assert len(bins) == 1, f"several pedometer_step_count files: {[name for name, _, _ in bins]}"
        read_bins(bins[0][2], steps, metres)
        read = bins[0][0]
    else:
        print("no step_daily_trend or tracker.pedometer_step_count among the inputs", file=sys.stderr)
        return 65

    days = highest(steps)
    distances = highest(metres)
    result = {
        "days": [{"date": day.isoformat(), "steps": days[day][0], "source": days[day][1]} for day in sorted(days)],
        "distance": [{"date": day.isoformat(), "metres": distances[day][0]} for day in sorted(distances)],
    }
    # One day a line: small in the repository, easy to diff.
    text = "{\n" + ",\n".join(
        f'  "{key}": [\n' + ",\n".join("    " + json.dumps(entry, ensure_ascii=False) for entry in entries) + "\n  ]"
        for key, entries in result.items()) + "\n}\n"
    if arguments.output:
        Path(arguments.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    print(f"read {read}: {len(days)} days, {sum(value for value, _ in days.values())} steps", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
