#!/usr/bin/env python3
"""Independent reference implementation of stepimport's day totals of Fitbit steps.

Python 3.11+, standard library only. It shares no code or logic with the Swift tool:
it exists to check the Swift tool's numbers on the real Fitbit fixtures.

Usage:
    scripts/reference_fitbit.py [--tz Area/City] [-o OUT.json] FILE_OR_FOLDER...

Each argument is a Fitbit `steps-YYYY-MM-DD.json` (Google Takeout's
`Takeout/Fitbit/Global Export Data/`) or a folder searched for them. Output (stdout,
or -o): JSON {"days":[{"date":"YYYY-MM-DD","steps":N,"source":"Fitbit"}]}.

Rules (docs/fitbit.md):
  * A file is a JSON array of {"dateTime": "MM/DD/YY HH:MM:SS", "value": "N"}; the
    count is a string. Years are 20YY.
  * dateTime is the account's local wall clock: a row is the minute
    [dateTime, dateTime + 60 s) on the date written. With --tz the wall clock is
    read in that zone and the minute placed back in it, which is the same date
    (checked here with zoneinfo, not assumed).
  * Exact duplicates (same minute and value, across files) count once.
  * One source, "Fitbit"; per day the sum is rounded half away from zero; days
    with 0 steps are dropped.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo


def step_files(arguments: list[str]) -> list[Path]:
    files: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            files.extend(sorted(path.rglob("steps-*.json")))
        else:
            files.append(path)
    return files


def local_date(wall: datetime, zone: ZoneInfo | None) -> str:
    if zone is None:
        return wall.date().isoformat()
    # Read the wall clock in the zone, then place the instant back in it.
    instant = wall.replace(tzinfo=zone).astimezone(timezone.utc)
    return instant.astimezone(zone).date().isoformat()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tz")
    parser.add_argument("-o", "--output")
    parser.add_argument("inputs", nargs="+")
    arguments = parser.parse_args()
    zone = ZoneInfo(arguments.tz) if arguments.tz else None

    seen: set[tuple[str, str]] = set()
    totals: dict[str, float] = {}
    rows = 0
    for file in step_files(arguments.inputs):
        for row in json.loads(file.read_text(encoding="utf-8")):
            rows += 1
            key = (row["dateTime"], row["value"])
            if key in seen:
                continue
            seen.add(key)
            wall = datetime.strptime(row["dateTime"], "%m/%d/%y %H:%M:%S")
            value = float(row["value"])
            # The minute ends at most on the next midnight, never past it: no split.
            assert (wall + timedelta(minutes=1)).date() == wall.date() or (wall + timedelta(minutes=1)).time().isoformat() == "00:00:00"
            day = local_date(wall, zone)
            totals[day] = totals.get(day, 0.0) + value

    days = []
    for day in sorted(totals):
        steps = int(math.floor(abs(totals[day]) + 0.5)) * (1 if totals[day] >= 0 else -1)
        if steps != 0:
            days.append({"date": day, "steps": steps, "source": "Fitbit"})
    text = json.dumps({"days": days}, indent=1) + "\n"
    if arguments.output:
        Path(arguments.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    print(f"{rows} rows, {len(seen)} distinct, {len(days)} days, "
          f"{sum(d['steps'] for d in days)} steps", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
