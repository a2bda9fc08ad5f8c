#!/usr/bin/env python3
"""Tests for scripts/reference_metrics.py (stdlib unittest, Python 3.11+).

Run:  python3 scripts/test_reference_metrics.py [-v]

The real fixtures hold no resting heart rate, HRV, VO2max or most of the units
of docs/metrics.md: these small hand-made exports check every rule of that
page on the oracle itself, one at a time, so that the expectations it writes
for the real fixtures rest on rules that were each checked.
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_metrics as rm  # noqa: E402

HR = "HKQuantityTypeIdentifierHeartRate"
DIST = "HKQuantityTypeIdentifierDistanceWalkingRunning"
SLEEP = "HKCategoryTypeIdentifierSleepAnalysis"
ASLEEP = "HKCategoryValueSleepAnalysisAsleep"


def rec(kind, start, end=None, value="1", unit=None, source="Watch", extra=""):
    unit_attr = f' unit="{unit}"' if unit is not None else ""
    return (f'<Record type="{kind}" sourceName="{source}"{unit_attr} '
            f'startDate="{start}" endDate="{end or start}" value="{value}"{extra}/>')


def sleep(start, end, value=ASLEEP, source="Watch"):
    return rec(SLEEP, start, end, value if value.startswith("HK") else "HKCategoryValueSleepAnalysis" + value,
               source=source)


def workout(start, end, duration=None, unit="min", source="Watch"):
    d = f' duration="{duration}" durationUnit="{unit}"' if duration is not None else ""
    return (f'<Workout workoutActivityType="HKWorkoutActivityTypeWalking"{d} sourceName="{source}" '
            f'startDate="{start}" endDate="{end}"/>')


class OracleCase(unittest.TestCase):
    def run_oracle(self, *records, tz=None):
        """(result JSON, exit status, stderr) of the script's main on an export of these records."""
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "export.xml")
            with open(path, "w", encoding="utf-8") as f:
                f.write('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n')
                f.write("\n".join(records))
                f.write("\n</HealthData>\n")
            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                status = rm.main([path] + (["--tz", tz] if tz else []))
        result = json.loads(out.getvalue()) if out.getvalue() else None
        return result, status, err.getvalue()

    def days(self, *records, tz=None):
        result, status, err = self.run_oracle(*records, tz=tz)
        self.assertEqual(status, 0, err)
        return {d.pop("date"): d for d in result["days"]}

    def left_out(self, *records):
        result, status, err = self.run_oracle(*records)
        self.assertEqual(status, 0, err)
        return result["left_out"]


class OutputTests(OracleCase):
    def test_columns_and_only_present_keys(self):
        result, status, _ = self.run_oracle(rec(HR, "2024-03-15 10:00:00 +0100", value="62", unit="count/min"))
        self.assertEqual(status, 0)
        self.assertEqual(result["columns"], rm.COLUMNS)
        self.assertEqual(len(result["columns"]), 16)
        self.assertEqual(result["days"], [{"date": "2024-03-15", "hr_avg": 62.0, "hr_min": 62, "hr_max": 62}])
        self.assertIsInstance(result["days"][0]["hr_avg"], float)
        self.assertIsInstance(result["days"][0]["hr_min"], int)

    def test_nested_records_do_not_count(self):
        nested = ('<Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" '
                  'startDate="2024-03-15 10:00:00 +0100" endDate="2024-03-15 10:00:00 +0100">'
                  + rec(HR, "2024-03-15 10:00:00 +0100", value="90", unit="count/min", source="Cuff")
                  + "</Correlation>")
        self.assertEqual(self.days(nested), {})

    def test_end_before_start_is_rejected(self):
        _, status, err = self.run_oracle(rec(DIST, "2024-03-15 10:00:00 +0100", "2024-03-15 09:00:00 +0100",
                                             value="1", unit="km"))
        self.assertEqual(status, 1)
        self.assertIn("before start", err)


