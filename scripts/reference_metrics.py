#!/usr/bin/env python3
"""Independent reference implementation of `stepimport apple --metric all`.

Python 3.11+, standard library only. Written from docs/metrics.md, it shares no
code or logic with the Swift tool: it exists to check the Swift tool's daily
metrics on the real fixtures (Tests/CLITests/FixtureMetricsTests.swift). Like
scripts/reference_totals.py, whose input handling (finding the XML in a zip,
stripping the DTD, dropping control bytes, reading timestamps, splitting at
midnight) it imports rather than copies, it favours being obviously correct
over being fast: every value is summed and averaged in exact arithmetic
(fractions from the decimal strings of the file), rounded once at the end.

Usage:
    scripts/reference_metrics.py [--tz Area/City] [-o OUT.json] INPUT

The committed expectations are made with (from the repository root):
    for f in de_DE-2015-2018-Export.zip ios16-broken-dtd-export.zip \\
             macosx-decoys-export.zip ru_RU-testdata.xml trimmed-no-dtd-export.xml; do
        scripts/reference_metrics.py ../shared/fixtures/apple/$f \\
            -o Tests/Fixtures/expected/${f%.*}.metrics.json
    done
    scripts/reference_metrics.py --tz Europe/Berlin \\
        ../shared/fixtures/apple/de_DE-2015-2018-Export.zip \\
        -o Tests/Fixtures/expected/de_DE-2015-2018-Export.metrics.tz-Europe-Berlin.json

INPUT is an Apple Health export.zip (also a zip holding that zip) or a bare
export XML. Output (stdout, or -o): JSON
    {"columns": ["date", "steps", ..., "workout_min"],
     "days": [{"date": "YYYY-MM-DD", "<column>": value, ...}],
     "left_out": {"<metric>": N, ...}}
A day is listed when any column has a value; a column is present only when the
day has a value for it. Whole columns are integers, hr_avg, resting_hr,
hrv_sdnn_ms and vo2max numbers with one decimal. left_out counts, per metric,
the samples (sampled metrics) or source-days (the others) left out as
implausible. A summary goes to stderr.

Exit status: 0 ok; 1 when a record of a metric was rejected (unknown unit,
unknown sleep value, unreadable date or value, end before start: each reported
on stderr and left out), or when the steps column differs from what
scripts/reference_totals.py computes (the self-check; --no-steps-check skips
it); 2 when the input cannot be read at all.

Rules (docs/metrics.md, the binding specification):
  * Only top-level <Record> and <Workout> elements (children of <HealthData>).
  * Zone rule as for steps: each sample in the offset written in its startDate
    (sleep periods: the endDate offset of the record that ends the period), or
    with --tz every instant in that IANA zone.
  * Cumulative (steps, distance, active-energy, flights, exercise): value x unit
    factor; exact duplicates (source, start instant, end instant, converted
    value) once; split at local midnight in proportion to time (zero-length:
    whole on its day); per source and day summed, rounded half away from zero;
    a source-day over the plausible maximum (or below 0) is left out (steps:
    never); the highest source wins, ties to the name first in UTF-8 byte
    order; a day whose winner rounds to 0 is empty. Steps' unit is not checked.
  * Sampled (heart-rate, resting-hr, hrv, vo2max): value x unit factor; exact
    duplicates once; a sample outside its range (inclusive) is left out; day of
    the start; the source with the most samples that day (ties by name) gives
    the mean (one decimal, half away from zero) and for heart rate the minimum
    and maximum (whole, half away from zero).
  * Sleep (sleep = Asleep, AsleepUnspecified, AsleepCore, AsleepDeep,
    AsleepREM; in-bed = InBed; Awake ignored; any other value rejected): per
    source the union of its intervals, cut into periods at gaps of an hour or
    more; a period's minutes (union length) go to the local day of its end; per
    source-day the minutes are summed; over 1440 (rounded) left out; the source
    with the most (exact) minutes wins, ties by name; rounded half away from
    zero; a winner that rounds to 0 leaves the day empty.
  * Workouts: each top-level <Workout> on the local day of its start; minutes =
    duration x durationUnit factor (min, s, hr), else end - start; exact
    duplicates (source, start, end, minutes) once; per source-day count and
    minutes; over 1440 minutes (rounded) left out; the source with the most
    (exact) minutes wins, ties by name, giving workouts and workout_min.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import sys
import xml.etree.ElementTree as ET
import zipfile
from fractions import Fraction as F
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_totals as rt  # noqa: E402  (the steps reference: input handling, dates, splitting)

UNKNOWN_SOURCE = rt.UNKNOWN_SOURCE
DAY = rt.DAY

COLUMNS = [
    "date", "steps", "distance_m", "active_kcal", "flights", "exercise_min",
    "hr_avg", "hr_min", "hr_max", "resting_hr", "hrv_sdnn_ms", "vo2max",
    "sleep_min", "in_bed_min", "workouts", "workout_min",
]
ONE_DECIMAL = {"hr_avg", "resting_hr", "hrv_sdnn_ms", "vo2max"}

# metric -> (record type, column, {unit: factor to the column's unit} or None (unchecked),
#            plausible maximum of a source-day's rounded sum or None (never left out))
CUMULATIVE = {
    "steps": ("HKQuantityTypeIdentifierStepCount", "steps", None, None),
    "distance": ("HKQuantityTypeIdentifierDistanceWalkingRunning", "distance_m", {
        "m": F(1), "km": F(1000), "cm": F(1, 100), "mi": F("1609.344"),
        "ft": F("0.3048"), "yd": F("0.9144")}, 350_000),
    "active-energy": ("HKQuantityTypeIdentifierActiveEnergyBurned", "active_kcal", {
        "kcal": F(1), "Cal": F(1), "kJ": 1 / F("4.184"), "cal": F(1, 1000),
        "J": F(1, 4184)}, 20_000),
    "flights": ("HKQuantityTypeIdentifierFlightsClimbed", "flights", {"count": F(1)}, 5_000),
    "exercise": ("HKQuantityTypeIdentifierAppleExerciseTime", "exercise_min", {
        "min": F(1), "s": F(1, 60), "hr": F(60)}, 1_440),
}

VO2_UNITS = {u: F(1) for u in ("mL/min\u00b7kg", "mL/kg\u00b7min", "mL/(kg\u00b7min)", "ml/(kg*min)")}
# metric -> (record type, {unit: factor}, (low, high) inclusive, on each sample)
SAMPLED = {
    "heart-rate": ("HKQuantityTypeIdentifierHeartRate", {"count/min": F(1), "count/s": F(60)}, (25, 250)),
    "resting-hr": ("HKQuantityTypeIdentifierRestingHeartRate", {"count/min": F(1), "count/s": F(60)}, (25, 150)),
    "hrv": ("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", {"ms": F(1), "s": F(1000)}, (1, 300)),
    "vo2max": ("HKQuantityTypeIdentifierVO2Max", VO2_UNITS, (10, 95)),
}
SAMPLED_COLUMN = {"resting-hr": "resting_hr", "hrv": "hrv_sdnn_ms", "vo2max": "vo2max"}

SLEEP_TYPE = "HKCategoryTypeIdentifierSleepAnalysis"
SLEEP_PREFIX = "HKCategoryValueSleepAnalysis"
ASLEEP = {SLEEP_PREFIX + v for v in ("Asleep", "AsleepUnspecified", "AsleepCore", "AsleepDeep", "AsleepREM")}
IN_BED = SLEEP_PREFIX + "InBed"
AWAKE = SLEEP_PREFIX + "Awake"
SLEEP_MAX_MIN = 1_440
PERIOD_GAP = 3600  # seconds: a gap this long or longer starts a new sleep period

WORKOUT_UNITS = {"min": F(1), "s": F(1, 60), "hr": F(60)}
WORKOUT_MAX_MIN = 1_440

METRICS = list(CUMULATIVE) + list(SAMPLED) + ["sleep", "in-bed", "workouts"]
TYPE_TO_METRIC = {v[0]: k for k, v in CUMULATIVE.items()} | {v[0]: k for k, v in SAMPLED.items()}


class Rejected(Exception):
    """A record of a metric that cannot be read (reported, exit 1)."""


def name_key(source: str) -> bytes:
    """Tie-break order: the name's UTF-8 bytes."""
    return source.encode("utf-8")


