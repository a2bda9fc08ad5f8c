#!/usr/bin/env python3
"""Writes the committed seed corpus of the fuzz targets, Fuzz/corpus/<target>/.

Deterministic: the same stepimport-synth and fixtures give the same bytes. The seeds are cut
small on purpose (a few KB each, a few hundred KB in all): a fuzzer mutates small inputs
faster, and the large real exports are read by scripts/fuzz from ../shared/fixtures when
that folder is there, never copied here.

    swift build -c release --product stepimport-synth
    Fuzz/make_corpus.py [--synth .build/release/stepimport-synth] [--fixtures ../shared/fixtures]

Sources: stepimport-synth (Apple XML with the iOS 16 DTD and stray control characters, every
Health Connect JSON shape, a Health Connect database, Samsung Health's step CSVs in UTF-8 and
UTF-16), the small real fixtures of ../shared/fixtures (copied whole when a few KB, else their
first lines), samples/batch.csv, and a few hand-written inputs below (the format's corner cases:
a comment before the DOCTYPE, escapes, RFC 4180 quoting, zips inside zips, Zip64, HTTP answers).

A few seeds were written by hand and committed as they are (HAND_WRITTEN): this script keeps
them. Every other file of Fuzz/corpus/ that a run does not write is removed.
"""
import argparse
import io
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fuzz", "corpus")
# Every entry gets this time, so that the zips are the same bytes on every run.
ZIP_TIME = (2024, 3, 1, 12, 0, 0)
# Seeds written by hand and committed as they are, which no code here makes: kept by every run.
HAND_WRITTEN = {
    "fuzz-hc-json": ["fitbit-distance.json", "fitbit-heart-rate.json", "fitbit-invalid-rows.json", "fitbit-sleep.json",
                     "metrics-capacitor.json", "metrics-flutter.json", "metrics-hcgateway.json", "metrics-react-native.json"],
}
# The paths this run wrote: what else is in OUT afterwards (and not hand-written) is removed.
WRITTEN = set()