class UnitTests(OracleCase):
    def one(self, kind, value, unit, column):
        return self.days(rec(kind, "2024-03-15 10:00:00 +0100", "2024-03-15 10:30:00 +0100",
                             value=value, unit=unit))["2024-03-15"][column]

    def test_distance_units(self):
        for value, unit, metres in [("1.5", "km", 1500), ("1234", "m", 1234), ("12345", "cm", 123),
                                    ("1", "mi", 1609), ("1000", "ft", 305), ("1000", "yd", 914)]:
            self.assertEqual(self.one(DIST, value, unit, "distance_m"), metres, unit)

    def test_energy_units(self):
        kind = "HKQuantityTypeIdentifierActiveEnergyBurned"
        for value, unit, kcal in [("300", "kcal", 300), ("300", "Cal", 300), ("4184", "kJ", 1000),
                                  ("300000", "cal", 300), ("4184000", "J", 1000)]:
            self.assertEqual(self.one(kind, value, unit, "active_kcal"), kcal, unit)

    def test_exercise_and_flights_units(self):
        kind = "HKQuantityTypeIdentifierAppleExerciseTime"
        for value, unit, minutes in [("30", "min", 30), ("1800", "s", 30), ("0.5", "hr", 30)]:
            self.assertEqual(self.one(kind, value, unit, "exercise_min"), minutes, unit)
        self.assertEqual(self.one("HKQuantityTypeIdentifierFlightsClimbed", "7", "count", "flights"), 7)

    def test_sampled_units(self):
        self.assertEqual(self.one(HR, "1.2", "count/s", "hr_avg"), 72.0)
        self.assertEqual(self.one("HKQuantityTypeIdentifierRestingHeartRate", "55", "count/min", "resting_hr"), 55.0)
        self.assertEqual(self.one("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "0.0425", "s",
                                  "hrv_sdnn_ms"), 42.5)
        self.assertEqual(self.one("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "42.5", "ms",
                                  "hrv_sdnn_ms"), 42.5)
        for unit in ("mL/min\u00b7kg", "mL/kg\u00b7min", "mL/(kg\u00b7min)", "ml/(kg*min)"):
            self.assertEqual(self.one("HKQuantityTypeIdentifierVO2Max", "41.37", unit, "vo2max"), 41.4, unit)

    def test_unknown_unit_is_rejected(self):
        for kind, unit in [(DIST, "furlong"), (HR, "bpm"), (DIST, None),
                           ("HKQuantityTypeIdentifierVO2Max", "mL/(kg*min)")]:
            result, status, err = self.run_oracle(rec(kind, "2024-03-15 10:00:00 +0100", value="40", unit=unit))
            self.assertEqual(status, 1, (kind, unit))
            self.assertIn("unknown unit", err)
            self.assertEqual(result["days"], [])

    def test_steps_unit_is_not_checked(self):
        days = self.days(rec("HKQuantityTypeIdentifierStepCount", "2024-03-15 10:00:00 +0100", value="100",
                             unit="whatever"))
        self.assertEqual(days["2024-03-15"], {"steps": 100})