def round_half_away(x: F) -> int:
    return rt.round_half_away_exact(x)


def round_tenth(x: F) -> F:
    """Round to one decimal, half away from zero."""
    return F(round_half_away(x * 10), 10)


def exact_number(text: str | None) -> F:
    if not rt._is_decimal(text):  # ASCII decimals only, as the steps reference reads them
        raise Rejected(f"bad value {text!r}")
    return F(text.strip())


class Computation:
    def __init__(self, zone: ZoneInfo | None):
        self.zone = zone
        self.errors: list[str] = []
        self.notes: list[str] = []
        self.seen_records = {m: 0 for m in METRICS}
        self.nested_ignored = {m: 0 for m in METRICS}
        self.duplicates = {m: 0 for m in METRICS}
        self.units: dict[str, dict[str, int]] = {m: {} for m in METRICS}
        self.left_out = {m: 0 for m in METRICS if m != "steps"}
        self.left_out_examples: dict[str, list[str]] = {m: [] for m in METRICS}
        # cumulative: metric -> {(source, date): Fraction}, and the same in floats
        self.cum_seen: dict[str, set] = {m: set() for m in CUMULATIVE}
        self.cum_exact: dict[str, dict[tuple[str, str], F]] = {m: {} for m in CUMULATIVE}
        self.cum_float: dict[str, dict[tuple[str, str], float]] = {m: {} for m in CUMULATIVE}
        # sampled: metric -> {(date, source): [Fraction]}, and the day's floats beside them
        self.smp_seen: dict[str, set] = {m: set() for m in SAMPLED}
        self.smp: dict[str, dict[tuple[str, str], list[F]]] = {m: {} for m in SAMPLED}
        self.smp_float: dict[str, dict[tuple[str, str], list[float]]] = {m: {} for m in SAMPLED}
        # sleep: kind -> {source: [(start, end, end offset, file order)]}
        self.sleep: dict[str, dict[str, list[tuple[int, int, int, int]]]] = {"sleep": {}, "in-bed": {}}
        self.sleep_values: dict[str, int] = {}
        self.sleep_seen: set = set()  # only to count exact duplicates: the union absorbs them anyway
        # workouts: {(source, date): [count, Fraction minutes]}
        self.wk_seen: set = set()
        self.wk: dict[tuple[str, str], list] = {}
        self.order = 0
        self.fragile: list[str] = []  # where floats (as a Swift Double would) round otherwise than exact arithmetic
        self.halves: list[str] = []  # exact results at a rounding half (rounded away from zero)
        self.findings: list[str] = []  # data oddities worth a look

    # ---------------------------------------------------------------- dates

    def local_date(self, instant: int, offset: int) -> str:
        if self.zone is None:
            return rt.day_string((instant + offset) // DAY)
        return dt.datetime.fromtimestamp(instant, tz=self.zone).date().isoformat()

    def pieces(self, start: int, end: int, offset: int):
        if self.zone is None:
            return list(rt.pieces_file_offset(start, end, offset))
        return list(rt.pieces_zone(start, end, self.zone))

    @staticmethod
    def interval(a) -> tuple[int, int, int, int]:
        try:
            s, soff = rt.parse_date(a.get("startDate", ""))
            e, eoff = rt.parse_date(a.get("endDate", ""))
        except ValueError as ex:
            raise Rejected(str(ex))
        if e < s:
            raise Rejected(f"end {a.get('endDate')!r} is before start")
        return s, soff, e, eoff

    # ---------------------------------------------------------------- records

    def record(self, el: ET.Element):
        a = el.attrib
        kind = a.get("type")
        if kind == SLEEP_TYPE:
            metric = "sleep"
        elif kind in TYPE_TO_METRIC:
            metric = TYPE_TO_METRIC[kind]
        else:
            return
        self.order += 1
        src = a.get("sourceName", UNKNOWN_SOURCE)
        where = f"{kind} record ({src!r}, start {a.get('startDate')!r})"
        try:
            if kind == SLEEP_TYPE:
                self.sleep_record(a, src)
            elif metric in CUMULATIVE:
                self.seen_records[metric] += 1
                self.cumulative_record(metric, a, src)
            else:
                self.seen_records[metric] += 1
                self.sampled_record(metric, a, src)
        except Rejected as ex:
            self.errors.append(f"{where}: {ex}; rejected")

    def converted(self, metric: str, units, a) -> F:
        unit = a.get("unit")
        self.units[metric][str(unit)] = self.units[metric].get(str(unit), 0) + 1
        value = exact_number(a.get("value"))
        if units is None:
            return value
        if unit not in units:
            raise Rejected(f"unknown unit {unit!r} for {metric}")
        return value * units[unit]

    def cumulative_record(self, metric: str, a, src: str):
        _, _, units, _ = CUMULATIVE[metric]
        value = self.converted(metric, units, a)
        s, soff, e, _ = self.interval(a)
        key = (src, s, e, value)
        if key in self.cum_seen[metric]:
            self.duplicates[metric] += 1
            return
        self.cum_seen[metric].add(key)
        # The float twin follows the file's decimal string, converted in floats.
        fvalue = float(a["value"]) * (1.0 if units is None else float(units[a["unit"]]))
        length = e - s
        exact, floats = self.cum_exact[metric], self.cum_float[metric]
        for date, num in self.pieces(s, e, soff):
            k = (src, date)
            if num is None:
                share, fshare = value, fvalue
            else:
                share, fshare = value * num / length, fvalue * num / length
            exact[k] = exact.get(k, F(0)) + share
            floats[k] = floats.get(k, 0.0) + fshare

    def sampled_record(self, metric: str, a, src: str):
        _, units, (low, high) = SAMPLED[metric]
        value = self.converted(metric, units, a)
        s, soff, e, _ = self.interval(a)
        key = (src, s, e, value)
        if key in self.smp_seen[metric]:
            self.duplicates[metric] += 1
            return
        self.smp_seen[metric].add(key)
        if not (low <= value <= high):
            self.left_out[metric] += 1
            if len(self.left_out_examples[metric]) < 5:
                self.left_out_examples[metric].append(f"{src!r} {a.get('startDate')}: {float(value)}")
            return
        k = (self.local_date(s, soff), src)
        self.smp[metric].setdefault(k, []).append(value)
        self.smp_float[metric].setdefault(k, []).append(float(a["value"]) * float(units[a["unit"]]))

    def sleep_record(self, a, src: str):
        value = a.get("value")
        self.sleep_values[str(value)] = self.sleep_values.get(str(value), 0) + 1
        if value in ASLEEP:
            kind = "sleep"
        elif value == IN_BED:
            kind = "in-bed"
        elif value == AWAKE:
            return
        else:
            self.seen_records["sleep"] += 1
            raise Rejected(f"unknown sleep value {value!r}")
        self.seen_records[kind] += 1
        s, _, e, eoff = self.interval(a)
        if (kind, src, s, e) in self.sleep_seen:
            self.duplicates[kind] += 1
        self.sleep_seen.add((kind, src, s, e))
        self.sleep[kind].setdefault(src, []).append((s, e, eoff, self.order))

    def workout(self, el: ET.Element):
        a = el.attrib
        self.seen_records["workouts"] += 1
        src = a.get("sourceName", UNKNOWN_SOURCE)
        where = f"Workout ({src!r}, start {a.get('startDate')!r})"
        try:
            s, soff, e, _ = self.interval(a)
            if a.get("duration") is not None:
                unit = a.get("durationUnit")
                self.units["workouts"][str(unit)] = self.units["workouts"].get(str(unit), 0) + 1
                if unit not in WORKOUT_UNITS:
                    raise Rejected(f"unknown durationUnit {unit!r}")
                minutes = exact_number(a.get("duration")) * WORKOUT_UNITS[unit]
            else:
                self.units["workouts"]["(no duration: end - start)"] = \
                    self.units["workouts"].get("(no duration: end - start)", 0) + 1
                minutes = F(e - s, 60)
        except Rejected as ex:
            self.errors.append(f"{where}: {ex}; rejected")
            return
        key = (src, s, e, minutes)
        if key in self.wk_seen:
            self.duplicates["workouts"] += 1
            return
        self.wk_seen.add(key)
        entry = self.wk.setdefault((src, self.local_date(s, soff)), [0, F(0)])
        entry[0] += 1
        entry[1] += minutes

    # ---------------------------------------------------------------- days

    def cumulative_days(self, metric: str, days: dict[str, dict]):
        _, column, _, maximum = CUMULATIVE[metric]
        exact, floats = self.cum_exact[metric], self.cum_float[metric]
        per_day: dict[str, list[tuple[str, int]]] = {}
        for (src, date), x in exact.items():
            r = round_half_away(x)
            if rt.round_half_away(floats[(src, date)]) != r:
                self.fragile.append(f"{metric} {src!r} {date}: exact sum {float(x)!r} rounds to {r}; "
                                    f"a float sum in file order is {floats[(src, date)]!r}")
            elif x % 1 == F(1, 2):
                self.halves.append(f"{metric} {src!r} {date}: sum {float(x)!r}")
            if maximum is not None and not (0 <= r <= maximum):
                self.left_out[metric] += 1
                if len(self.left_out_examples[metric]) < 5:
                    self.left_out_examples[metric].append(f"{src!r} {date}: {r}")
                continue
            if maximum is not None and (x > maximum) != (r > maximum):
                self.fragile.append(f"{metric} {src!r} {date}: {float(x)} is over {maximum} only before rounding")
            per_day.setdefault(date, []).append((src, r))
        for date, cands in per_day.items():
            src, r = min(cands, key=lambda c: (-c[1], name_key(c[0])))
            if r != 0:
                days.setdefault(date, {})[column] = r

    def sampled_days(self, metric: str, days: dict[str, dict]):
        per_day: dict[str, list[tuple[str, list[F]]]] = {}
        for (date, src), values in self.smp[metric].items():
            per_day.setdefault(date, []).append((src, values))
        for date, cands in per_day.items():
            src, values = min(cands, key=lambda c: (-len(c[1]), name_key(c[0])))
            mean = sum(values, F(0)) / len(values)
            floats = self.smp_float[metric][(date, src)]
            fmean = sum(floats) / len(floats)
            if rt.round_half_away(fmean * 10) != round_half_away(mean * 10):
                self.fragile.append(f"{metric} {src!r} {date}: exact mean {float(mean)!r}, float mean {fmean!r}")
            elif (mean * 10) % 1 == F(1, 2):
                self.halves.append(f"{metric} {src!r} {date}: mean {float(mean)!r}")
            row = days.setdefault(date, {})
            if metric == "heart-rate":
                row["hr_avg"] = round_tenth(mean)
                row["hr_min"] = round_half_away(min(values))
                row["hr_max"] = round_half_away(max(values))
            else:
                row[SAMPLED_COLUMN[metric]] = round_tenth(mean)

    def sleep_days(self, kind: str, days: dict[str, dict]):
        column = "sleep_min" if kind == "sleep" else "in_bed_min"
        per_source_day: dict[tuple[str, str], int] = {}  # seconds
        for src, intervals in self.sleep[kind].items():
            for end, end_offset, seconds in periods(intervals, self.findings, f"{kind} {src!r}"):
                date = self.local_date(end, end_offset)
                if self.local_date(end, end_offset) != self.local_date(end - 1, end_offset):
                    self.findings.append(f"{kind} {src!r}: a period ends at local midnight ({date})")
                per_source_day[(src, date)] = per_source_day.get((src, date), 0) + seconds
        per_day: dict[str, list[tuple[str, int]]] = {}
        for (src, date), seconds in per_source_day.items():
            minutes = round_half_away(F(seconds, 60))
            if seconds % 60 == 30:
                self.halves.append(f"{kind} {src!r} {date}: {seconds} s")
            if minutes > SLEEP_MAX_MIN:
                self.left_out[kind] += 1
                if len(self.left_out_examples[kind]) < 5:
                    self.left_out_examples[kind].append(f"{src!r} {date}: {minutes} min")
                continue
            per_day.setdefault(date, []).append((src, seconds))
        for date, cands in per_day.items():
            src, seconds = min(cands, key=lambda c: (-c[1], name_key(c[0])))
            minutes = round_half_away(F(seconds, 60))
            if minutes != 0:
                days.setdefault(date, {})[column] = minutes

    def workout_days(self, days: dict[str, dict]):
        per_day: dict[str, list[tuple[str, int, F]]] = {}
        for (src, date), (count, minutes) in self.wk.items():
            if round_half_away(minutes) > WORKOUT_MAX_MIN:
                self.left_out["workouts"] += 1
                if len(self.left_out_examples["workouts"]) < 5:
                    self.left_out_examples["workouts"].append(f"{src!r} {date}: {float(minutes):.1f} min")
                continue
            per_day.setdefault(date, []).append((src, count, minutes))
        for date, cands in per_day.items():
            src, count, minutes = min(cands, key=lambda c: (-c[2], name_key(c[0])))
            row = days.setdefault(date, {})
            row["workouts"] = count
            row["workout_min"] = round_half_away(minutes)

    def result(self) -> dict:
        days: dict[str, dict] = {}
        for metric in CUMULATIVE:
            self.cumulative_days(metric, days)
        for metric in SAMPLED:
            self.sampled_days(metric, days)
        for kind in ("sleep", "in-bed"):
            self.sleep_days(kind, days)
        self.workout_days(days)
        out_days = []
        for date in sorted(days):
            row = {"date": date}
            for column in COLUMNS[1:]:
                if column in days[date]:
                    v = days[date][column]
                    row[column] = float(v) if column in ONE_DECIMAL else int(v)
            out_days.append(row)
        return {"columns": COLUMNS, "days": out_days, "left_out": dict(self.left_out)}


def periods(intervals, findings: list[str], label: str):
    """One source's intervals -> [(period end instant, offset of the record that
    ends it, covered seconds)]: the union, cut at gaps of PERIOD_GAP or more."""
    out = []
    cur = None  # [union end, end offset, covered seconds, order of the ending record]
    for s, e, off, order in sorted(intervals):
        if cur is not None and s - cur[0] >= PERIOD_GAP:
            out.append((cur[0], cur[1], cur[2]))
            cur = None
        if cur is None:
            cur = [e, off, e - s, order]
            continue
        if s >= cur[0]:
            cur[2] += e - s
            cur[0], cur[1], cur[3] = e, off, order
        elif e > cur[0]:
            cur[2] += e - cur[0]
            cur[0], cur[1], cur[3] = e, off, order
        elif e == cur[0] and off != cur[1]:
            findings.append(f"{label}: two records end a period at the same instant with different offsets")
    if cur is not None:
        out.append((cur[0], cur[1], cur[2]))
    return out


def compute(path: str, zone: ZoneInfo | None) -> tuple[dict, Computation, str]:
    c = Computation(zone)
    stats = {"control_bytes_dropped": 0, "dtd_stripped_lines": 0}
    stream, described = rt.open_input(path, c.notes)
    parser = ET.XMLPullParser(events=("start", "end"))
    depth = 0
    root = None
    try:
        for chunk in rt.filtered_chunks(stream, stats):
            parser.feed(chunk)
            for event, el in parser.read_events():
                if event == "start":
                    depth += 1
                    if depth == 1:
                        root = el
                        if el.tag != "HealthData":
                            raise rt.InputError(f"root element is <{el.tag}>, not <HealthData>")
                    continue
                if depth == 2:
                    if el.tag == "Record":
                        c.record(el)
                    elif el.tag == "Workout":
                        c.workout(el)
                    count_nested(c, el)
                    root.remove(el)  # keep memory flat
                depth -= 1
        parser.close()
    except ET.ParseError as ex:
        raise rt.InputError(f"{described}: XML error: {ex}")
    finally:
        stream.close()
    if root is None:
        raise rt.InputError(f"{described}: no root element")
    return c.result(), c, described


def count_nested(c: Computation, top: ET.Element):
    """Records (and Workouts) below a top-level element: never counted."""
    for el in top.iter():
        if el is top:
            continue
        if el.tag == "Record":
            kind = el.get("type")
            if kind == SLEEP_TYPE:
                c.nested_ignored["sleep"] += 1
            elif kind in TYPE_TO_METRIC:
                c.nested_ignored[TYPE_TO_METRIC[kind]] += 1
        elif el.tag == "Workout":
            c.nested_ignored["workouts"] += 1


def check_steps(result: dict, path: str, zone: ZoneInfo | None) -> list[str]:
    """The steps column must be what scripts/reference_totals.py computes."""
    steps, _ = rt.compute(path, zone, None, None)
    want = {d["date"]: d["steps"] for d in steps["days"]}
    have = {d["date"]: d["steps"] for d in result["days"] if "steps" in d}
    return [f"steps on {date}: reference_totals {want.get(date)}, here {have.get(date)}"
            for date in sorted(set(want) | set(have)) if want.get(date) != have.get(date)]


def print_summary(result: dict, c: Computation, described: str, out=None):
    out = out or sys.stderr
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"input: {described}")
    p(f"zone rule: {'--tz ' + c.zone.key if c.zone else 'file offset (startDate; sleep: the ending record endDate)'}")
    for n in c.notes:
        p(f"note: {n}")
    for m in METRICS:
        parts = [f"{c.seen_records[m]} top-level"]
        if c.nested_ignored[m]:
            parts.append(f"{c.nested_ignored[m]} nested (ignored)")
        if c.duplicates[m]:
            parts.append(f"{c.duplicates[m]} exact duplicates"
                         + (" (absorbed by the union)" if m in ("sleep", "in-bed") else ""))
        if c.units[m]:
            parts.append("units " + ", ".join(f"{u}={n}" for u, n in sorted(c.units[m].items())))
        if c.left_out.get(m):
            parts.append(f"{c.left_out[m]} left out as implausible")
        p(f"{m}: " + "; ".join(parts))
        for ex in c.left_out_examples[m]:
            p(f"    left out: {ex}")
    if c.sleep_values:
        p("sleep values: " + ", ".join(f"{v}={n}" for v, n in sorted(c.sleep_values.items())))
    for column in COLUMNS[1:]:
        values = [d[column] for d in result["days"] if column in d]
        if values:
            p(f"  {column}: {len(values)} days, min {min(values)}, max {max(values)}, "
              f"mean {sum(values) / len(values):.1f}")
    p(f"days: {len(result['days'])}"
      + (f" ({result['days'][0]['date']} .. {result['days'][-1]['date']})" if result["days"] else ""))
    for f in sorted(set(c.findings))[:20]:
        p(f"finding: {f}")
    if c.halves:
        p(f"exact results at a rounding half (rounded away from zero): {len(c.halves)}")
        for f in c.halves[:20]:
            p(f"  {f}")
    if c.fragile:
        p(f"WARNING results that plain float arithmetic rounds otherwise (exact given): {len(c.fragile)}")
        for f in c.fragile[:20]:
            p(f"  {f}")
    if c.errors:
        p(f"ERRORS (rejected records): {len(c.errors)}")
        for e in c.errors[:50]:
            p(f"  {e}")
        if len(c.errors) > 50:
            p(f"  ... {len(c.errors) - 50} more")


