#!/usr/bin/env python3
"""Contract server: a small stand-in for the coaching backend's health API.

Python 3.11+, standard library only. It implements the API that stepimport
posts to (docs/rules.md, section "The backend"), keeps the
days in SQLite, and can inject faults, so that tests can run the real client
against a real HTTP server and then check the rows that were stored.

Usage:
    scripts/contract_server.py [--host 127.0.0.1] [--port 0] [--db PATH]
        [--token [NAME:]TOKEN=Area/City ...] [--today YYYY-MM-DD | --now INSTANT]
        [--seed-manual WHO:YYYY-MM-DD=STEPS ...]
        [--fail-first N] [--fail-status 503] [--retry-after SECONDS] [--fail-body TEXT]
        [--drop-every K] [--drop-mode before|after] [--delay SECONDS]
        [--fault-scope days|api] [--unauthorized] [--claim-days N]
        [--ready-file PATH] [--log PATH]

Start and stop:
    Only loopback addresses are accepted for --host (127.0.0.0/8, ::1,
    "localhost"); anything else exits with status 2. --port 0 (the default)
    picks a free port. Once listening the server prints exactly one line to
    stdout, "listening on http://127.0.0.1:PORT", and with --ready-file it
    writes that URL (one line) to PATH atomically (temporary file + rename),
    so a test can poll for the file. SIGTERM or SIGINT stop it cleanly (exit
    status 0); the ready file is removed on the way out. Start-up errors (bad
    option, unknown zone, port taken, unusable --db) exit with status 2.

Trainees:
    --token [NAME:]TOKEN=Area/City defines a bearer token and the trainee's
    IANA zone; repeatable. NAME is the trainee id stored in the database
    (default "trainee-1", "trainee-2", ... by position). With no --token the
    server has one trainee: trainee-1, token "test-token", zone Europe/Berlin.
    Tokens are RFC 6750 b64token characters ([A-Za-z0-9._~+/-] then "="s);
    the token is split from the zone at the LAST "=".

Clock ("today" of a trainee):
    by default the current date in the trainee's zone. --today YYYY-MM-DD makes
    that date today for every trainee, whatever the zone. --now INSTANT (ISO
    8601 with offset, e.g. 2026-03-10T10:30:00Z) fixes the instant, and each
    trainee's today is that instant's date in the trainee's zone (so two zones
    can have different todays: at 2026-03-10T10:30Z it is 2026-03-11 in
    Pacific/Kiritimati and 2026-03-09 in Pacific/Pago_Pago).

POST /v1/trainee/health/days   (Authorization: Bearer TOKEN)
    Body {"days":[{"date":"YYYY-MM-DD","steps":N},...]}, Content-Type
    application/json (charset, if given, utf-8), at most 1 MiB (else 413).
    Validation (any failure: 400 {"error": "..."} naming the entry's index,
    e.g. "days[2].steps must be an integer ...", and NOTHING is stored):
      * the body is a JSON object whose only key is "days" (strict JSON: no
        NaN/Infinity; malformed JSON is a 400);
      * "days" is an array of 1 to 90 entries;
      * each entry is an object with exactly the keys "date" and "steps";
      * "date" is a string of the form [0-9]{4}-[0-9]{2}-[0-9]{2} and a real
        calendar date (2025-02-30 is rejected);
      * "steps" is a JSON integer literal (1.5, 1.0, 1e3, "12", true, null are
        rejected) with 0 <= steps <= 100000.
    (Unknown keys are rejected here; the real backend may merely ignore them.
    A client should send exactly these keys.)
    Window, per trainee, with "today" as above:
        kept     today - 90 days <= date <= today + 1 day   (both inclusive,
                 92 dates)
        skipped  date <  today - 90 days   ("older than 90 days")
                 date >  today + 1 day     ("more than one day in the future")
        Example: today 2026-03-10 keeps 2025-12-10 .. 2026-03-11 and silently
        skips 2025-12-09 and 2026-03-12.
    A date given twice: the last entry wins and is counted once. Kept days are
    upserted in one transaction into daily_metric(trainee, date) with source
    'import', replacing any earlier value, also a 'manual' one.
    Answer 201 {"days": N}, N = distinct dates written (skipped ones excluded).

GET /v1/trainee/health/summary[?from=YYYY-MM-DD][&to=YYYY-MM-DD]
    "to" defaults to today, "from" to "to" - 7 days (8 dates, as in the seed:
    2026-09-30 .. 2026-10-07). from <= to, and the range holds at most 92
    dates (to - from <= 91 days), which covers the whole write window; a
    bigger or inverted range, a bad date or a repeated parameter is a 400.
    Answer 200 {"range":{"from":F,"to":T},"days":[{"date","steps",
    "restingHeartRate":null,"avgHeartRate":null}...],"latestHeartRate":null},
    only dates that have a row, ascending.

POST /v1/trainee/health/samples   (retired)
    Authenticated; answers 201 {"accepted":0,"retired":true} and stores nothing.
    Every request to this path (any method, any token or none, also one hit
    by a fault) is counted in retired_samples_calls of the admin state.

Anything else under any path: 404 {"error":"not found"}; a known path with
another method: 405 with an Allow header. Missing/unknown token, or every
/v1 request with --unauthorized: 401 {"error":"unauthorized"}.

Faults. Requests "in scope" are POST /v1/trainee/health/days (--fault-scope
days, the default) or every /v1/ request (--fault-scope api); admin routes are
never faulted. Each in-scope request gets the next number n = 1, 2, 3, ...
(global, thread-safe; restarted by /_admin/config and /_admin/reset). After
the whole request has been read:
    --delay S       every /v1/ request (in scope or not) sleeps S seconds
                    first, then is processed normally (a client that timed out
                    may still find its rows written).
    --drop-every K  if n % K == 0 the connection is reset (TCP RST, no answer
                    at all). --drop-mode before (default): dropped before any
                    processing, nothing stored. --drop-mode after: processed
                    and committed, then dropped instead of answering (a lost
                    answer; this applies to any answer, 4xx included).
                    Checked before --fail-first.
    --fail-first N  if n <= N (and not dropped) answer --fail-status (default
                    503) {"error":"injected failure"} with "Retry-After:
                    --retry-after" when that is given; nothing stored.
    --fail-body TEXT  the body of those answers instead, as given (UTF-8; JSON
                    or not, control characters included), with every
                    "{authorization}" replaced by the request's Authorization
                    header as it came: a server that echoes the token and
                    writes terminal escapes into its error messages.
    Then authentication, validation and the write, as above.
    --claim-days N  a good POST /v1/trainee/health/days is stored as usual
                    but answered 201 {"days": N} whatever was written (a
                    server against the contract; N may be negative).
Order of checks for a /v1 request: body size (413) -> delay -> drop ->
fail-first -> path (404) -> method (405) -> token (401) -> Content-Type, JSON
and validation (400) -> window -> write (201).

Admin routes (loopback clients only, else 403; no authentication; never
faulted or delayed; logged, but not counted in the state):
    GET  /_admin/state   the JSON described in state_snapshot() below.
    POST /_admin/seed    {"trainee": NAME | "token": TOKEN, "days":[{"date",
                         "steps"}], "source": "manual"} -> 201 {"days": N};
                         upserts without the window or the 100000 cap.
    POST /_admin/reset   {"rows": true, "counters": true} (both default true,
                         body optional) -> 200 {"ok": true}.
    GET/POST /_admin/config  read / change the faults and the clock at run
                         time: keys fail_first, fail_status, retry_after,
                         fail_body, drop_every, drop_mode, delay, fault_scope,
                         unauthorized, claim_days, today, now -> 200 current
                         config.
    --seed-manual WHO:YYYY-MM-DD=STEPS (WHO = trainee name or token) seeds a
    'manual' row at start-up.

Database: --db PATH (default ":memory:") holds the table
    daily_metric(trainee TEXT, date TEXT, steps INTEGER, source TEXT,
                 updated_at TEXT, PRIMARY KEY(trainee, date))
with trainee = the trainee NAME, source 'import' (POSTed) or 'manual'
(seeded), updated_at an ISO UTC time of the write. An existing file is reused,
so rows survive a restart; tests may open it read-only while the server runs.

Logging: one line per request to --log (appended) or stderr:
    <utc time> <method> <path> <status|dropped> days=<N|-> auth=<missing|bearer|other> <ms>ms
The Authorization header and token values are never stored, logged or
returned (except by the fault --fail-body "{authorization}", which plays a
server that does); configured token strings are also redacted from recorded
paths and bodies.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import hmac
import ipaddress
import json
import os
import re
import signal
import socket
import socketserver
import sqlite3
import struct
import sys
import tempfile
import threading
import time
import zoneinfo
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

MAX_DAYS_PER_INGEST = 90       # HEALTH_MAX_DAYS_PER_INGEST
MAX_DAILY_STEPS = 100_000      # MAX_DAILY_STEPS
WINDOW_PAST_DAYS = 90          # kept: date >= today - 90 days
WINDOW_FUTURE_DAYS = 1         # kept: date <= today + 1 day
SUMMARY_DEFAULT_BACK_DAYS = 7  # default from = to - 7 days
SUMMARY_MAX_DATES = 92         # to - from + 1 <= 92
MAX_BODY_BYTES = 1 << 20       # 1 MiB, else 413
DRAIN_LIMIT_BYTES = 16 << 20   # an oversized body is read and discarded up to this
RECENT_LIMIT = 100             # requests kept in /_admin/state "recent"
RECENT_BODY_CHARS = 64 * 1024  # longest body text kept per recent request

DAYS_PATH = "/v1/trainee/health/days"
SUMMARY_PATH = "/v1/trainee/health/summary"
SAMPLES_PATH = "/v1/trainee/health/samples"

ROUTES: dict[str, tuple[str, ...]] = {
    DAYS_PATH: ("POST",),
    SUMMARY_PATH: ("GET",),
    SAMPLES_PATH: ("POST",),
    "/_admin/state": ("GET",),
    "/_admin/seed": ("POST",),
    "/_admin/reset": ("POST",),
    "/_admin/config": ("GET", "POST"),
}

DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
TOKEN_RE = re.compile(r"[A-Za-z0-9._~+/-]+=*")
NAME_RE = re.compile(r"[A-Za-z0-9_.-]+")

SCHEMA = """
CREATE TABLE IF NOT EXISTS daily_metric (
    trainee    TEXT    NOT NULL,
    date       TEXT    NOT NULL,
    steps      INTEGER NOT NULL,
    source     TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (trainee, date)
)
"""


class UsageError(Exception):
    """A bad option or start-up condition: exit status 2."""


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400, index: int | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.index = index


# --------------------------------------------------------------------------
# Parsing helpers


def json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def parse_date(text) -> dt.date | None:
    """A YYYY-MM-DD string that is a real calendar date, else None."""
    if not isinstance(text, str) or not DATE_RE.fullmatch(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def _reject_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def parse_json_body(body: bytes):
    if not body:
        raise BadRequest("empty body: expected a JSON object")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("body is not UTF-8")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"malformed JSON: {exc}")


def check_json_content_type(value: str | None) -> None:
    if value is None:
        raise BadRequest("Content-Type must be application/json (header missing)")
    parts = [p.strip() for p in value.split(";")]
    if parts[0].lower() != "application/json":
        raise BadRequest(f"Content-Type must be application/json, got {parts[0]!r}")
    for param in parts[1:]:
        if not param:
            continue
        key, _, val = param.partition("=")
        if key.strip().lower() == "charset" and val.strip().strip('"').lower() not in ("utf-8", "utf8"):
            raise BadRequest(f"Content-Type charset must be utf-8, got {val.strip()!r}")


def validate_days_body(obj) -> list[tuple[str, int]]:
    """ingestHealthDaysBody: returns [(date, steps)] in request order or raises BadRequest."""
    if not isinstance(obj, dict):
        raise BadRequest(f'body must be a JSON object {{"days":[...]}}, got {json_type(obj)}')
    for key in obj:
        if key != "days":
            raise BadRequest(f'body has unknown key {key!r} (only "days" is allowed)')
    if "days" not in obj:
        raise BadRequest('body.days is required')
    days = obj["days"]
    if not isinstance(days, list):
        raise BadRequest(f"days must be an array, got {json_type(days)}")
    if not 1 <= len(days) <= MAX_DAYS_PER_INGEST:
        raise BadRequest(f"days must hold 1 to {MAX_DAYS_PER_INGEST} entries, got {len(days)}")
    out: list[tuple[str, int]] = []
    for i, entry in enumerate(days):
        where = f"days[{i}]"
        if not isinstance(entry, dict):
            raise BadRequest(f'{where} must be an object {{"date","steps"}}, got {json_type(entry)}', index=i)
        for key in entry:
            if key not in ("date", "steps"):
                raise BadRequest(f'{where} has unknown key {key!r} (only "date" and "steps" are allowed)', index=i)
        if "date" not in entry:
            raise BadRequest(f"{where}.date is required", index=i)
        if "steps" not in entry:
            raise BadRequest(f"{where}.steps is required", index=i)
        date = entry["date"]
        if not isinstance(date, str):
            raise BadRequest(f"{where}.date must be a string YYYY-MM-DD, got {json_type(date)}", index=i)
        if not DATE_RE.fullmatch(date):
            raise BadRequest(f"{where}.date must match YYYY-MM-DD, got {date!r}", index=i)
        if parse_date(date) is None:
            raise BadRequest(f"{where}.date is not a calendar date: {date!r}", index=i)
        steps = entry["steps"]
        if isinstance(steps, bool) or not isinstance(steps, int):
            shown = f" {steps!r}" if isinstance(steps, float) else ""
            raise BadRequest(f"{where}.steps must be an integer, got {json_type(steps)}{shown}", index=i)
        if not 0 <= steps <= MAX_DAILY_STEPS:
            raise BadRequest(f"{where}.steps must be between 0 and {MAX_DAILY_STEPS}, got {steps}", index=i)
        out.append((date, steps))
    return out


def window(today: dt.date) -> tuple[dt.date, dt.date]:
    """Inclusive bounds of the dates the server keeps for this today."""
    return today - dt.timedelta(days=WINDOW_PAST_DAYS), today + dt.timedelta(days=WINDOW_FUTURE_DAYS)


def parse_instant(text: str) -> dt.datetime:
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not an ISO 8601 instant: {text!r}")
    if value.tzinfo is None:
        raise ValueError(f"instant needs an offset (e.g. Z): {text!r}")
    return value


def utc_stamp() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


# --------------------------------------------------------------------------
# Server state


class Trainee:
    def __init__(self, name: str, token: str, zone_name: str):
        self.name = name
        self.token = token
        self.zone_name = zone_name
        self.zone = zoneinfo.ZoneInfo(zone_name)


def parse_token_spec(spec: str, position: int) -> Trainee:
    name = f"trainee-{position}"
    rest = spec
    if ":" in spec:
        name, rest = spec.split(":", 1)
        if not NAME_RE.fullmatch(name):
            raise UsageError(f"--token {spec!r}: trainee name must match [A-Za-z0-9_.-]+")
    if "=" not in rest:
        raise UsageError(f"--token {spec!r}: expected [NAME:]TOKEN=Area/City")
    token, zone_name = rest.rsplit("=", 1)
    if not TOKEN_RE.fullmatch(token):
        raise UsageError(f"--token: the token must be RFC 6750 b64token characters (position {position})")
    try:
        return Trainee(name, token, zone_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"--token: unknown IANA zone {zone_name!r} (position {position})")


class Config:
    """Faults and clock; changed only under State.lock."""

    FIELDS = ("fail_first", "fail_status", "retry_after", "fail_body", "drop_every", "drop_mode",
              "delay", "fault_scope", "unauthorized", "claim_days", "today", "now")

    def __init__(self):
        self.fail_first = 0
        self.fail_status = 503
        self.retry_after: int | None = None
        self.fail_body: str | None = None
        self.drop_every = 0
        self.drop_mode = "before"
        self.delay = 0.0
        self.fault_scope = "days"
        self.unauthorized = False
        self.claim_days: int | None = None
        self.today: dt.date | None = None
        self.now: dt.datetime | None = None

    def as_json(self) -> dict:
        return {
            "fail_first": self.fail_first,
            "fail_status": self.fail_status,
            "retry_after": self.retry_after,
            "fail_body": self.fail_body,
            "drop_every": self.drop_every,
            "drop_mode": self.drop_mode,
            "delay": self.delay,
            "fault_scope": self.fault_scope,
            "unauthorized": self.unauthorized,
            "claim_days": self.claim_days,
            "today": self.today.isoformat() if self.today else None,
            "now": self.now.isoformat() if self.now else None,
        }

    def update(self, changes: dict) -> None:
        """Validate every key first, then apply; raises ValueError."""
        new = {}
        for key, value in changes.items():
            if key not in self.FIELDS:
                raise ValueError(f"unknown config key {key!r}")
            if key in ("fail_first", "drop_every"):
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise ValueError(f"{key} must be an integer >= 0")
            elif key == "fail_status":
                if isinstance(value, bool) or not isinstance(value, int) or not 400 <= value <= 599:
                    raise ValueError("fail_status must be an integer 400..599")
            elif key == "retry_after":
                if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                    raise ValueError("retry_after must be an integer >= 0 or null")
            elif key == "fail_body":
                if value is not None and not isinstance(value, str):
                    raise ValueError("fail_body must be a string or null")
            elif key == "claim_days":
                if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                    raise ValueError("claim_days must be an integer or null")
            elif key == "drop_mode":
                if value not in ("before", "after"):
                    raise ValueError('drop_mode must be "before" or "after"')
            elif key == "delay":
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 3600:
                    raise ValueError("delay must be a number of seconds 0..3600")
                value = float(value)
            elif key == "fault_scope":
                if value not in ("days", "api"):
                    raise ValueError('fault_scope must be "days" or "api"')
            elif key == "unauthorized":
                if not isinstance(value, bool):
                    raise ValueError("unauthorized must be true or false")
            elif key == "today":
                if value is not None:
                    parsed = parse_date(value)
                    if parsed is None:
                        raise ValueError("today must be YYYY-MM-DD or null")
                    value = parsed
            elif key == "now":
                if value is not None:
                    if not isinstance(value, str):
                        raise ValueError("now must be an ISO 8601 instant or null")
                    value = parse_instant(value)
            new[key] = value
        if new.get("today") is not None and new.get("now") is not None:
            raise ValueError("give today or now, not both")
        for key, value in new.items():
            setattr(self, key, value)
        if new.get("today") is not None:
            self.now = None
        if new.get("now") is not None:
            self.today = None


class State:
    def __init__(self, db_path: str, trainees: list[Trainee], config: Config):
        self.lock = threading.Lock()
        # API answers written to the client but not yet counted by record(): admin reads wait
        # for them, so that a client that got its answer always finds its request counted.
        self.answering = 0
        self.answered = threading.Condition(threading.Lock())
        self.trainees = trainees
        self.by_name = {t.name: t for t in trainees}
        self.config = config
        self.db_path = db_path
        self.db = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None)
        self.db.execute(SCHEMA)
        cols = [row[1] for row in self.db.execute("PRAGMA table_info(daily_metric)")]
        if cols != ["trainee", "date", "steps", "source", "updated_at"]:
            raise UsageError(f"--db {db_path}: daily_metric has columns {cols}, expected "
                             "trainee, date, steps, source, updated_at")
        self.reset_counters()

    # -- counters (under lock) --
    def reset_counters(self) -> None:
        self.fault_seq = 0
        self.requests: dict[str, collections.Counter] = {}
        self.requests_total = 0
        self.dropped_connections = 0
        self.retired_samples_calls = 0
        self.recent: collections.deque = collections.deque(maxlen=RECENT_LIMIT)
        self.recent_seq = 0

    def trainee_for_token(self, token: str) -> Trainee | None:
        found = None
        for t in self.trainees:
            if hmac.compare_digest(t.token.encode(), token.encode()):
                found = t
        return found

    def redact(self, text: str) -> str:
        for t in self.trainees:
            if t.token and t.token in text:
                text = text.replace(t.token, "[REDACTED]")
        return text

    def today_for(self, trainee: Trainee) -> dt.date:
        cfg = self.config
        if cfg.today is not None:
            return cfg.today
        now = cfg.now if cfg.now is not None else dt.datetime.now(dt.timezone.utc)
        return now.astimezone(trainee.zone).date()

    def next_fault_seq(self) -> int:
        with self.lock:
            self.fault_seq += 1
            return self.fault_seq

    def begin_answer(self) -> None:
        with self.answered:
            self.answering += 1

    def end_answer(self) -> None:
        with self.answered:
            self.answering -= 1
            self.answered.notify_all()

    def wait_for_answers(self, timeout: float = 5.0) -> None:
        """Waits until every API answer already written has been recorded."""
        with self.answered:
            self.answered.wait_for(lambda: self.answering == 0, timeout=timeout)

    def record(self, entry: dict) -> None:
        with self.lock:
            key = f"{entry['method']} {entry['route']}"
            self.requests.setdefault(key, collections.Counter())[str(entry["status"])] += 1
            self.requests_total += 1
            if entry["status"] == "dropped":
                self.dropped_connections += 1
            self.recent_seq += 1
            entry = dict(entry, seq=self.recent_seq)
            del entry["route"]
            self.recent.append(entry)

    # -- database --
    def upsert(self, trainee_name: str, days: dict[str, int], source: str) -> None:
        now = utc_stamp()
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.executemany(
                    "INSERT INTO daily_metric(trainee, date, steps, source, updated_at) VALUES (?,?,?,?,?) "
                    "ON CONFLICT(trainee, date) DO UPDATE SET steps = excluded.steps, "
                    "source = excluded.source, updated_at = excluded.updated_at",
                    [(trainee_name, d, s, source, now) for d, s in days.items()])
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def ingest(self, trainee: Trainee, entries: list[tuple[str, int]]) -> int:
        with self.lock:
            lo, hi = window(self.today_for(trainee))
        kept: dict[str, int] = {}
        for date, steps in entries:
            day = dt.date.fromisoformat(date)
            if lo <= day <= hi:
                kept[date] = steps  # the last entry for a date wins
        if kept:
            self.upsert(trainee.name, kept, "import")
        return len(kept)

    def rows(self, trainee_name: str, lo: str, hi: str) -> list[tuple[str, int]]:
        with self.lock:
            return list(self.db.execute(
                "SELECT date, steps FROM daily_metric WHERE trainee = ? AND date BETWEEN ? AND ? ORDER BY date",
                (trainee_name, lo, hi)))

    def clear_rows(self) -> None:
        with self.lock:
            self.db.execute("DELETE FROM daily_metric")

    def state_snapshot(self) -> dict:
        """JSON of GET /_admin/state:
        {
          "trainees": {NAME: {"zone": "Europe/Berlin", "today": "YYYY-MM-DD",
                              "window": {"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}}},
          "rows": {NAME: [{"date","steps","source","updated_at"}, ...]},   # by date
          "requests": {"POST /v1/trainee/health/days": {"201": 2, "400": 1, "dropped": 1}, ...},
          "requests_total": N, "dropped_connections": N,
          "retired_samples_calls": N, "fault_seq": N,
          "config": {... as GET /_admin/config ...},
          "recent": [{"seq", "method", "path", "status", "authorization":
                      "missing"|"bearer"|"other", "trainee": NAME|null,
                      "content_type", "body": JSON|null, "body_text": str|null,
                      "days_written": N|null, "error": str|null}, ...]
        }
        (last RECENT_LIMIT /v1 and unknown-path requests, oldest first; "body" is
        the parsed JSON body, "body_text" the raw text when it is not JSON.)"""
        with self.lock:
            rows: dict[str, list] = {t.name: [] for t in self.trainees}
            for trainee, date, steps, source, updated_at in self.db.execute(
                    "SELECT trainee, date, steps, source, updated_at FROM daily_metric ORDER BY trainee, date"):
                rows.setdefault(trainee, []).append(
                    {"date": date, "steps": steps, "source": source, "updated_at": updated_at})
            trainees = {}
            for t in self.trainees:
                today = self.today_for(t)
                lo, hi = window(today)
                trainees[t.name] = {"zone": t.zone_name, "today": today.isoformat(),
                                    "window": {"from": lo.isoformat(), "to": hi.isoformat()}}
            return {
                "trainees": trainees,
                "rows": rows,
                "requests": {k: dict(v) for k, v in sorted(self.requests.items())},
                "requests_total": self.requests_total,
                "dropped_connections": self.dropped_connections,
                "retired_samples_calls": self.retired_samples_calls,
                "fault_seq": self.fault_seq,
                "config": self.config.as_json(),
                "recent": list(self.recent),
            }


# --------------------------------------------------------------------------
# HTTP


class Dropped(Exception):
    """The connection was reset on purpose."""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "contract-server/1"
    sys_version = ""
    timeout = 60  # idle keep-alive connections and stalled bodies
    error_content_type = "application/json"
    error_message_format = '{"error": "%(message)s"}\n'

    def version_string(self):
        return self.server_version

    # Quiet the default logging: we write our own line per request.
    def log_message(self, format, *args):  # noqa: A002
        pass

    def log_request(self, code="-", size="-"):
        pass

    @property
    def state(self) -> State:
        return self.server.state  # type: ignore[attr-defined]

    def do_GET(self):
        self._handle()

    def do_POST(self):
        self._handle()

    def do_PUT(self):
        self._handle()

    def do_PATCH(self):
        self._handle()

    def do_DELETE(self):
        self._handle()

    def do_HEAD(self):
        self._handle()

    def do_OPTIONS(self):
        self._handle()

    # -- plumbing --
    def _read_body(self) -> bytes:
        """The request body; raises BadRequest (with the connection marked closed)."""
        te = (self.headers.get("Transfer-Encoding") or "").strip().lower()
        if te:
            if te != "chunked":
                self.close_connection = True
                raise BadRequest(f"unsupported Transfer-Encoding {te!r}")
            return self._read_chunked()
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            return b""
        if not length_text.strip().isdigit():
            self.close_connection = True
            raise BadRequest("bad Content-Length")
        length = int(length_text)
        if length > MAX_BODY_BYTES:
            self.close_connection = True
            if length <= DRAIN_LIMIT_BYTES:
                self._drain(length)
            raise BadRequest(f"body of {length} bytes exceeds the {MAX_BODY_BYTES} byte limit", status=413)
        data = self.rfile.read(length)
        if len(data) != length:
            self.close_connection = True
            raise ConnectionError("body shorter than Content-Length")
        return data

    def _drain(self, length: int) -> None:
        while length > 0:
            chunk = self.rfile.read(min(length, 65536))
            if not chunk:
                break
            length -= len(chunk)

    def _read_chunked(self) -> bytes:
        parts, total = [], 0
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                self.close_connection = True
                raise BadRequest("bad chunked encoding")
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                break
            total += size
            if total > MAX_BODY_BYTES:
                self.close_connection = True
                raise BadRequest(f"body exceeds the {MAX_BODY_BYTES} byte limit", status=413)
            parts.append(self.rfile.read(size))
            self.rfile.readline(1024)
        return b"".join(parts)

    def _send_json(self, status: int, obj, extra_headers: dict | None = None) -> None:
        data = (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        self._send_bytes(status, data, "application/json; charset=utf-8", extra_headers)

    def _send_bytes(self, status: int, data: bytes, content_type: str, extra_headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (extra_headers or {}).items():
            self.send_header(key, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        if getattr(self, "_answer_pending", False) is False and not urlsplit(self.path).path.startswith("/_admin/"):
            # From here the client may see the answer: admin reads wait until it is recorded.
            self._answer_pending = True
            self.state.begin_answer()
        if getattr(self, "_request_entry", None) is not None and not self._logged:
            self._conclude(status)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        self.wfile.flush()

    def _reset_connection(self) -> None:
        """Abort the TCP connection (RST) without answering."""
        self.close_connection = True
        if getattr(self, "_answer_pending", False) is False:
            # The client sees the reset at once: admin reads wait until the drop is recorded too.
            self._answer_pending = True
            self.state.begin_answer()
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            fd = self.connection.detach()
            os.close(fd)
        except OSError:
            pass

    def _auth_kind(self) -> str:
        value = self.headers.get("Authorization")
        if value is None:
            return "missing"
        scheme, _, rest = value.strip().partition(" ")
        if scheme.lower() == "bearer" and rest.strip():
            return "bearer"
        return "other"

    def _trainee(self) -> Trainee | None:
        value = self.headers.get("Authorization")
        if value is None:
            return None
        scheme, _, rest = value.strip().partition(" ")
        token = rest.strip()
        if scheme.lower() != "bearer" or not token:
            return None
        return self.state.trainee_for_token(token)

    def _client_is_loopback(self) -> bool:
        try:
            return ipaddress.ip_address(self.client_address[0].split("%")[0]).is_loopback
        except ValueError:
            return False

    # -- dispatch --
    def _handle(self) -> None:
        started = time.monotonic()
        self._request_started = started
        self._request_entry = None
        self._logged = False
        split = urlsplit(self.path)
        path = split.path
        method = self.command
        is_admin = path.startswith("/_admin/")
        known = ROUTES.get(path)
        route = path if known is not None else "(other)"
        entry = {
            "method": method,
            "path": self.state.redact(self.path),
            "route": route,
            "status": None,
            "authorization": self._auth_kind(),
            "trainee": None,
            "content_type": self.headers.get("Content-Type"),
            "body": None,
            "body_text": None,
            "days_written": None,
            "error": None,
        }
        self._request_entry = entry
        status: int | str = 500
        try:
            try:
                body = self._read_body()
            except BadRequest as exc:
                status = exc.status
                entry["error"] = exc.message
                self._send_json(exc.status, {"error": exc.message})
                return
            self._remember_body(entry, body)
            if is_admin:
                status = self._admin(path, split.query, method, body, known)
            else:
                status = self._api(path, split.query, method, body, known, entry)
        except Dropped:
            status = "dropped"
        except (ConnectionError, TimeoutError, OSError):
            # The client went away (e.g. it timed out during --delay).
            status = "client-gone"
            self.close_connection = True
        except Exception as exc:  # a bug in this server: answer 500, keep serving
            status = 500
            entry["error"] = f"internal error: {type(exc).__name__}: {exc}"
            self.close_connection = True
            try:
                self._send_json(500, {"error": entry["error"]})
            except OSError:
                pass
        finally:
            if not self._logged:
                self._conclude(status)
            if getattr(self, "_answer_pending", False):
                self._answer_pending = False
                self.state.end_answer()

    def _conclude(self, status) -> None:
        """Records the request (in /_admin/state's counts and "recent") and writes its log line,
        once. Done before the answer goes out where there is one, so that requests made one after
        another are recorded and logged in the order they were made."""
        self._logged = True
        entry = self._request_entry
        entry["status"] = status
        if not entry["path"].startswith("/_admin/"):
            self.state.record(entry)
        self.server.log_line(  # type: ignore[attr-defined]
            f"{entry['method']} {entry['path']} {status} "
            f"days={entry['days_written'] if entry['days_written'] is not None else '-'} "
            f"auth={entry['authorization']} {int((time.monotonic() - self._request_started) * 1000)}ms")

    def _remember_body(self, entry: dict, body: bytes) -> None:
        if not body:
            return
        text = body.decode("utf-8", errors="replace")
        try:
            entry["body"] = json.loads(text, parse_constant=_reject_constant)
            if self.state.redact(text) != text:  # a token inside the body: keep only redacted text
                entry["body"] = None
                entry["body_text"] = self.state.redact(text)[:RECENT_BODY_CHARS]
        except (ValueError, RecursionError):
            entry["body_text"] = self.state.redact(text)[:RECENT_BODY_CHARS]

    def _not_allowed(self, known: tuple[str, ...]) -> int:
        status, answer, headers = self._method_not_allowed(known)
        self._send_json(status, answer, headers)
        return status

    def _method_not_allowed(self, known: tuple[str, ...]):
        return (405, {"error": f"method {self.command} not allowed; use {', '.join(known)}"},
                {"Allow": ", ".join(known)})

    def _api(self, path, query, method, body, known, entry) -> int:
        state = self.state
        with state.lock:
            if path == SAMPLES_PATH:  # every call counts: any method, token or fault
                state.retired_samples_calls += 1
            cfg = state.config
            delay, scope = cfg.delay, cfg.fault_scope
            drop_every, drop_mode = cfg.drop_every, cfg.drop_mode
            fail_first, fail_status, retry_after = cfg.fail_first, cfg.fail_status, cfg.retry_after
            fail_body, claim_days = cfg.fail_body, cfg.claim_days
            unauthorized = cfg.unauthorized
        if path.startswith("/v1/") and delay > 0:
            time.sleep(delay)
        in_scope = (path == DAYS_PATH and method == "POST") if scope == "days" else path.startswith("/v1/")
        drop_after = False
        if in_scope:
            n = state.next_fault_seq()
            if drop_every and n % drop_every == 0:
                if drop_mode == "before":
                    self._reset_connection()
                    raise Dropped()
                drop_after = True
            elif n <= fail_first:
                headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
                if fail_body is None:
                    self._send_json(fail_status, {"error": "injected failure"}, headers)
                else:
                    echoed = fail_body.replace("{authorization}", self.headers.get("Authorization") or "")
                    self._send_bytes(fail_status, echoed.encode("utf-8", errors="surrogateescape"),
                                     "application/json; charset=utf-8", headers)
                return fail_status
        status, answer, headers = self._api_route(path, query, method, body, known, entry, unauthorized)
        if status == 201 and path == DAYS_PATH and claim_days is not None:
            answer = {"days": claim_days}
        if drop_after:  # processed (and committed, if it was a good write); the answer is lost
            self._reset_connection()
            raise Dropped()
        self._send_json(status, answer, headers)
        return status

    def _api_route(self, path, query, method, body, known, entry, unauthorized):
        """Process one /v1 (or unknown) request: (status, answer, extra headers)."""
        if known is None:
            return 404, {"error": "not found"}, None
        if method not in known:
            return self._method_not_allowed(known)
        trainee = None if unauthorized else self._trainee()
        if trainee is None:
            entry["error"] = "unauthorized"
            return 401, {"error": "unauthorized"}, {"WWW-Authenticate": 'Bearer realm="contract"'}
        entry["trainee"] = trainee.name
        try:
            if path == DAYS_PATH:
                check_json_content_type(self.headers.get("Content-Type"))
                entries = validate_days_body(parse_json_body(body))
                written = self.state.ingest(trainee, entries)
                entry["days_written"] = written
                return 201, {"days": written}, None
            if path == SUMMARY_PATH:
                return 200, self._summary(trainee, query), None
            return 201, {"accepted": 0, "retired": True}, None  # SAMPLES_PATH, retired: stores nothing
        except BadRequest as exc:
            entry["error"] = exc.message
            answer = {"error": exc.message}
            if exc.index is not None:
                answer["index"] = exc.index
            return exc.status, answer, None

    def _summary(self, trainee: Trainee, query: str) -> dict:
        try:
            params = parse_qs(query, keep_blank_values=True, strict_parsing=False)
        except ValueError:
            raise BadRequest("bad query string")
        values = {}
        for key in ("from", "to"):
            got = params.get(key)
            if got is None:
                continue
            if len(got) != 1:
                raise BadRequest(f"{key} given {len(got)} times")
            day = parse_date(got[0])
            if day is None:
                raise BadRequest(f"{key} must be a calendar date YYYY-MM-DD, got {got[0]!r}")
            values[key] = day
        with self.state.lock:
            today = self.state.today_for(trainee)
        hi = values.get("to", today)
        lo = values.get("from", hi - dt.timedelta(days=SUMMARY_DEFAULT_BACK_DAYS))
        if lo > hi:
            raise BadRequest(f"from {lo.isoformat()} is after to {hi.isoformat()}")
        span = (hi - lo).days + 1
        if span > SUMMARY_MAX_DATES:
            raise BadRequest(f"range holds {span} dates; at most {SUMMARY_MAX_DATES} are allowed")
        days = [{"date": d, "steps": s, "restingHeartRate": None, "avgHeartRate": None}
                for d, s in self.state.rows(trainee.name, lo.isoformat(), hi.isoformat())]
        return {"range": {"from": lo.isoformat(), "to": hi.isoformat()}, "days": days, "latestHeartRate": None}

    def _admin(self, path, query, method, body, known) -> int:
        state = self.state
        state.wait_for_answers()
        if not self._client_is_loopback():
            self._send_json(403, {"error": "admin routes answer loopback clients only"})
            return 403
        if known is None:
            self._send_json(404, {"error": "not found"})
            return 404
        if method not in known:
            return self._not_allowed(known)
        try:
            obj = parse_json_body(body) if body else {}
            if not isinstance(obj, dict):
                raise BadRequest("admin body must be a JSON object")
            if path == "/_admin/state":
                self._send_json(200, state.state_snapshot())
                return 200
            if path == "/_admin/config":
                if method == "POST":
                    with state.lock:
                        try:
                            state.config.update(obj)
                        except ValueError as exc:
                            raise BadRequest(str(exc))
                        state.fault_seq = 0
                with state.lock:
                    answer = state.config.as_json()
                self._send_json(200, answer)
                return 200
            if path == "/_admin/reset":
                for key in obj:
                    if key not in ("rows", "counters") or not isinstance(obj[key], bool):
                        raise BadRequest('reset takes {"rows": bool, "counters": bool}')
                if obj.get("rows", True):
                    state.clear_rows()
                if obj.get("counters", True):
                    with state.lock:
                        state.reset_counters()
                self._send_json(200, {"ok": True})
                return 200
            # /_admin/seed
            return self._admin_seed(obj)
        except BadRequest as exc:
            self._send_json(exc.status, {"error": exc.message})
            return exc.status

    def _admin_seed(self, obj: dict) -> int:
        state = self.state
        trainee = None
        if "trainee" in obj:
            trainee = state.by_name.get(obj["trainee"]) if isinstance(obj["trainee"], str) else None
        elif "token" in obj and isinstance(obj["token"], str):
            trainee = state.trainee_for_token(obj["token"])
        if trainee is None:
            raise BadRequest('seed needs a known "trainee" name or "token"')
        source = obj.get("source", "manual")
        if not isinstance(source, str) or not source:
            raise BadRequest("source must be a non-empty string")
        days = obj.get("days")
        if not isinstance(days, list) or not days:
            raise BadRequest("days must be a non-empty array")
        rows: dict[str, int] = {}
        for i, item in enumerate(days):
            if not isinstance(item, dict) or parse_date(item.get("date")) is None:
                raise BadRequest(f"days[{i}].date must be a calendar date YYYY-MM-DD")
            steps = item.get("steps")
            if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
                raise BadRequest(f"days[{i}].steps must be an integer >= 0")
            rows[item["date"]] = steps
        state.upsert(trainee.name, rows, source)
        self._send_json(201, {"days": len(rows)})
        return 201


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, address, state: State, log_file, family):
        self.address_family = family
        self.state = state
        self._log_file = log_file
        self._log_lock = threading.Lock()
        super().__init__(address, Handler)

    def server_bind(self):
        # HTTPServer.server_bind would call socket.getfqdn (a DNS lookup); skip it.
        socketserver.TCPServer.server_bind(self)
        self.server_name = self.server_address[0]
        self.server_port = self.server_address[1]

    def log_line(self, text: str) -> None:
        stamp = dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        with self._log_lock:
            try:
                self._log_file.write(f"{stamp} {text}\n")
                self._log_file.flush()
            except (OSError, ValueError):
                pass

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


# --------------------------------------------------------------------------
# Command line


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="contract_server.py",
        description="Contract server for the coaching backend's health API (tests and demos).",
        epilog="See the module docstring for the API, the window and the admin routes.")
    p.add_argument("--host", default="127.0.0.1", help="loopback address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=0, help="port; 0 picks a free one (default)")
    p.add_argument("--db", default=":memory:", help="SQLite file (default: in memory)")
    p.add_argument("--token", action="append", default=[], metavar="[NAME:]TOKEN=ZONE",
                   help="a trainee's bearer token and IANA zone (repeatable; default test-token=Europe/Berlin)")
    clock = p.add_mutually_exclusive_group()
    clock.add_argument("--today", metavar="YYYY-MM-DD", help="today's date for every trainee")
    clock.add_argument("--now", metavar="INSTANT", help="fixed instant, e.g. 2026-03-10T10:30:00Z")
    p.add_argument("--seed-manual", action="append", default=[], metavar="WHO:DATE=STEPS",
                   help="store a hand-typed ('manual') row at start; WHO is a trainee name or token")
    p.add_argument("--fail-first", type=int, default=0, metavar="N", help="answer the first N requests in scope with --fail-status")
    p.add_argument("--fail-status", type=int, default=503, help="status for --fail-first (default 503)")
    p.add_argument("--retry-after", type=int, default=None, metavar="SECONDS", help="Retry-After header on injected failures")
    p.add_argument("--fail-body", default=None, metavar="TEXT",
                   help='body of injected failures; "{authorization}" is replaced by the request\'s Authorization header')
    p.add_argument("--drop-every", type=int, default=0, metavar="K", help="reset every Kth connection in scope")
    p.add_argument("--drop-mode", choices=("before", "after"), default="before",
                   help="drop before processing (default) or after committing")
    p.add_argument("--delay", type=float, default=0.0, metavar="SECONDS", help="sleep before answering each /v1 request")
    p.add_argument("--fault-scope", choices=("days", "api"), default="days",
                   help="faults hit POST /days only (default) or every /v1 request")
    p.add_argument("--unauthorized", action="store_true", help="answer every /v1 request 401 (token revoked)")
    p.add_argument("--claim-days", type=int, default=None, metavar="N",
                   help='answer a good POST /days 201 {"days": N} whatever was written')
    p.add_argument("--ready-file", metavar="PATH", help="write the URL here once listening (atomically)")
    p.add_argument("--log", metavar="PATH", help="append one line per request here (default stderr)")
    return p


def resolve_host(host: str) -> tuple[str, int, str]:
    """(bind address, address family, URL host) for a loopback host, else UsageError."""
    if host == "localhost":
        host = "127.0.0.1"
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        raise UsageError(f"--host {host!r}: give a loopback IP address (127.0.0.1, ::1) or localhost")
    if not addr.is_loopback:
        raise UsageError(f"--host {host!r} is not a loopback address; this server binds loopback only")
    if addr.version == 6:
        return str(addr), socket.AF_INET6, f"[{addr}]"
    return str(addr), socket.AF_INET, str(addr)


def write_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".ready-", dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def setup(args) -> tuple[State, list[Trainee]]:
    specs = args.token or ["test-token=Europe/Berlin"]
    trainees = [parse_token_spec(spec, i + 1) for i, spec in enumerate(specs)]
    names = [t.name for t in trainees]
    if len(set(names)) != len(names):
        raise UsageError("--token: trainee names must be distinct")
    tokens = [t.token for t in trainees]
    if len(set(tokens)) != len(tokens):
        raise UsageError("--token: tokens must be distinct")
    config = Config()
    changes = {
        "fail_first": args.fail_first, "fail_status": args.fail_status, "retry_after": args.retry_after,
        "fail_body": args.fail_body, "claim_days": args.claim_days,
        "drop_every": args.drop_every, "drop_mode": args.drop_mode, "delay": args.delay,
        "fault_scope": args.fault_scope, "unauthorized": args.unauthorized,
        "today": args.today, "now": args.now,
    }
    try:
        config.update(changes)
    except ValueError as exc:
        raise UsageError(str(exc))
    try:
        state = State(args.db, trainees, config)
    except sqlite3.Error as exc:
        raise UsageError(f"--db {args.db}: {exc}")
    for spec in args.seed_manual:
        who, sep, rest = spec.partition(":")
        date, sep2, steps = rest.partition("=")
        if not sep or not sep2:
            raise UsageError(f"--seed-manual {spec!r}: expected WHO:YYYY-MM-DD=STEPS")
        trainee = state.by_name.get(who) or state.trainee_for_token(who)
        if trainee is None:
            raise UsageError("--seed-manual: no trainee with that name or token")
        if parse_date(date) is None or not steps.isdigit():
            raise UsageError(f"--seed-manual: bad date or steps in {state.redact(spec)!r}")
        state.upsert(trainee.name, {date: int(steps)}, "manual")
    return state, trainees


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    log_file = None
    try:
        bind, family, url_host = resolve_host(args.host)
        if not 0 <= args.port <= 65535:
            raise UsageError("--port must be 0..65535")
        state, _ = setup(args)
        log_file = open(args.log, "a", encoding="utf-8") if args.log else sys.stderr
        try:
            server = Server((bind, args.port), state, log_file, family)
        except OSError as exc:
            raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc}")
    except (UsageError, OSError) as exc:
        print(f"contract_server: {exc}", file=sys.stderr)
        return 2

    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    # A parent (a test runner) may have blocked these signals, and children inherit the mask.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

    port = server.server_address[1]
    url = f"http://{url_host}:{port}"
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    serving.start()
    print(f"listening on {url}", flush=True)
    ready_written = False
    try:
        if args.ready_file:
            write_atomically(args.ready_file, url + "\n")
            ready_written = True
        while not stop.wait(0.2):
            if not serving.is_alive():
                break
    finally:
        server.shutdown()
        server.server_close()
        with state.lock:
            state.db.close()
        if ready_written:
            try:
                os.unlink(args.ready_file)
            except OSError:
                pass
        if log_file is not None and log_file is not sys.stderr:
            log_file.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