class CumulativeTests(OracleCase):
    def test_exact_duplicates_after_conversion_count_once(self):
        a = rec(DIST, "2024-03-15 10:00:00 +0100", "2024-03-15 10:30:00 +0100", value="1", unit="km")
        b = rec(DIST, "2024-03-15 10:00:00 +0100", "2024-03-15 10:30:00 +0100", value="1000", unit="m")
        c = rec(DIST, "2024-03-15 10:00:00 +0100", "2024-03-15 10:30:00 +0100", value="1000", unit="m",
                source="Phone")
        self.assertEqual(self.days(a, b, a)["2024-03-15"]["distance_m"], 1000)
        # The same instant written with another offset is the same sample.
        d = rec(DIST, "2024-03-15 11:00:00 +0200", "2024-03-15 11:30:00 +0200", value="1", unit="km")
        self.assertEqual(self.days(a, d)["2024-03-15"]["distance_m"], 1000)
        self.assertEqual(self.days(a, c)["2024-03-15"]["distance_m"], 1000)  # highest, not the sum

    def test_split_at_local_midnight_and_rounded_per_source_day(self):
        days = self.days(rec(DIST, "2024-03-15 23:00:00 +0100", "2024-03-16 01:00:00 +0100",
                             value="1.001", unit="km"))
        self.assertEqual(days["2024-03-15"]["distance_m"], 501)  # 500.5 rounds away from zero
        self.assertEqual(days["2024-03-16"]["distance_m"], 501)
        # With --tz the zone's midnight cuts: 22:00Z-02:00Z is 23:00 CET to 04:00 CEST (DST day).
        days = self.days(rec(DIST, "2024-03-30 22:00:00 +0000", "2024-03-31 02:00:00 +0000",
                             value="4", unit="km"), tz="Europe/Berlin")
        self.assertEqual(days["2024-03-30"]["distance_m"], 1000)
        self.assertEqual(days["2024-03-31"]["distance_m"], 3000)

    def test_highest_source_ties_by_utf8_name(self):
        kind = "HKQuantityTypeIdentifierFlightsClimbed"
        records = [rec(kind, "2024-03-15 10:00:00 +0100", value="5", unit="count", source=s)
                   for s in ("Zeta", "\u00c4pfel", "Alpha")]
        result, _, _ = self.run_oracle(*records)
        self.assertEqual(result["days"][0]["flights"], 5)
        records.append(rec(kind, "2024-03-15 11:00:00 +0100", value="1", unit="count", source="Zeta"))
        self.assertEqual(self.days(*records)["2024-03-15"]["flights"], 6)

    def test_implausible_source_day_is_left_out_and_the_next_source_wins(self):
        big = rec(DIST, "2024-03-15 01:00:00 +0100", "2024-03-15 23:00:00 +0100", value="350.001", unit="km",
                  source="Broken")
        ok = rec(DIST, "2024-03-15 10:00:00 +0100", "2024-03-15 11:00:00 +0100", value="5", unit="km")
        self.assertEqual(self.days(big, ok)["2024-03-15"]["distance_m"], 5000)
        self.assertEqual(self.left_out(big, ok)["distance"], 1)
        edge = rec(DIST, "2024-03-15 01:00:00 +0100", "2024-03-15 23:00:00 +0100", value="350", unit="km")
        self.assertEqual(self.days(edge)["2024-03-15"]["distance_m"], 350000)
        kind = "HKQuantityTypeIdentifierAppleExerciseTime"
        over = [rec(kind, f"2024-03-15 {h:02}:00:00 +0100", f"2024-03-15 {h:02}:59:59 +0100", value="61",
                    unit="min") for h in range(24)]
        self.assertEqual(self.days(*over), {})
        self.assertEqual(self.left_out(*over)["exercise"], 1)

    def test_steps_are_never_left_out(self):
        days = self.days(rec("HKQuantityTypeIdentifierStepCount", "2024-03-15 10:00:00 +0100",
                             value="150000", unit="count"))
        self.assertEqual(days["2024-03-15"]["steps"], 150000)

    def test_zero_days_are_empty(self):
        kind = "HKQuantityTypeIdentifierActiveEnergyBurned"
        self.assertEqual(self.days(rec(kind, "2024-03-15 10:00:00 +0100", value="0.4", unit="kcal"),
                                   rec(kind, "2024-03-15 10:00:00 +0100", value="0.3", unit="kcal", source="B")), {})