def to_json(result: dict) -> str:
    """Stable, diff-friendly JSON: one day a line."""
    dump = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    days = ",\n".join("  " + dump(d) for d in result["days"])
    return ("{\n"
            f' "columns": {dump(result["columns"])},\n'
            f' "days": [' + (f"\n{days}\n " if days else "") + "],\n"
            f' "left_out": {dump(result["left_out"])}\n'
            "}\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description="Reference daily metrics (docs/metrics.md) for an Apple Health export (zip or XML).")
    ap.add_argument("input", help="export.zip or export XML")
    ap.add_argument("--tz", metavar="Area/City",
                    help="place every instant in this IANA zone (default: the offset written in the file)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write the JSON here instead of stdout")
    ap.add_argument("--no-steps-check", action="store_true",
                    help="skip comparing the steps column with scripts/reference_totals.py")
    args = ap.parse_args(argv)

    zone = None
    if args.tz:
        try:
            zone = ZoneInfo(args.tz)
        except (ZoneInfoNotFoundError, ValueError):
            print(f"error: unknown time zone {args.tz!r}", file=sys.stderr)
            return 2
    try:
        result, c, described = compute(args.input, zone)
        mismatches = [] if args.no_steps_check else check_steps(result, args.input, zone)
    except (rt.InputError, OSError, zipfile.BadZipFile) as ex:
        print(f"error: {ex}", file=sys.stderr)
        return 2

    text = to_json(result)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print_summary(result, c, described)
    if mismatches:
        print(f"SELF-CHECK FAILED: the steps column differs from scripts/reference_totals.py "
              f"on {len(mismatches)} days", file=sys.stderr)
        for m in mismatches[:20]:
            print(f"  {m}", file=sys.stderr)
    elif not args.no_steps_check:
        print("self-check: the steps column equals scripts/reference_totals.py's totals", file=sys.stderr)
    return 1 if c.errors or mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