def write(target, name, data):
    folder = os.path.join(OUT, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path = os.path.join(folder, name)
    WRITTEN.add(path)
    with open(path, "wb") as out:
        out.write(data)


def remove_unwritten():
    """Removes the seeds of earlier runs that this one did not write, keeping HAND_WRITTEN."""
    kept = {os.path.join(OUT, target, name) for target, names in HAND_WRITTEN.items() for name in names}
    for folder, _, names in os.walk(OUT, topdown=False):
        for name in names:
            path = os.path.join(folder, name)
            if path not in WRITTEN and path not in kept:
                os.remove(path)
        if folder != OUT and not os.listdir(folder):
            os.rmdir(folder)


def read(path):
    with open(path, "rb") as source:
        return source.read()


def synth(binary, *args):
    subprocess.run([binary, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def zip_bytes(entries, zip64=False):
    """A zip of (name, bytes, compression) entries, with fixed times."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data, compression in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = compression
            with archive.open(info, "w", force_zip64=zip64) as entry:
                entry.write(data.encode() if isinstance(data, str) else data)
    return buffer.getvalue()


# ---------------------------------------------------------------- Apple XML

def cut_apple(xml):
    """The prolog (DTD included), the root, six step records, one Correlation, one record with a
    stray control character, two other records and the end of the root."""
    lines = xml.split(b"\n")
    root = next(i for i, line in enumerate(lines) if line.startswith(b"<HealthData"))
    head = lines[:root + 3]  # <HealthData>, <ExportDate>, <Me>
    body = lines[root + 3:]
    steps = [l for l in body if b"HKQuantityTypeIdentifierStepCount" in l and l.startswith(b" <Record")][:6]
    others = [l for l in body if l.startswith(b" <Record") and b"StepCount" not in l and l.endswith(b"/>")][:2]
    control = [l for l in body if b"\x0b" in l][:1]
    correlation = []
    for i, line in enumerate(body):
        if line.startswith(b" <Correlation"):
            end = next(j for j in range(i, len(body)) if body[j].startswith(b" </Correlation>"))
            correlation = body[i:end + 1]
            break
    return b"\n".join(head + steps + correlation + control + others + [b"</HealthData>", b""])


def apple_seeds(binary, fixtures, work):
    seeds = {}
    for mode in ["broken", "none"]:
        path = os.path.join(work, f"apple-{mode}.xml")
        synth(binary, "apple", "--out", path, "--days", "1", "--dtd", mode, "--control-chars")
        seeds[f"synth-dtd-{mode}.xml"] = cut_apple(read(path))
    if fixtures:
        for name in ["ru_RU-testdata.xml", "trimmed-no-dtd-export.xml"]:
            seeds[name] = read(os.path.join(fixtures, "apple", name))
        seeds["hostile-value-1e19.xml"] = read(os.path.join(fixtures, "hostile", "min_apple_1e19.xml"))
    record = ('<Record type="HKQuantityTypeIdentifierStepCount" sourceName="{}" startDate="2024-03-30 23:50:00 +0100" '
              'endDate="2024-03-31 00:20:00 +0200" value="{}"/>')
    seeds["comment-before-doctype.xml"] = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment -->\n<?pi data?>\n'
        '<!DOCTYPE HealthData [\n<!ENTITY e "&#60;x&#62;">\n<!ENTITY ext SYSTEM "file:///etc/passwd">\n]>\n'
        '<HealthData locale="en_US">\n ' + record.format("&amp;e; &e;", "12.5") + "\n"
        ' <Correlation type="HKCorrelationTypeIdentifierFood">\n  ' + record.format("nested", "7") + "\n </Correlation>\n"
        ' <![CDATA[ <Record type="HKQuantityTypeIdentifierStepCount"/> ]]>\n</HealthData>\n')
    seeds["odd-records.xml"] = (
        '<HealthData>\n'
        ' <Record type="HKQuantityTypeIdentifierStepCount" startDate="2024-01-01 10:00:00 +0000" '
        'endDate="2024-01-01 10:00:00 +0000" value="0"/>\n'
        ' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="x" startDate="2024-01-01T10:00:00Z" '
        'endDate="2024-02-01 10:00:00 -1800" value="-1"/>\n'
        ' <Record value="99999999999999999999" type="HKQuantityTypeIdentifierStepCount" sourceName="y" '
        'endDate="2200-12-31 23:59:59 +1400" startDate="1970-01-01 00:00:00 -1400"></Record>\n'
        '</HealthData>')
    # One record of every metric beyond steps (--metric), in units to convert, with the values
    # that are refused (an unknown unit, an unknown sleep value) and left out (a heart rate of 0).
    day = 'startDate="2024-01-0{0} 2{1}:00:00 +0100" endDate="2024-01-0{2} 0{3}:30:00 +0100"'
    seeds["metric-records.xml"] = (
        '<HealthData locale="en_US">\n'
        ' <Record type="HKQuantityTypeIdentifierDistanceWalkingRunning" sourceName="w" unit="mi" '
        + day.format(1, 3, 2, 0) + ' value="1.5"/>\n'
        ' <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="w" unit="kJ" '
        + day.format(1, 3, 2, 0) + ' value="418.4"/>\n'
        ' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="w" unit="count/min" '
        + day.format(1, 2, 1, 0).replace('2024-01-01 00:30', '2024-01-01 22:00') + ' value="0"/>\n'
        ' <Record type="HKQuantityTypeIdentifierVO2Max" sourceName="w" unit="mL/min\u00b7kg" '
        + day.format(1, 1, 2, 0) + ' value="41.5"/>\n'
        ' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="w" '
        + day.format(1, 3, 2, 6) + ' value="HKCategoryValueSleepAnalysisAsleepCore"/>\n'
        ' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="s" '
        + day.format(1, 2, 2, 7) + ' value="HKCategoryValueSleepAnalysisInBed"/>\n'
        ' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="s" '
        + day.format(1, 2, 2, 7) + ' value="HKCategoryValueSleepAnalysisDozing"/>\n'
        ' <Record type="HKQuantityTypeIdentifierFlightsClimbed" sourceName="p" unit="furlong" '
        + day.format(1, 3, 2, 0) + ' value="2"/>\n'
        ' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="1800" durationUnit="s" '
        'sourceName="w" ' + day.format(1, 3, 2, 0) + '>\n'
        '  <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" sum="5" unit="km"/>\n'
        ' </Workout>\n'
        '</HealthData>')
    for target in ["fuzz-apple-xml", "fuzz-apple-pieces"]:
        for name, data in seeds.items():
            write(target, name, data)
    return seeds


# ---------------------------------------------------------------- JSON

SHAPES = ["react-native", "react-native-no-offsets", "hcgateway", "capacitor", "flutter", "flutter-snake", "day-totals"]


def cut_json_lines(text, keep):
    """The synthesiser writes one record a line: keep the first `keep` records."""
    lines = text.split(b"\n")
    if lines[-1] == b"":
        lines = lines[:-1]
    head, records, tail = lines[0], lines[1:-1], lines[-1]
    records = records[:keep]
    if records:
        records[-1] = records[-1].rstrip(b",")
    return b"\n".join([head] + records + [tail, b""])


def cut_fit_stream(text, keep):
    """Google Fit's raw stream with its first `keep` data points."""
    lines = text.split(b"\n")
    start = next(i for i, line in enumerate(lines) if b'"Data Points"' in line)
    points = [l for l in lines[start + 1:] if l.strip().startswith(b"{")][:keep]
    if points:
        points[-1] = points[-1].rstrip().rstrip(b",")
    return b"\n".join(lines[:start + 1] + points + [b"    ]", b"}", b""])


def json_seeds(binary, fixtures, work):
    seeds = {}
    for shape in SHAPES:
        path = os.path.join(work, f"{shape}.json")
        synth(binary, "hc-json", "--shape", shape, "--out", path, "--days", "1")
        seeds[f"synth-{shape}.json"] = cut_json_lines(read(path), 4)
    if fixtures:
        seeds["takeout-estimated-steps.json"] = cut_fit_stream(
            read(os.path.join(fixtures, "hc", "takeout-derived-step-delta-estimated-steps.json")), 4)
        seeds["takeout-top-level.json"] = cut_fit_stream(
            read(os.path.join(fixtures, "hc", "takeout-derived-step-delta-top-level.json")), 2)
        seeds["takeout-raw-cumulative-empty.json"] = read(os.path.join(fixtures, "hc", "takeout-raw-cumulative-empty.json"))
        seeds["fitbit-steps.json"] = read(os.path.join(fixtures, "fitbit", "steps-2022-09-14.json"))
        seeds["hostile-count-1e19.json"] = read(os.path.join(fixtures, "hostile", "min_hc_1e19.json"))
        seeds["hostile-count-object.json"] = read(os.path.join(fixtures, "hostile", "json-count-object.json"))
    seeds["json-lines.json"] = (
        '{"startTime":1711929600000,"endTime":1711933200000,"steps":"12","source":"a\\u00e9\\ud83d\\ude00"}\n'
        '{"start_time":"2024-04-01T01:00:00+05:30","end_time":"2024-04-01T01:30:00.123456789+05:30",'
        '"count":-0.0e+0,"zoneOffset":-3600,"packageName":"b\\"\\\\\\/\\b\\f\\n\\r\\t"}\n'
        '{"date":"2024-04-02","totalSteps":1E3,"app":null,"type":"Steps","data":[true,false,[],{}]}\n')
    for target in ["fuzz-hc-json", "fuzz-json-tokenizer"]:
        for name, data in seeds.items():
            write(target, name, data)
    return seeds


# ---------------------------------------------------------------- CSV

def head_lines(data, count):
    return b"".join(data.splitlines(keepends=True)[:count])


def csv_seeds(fixtures):
    seeds = {
        "records-iso.csv": "start,end,count,origin\r\n"
                           "2024-03-30T23:50:00+01:00,2024-03-31T01:20:00+02:00,300,android\r\n"
                           "2024-03-31T08:00:00Z,2024-03-31T08:10:00Z,\"1,200\",\"com.example \"\"app\"\"\"\r\n",
        "records-epoch.csv": "\ufeffstartTime,endTime,steps,dataOrigin\n1711929600000,1711930200000,250.5,com.x\n"
                             "1711930200000,1711930200000,0,\n",
        "records-semicolons.csv": "start_time;end_time;count;package_name\n2024-04-01 08:00:00;2024-04-01 08:30:00;42;x\n",
        "day-totals.csv": "date,steps,source\n2024-03-01,8000,phone\n2024-03-02,\"9000\",watch\n\n2024-03-03,0,\n",
        "quoting.csv": 'a,"b\r\nc","d""e",,"",\n"unterminated',
        "day-values.csv": "date,source,steps,distance_m,total_kcal,hr_avg,hr_min,hr_max,sleep_min,workouts,workout_min\n"
                          "2024-03-01,watch,8000,6012.5,2100,72.4,48,150,431,1,45\n2024-03-02,,,,,300,,,,,\n",
        "metric-records.csv": "start,end,metric,value,origin,zone_offset\n"
                              "2024-03-01T08:00:00Z,2024-03-01T09:00:00Z,Distance,1200.4,com.watch,3600\n"
                              "2024-03-01T08:05:00Z,,HeartRate,80,com.watch,3600\n"
                              "2024-03-01T22:00:00Z,2024-03-02T05:30:00Z,sleep,,com.watch,+01:00\n"
                              "2024-03-01T17:00:00Z,2024-03-01T17:45:00Z,ExerciseSession,,com.watch,3600\n"
                              "2024-03-01T06:00:00Z,,Weight,80,com.scale,3600\n",
    }
    if fixtures:
        hc = os.path.join(fixtures, "hc")
        seeds["takeout-2025-02-02.csv"] = head_lines(read(os.path.join(hc, "takeout-2025-02-02.csv")), 12)
        seeds["takeout-daily-activity-metrics.csv"] = head_lines(
            read(os.path.join(hc, "takeout-2025-daily-activity-metrics.csv")), 6)
        summaries = read(os.path.join(hc, "takeout-2012-2020-daily-summaries.csv")).splitlines(keepends=True)
        # The header, two days without steps, three with them (`Step count` is the 14th column).
        with_steps = [line for line in summaries[1:] if line.split(b",")[13:14] not in ([b""], [])]
        seeds["takeout-daily-summaries.csv"] = b"".join(summaries[:3] + with_steps[:3])
        seeds["hostile-day-total-1e19.csv"] = read(os.path.join(fixtures, "hostile", "min_hc_1e19.csv"))
    for target in ["fuzz-step-csv", "fuzz-csv-tokenizer"]:
        for name, data in seeds.items():
            write(target, name, data)
    return seeds


# ---------------------------------------------------------------- Samsung Health

def cut_lines(data, count):
    """The first `count` lines of a UTF-8 or UTF-16 text (with its byte-order mark), in its encoding."""
    encoding = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8"
    text = data.decode(encoding)
    cut = "".join(text.splitlines(keepends=True)[:count])
    if encoding == "utf-8":
        return cut.encode("utf-8")
    little = data[:2] == b"\xff\xfe"
    return cut.encode("utf-16-le" if little else "utf-16-be")


SAMSUNG_TREND_HEAD = ("\ufeffcom.samsung.shealth.step_daily_trend,6307003,6\n"
                      "binning_data,update_time,create_time,source_pkg_name,source_type,count,speed,distance,calorie,"
                      "deviceuuid,pkg_name,datauuid,day_time\n")


def samsung_seeds(binary, fixtures, work):
    seeds = {}
    variants = {
        "synth-trend.csv": ["--days", "3"],
        "synth-trend-utf16le-text-days.csv": ["--days", "2", "--encoding", "utf16le", "--text-day-time", "--phone-change"],
        "synth-trend-prefixed-devices-only.csv": ["--days", "3", "--headers", "prefixed", "--devices-only", "--blank-rows"],
        "synth-bins.csv": ["--days", "1", "--no-trend"],
        "synth-bins-utf16be-0530.csv": ["--days", "1", "--no-trend", "--encoding", "utf16be", "--headers", "bare",
                                        "--time-offset", "UTC+0530"],
    }
    for name, options in variants.items():
        path = os.path.join(work, name)
        synth(binary, "samsung", "--out", path, *options)
        seeds[name] = cut_lines(read(path), 10)
    if fixtures:
        folder = os.path.join(fixtures, "samsung")
        for name in sorted(os.listdir(folder)):
            # com.samsung.shealth.<type>.<stamp>.csv
            seeds["real-" + ".".join(name.split(".")[3:-2]) + ".csv"] = cut_lines(read(os.path.join(folder, name)), 6)
    row = ("b,2025-12-10 14:24:01.065,2025-12-10 14:24:01.065,com.sec.android.app.shealth,{type},{count},1.38,{distance},"
           "62.1,{device},com.sec.android.app.shealth,id,{day},")
    seeds["corners.csv"] = SAMSUNG_TREND_HEAD + "".join(line + "\n" for line in [
        row.format(type=-2, count=1930, distance=1453.05, device="VfS0qUERdZ", day=1764806400000),
        row.format(type=-2, count=1931, distance=1453.05, device="VfS0qUERdZ", day=1764806400000),
        row.format(type=0, count="1e19", distance=-1, device="XLy3VBYEN4", day="2018-11-28 00:00:00.000"),
        row.format(type=102, count=12, distance="", device="", day="1764806400001"),
        row.format(type="x", count=12, distance=3, device="\"a,b\"", day="2201-01-01"),
        row.format(type=108, count=12, distance=3, device="band", day="2025-12-05")[:-1],
        row.format(type=108, count=12, distance=3, device="band", day="2025-12-05") + "extra",
        ",,,,,,,,,,,,,",
        "",
    ])
    seeds["header-refused.csv"] = ("com.samsung.health.tracker.pedometer_step_count,1,2\r\n"
                                   "start_time,count\r\n2025-12-04 19:54:00.000,8,\r\n")
    # UTF-16 with a lone high surrogate (D800) in a count, and an odd last byte.
    seeds["utf16-lone-surrogate.csv"] = (b"\xff\xfe" + SAMSUNG_TREND_HEAD[1:].encode("utf-16-le")
                                         + (row.format(type=-2, count="1Z", distance=1, device="d", day=1764806400000) + "\n")
                                         .encode("utf-16-le").replace("Z".encode("utf-16-le"), b"\x00\xd8") + b"\x41")
    for name, data in seeds.items():
        write("fuzz-samsung", name, data)
    return seeds


# ---------------------------------------------------------------- Takeout folders

def takeout_seeds(csvs, jsons, samsung):
    """Files as the fuzz-takeout target reads them: `path\\ncontent`, separated by NUL bytes."""
    def folder(*files):
        return b"\0".join(path.encode() + b"\n" + data for path, data in files)
    fit = "Takeout/Fit/"
    summary = csvs.get("takeout-daily-activity-metrics.csv")
    per_day = csvs.get("takeout-2025-02-02.csv")
    stream = jsons.get("takeout-estimated-steps.json")
    top = jsons.get("takeout-top-level.json")
    seeds = {}
    if summary and per_day and stream:
        seeds["all-three-copies"] = folder((fit + "Daily activity metrics/Daily activity metrics.csv", summary),
                                           (fit + "Daily activity metrics/2025-02-02.csv", per_day),
                                           (fit + "All Data/derived_com.google.step_count.delta_com.google(1).json", stream))
        seeds["per-day-only"] = folder((fit + "Daily activity metrics/2025-02-02.csv", per_day),
                                       (fit + "Daily activity metrics/2025-02-03.csv", per_day))
        seeds["streams-only"] = folder((fit + "All Data/derived_com.google.step_count.delta_com.google(1).json", stream),
                                       (fit + "All Data/derived_com.google.step_count.delta_com.google.json", top))
    if "takeout-daily-summaries.csv" in csvs:
        seeds["old-daily-summaries"] = folder((fit + "Daily Aggregations/Daily Summaries.csv", csvs["takeout-daily-summaries.csv"]))
    # Samsung Health's export beside a Takeout: its files told by their first lines, not their names.
    export = "samsunghealth_user_20250101000000/"
    seeds["samsung-and-fit"] = folder((export + "Step Daily Trend.csv", samsung["synth-trend.csv"]),
                                      (export + "com.samsung.shealth.tracker.pedometer_step_count.1.csv", samsung["synth-bins.csv"]),
                                      (export + "jsons/x/a.binning_data.json", b"[]"),
                                      *([(fit + "Daily activity metrics/Daily activity metrics.csv", summary)] if summary else []))
    for name, data in seeds.items():
        write("fuzz-takeout", name, data)


# ---------------------------------------------------------------- SQLite

def sqlite_seeds(binary, fixtures, work):
    path = os.path.join(work, "hc.db")
    synth(binary, "hc-db", "--out", path, "--rows", "12")
    seeds = {"synth-12-rows.db": read(path)}
    if fixtures:
        for name in ["hc_count_max.db", "hc_span_overflow.db", "wal-mode.db"]:
            seeds["hostile-" + name] = read(os.path.join(fixtures, "hostile", name))
    for name, data in seeds.items():
        write("fuzz-hc-sqlite", name, data)
    return seeds


# ---------------------------------------------------------------- Zips

def zip_seeds(apple, jsons, csvs, databases, fixtures):
    D, S = zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED
    xml = apple["synth-dtd-none.xml"]
    inner = zip_bytes([("apple_health_export/export.xml", xml, D)])
    seeds = {
        "apple-export.zip": zip_bytes([("apple_health_export/", b"", S),
                                       ("apple_health_export/export.xml", xml, D),
                                       ("apple_health_export/export_cda.xml", b"<ClinicalDocument/>", D),
                                       ("__MACOSX/apple_health_export/._export.xml", b"\0\5\26\7", S)]),
        "zip-in-zip.zip": zip_bytes([("export.zip", inner, S)]),
        "apple-zip64.zip": zip_bytes([("apple_health_export/Export.xml", apple["odd-records.xml"], D)], zip64=True),
        "health-connect.zip": zip_bytes([("health_connect_export.db", databases["synth-12-rows.db"], D)]),
        "json-and-csv.zip": zip_bytes([("dump.json", jsons["synth-hcgateway.json"], D),
                                       ("records.csv", csvs["records-iso.csv"], S)]),
    }
    if "takeout-daily-activity-metrics.csv" in csvs:
        seeds["takeout.zip"] = zip_bytes([
            ("Takeout/Fit/Daily activity metrics/Daily activity metrics.csv", csvs["takeout-daily-activity-metrics.csv"], D),
            ("Takeout/Fit/Daily activity metrics/2025-02-02.csv", csvs["takeout-2025-02-02.csv"], D)])
    if fixtures:
        seeds["macosx-decoys-export.zip"] = read(os.path.join(fixtures, "apple", "macosx-decoys-export.zip"))
    for name, data in seeds.items():
        write("fuzz-zip", name, data)


# ---------------------------------------------------------------- Manifest, HTTP

def manifest_seeds():
    seeds = {
        "batch.csv": read(os.path.join(ROOT, "samples", "batch.csv")),
        "token-files.csv": "\ufeffaccount,file,kind,token_file,tz\r\n"
                           "\"a, b\",exports/a.zip,apple,tokens/a.token,Europe/Berlin\r\n"
                           "c,../c.json,hc,/etc/token,UTC\r\n",
        "problems.csv": "account,file,kind,token_env,tz,extra\n"
                        "a,x.zip,apple,TOKEN_A,Mars/Base\n"
                        "a,y.zip,fitbit,EMPTY,\n"
                        ",,,,\n"
                        "\"\x1b[31mred\",z.zip,auto,NOPE,Asia/Kolkata\n",
        "no-zone.csv": "file,account,kind,token_env\nexport.zip,anna,auto,TOKEN_A\n",
    }
    for name, data in seeds.items():
        write("fuzz-manifest", name, data)


def http_seeds():
    def answer(status, body, retry_after=b""):
        return struct.pack(">H", status - 100) + bytes([len(retry_after)]) + retry_after + body
    seeds = {
        "post-201.bin": answer(201, b'{"days":30}'),
        "post-201-too-many.bin": answer(201, b'{"days":99999}'),
        "summary-200.bin": answer(200, b'{"days":[{"date":"2024-03-01","steps":8000},{"date":"2024-03-02","steps":null}]}'),
        "retry-429.bin": answer(429, b'{"error":"slow down"}', b"120"),
        "retry-503-huge.bin": answer(503, b"<html>\x1b[2J down</html>", b"99999999999999999999999"),
        "rejected-400.bin": answer(400, b'{"message":"day 2024-03-01: steps must be <= 100000"}'),
        "unauthorized-401.bin": answer(401, b'{"detail":"Authorization: Bearer abc"}'),
        "redirect-302.bin": answer(302, b""),
    }
    for name, data in seeds.items():
        write("fuzz-http-response", name, data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synth", default=os.path.join(ROOT, ".build", "release", "stepimport-synth"))
    parser.add_argument("--fixtures", default=os.path.join(os.path.dirname(ROOT), "shared", "fixtures"))
    args = parser.parse_args()
    if not os.access(args.synth, os.X_OK):
        sys.exit(f"make_corpus: no stepimport-synth at {args.synth} (swift build -c release --product stepimport-synth)")
    fixtures = args.fixtures if os.path.isdir(args.fixtures) else None
    if not fixtures:
        print(f"make_corpus: no fixtures at {args.fixtures}: the seeds cut from real exports are left out", file=sys.stderr)
    with tempfile.TemporaryDirectory() as work:
        apple = apple_seeds(args.synth, fixtures, work)
        jsons = json_seeds(args.synth, fixtures, work)
        csvs = {name: data.encode() if isinstance(data, str) else data for name, data in csv_seeds(fixtures).items()}
        samsung = {name: data.encode() if isinstance(data, str) else data
                   for name, data in samsung_seeds(args.synth, fixtures, work).items()}
        takeout_seeds(csvs, jsons, samsung)
        databases = sqlite_seeds(args.synth, fixtures, work)
        zip_seeds(apple, jsons, csvs, databases, fixtures)
    manifest_seeds()
    http_seeds()
    remove_unwritten()
    total = sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(OUT) for name in names)
    count = sum(len(names) for _, _, names in os.walk(OUT))
    print(f"make_corpus: {count} seeds, {total // 1024} KB, in {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