class SampledTests(OracleCase):
    def test_range_is_inclusive_and_left_out_counted(self):
        values = ["24.9", "25", "250", "250.1", "0"]
        records = [rec(HR, f"2024-03-15 10:0{i}:00 +0100", value=v, unit="count/min") for i, v in enumerate(values)]
        days = self.days(*records)
        self.assertEqual(days["2024-03-15"], {"hr_avg": 137.5, "hr_min": 25, "hr_max": 250})
        self.assertEqual(self.left_out(*records)["heart-rate"], 3)
        for kind, low, high, key in [("HKQuantityTypeIdentifierRestingHeartRate", "25", "150", "resting-hr"),
                                     ("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "1", "300", "hrv"),
                                     ("HKQuantityTypeIdentifierVO2Max", "10", "95", "vo2max")]:
            unit = {"resting-hr": "count/min", "hrv": "ms", "vo2max": "ml/(kg*min)"}[key]
            inside = [rec(kind, "2024-03-15 10:00:00 +0100", value=low, unit=unit),
                      rec(kind, "2024-03-15 11:00:00 +0100", value=high, unit=unit)]
            outside = [rec(kind, "2024-03-15 12:00:00 +0100", value=str(float(low) - 0.01), unit=unit),
                       rec(kind, "2024-03-15 13:00:00 +0100", value=str(float(high) + 0.01), unit=unit)]
            self.assertEqual(self.left_out(*inside, *outside)[key], 2, key)

    def test_source_with_most_samples_wins_ties_by_name(self):
        watch = [rec(HR, f"2024-03-15 10:0{i}:00 +0100", value=str(60 + i), unit="count/min") for i in range(3)]
        phone = [rec(HR, f"2024-03-15 11:0{i}:00 +0100", value="120", unit="count/min", source="Phone")
                 for i in range(2)]
        self.assertEqual(self.days(*watch, *phone)["2024-03-15"], {"hr_avg": 61.0, "hr_min": 60, "hr_max": 62})
        # Exact duplicates count once: the phone's copies do not make it the bigger source.
        self.assertEqual(self.days(*watch, *phone, *phone)["2024-03-15"]["hr_avg"], 61.0)
        phone.append(rec(HR, "2024-03-15 11:09:00 +0100", value="100", unit="count/min", source="Phone"))
        # 3 against 3: "Phone" sorts before "Watch".
        self.assertEqual(self.days(*watch, *phone)["2024-03-15"], {"hr_avg": 113.3, "hr_min": 100, "hr_max": 120})

    def test_rounding_half_away_from_zero(self):
        values = ["72.4", "72.5"]  # mean 72.45 -> 72.5
        days = self.days(*[rec(HR, f"2024-03-15 10:0{i}:00 +0100", value=v, unit="count/min")
                           for i, v in enumerate(values)])
        self.assertEqual(days["2024-03-15"], {"hr_avg": 72.5, "hr_min": 72, "hr_max": 73})

    def test_day_of_the_start(self):
        r = rec("HKQuantityTypeIdentifierRestingHeartRate", "2024-03-15 23:59:00 +0100",
                "2024-03-16 00:30:00 +0100", value="50", unit="count/min")
        self.assertEqual(self.days(r), {"2024-03-15": {"resting_hr": 50.0}})
        self.assertEqual(self.days(r, tz="Europe/Berlin"), {"2024-03-15": {"resting_hr": 50.0}})
        self.assertEqual(self.days(r, tz="Europe/London"), {"2024-03-15": {"resting_hr": 50.0}})
        self.assertEqual(self.days(r, tz="Europe/Helsinki"), {"2024-03-16": {"resting_hr": 50.0}})


class SleepTests(OracleCase):
    def test_union_of_stages_and_copies(self):
        days = self.days(
            sleep("2024-03-14 23:00:00 +0100", "2024-03-15 07:00:00 +0100", "AsleepUnspecified"),
            sleep("2024-03-14 23:00:00 +0100", "2024-03-15 01:00:00 +0100", "AsleepCore"),
            sleep("2024-03-15 01:00:00 +0100", "2024-03-15 02:00:00 +0100", "AsleepDeep"),
            sleep("2024-03-15 06:00:00 +0100", "2024-03-15 07:30:00 +0100", "AsleepREM"),
            sleep("2024-03-15 06:00:00 +0100", "2024-03-15 07:30:00 +0100", "AsleepREM"),
            sleep("2024-03-15 03:00:00 +0100", "2024-03-15 03:20:00 +0100", "Awake"),
            sleep("2024-03-14 22:30:00 +0100", "2024-03-15 07:45:00 +0100", "InBed"))
        self.assertEqual(days, {"2024-03-15": {"sleep_min": 510, "in_bed_min": 555}})

    def test_periods_gaps_naps_and_the_day_of_the_end(self):
        days = self.days(
            sleep("2024-03-14 23:00:00 +0100", "2024-03-15 02:00:00 +0100"),
            sleep("2024-03-15 02:59:59 +0100", "2024-03-15 06:00:00 +0100"),  # gap under an hour: same period
            sleep("2024-03-15 14:00:00 +0100", "2024-03-15 14:30:00 +0100"),  # a nap: same day, added
            sleep("2024-03-15 22:00:00 +0100", "2024-03-15 23:00:00 +0100"),
            sleep("2024-03-16 00:00:00 +0100", "2024-03-16 06:00:00 +0100"))  # gap of exactly an hour: cut
        # 15th: 180 + 180.02 (night) + 30 (nap) + 60 (ends 23:00) = 450.02 min; 16th: 360 (its own period).
        self.assertEqual(days, {"2024-03-15": {"sleep_min": 450}, "2024-03-16": {"sleep_min": 360}})

    def test_gap_minutes_are_not_counted(self):
        days = self.days(sleep("2024-03-15 00:00:00 +0100", "2024-03-15 01:00:00 +0100"),
                         sleep("2024-03-15 01:59:00 +0100", "2024-03-15 03:00:00 +0100"))
        self.assertEqual(days, {"2024-03-15": {"sleep_min": 121}})

    def test_most_minutes_wins_and_sources_never_add(self):
        days = self.days(
            sleep("2024-03-14 23:00:00 +0100", "2024-03-15 07:00:00 +0100", source="Watch"),
            sleep("2024-03-14 23:30:00 +0100", "2024-03-15 07:30:00 +0100", "Asleep", source="Sleep App"),
            sleep("2024-03-15 12:00:00 +0100", "2024-03-15 12:20:00 +0100", source="Watch"))
        self.assertEqual(days, {"2024-03-15": {"sleep_min": 500}})

    def test_over_a_day_is_left_out(self):
        records = [sleep("2024-03-14 00:00:00 +0000", "2024-03-15 00:30:00 +0000", source="Broken"),
                   sleep("2024-03-14 23:00:00 +0000", "2024-03-15 06:00:00 +0000", source="Watch")]
        self.assertEqual(self.days(*records), {"2024-03-15": {"sleep_min": 420}})
        self.assertEqual(self.left_out(*records)["sleep"], 1)

    def test_the_end_is_placed_with_its_offset_or_the_zone(self):
        r = sleep("2024-03-15 17:00:00 -0700", "2024-03-15 23:30:00 -0700")
        self.assertEqual(self.days(r), {"2024-03-15": {"sleep_min": 390}})
        self.assertEqual(self.days(r, tz="Europe/Berlin"), {"2024-03-16": {"sleep_min": 390}})
        # The offset of the record that ends the period, not of the one that starts it.
        # 23:15 +0100 written as 00:15 +0200 (a traveller): the 16th.
        days = self.days(sleep("2024-03-15 21:00:00 +0100", "2024-03-15 22:00:00 +0100"),
                         sleep("2024-03-15 21:30:00 +0100", "2024-03-16 00:15:00 +0200"))
        self.assertEqual(days, {"2024-03-16": {"sleep_min": 135}})

    def test_unknown_value_is_rejected(self):
        result, status, err = self.run_oracle(sleep("2024-03-15 00:00:00 +0100", "2024-03-15 06:00:00 +0100",
                                                    "AsleepLight"))
        self.assertEqual(status, 1)
        self.assertIn("unknown sleep value", err)


class WorkoutTests(OracleCase):
    def test_duration_units_and_fallback(self):
        for duration, unit, minutes in [("34.5", "min", 35), ("2070", "s", 35), ("0.575", "hr", 35)]:
            days = self.days(workout("2024-03-15 09:00:00 +0100", "2024-03-15 10:00:00 +0100", duration, unit))
            self.assertEqual(days["2024-03-15"], {"workouts": 1, "workout_min": minutes}, unit)
        days = self.days(workout("2024-03-15 09:00:00 +0100", "2024-03-15 09:40:29 +0100"))
        self.assertEqual(days["2024-03-15"], {"workouts": 1, "workout_min": 40})
        _, status, _ = self.run_oracle(workout("2024-03-15 09:00:00 +0100", "2024-03-15 09:40:00 +0100",
                                               "40", "fortnight"))
        self.assertEqual(status, 1)

    def test_day_of_start_duplicates_and_the_source_with_most_minutes(self):
        days = self.days(
            workout("2024-03-15 23:30:00 +0100", "2024-03-16 00:30:00 +0100", "60"),
            workout("2024-03-15 23:30:00 +0100", "2024-03-16 00:30:00 +0100", "60"),
            workout("2024-03-15 07:00:00 +0100", "2024-03-15 07:20:00 +0100", "20"),
            workout("2024-03-15 23:30:00 +0100", "2024-03-16 00:30:00 +0100", "61", source="Strava"))
        self.assertEqual(days, {"2024-03-15": {"workouts": 2, "workout_min": 80}})
        days = self.days(workout("2024-03-15 10:00:00 +0100", "2024-03-15 10:30:00 +0100", "30", source="B"),
                         workout("2024-03-15 10:00:00 +0100", "2024-03-15 10:30:00 +0100", "30", source="A"))
        self.assertEqual(days, {"2024-03-15": {"workouts": 1, "workout_min": 30}})

    def test_over_a_day_of_minutes_is_left_out(self):
        records = [workout(f"2024-03-15 {h:02}:00:00 +0100", f"2024-03-15 {h:02}:59:00 +0100", "61")
                   for h in range(24)]
        self.assertEqual(self.days(*records), {})
        self.assertEqual(self.left_out(*records)["workouts"], 1)


if __name__ == "__main__":
    unittest.main()
