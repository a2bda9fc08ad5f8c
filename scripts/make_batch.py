#!/usr/bin/env python3
"""Writes a batch of generated trainee accounts for `stepimport batch` tests and demos.

Usage:
    scripts/make_batch.py --out DIR --accounts N [--broken K] [--pool P] [--synth PATH]

Python 3 standard library only; the exports come from `stepimport-synth` (--synth, default
.build/release/stepimport-synth), dated so that the last 100 days up to yesterday are
covered, which puts about 90 days of every account inside the server's window.

DIR receives:

    manifest.csv         account,file,kind,token_file,token_env,tz (paths relative to DIR)
    exports/             P distinct exports, shared round-robin by the good accounts:
                         Apple Health zips (tz Europe/Berlin), Health Connect JSON dumps
                         whose records carry no offset (tz UTC), and Health Connect
                         databases (tz America/New_York or Asia/Kolkata)
    exports/broken-*     one export per broken account that is broken by its file
    tokens/ACCOUNT.token one token per account that uses token_file (mode 600)
    token-env.txt        NAME=VALUE lines for the accounts that use token_env
    server-tokens.txt    one `NAME:TOKEN=ZONE` per account the server knows, for
                         `scripts/contract_server.py --token`
    accounts.json        per account: label, kind, file, tz, trainee name, whether it is
                         good, why not, and where its expected days come from:
                         {"oracle": "synth", "expected": "exports/x.expected.json",
                          "key": "tz" or "days"} when the generator's own model gives the
                         days in the account's zone, or {"oracle": "single-run"} when
                         they must be taken from `stepimport hc FILE --tz ZONE` (the
                         Health Connect databases, whose records carry travel offsets)

The K broken accounts cycle through: a truncated Apple zip, malformed JSON, an Apple
export declared as `hc`, a token the server does not know (401), a token file that holds
no token, `auto` given a file that is no export, a JSON record of 10^19 steps (it crashed a
whole batch once), and an Apple export nested 100,000 elements deep. Every broken account still passes
the manifest's checks, so the batch starts and must report each one.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The good exports cycle through these; (kind, synth subcommand, extra args, file suffix, tz, oracle).
GOOD_KINDS = [
    ("apple", ["apple"], ".zip", "Europe/Berlin", ("synth", "tz")),
    ("hc", ["hc-json", "--shape", "react-native-no-offsets"], ".json", "UTC", ("synth", "days")),
    ("hc", ["hc-db"], ".db", "America/New_York", ("single-run", None)),
    ("apple", ["apple"], ".zip", "Europe/Berlin", ("synth", "tz")),
    ("hc", ["hc-json", "--shape", "day-totals"], ".json", "UTC", ("synth", "days")),
    ("hc", ["hc-db"], "-takeout.zip", "Asia/Kolkata", ("single-run", None)),
    ("auto", ["apple"], ".zip", "Europe/Berlin", ("synth", "tz")),
    ("auto", ["hc-json", "--shape", "flutter"], ".json", "UTC", ("synth", "days")),
]

BROKEN_KINDS = ["truncated-zip", "malformed-json", "apple-as-hc", "unknown-token", "bad-token-file", "auto-junk",
                "huge-count", "deep-xml"]


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit("make_batch: %s failed: %s" % (" ".join(command), result.stderr.strip()))


def main():
    parser = argparse.ArgumentParser(description="Write a batch of generated accounts (see the module doc).")
    parser.add_argument("--out", required=True, help="folder to write (created)")
    parser.add_argument("--accounts", type=int, required=True, help="good accounts")
    parser.add_argument("--broken", type=int, default=0, help="broken accounts, added after the good ones")
    parser.add_argument("--pool", type=int, default=8, help="distinct good exports shared by the accounts (default 8)")
    parser.add_argument("--days", type=int, default=100, help="days per export, ending yesterday (default 100)")
    parser.add_argument("--synth", default=os.path.join(ROOT, ".build", "release", "stepimport-synth"))
    args = parser.parse_args()

    out = os.path.abspath(args.out)
    for folder in ("exports", "tokens"):
        os.makedirs(os.path.join(out, folder), exist_ok=True)
    start = (datetime.datetime.now(datetime.timezone.utc).date() - datetime.timedelta(days=args.days)).isoformat()

    pool = []
    for index in range(max(1, min(args.pool, args.accounts))):
        kind, synth, suffix, tz, (oracle, key) = GOOD_KINDS[index % len(GOOD_KINDS)]
        name = "exports/%02d-%s%s" % (index + 1, synth[0], suffix)
        command = [args.synth] + synth + ["--out", os.path.join(out, name), "--days", str(args.days),
                                          "--start", start, "--seed", str(100 + index)]
        entry = {"kind": kind, "file": name, "tz": tz, "oracle": oracle}
        if oracle == "synth":
            expected = name.rsplit(".", 1)[0] + ".expected.json"
            command += ["--expected", os.path.join(out, expected)]
            entry["expected"] = expected
            entry["key"] = key
        run(command)
        pool.append(entry)

    accounts = []
    server_tokens = []
    token_env = []
    for number in range(1, args.accounts + args.broken + 1):
        label = "trainee-%03d" % number
        token = "tok-%03d-%s" % (number, "x7q9" if number % 2 else "k2m4")
        good = number <= args.accounts
        if good:
            entry = dict(pool[(number - 1) % len(pool)])
            entry.update(account=label, good=True, problem=None)
        else:
            problem = BROKEN_KINDS[(number - args.accounts - 1) % len(BROKEN_KINDS)]
            entry = broken_account(out, label, problem, pool)
        entry["trainee"] = label
        # Every tenth good account reads its token from the environment.
        if good and number % 10 == 0:
            entry["token_env"] = "STEPIMPORT_TEST_TOKEN_%03d" % number
            token_env.append("%s=%s" % (entry["token_env"], token))
        else:
            entry["token_file"] = "tokens/%s.token" % label
            path = os.path.join(out, entry["token_file"])
            with open(path, "w") as handle:
                handle.write("not a token!\n" if entry.get("problem") == "bad-token-file" else token + "\n")
            os.chmod(path, 0o600)
        if entry.get("problem") != "unknown-token":
            server_tokens.append("%s:%s=%s" % (label, token, entry["tz"]))
        accounts.append(entry)

    with open(os.path.join(out, "manifest.csv"), "w") as handle:
        handle.write("account,file,kind,token_file,token_env,tz\n")
        for entry in accounts:
            handle.write("%s,%s,%s,%s,%s,%s\n" % (entry["account"], entry["file"], entry["kind"],
                                                  entry.get("token_file", ""), entry.get("token_env", ""), entry["tz"]))
    with open(os.path.join(out, "server-tokens.txt"), "w") as handle:
        handle.write("".join(line + "\n" for line in server_tokens))
    with open(os.path.join(out, "token-env.txt"), "w") as handle:
        handle.write("".join(line + "\n" for line in token_env))
    with open(os.path.join(out, "accounts.json"), "w") as handle:
        json.dump(accounts, handle, indent=1)
    print("make_batch: %d accounts (%d broken) over %d exports in %s" % (len(accounts), args.broken, len(pool), out))


def broken_account(out, label, problem, pool):
    """An account whose file, kind or token is wrong in the way `problem` names."""
    apple = next(entry for entry in pool if entry["file"].endswith(".zip") and entry["kind"] != "hc")
    entry = {"account": label, "good": False, "problem": problem, "tz": "Europe/Berlin", "oracle": None}
    if problem == "truncated-zip":
        with open(os.path.join(out, apple["file"]), "rb") as handle:
            data = handle.read()
        name = "exports/broken-%s.zip" % label
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(data[: len(data) * 6 // 10])
        entry.update(kind="apple", file=name)
    elif problem == "malformed-json":
        name = "exports/broken-%s.json" % label
        with open(os.path.join(out, name), "w") as handle:
            handle.write('{"records":[{"count":120,"startTime":"2026-01-01T10:00:00Z",\n  "endTime": oops}]}\n')
        entry.update(kind="hc", file=name)
    elif problem == "apple-as-hc":
        entry.update(kind="hc", file=apple["file"])
    elif problem == "huge-count":
        name = "exports/broken-%s.json" % label
        with open(os.path.join(out, name), "w") as handle:
            handle.write('{"records":[{"count":1e19,"startTime":"2026-01-01T10:00:00Z","endTime":"2026-01-01T10:05:00Z"}]}\n')
        entry.update(kind="hc", file=name)
    elif problem == "deep-xml":
        name = "exports/broken-%s.xml" % label
        with open(os.path.join(out, name), "w") as handle:
            handle.write('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n')
            handle.write("<a>" * 100000 + "</a>" * 100000 + "\n</HealthData>\n")
        entry.update(kind="apple", file=name)
    elif problem == "auto-junk":
        name = "exports/broken-%s.bin" % label
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(bytes(range(256)) * 4)
        entry.update(kind="auto", file=name)
    else:  # unknown-token, bad-token-file: a good export, a bad token
        entry.update(kind=apple["kind"], file=apple["file"])
    return entry


if __name__ == "__main__":
    main()
