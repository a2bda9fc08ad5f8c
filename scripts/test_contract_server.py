#!/usr/bin/env python3
"""Tests for scripts/contract_server.py (stdlib unittest, Python 3.11+).

Run:  python3 -m unittest scripts/test_contract_server.py
  or  python3 scripts/test_contract_server.py [-v]

Every test talks HTTP to a real server process started on 127.0.0.1 with
--port 0 and --ready-file, and checks the rows in its SQLite file (--db), not
only the answers. CONTRACT_SERVER=/path/to/other.py runs the same tests
against another copy of the server (e.g. a deliberately broken one).
"""

from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
import zoneinfo
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVER = os.environ.get("CONTRACT_SERVER", str(HERE / "contract_server.py"))
START_TIMEOUT = 15.0

DAYS = "/v1/trainee/health/days"
SUMMARY = "/v1/trainee/health/summary"
SAMPLES = "/v1/trainee/health/samples"

# A token that must never show up anywhere the server writes or answers.
SECRET = "SeCrEt-tok3n-Zq81"
OTHER_SECRET = "OtHeR-s3cret-Kx27"


class Response:
    def __init__(self, status: int, headers, body: bytes):
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def __repr__(self):
        return f"<Response {self.status} {self.body[:200]!r}>"


class ServerProcess:
    """One contract server process in its own temporary directory."""

    def __init__(self, *args: str, db: bool = True):
        self.args = list(args)
        self.tmp = tempfile.TemporaryDirectory(prefix="contract-test-")
        self.dir = Path(self.tmp.name)
        self.ready_file = self.dir / "ready"
        self.db_path = self.dir / "health.sqlite" if db else None
        self.log_path = self.dir / "requests.log"
        self.stdout_path = self.dir / "stdout"
        self.stderr_path = self.dir / "stderr"
        self.proc: subprocess.Popen | None = None
        self.url = ""

    def command(self) -> list[str]:
        cmd = [sys.executable, SERVER, "--port", "0", "--ready-file", str(self.ready_file),
               "--log", str(self.log_path)]
        if self.db_path is not None:
            cmd += ["--db", str(self.db_path)]
        return cmd + self.args

    def start(self) -> "ServerProcess":
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(self.command(), stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT
        while not self.ready_file.exists():
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited with {self.proc.returncode} before it was ready: "
                                     f"{self.stderr_path.read_text()}")
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError("server not ready in time")
            time.sleep(0.01)
        self.url = self.ready_file.read_text().strip()
        return self

    def stop(self, sig=signal.SIGTERM, timeout: float = 10.0) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError(f"server ignored signal {sig}")
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def close(self) -> None:
        try:
            self.stop()
        finally:
            self.kill()
            self.tmp.cleanup()

    # -- HTTP --
    def request(self, method: str, path: str, body=None, *, token: str | None = None,
                auth: str | None = None, content_type: str | None = "application/json",
                headers: dict | None = None, timeout: float = 10.0) -> Response:
        """urllib request; answers with any status come back as a Response,
        transport failures (reset, timeout) raise."""
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if content_type is not None and data is not None:
            req.add_header("Content-Type", content_type)
        if token is not None:
            req.add_header("Authorization", f"Bearer {token}")
        if auth is not None:
            req.add_header("Authorization", auth)
        for key, value in (headers or {}).items():
            req.add_header(key, value)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return Response(resp.status, resp.headers, resp.read())
        except urllib.error.HTTPError as exc:
            with exc:
                return Response(exc.code, exc.headers, exc.read())

    def raw(self, method: str, path: str, body: bytes | None, headers: dict, timeout=10.0) -> Response:
        """http.client request with exactly these headers (urllib adds a Content-Type)."""
        host, port = self.url.removeprefix("http://").rsplit(":", 1)
        conn = http.client.HTTPConnection(host.strip("[]"), int(port), timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            return Response(resp.status, resp.headers, resp.read())
        finally:
            conn.close()

    def post_days(self, days, token="test-token", **kw) -> Response:
        return self.request("POST", DAYS, {"days": days}, token=token, **kw)

    def admin(self, path: str, obj=None) -> Response:
        if obj is None:
            return self.request("GET", path)
        return self.request("POST", path, obj)

    def state(self) -> dict:
        resp = self.admin("/_admin/state")
        assert resp.status == 200, resp
        return resp.json

    def reset(self, **config) -> None:
        defaults = {"fail_first": 0, "fail_status": 503, "retry_after": None, "fail_body": None, "drop_every": 0,
                    "drop_mode": "before", "delay": 0, "fault_scope": "days", "unauthorized": False,
                    "claim_days": None}
        defaults.update(config)
        assert self.admin("/_admin/config", defaults).status == 200
        assert self.admin("/_admin/reset", {}).status == 200

    def db_rows(self, trainee: str | None = None) -> dict[str, tuple[int, str]]:
        """{date: (steps, source)} straight from the SQLite file."""
        con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            if trainee is None:
                rows = con.execute("SELECT date, steps, source FROM daily_metric ORDER BY date").fetchall()
                if len({r[0] for r in rows}) != len(rows):
                    raise AssertionError("several trainees hold rows; name one")
            else:
                rows = con.execute("SELECT date, steps, source FROM daily_metric WHERE trainee = ? ORDER BY date",
                                   (trainee,)).fetchall()
            return {d: (s, src) for d, s, src in rows}
        finally:
            con.close()

    def db_all(self) -> list[tuple]:
        con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            return con.execute("SELECT trainee, date, steps, source, updated_at FROM daily_metric "
                               "ORDER BY trainee, date").fetchall()
        finally:
            con.close()

    def log_text(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


def run_server_expecting_failure(*args: str, timeout=15.0) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as tmp:
        ready = Path(tmp) / "ready"
        proc = subprocess.run([sys.executable, SERVER, "--ready-file", str(ready), *args],
                              capture_output=True, text=True, timeout=timeout)
        proc.ready_existed = ready.exists()  # type: ignore[attr-defined]
        return proc


def d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def date_range(first: str, last: str) -> list[str]:
    start, end = d(first), d(last)
    return [(start + dt.timedelta(days=i)).isoformat() for i in range((end - start).days + 1)]


class SharedServerCase(unittest.TestCase):
    """One server per class; every test starts from an empty database and counters."""

    SERVER_ARGS: tuple[str, ...] = ("--today", "2026-03-10")

    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(*cls.SERVER_ARGS).start()

    @classmethod
    def tearDownClass(cls):
        rc = cls.server.stop()
        cls.server.close()
        if rc != 0:
            raise AssertionError(f"server exited with {rc} at SIGTERM")

    def setUp(self):
        self.server.reset()

    def assertStoredNothing(self):
        self.assertEqual(self.server.db_all(), [])
        self.assertEqual(self.server.state()["rows"], {name: [] for name in self.server.state()["trainees"]})


# ---------------------------------------------------------------------------


class StartStopTests(unittest.TestCase):
    def test_ready_file_stdout_line_and_sigterm(self):
        server = ServerProcess("--today", "2026-03-10")
        try:
            server.start()
            self.assertRegex(server.ready_file.read_text(), r"\Ahttp://127\.0\.0\.1:[1-9][0-9]*\n\Z")
            self.assertEqual(server.post_days([{"date": "2026-03-10", "steps": 5}]).status, 201)
            rc = server.stop(signal.SIGTERM)
            self.assertEqual(rc, 0)
            self.assertEqual(server.stdout_path.read_text(), f"listening on {server.url}\n")
            self.assertFalse(server.ready_file.exists(), "ready file left behind")
            self.assertEqual([p.name for p in server.dir.iterdir() if p.name.startswith(".ready")], [])
            self.assertNotIn("Traceback", server.stderr_path.read_text())
            # the row outlives the process
            self.assertEqual(server.db_rows(), {"2026-03-10": (5, "import")})
        finally:
            server.close()

    def test_sigint_stops_cleanly(self):
        server = ServerProcess()
        try:
            server.start()
            self.assertEqual(server.stop(signal.SIGINT), 0)
            self.assertFalse(server.ready_file.exists())
            self.assertNotIn("Traceback", server.stderr_path.read_text())
        finally:
            server.close()

    def test_refuses_non_loopback_hosts(self):
        for host in ("0.0.0.0", "::", "192.0.2.10", "example.com", ""):
            with self.subTest(host=host):
                proc = run_server_expecting_failure("--host", host, "--port", "0")
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertIn("loopback", proc.stderr)
                self.assertEqual(proc.stdout, "")
                self.assertFalse(proc.ready_existed)

    def test_accepts_loopback_spellings(self):
        cases = [("localhost", "http://127.0.0.1:"), ("127.0.0.2", "http://127.0.0.2:")]
        if socket.has_ipv6:
            try:
                with socket.socket(socket.AF_INET6) as s:
                    s.bind(("::1", 0))
                cases.append(("::1", "http://[::1]:"))
            except OSError:
                pass
        for host, prefix in cases:
            with self.subTest(host=host):
                server = ServerProcess("--host", host)
                try:
                    server.start()
                    self.assertTrue(server.url.startswith(prefix), server.url)
                    self.assertEqual(server.raw("GET", SUMMARY, None, {"Authorization": "Bearer test-token"}).status,
                                     200)
                finally:
                    server.close()

    def test_bad_options_exit_2(self):
        cases = {
            "unknown zone": ["--token", "tok=Mars/Olympus"],
            "no zone": ["--token", "tok"],
            "bad token chars": ["--token", "to ken=Europe/Berlin"],
            "duplicate token": ["--token", "tok=Europe/Berlin", "--token", "tok=Europe/Paris"],
            "duplicate name": ["--token", "a:t1=Europe/Berlin", "--token", "a:t2=Europe/Paris"],
            "today and now": ["--today", "2026-03-10", "--now", "2026-03-10T00:00:00Z"],
            "bad today": ["--today", "2026-02-30"],
            "naive now": ["--now", "2026-03-10T00:00:00"],
            "bad fail status": ["--fail-status", "200"],
            "negative fail-first": ["--fail-first", "-1"],
            "seed unknown trainee": ["--seed-manual", "nobody:2026-03-10=5"],
            "seed bad date": ["--seed-manual", "test-token:2026-02-30=5"],
            "seed bad steps": ["--seed-manual", "test-token:2026-03-10=1.5"],
            "bad port": ["--port", "70000"],
        }
        for name, args in cases.items():
            with self.subTest(name):
                proc = run_server_expecting_failure(*args)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertFalse(proc.ready_existed)
                self.assertNotIn("Traceback", proc.stderr)

    def test_port_in_use_exits_2(self):
        with socket.socket() as busy:
            busy.bind(("127.0.0.1", 0))
            busy.listen()
            port = busy.getsockname()[1]
            proc = run_server_expecting_failure("--port", str(port))
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("cannot listen", proc.stderr)

    def test_explicit_port_is_used(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = ServerProcess("--port", str(port))  # a later --port wins in argparse
        try:
            server.start()
            self.assertEqual(server.url, f"http://127.0.0.1:{port}")
        finally:
            server.close()

    def test_default_trainee_and_stderr_log(self):
        server = ServerProcess("--today", "2026-03-10")
        # no --log: the request lines go to stderr
        server.command = lambda: [sys.executable, SERVER, "--port", "0", "--ready-file",  # type: ignore
                                  str(server.ready_file), "--db", str(server.db_path), "--today", "2026-03-10"]
        try:
            server.start()
            state = server.state()
            self.assertEqual(list(state["trainees"]), ["trainee-1"])
            self.assertEqual(state["trainees"]["trainee-1"]["zone"], "Europe/Berlin")
            self.assertEqual(server.post_days([{"date": "2026-03-09", "steps": 9}], token="test-token").status, 201)
            self.assertEqual(server.db_rows("trainee-1"), {"2026-03-09": (9, "import")})
            self.assertEqual(server.post_days([{"date": "2026-03-09", "steps": 9}], token="other").status, 401)
            self.assertEqual(server.stop(), 0)
            lines = [ln for ln in server.stderr_path.read_text().splitlines() if DAYS in ln]
            self.assertEqual(len(lines), 2, lines)
            self.assertRegex(lines[0], r" POST /v1/trainee/health/days 201 days=1 auth=bearer \d+ms$")
            self.assertRegex(lines[1], r" POST /v1/trainee/health/days 401 days=- auth=bearer \d+ms$")
            self.assertNotIn("test-token", server.stderr_path.read_text())
        finally:
            server.close()

    def test_database_persists_across_restarts_and_seed_manual(self):
        first = ServerProcess("--today", "2026-03-10", "--token", "ann:tok-ann=Europe/Berlin",
                              "--seed-manual", "ann:2026-03-01=1234", "--seed-manual", "tok-ann:2026-03-02=42")
        try:
            first.start()
            self.assertEqual(first.db_rows("ann"), {"2026-03-01": (1234, "manual"), "2026-03-02": (42, "manual")})
            self.assertEqual(first.post_days([{"date": "2026-03-02", "steps": 7000}], token="tok-ann").status, 201)
            self.assertEqual(first.stop(), 0)
            second = ServerProcess("--today", "2026-03-10", "--token", "ann:tok-ann=Europe/Berlin")
            second.db_path = first.db_path
            try:
                second.start()
                resp = second.request("GET", SUMMARY + "?from=2026-03-01&to=2026-03-02", token="tok-ann")
                self.assertEqual([(x["date"], x["steps"]) for x in resp.json["days"]],
                                 [("2026-03-01", 1234), ("2026-03-02", 7000)])
                self.assertEqual(second.db_rows("ann"),
                                 {"2026-03-01": (1234, "manual"), "2026-03-02": (7000, "import")})
            finally:
                second.close()
        finally:
            first.close()

    def test_unauthorized_flag_revokes_every_token(self):
        server = ServerProcess("--today", "2026-03-10", "--unauthorized")
        try:
            server.start()
            for method, path, body in (("POST", DAYS, {"days": [{"date": "2026-03-10", "steps": 1}]}),
                                       ("GET", SUMMARY, None), ("POST", SAMPLES, {"samples": []})):
                with self.subTest(path=path):
                    resp = server.request(method, path, body, token="test-token")
                    self.assertEqual(resp.status, 401)
                    self.assertEqual(resp.json, {"error": "unauthorized"})
            self.assertEqual(server.db_all(), [])
        finally:
            server.close()


class AuthTests(SharedServerCase):
    SERVER_ARGS = ("--today", "2026-03-10", "--token", "ann:tok-ann=Europe/Berlin",
                   "--token", "bob:tok-bob=America/New_York")
    BODY = {"days": [{"date": "2026-03-10", "steps": 500}]}

    def test_bad_credentials_are_401_and_store_nothing(self):
        cases = {
            "missing": {},
            "unknown token": {"auth": "Bearer tok-nobody"},
            "token case": {"auth": "Bearer TOK-ANN"},
            "token prefix": {"auth": "Bearer tok-an"},
            "token longer": {"auth": "Bearer tok-annn"},
            "basic scheme": {"auth": "Basic tok-ann"},
            "no scheme": {"auth": "tok-ann"},
            "empty bearer": {"auth": "Bearer "},
        }
        for name, kw in cases.items():
            with self.subTest(name):
                resp = self.server.request("POST", DAYS, self.BODY, **kw)
                self.assertEqual(resp.status, 401)
                self.assertEqual(resp.json, {"error": "unauthorized"})
                self.assertTrue(resp.headers.get("WWW-Authenticate", "").startswith("Bearer"))
                summary = self.server.request("GET", SUMMARY, **kw)
                self.assertEqual(summary.status, 401)
        self.assertStoredNothing()
        counts = self.server.state()["requests"]
        self.assertEqual(counts["POST /v1/trainee/health/days"], {"401": len(cases)})
        self.assertEqual(counts["GET /v1/trainee/health/summary"], {"401": len(cases)})

    def test_each_token_writes_its_own_trainee(self):
        self.assertEqual(self.server.post_days([{"date": "2026-03-10", "steps": 1}], token="tok-ann").json,
                         {"days": 1})
        self.assertEqual(self.server.post_days([{"date": "2026-03-10", "steps": 2}], token="tok-bob").json,
                         {"days": 1})
        # the scheme name is case-insensitive (RFC 7235)
        resp = self.server.request("POST", DAYS, {"days": [{"date": "2026-03-09", "steps": 3}]},
                                   auth="bearer tok-ann")
        self.assertEqual(resp.status, 201)
        self.assertEqual(self.server.db_rows("ann"), {"2026-03-09": (3, "import"), "2026-03-10": (1, "import")})
        self.assertEqual(self.server.db_rows("bob"), {"2026-03-10": (2, "import")})
        recent = self.server.state()["recent"]
        self.assertEqual([(r["trainee"], r["authorization"]) for r in recent],
                         [("ann", "bearer"), ("bob", "bearer"), ("ann", "bearer")])

    def test_revocation_at_run_time(self):
        self.server.reset(unauthorized=True)
        self.assertEqual(self.server.post_days([{"date": "2026-03-10", "steps": 1}], token="tok-ann").status, 401)
        self.assertStoredNothing()
        self.server.reset(unauthorized=False)
        self.assertEqual(self.server.post_days([{"date": "2026-03-10", "steps": 1}], token="tok-ann").status, 201)


class ValidationTests(SharedServerCase):
    SERVER_ARGS = ("--today", "2026-03-10")
    GOOD = {"date": "2026-03-08", "steps": 1000}

    def assertRejected(self, resp: Response, *, index: int | None = None, fragment: str | None = None,
                       status: int = 400):
        self.assertEqual(resp.status, status, resp)
        self.assertTrue(resp.headers["Content-Type"].startswith("application/json"))
        error = resp.json["error"]
        self.assertIsInstance(error, str)
        if index is not None:
            self.assertIn(f"days[{index}]", error)
            self.assertEqual(resp.json.get("index"), index)
        if fragment is not None:
            self.assertIn(fragment, error)
        self.assertStoredNothing()

    def test_bad_entries_reject_the_whole_batch(self):
        bad_entries = {
            "steps above the cap": ({"date": "2026-03-09", "steps": 100001}, "between 0 and 100000"),
            "negative steps": ({"date": "2026-03-09", "steps": -1}, "between 0 and 100000"),
            "fractional steps": ({"date": "2026-03-09", "steps": 1.5}, "integer"),
            "float literal steps": ({"date": "2026-03-09", "steps": 1.0}, "integer"),
            "steps as string": ({"date": "2026-03-09", "steps": "12"}, "integer"),
            "steps true": ({"date": "2026-03-09", "steps": True}, "integer"),
            "steps false": ({"date": "2026-03-09", "steps": False}, "integer"),
            "steps null": ({"date": "2026-03-09", "steps": None}, "integer"),
            "steps nested": ({"date": "2026-03-09", "steps": [12]}, "integer"),
            "impossible date": ({"date": "2025-02-30", "steps": 5}, "calendar date"),
            "month 13": ({"date": "2026-13-01", "steps": 5}, "calendar date"),
            "unpadded date": ({"date": "2026-3-09", "steps": 5}, "YYYY-MM-DD"),
            "date with time": ({"date": "2026-03-09T00:00:00", "steps": 5}, "YYYY-MM-DD"),
            "compact date": ({"date": "20260309", "steps": 5}, "YYYY-MM-DD"),
            "date with newline": ({"date": "2026-03-09\n", "steps": 5}, "YYYY-MM-DD"),
            "fullwidth digits": ({"date": "２０２６-03-09", "steps": 5}, "YYYY-MM-DD"),
            "date as number": ({"date": 20260309, "steps": 5}, "string"),
            "date null": ({"date": None, "steps": 5}, "string"),
            "missing date": ({"steps": 5}, "date is required"),
            "missing steps": ({"date": "2026-03-09"}, "steps is required"),
            "extra key": ({"date": "2026-03-09", "steps": 5, "source": "watch"}, "unknown key"),
            "entry is an array": (["2026-03-09", 5], "object"),
            "extra nesting": ([{"date": "2026-03-09", "steps": 5}], "object"),
            "entry is a string": ("2026-03-09", "object"),
            "entry is null": (None, "object"),
        }
        for name, (entry, fragment) in bad_entries.items():
            with self.subTest(name):
                resp = self.server.post_days([self.GOOD, dict(self.GOOD, date="2026-03-07"), entry])
                self.assertRejected(resp, index=2, fragment=fragment)

    def test_steps_as_exponent_literal_rejected(self):
        raw = b'{"days":[{"date":"2026-03-09","steps":1e3}]}'
        self.assertRejected(self.server.request("POST", DAYS, raw, token="test-token"), index=0, fragment="integer")

    def test_entry_count_limits(self):
        ninety_one = [{"date": x, "steps": 1} for x in date_range("2025-12-10", "2026-03-10")]
        self.assertEqual(len(ninety_one), 91)
        self.assertRejected(self.server.post_days(ninety_one), fragment="1 to 90 entries, got 91")
        self.assertRejected(self.server.post_days([]), fragment="1 to 90 entries, got 0")
        # 90 entries is fine, and every one of them is in the window
        resp = self.server.post_days(ninety_one[1:])
        self.assertEqual((resp.status, resp.json), (201, {"days": 90}))
        self.assertEqual(len(self.server.db_rows()), 90)

    def test_boundary_values_accepted(self):
        resp = self.server.post_days([{"date": "2026-03-09", "steps": 0}, {"date": "2026-03-10", "steps": 100000}])
        self.assertEqual((resp.status, resp.json), (201, {"days": 2}))
        self.assertEqual(self.server.db_rows(), {"2026-03-09": (0, "import"), "2026-03-10": (100000, "import")})
        leap = self.server.post_days([{"date": "2028-02-29", "steps": 1}])  # valid date, far future: skipped
        self.assertEqual((leap.status, leap.json), (201, {"days": 0}))

    def test_bad_body_shapes(self):
        good_days = [self.GOOD]
        cases = {
            "array body": [self.GOOD],
            "days missing": {},
            "days null": {"days": None},
            "days object": {"days": self.GOOD},
            "days string": {"days": "2026-03-08"},
            "extra top-level key": {"days": good_days, "trainee": "x"},
            "extra nesting": {"data": {"days": good_days}},
            "doubly nested days": {"days": [good_days]},
            "string body": "days",
            "number body": 7,
        }
        for name, body in cases.items():
            with self.subTest(name):
                self.assertRejected(self.server.request("POST", DAYS, body, token="test-token"))

    def test_malformed_json(self):
        cases = {  # body: the reason the answer must give
            "truncated": (b'{"days":[{"date":"2026-03-08","steps":1000}', "malformed JSON"),
            "trailing garbage": (b'{"days":[{"date":"2026-03-08","steps":1000}]} x', "malformed JSON"),
            "single quotes": (b"{'days':[{'date':'2026-03-08','steps':1000}]}", "malformed JSON"),
            "NaN": (b'{"days":[{"date":"2026-03-08","steps":NaN}]}', "malformed JSON"),
            "Infinity": (b'{"days":[{"date":"2026-03-08","steps":Infinity}]}', "malformed JSON"),
            "NaN as a key's value elsewhere": (b'{"days":[{"date":"2026-03-08","steps":1}],"x":-Infinity}',
                                               "malformed JSON"),
            "empty": (b"", "empty body"),
            "not utf-8": (b'{"days":[{"date":"2026-03-08","steps":1000,"\xff":1}]}', "UTF-8"),
            "utf-8 BOM": (b'\xef\xbb\xbf{"days":[{"date":"2026-03-08","steps":1000}]}', "malformed JSON"),
        }
        for name, (raw, fragment) in cases.items():
            with self.subTest(name):
                resp = self.server.request("POST", DAYS, raw, token="test-token")
                self.assertRejected(resp, fragment=fragment)

    def test_content_type(self):
        body = json.dumps({"days": [self.GOOD]}).encode()
        for ctype in ("text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin-1",
                      "application/jsonx"):
            with self.subTest(ctype):
                self.assertRejected(self.server.request("POST", DAYS, body, token="test-token", content_type=ctype),
                                    fragment="Content-Type")
        # no Content-Type header at all (http.client sends none)
        resp = self.server.raw("POST", DAYS, body, {"Authorization": "Bearer test-token"})
        self.assertRejected(resp, fragment="Content-Type")
        for ctype in ("application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8"):
            with self.subTest(ctype):
                resp = self.server.request("POST", DAYS, body, token="test-token", content_type=ctype)
                self.assertEqual(resp.status, 201, resp)

    def test_body_size_cap(self):
        entry = json.dumps(self.GOOD).encode()
        raw = b'{"days":[' + entry + b"]" + b" " * (1024 * 1024) + b"}"
        self.assertGreater(len(raw), 1024 * 1024)
        resp = self.server.request("POST", DAYS, raw, token="test-token")
        self.assertRejected(resp, status=413)
        # the same JSON under the cap is fine
        resp = self.server.request("POST", DAYS, b'{"days":[' + entry + b"]" + b" " * 1000 + b"}", token="test-token")
        self.assertEqual(resp.status, 201)

    def test_chunked_body(self):
        host, port = self.server.url.removeprefix("http://").rsplit(":", 1)
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            body = json.dumps({"days": [self.GOOD]}).encode()
            conn.request("POST", DAYS, body=iter([body[:10], body[10:]]),
                         headers={"Authorization": "Bearer test-token", "Content-Type": "application/json"},
                         encode_chunked=True)
            resp = conn.getresponse()
            self.assertEqual((resp.status, json.loads(resp.read())), (201, {"days": 1}))
        finally:
            conn.close()
        self.assertEqual(self.server.db_rows(), {"2026-03-08": (1000, "import")})


class WindowTests(unittest.TestCase):
    """At 2026-03-10T10:30Z it is 2026-03-11 in Kiritimati (UTC+14) and 2026-03-09 in Pago Pago (UTC-11)."""

    NOW = "2026-03-10T10:30:00Z"
    EXPECTED = {  # trainee: (today, first kept, last kept)
        "kiri": ("2026-03-11", "2025-12-11", "2026-03-12"),
        "pago": ("2026-03-09", "2025-12-09", "2026-03-10"),
        "berlin": ("2026-03-10", "2025-12-10", "2026-03-11"),
    }

    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess("--now", cls.NOW,
                                   "--token", "kiri:tok-kiri=Pacific/Kiritimati",
                                   "--token", "pago:tok-pago=Pacific/Pago_Pago",
                                   "--token", "berlin:tok-berlin=Europe/Berlin").start()

    @classmethod
    def tearDownClass(cls):
        cls.server.close()

    def setUp(self):
        self.server.reset()
        self.server.admin("/_admin/config", {"now": self.NOW})

    def test_expectations_are_consistent_with_zoneinfo(self):
        now = dt.datetime.fromisoformat(self.NOW)
        for name, zone in (("kiri", "Pacific/Kiritimati"), ("pago", "Pacific/Pago_Pago"), ("berlin", "Europe/Berlin")):
            today, lo, hi = map(d, self.EXPECTED[name])
            self.assertEqual(now.astimezone(zoneinfo.ZoneInfo(zone)).date(), today)
            self.assertEqual((today - lo).days, 90)
            self.assertEqual((hi - today).days, 1)

    def test_state_reports_today_and_window_per_zone(self):
        trainees = self.server.state()["trainees"]
        for name, (today, lo, hi) in self.EXPECTED.items():
            self.assertEqual(trainees[name]["today"], today)
            self.assertEqual(trainees[name]["window"], {"from": lo, "to": hi})

    def test_exact_boundaries_in_each_zone(self):
        candidates = ["2025-12-08", "2025-12-09", "2025-12-10", "2025-12-11", "2025-12-12",
                      "2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12", "2026-03-13", "2027-01-01",
                      "2000-01-01"]
        days = [{"date": x, "steps": 100 + i} for i, x in enumerate(candidates)]
        for name, (today, lo, hi) in self.EXPECTED.items():
            with self.subTest(name):
                kept = {e["date"]: (e["steps"], "import") for e in days if lo <= e["date"] <= hi}
                resp = self.server.post_days(days, token=f"tok-{name}")
                self.assertEqual((resp.status, resp.json), (201, {"days": len(kept)}))
                self.assertEqual(self.server.db_rows(name), kept)
        # spelled out, so the test does not only agree with its own arithmetic
        self.assertEqual(sorted(self.server.db_rows("kiri")),
                         ["2025-12-11", "2025-12-12", "2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12"])
        self.assertEqual(sorted(self.server.db_rows("pago")),
                         ["2025-12-09", "2025-12-10", "2025-12-11", "2025-12-12", "2026-03-09", "2026-03-10"])

    def test_all_skipped_answers_zero(self):
        resp = self.server.post_days([{"date": "2025-12-08", "steps": 1}, {"date": "2026-03-13", "steps": 2}],
                                     token="tok-pago")
        self.assertEqual((resp.status, resp.json), (201, {"days": 0}))
        self.assertEqual(self.server.db_all(), [])

    def test_clock_moves_with_config(self):
        # one hour later Pago Pago has reached 2026-03-10 as well
        self.server.admin("/_admin/config", {"now": "2026-03-10T11:30:00Z"})
        self.assertEqual(self.server.state()["trainees"]["pago"]["today"], "2026-03-10")
        resp = self.server.post_days([{"date": "2026-03-11", "steps": 5}, {"date": "2025-12-09", "steps": 6}],
                                     token="tok-pago")
        self.assertEqual(resp.json, {"days": 1})
        self.assertEqual(self.server.db_rows("pago"), {"2026-03-11": (5, "import")})
        # --today overrides the zone for everybody
        self.server.admin("/_admin/config", {"today": "2026-03-10"})
        self.assertEqual({n: t["today"] for n, t in self.server.state()["trainees"].items()},
                         {"kiri": "2026-03-10", "pago": "2026-03-10", "berlin": "2026-03-10"})
        resp = self.server.post_days([{"date": "2026-03-12", "steps": 5}, {"date": "2025-12-10", "steps": 6}],
                                     token="tok-kiri")
        self.assertEqual(resp.json, {"days": 1})
        self.assertEqual(self.server.db_rows("kiri"), {"2025-12-10": (6, "import")})

    def test_real_clock_by_default(self):
        server = ServerProcess("--token", "kiri:tok-kiri=Pacific/Kiritimati", "--token",
                               "pago:tok-pago=Pacific/Pago_Pago")
        try:
            before = dt.datetime.now(dt.timezone.utc)
            server.start()
            trainees = server.state()["trainees"]
            after = dt.datetime.now(dt.timezone.utc)
            for name, zone in (("kiri", "Pacific/Kiritimati"), ("pago", "Pacific/Pago_Pago")):
                z = zoneinfo.ZoneInfo(zone)
                self.assertIn(trainees[name]["today"],
                              {before.astimezone(z).date().isoformat(), after.astimezone(z).date().isoformat()})
            today = d(trainees["kiri"]["today"])
            resp = server.post_days([{"date": (today + dt.timedelta(days=1)).isoformat(), "steps": 1},
                                     {"date": (today + dt.timedelta(days=3)).isoformat(), "steps": 1}],
                                    token="tok-kiri")
            self.assertEqual(resp.json["days"], 1)
        finally:
            server.close()


class WriteTests(SharedServerCase):
    SERVER_ARGS = ("--today", "2026-03-10", "--token", "ann:tok-ann=Europe/Berlin",
                   "--token", "bob:tok-bob=Europe/Berlin")

    def test_duplicate_dates_last_wins_and_count_once(self):
        resp = self.server.post_days([{"date": "2026-03-08", "steps": 1},
                                      {"date": "2026-03-09", "steps": 5},
                                      {"date": "2026-03-08", "steps": 3},
                                      {"date": "2026-03-08", "steps": 2}], token="tok-ann")
        self.assertEqual((resp.status, resp.json), (201, {"days": 2}))
        self.assertEqual(self.server.db_rows("ann"), {"2026-03-08": (2, "import"), "2026-03-09": (5, "import")})
        # duplicates of a skipped date count zero
        resp = self.server.post_days([{"date": "2020-01-01", "steps": 1}, {"date": "2020-01-01", "steps": 2}],
                                     token="tok-ann")
        self.assertEqual(resp.json, {"days": 0})

    def test_upsert_replaces_higher_and_lower_values(self):
        self.server.post_days([{"date": "2026-03-09", "steps": 100}], token="tok-ann")
        first = self.server.db_all()
        time.sleep(0.01)
        resp = self.server.post_days([{"date": "2026-03-09", "steps": 50}, {"date": "2026-03-10", "steps": 7}],
                                     token="tok-ann")
        self.assertEqual(resp.json, {"days": 2})
        self.assertEqual(self.server.db_rows("ann"), {"2026-03-09": (50, "import"), "2026-03-10": (7, "import")})
        second = self.server.db_all()
        self.assertGreater(second[0][4], first[0][4], "updated_at not refreshed")
        # an identical resend is idempotent and still counts its days
        resp = self.server.post_days([{"date": "2026-03-09", "steps": 50}, {"date": "2026-03-10", "steps": 7}],
                                     token="tok-ann")
        self.assertEqual(resp.json, {"days": 2})
        self.assertEqual(self.server.db_rows("ann"), {"2026-03-09": (50, "import"), "2026-03-10": (7, "import")})

    def test_upsert_overwrites_manual_rows(self):
        resp = self.server.admin("/_admin/seed", {"trainee": "ann", "days": [
            {"date": "2026-03-08", "steps": 4000}, {"date": "2026-03-09", "steps": 5000}]})
        self.assertEqual((resp.status, resp.json), (201, {"days": 2}))
        resp = self.server.admin("/_admin/seed", {"token": "tok-bob", "days": [{"date": "2026-03-09", "steps": 9}]})
        self.assertEqual(resp.status, 201)
        self.assertEqual(self.server.db_rows("ann"), {"2026-03-08": (4000, "manual"), "2026-03-09": (5000, "manual")})
        summary = self.server.request("GET", SUMMARY, token="tok-ann").json
        self.assertEqual([(x["date"], x["steps"]) for x in summary["days"]], [("2026-03-08", 4000), ("2026-03-09", 5000)])
        resp = self.server.post_days([{"date": "2026-03-09", "steps": 6100}], token="tok-ann")
        self.assertEqual(resp.json, {"days": 1})
        self.assertEqual(self.server.db_rows("ann"), {"2026-03-08": (4000, "manual"), "2026-03-09": (6100, "import")})
        self.assertEqual(self.server.db_rows("bob"), {"2026-03-09": (9, "manual")})

    def test_admin_seed_validation(self):
        for body in ({"trainee": "nobody", "days": [{"date": "2026-03-09", "steps": 1}]},
                     {"token": "tok-nobody", "days": [{"date": "2026-03-09", "steps": 1}]},
                     {"trainee": "ann", "days": [{"date": "2026-02-30", "steps": 1}]},
                     {"trainee": "ann", "days": [{"date": "2026-03-09", "steps": -1}]},
                     {"trainee": "ann", "days": []},
                     {"trainee": "ann", "days": [{"date": "2026-03-09", "steps": 1}], "source": ""}):
            with self.subTest(body=body):
                self.assertEqual(self.server.admin("/_admin/seed", body).status, 400)
        self.assertStoredNothing()

    def test_trainees_are_isolated(self):
        self.server.post_days([{"date": "2026-03-09", "steps": 11}], token="tok-ann")
        self.server.post_days([{"date": "2026-03-09", "steps": 22}], token="tok-bob")
        self.assertEqual(self.server.db_rows("ann"), {"2026-03-09": (11, "import")})
        self.assertEqual(self.server.db_rows("bob"), {"2026-03-09": (22, "import")})
        days = self.server.request("GET", SUMMARY, token="tok-bob").json["days"]
        self.assertEqual([(x["date"], x["steps"]) for x in days], [("2026-03-09", 22)])

    def test_concurrent_posts_all_land(self):
        dates = date_range("2026-01-01", "2026-03-10")
        errors = []

        def post(i, day):
            try:
                resp = self.server.post_days([{"date": day, "steps": i}], token="tok-ann" if i % 2 else "tok-bob")
                if resp.json != {"days": 1}:
                    errors.append(resp)
            except Exception as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=post, args=(i, day)) for i, day in enumerate(dates)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        stored = {**self.server.db_rows("ann"), **self.server.db_rows("bob")}
        self.assertEqual(stored, {day: (i, "import") for i, day in enumerate(dates)})
        self.assertEqual(self.server.state()["requests"]["POST /v1/trainee/health/days"], {"201": len(dates)})

    def test_keep_alive_connection_serves_several_requests(self):
        host, port = self.server.url.removeprefix("http://").rsplit(":", 1)
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            headers = {"Authorization": "Bearer tok-ann", "Content-Type": "application/json"}
            for i, day in enumerate(("2026-03-08", "2026-03-09", "2026-03-10")):
                conn.request("POST", DAYS, body=json.dumps({"days": [{"date": day, "steps": i}]}), headers=headers)
                resp = conn.getresponse()
                self.assertEqual((resp.status, json.loads(resp.read())), (201, {"days": 1}))
                self.assertNotEqual((resp.getheader("Connection") or "").lower(), "close")
        finally:
            conn.close()
        self.assertEqual(len(self.server.db_rows("ann")), 3)


class SummaryTests(SharedServerCase):
    SERVER_ARGS = ("--today", "2026-03-10", "--token", "ann:tok-ann=Europe/Berlin",
                   "--token", "bob:tok-bob=Europe/Berlin")

    def setUp(self):
        super().setUp()
        self.server.admin("/_admin/seed", {"trainee": "ann", "days": [
            {"date": "2026-03-11", "steps": 311}, {"date": "2026-03-02", "steps": 302},
            {"date": "2026-03-07", "steps": 307}, {"date": "2026-03-03", "steps": 303},
            {"date": "2025-12-01", "steps": 1201}, {"date": "2026-03-10", "steps": 310}]})
        self.server.admin("/_admin/seed", {"trainee": "bob", "days": [{"date": "2026-03-05", "steps": 5}]})

    def get(self, query="", token="tok-ann"):
        return self.server.request("GET", SUMMARY + query, token=token)

    @staticmethod
    def day(date, steps):
        return {"date": date, "steps": steps, "restingHeartRate": None, "avgHeartRate": None}

    def test_default_range_is_today_minus_7_to_today(self):
        resp = self.get()
        self.assertEqual(resp.status, 200)
        self.assertEqual(resp.json, {
            "range": {"from": "2026-03-03", "to": "2026-03-10"},
            "days": [self.day("2026-03-03", 303), self.day("2026-03-07", 307), self.day("2026-03-10", 310)],
            "latestHeartRate": None,
        })

    def test_explicit_and_half_open_ranges(self):
        resp = self.get("?from=2026-03-02&to=2026-03-11")
        self.assertEqual(resp.json["range"], {"from": "2026-03-02", "to": "2026-03-11"})
        self.assertEqual([x["date"] for x in resp.json["days"]],
                         ["2026-03-02", "2026-03-03", "2026-03-07", "2026-03-10", "2026-03-11"])
        self.assertEqual(self.get("?from=2026-03-07&to=2026-03-07").json["days"], [self.day("2026-03-07", 307)])
        self.assertEqual(self.get("?to=2026-03-09").json["range"], {"from": "2026-03-02", "to": "2026-03-09"})
        self.assertEqual(self.get("?from=2026-03-05").json["range"], {"from": "2026-03-05", "to": "2026-03-10"})
        self.assertEqual(self.get("?from=2026-01-01&to=2026-01-31").json["days"], [])
        self.assertEqual(self.get(token="tok-bob").json["days"], [self.day("2026-03-05", 5)])

    def test_range_cap_is_92_dates(self):
        ok = self.get("?from=2025-12-09&to=2026-03-10")  # 92 dates
        self.assertEqual(ok.status, 200, ok)
        self.assertEqual(ok.json["days"][0], self.day("2026-03-02", 302))
        too_big = self.get("?from=2025-12-08&to=2026-03-10")  # 93 dates
        self.assertEqual(too_big.status, 400)
        self.assertIn("92", too_big.json["error"])
        self.assertEqual(self.get("?from=2025-12-01&to=2026-03-01").json["days"][0], self.day("2025-12-01", 1201))

    def test_bad_queries(self):
        for query in ("?from=2026-03-10&to=2026-03-09", "?from=2026-02-30", "?to=2026-3-1", "?from=",
                      "?from=2026-03-01&from=2026-03-02", "?to=today"):
            with self.subTest(query):
                resp = self.get(query)
                self.assertEqual(resp.status, 400, resp)
                self.assertIn("error", resp.json)


class RouteTests(SharedServerCase):
    def test_retired_samples_route_stores_nothing_and_is_counted(self):
        body = {"samples": [{"type": "steps", "start": "2026-03-10T08:00:00Z", "end": "2026-03-10T09:00:00Z",
                             "value": 1000}], "days": [{"date": "2026-03-10", "steps": 1000}]}
        resp = self.server.request("POST", SAMPLES, body, token="test-token")
        self.assertEqual(resp.status, 201)
        self.assertEqual(resp.json, {"accepted": 0, "retired": True})
        self.assertEqual(self.server.request("POST", SAMPLES, body).status, 401)
        self.assertStoredNothing()
        state = self.server.state()
        self.assertEqual(state["retired_samples_calls"], 2)
        self.assertEqual(state["requests"]["POST /v1/trainee/health/samples"], {"201": 1, "401": 1})
        self.server.reset()
        self.assertEqual(self.server.state()["retired_samples_calls"], 0)

    def test_unknown_paths_404(self):
        for method, path in (("GET", "/"), ("POST", "/v1/trainee/health/day"), ("POST", DAYS + "/"),
                             ("GET", "/v1/trainee/health/summary/x"), ("POST", "/v2/trainee/health/days"),
                             ("GET", "/_admin/nothing")):
            with self.subTest(path):
                resp = self.server.request(method, path, {"days": []} if method == "POST" else None,
                                           token="test-token")
                self.assertEqual(resp.status, 404)
                self.assertEqual(resp.json, {"error": "not found"})

    def test_wrong_methods_405(self):
        for method, path, allow in (("GET", DAYS, "POST"), ("PUT", DAYS, "POST"), ("DELETE", DAYS, "POST"),
                                    ("POST", SUMMARY, "GET"), ("GET", SAMPLES, "POST"),
                                    ("DELETE", "/_admin/state", "GET")):
            with self.subTest(method=method, path=path):
                body = {"days": [{"date": "2026-03-10", "steps": 1}]} if method in ("PUT", "POST") else None
                resp = self.server.request(method, path, body, token="test-token")
                self.assertEqual(resp.status, 405)
                self.assertEqual(resp.headers["Allow"], allow)
                self.assertIn("not allowed", resp.json["error"])
        head = self.server.raw("HEAD", DAYS, None, {})
        self.assertEqual((head.status, head.body), (405, b""))
        self.assertStoredNothing()

    def test_admin_reset_and_config(self):
        self.server.post_days([{"date": "2026-03-10", "steps": 1}])
        self.assertEqual(self.server.admin("/_admin/reset", {"rows": False}).status, 200)
        state = self.server.state()
        self.assertEqual(len(state["rows"]["trainee-1"]), 1)
        self.assertEqual((state["requests"], state["recent"], state["requests_total"]), ({}, [], 0))
        self.assertEqual(self.server.admin("/_admin/reset", {"counters": False}).status, 200)
        self.assertStoredNothing()
        self.assertEqual(self.server.admin("/_admin/reset", {"rows": "yes"}).status, 400)
        cfg = self.server.admin("/_admin/config").json
        self.assertEqual(cfg["today"], "2026-03-10")
        for bad in ({"fail_first": -1}, {"fail_status": 200}, {"drop_mode": "sometimes"}, {"delay": "1"},
                    {"nonsense": 1}, {"today": "2026-02-30"}, {"now": "2026-03-10T00:00:00"},
                    {"today": "2026-03-10", "now": "2026-03-10T00:00:00Z"}, {"unauthorized": 1},
                    {"fail_body": 3}, {"claim_days": "many"}, {"claim_days": True}):
            with self.subTest(bad=bad):
                self.assertEqual(self.server.admin("/_admin/config", bad).status, 400)
        self.assertEqual(self.server.admin("/_admin/config").json, cfg, "a rejected change was half applied")


class FaultTests(unittest.TestCase):
    def start(self, *args) -> ServerProcess:
        server = ServerProcess("--today", "2026-03-10", *args).start()
        self.addCleanup(server.close)
        return server

    def one(self, i: int) -> list[dict]:
        return [{"date": (d("2026-03-10") - dt.timedelta(days=i)).isoformat(), "steps": 1000 + i}]

    def assertDropped(self, server: ServerProcess, days):
        with self.assertRaises((urllib.error.URLError, ConnectionError, http.client.HTTPException)) as ctx:
            resp = server.post_days(days)
            self.fail(f"expected a dropped connection, got {resp}")
        self.assertNotIsInstance(ctx.exception, urllib.error.HTTPError)

    def test_fail_first_with_retry_after(self):
        server = self.start("--fail-first", "2", "--retry-after", "7")
        for i in range(2):
            resp = server.post_days(self.one(i))
            self.assertEqual(resp.status, 503)
            self.assertEqual(resp.headers["Retry-After"], "7")
            self.assertEqual(resp.json, {"error": "injected failure"})
        self.assertEqual(server.db_all(), [])
        # reads are not in the default fault scope
        self.assertEqual(server.request("GET", SUMMARY, token="test-token").status, 200)
        resp = server.post_days(self.one(2))
        self.assertEqual((resp.status, resp.json), (201, {"days": 1}))
        self.assertEqual(server.db_rows(), {"2026-03-08": (1002, "import")})
        state = server.state()
        self.assertEqual(state["requests"]["POST /v1/trainee/health/days"], {"503": 2, "201": 1})
        self.assertEqual(state["fault_seq"], 3)
        self.assertEqual([r["status"] for r in state["recent"]], [503, 503, 200, 201])

    def test_fail_first_even_without_valid_token_and_other_status(self):
        server = self.start("--fail-first", "1", "--fail-status", "429")
        resp = server.post_days(self.one(0), token="wrong")
        self.assertEqual(resp.status, 429)
        self.assertIsNone(resp.headers.get("Retry-After"))
        self.assertEqual(server.post_days(self.one(0), token="wrong").status, 401)

    def test_fault_scope_api_hits_reads_too(self):
        server = self.start("--fail-first", "1", "--fault-scope", "api")
        self.assertEqual(server.request("GET", SUMMARY, token="test-token").status, 503)
        self.assertEqual(server.post_days(self.one(0)).status, 201)
        self.assertEqual(server.state()["fault_seq"], 2)

    def test_fail_body_echoes_the_authorization_header_as_it_came(self):
        body = '{"error":"bad header {authorization}\x1b[31m\x07"}'
        server = self.start("--fail-first", "2", "--fail-status", "401", "--fail-body", body)
        resp = server.post_days(self.one(0))
        self.assertEqual(resp.status, 401)
        self.assertEqual(resp.body, b'{"error":"bad header Bearer test-token\x1b[31m\x07"}')
        server.admin("/_admin/config", {"fail_body": "plain {authorization} text", "fail_status": 400})
        resp = server.post_days(self.one(0))
        self.assertEqual((resp.status, resp.body), (400, b"plain Bearer test-token text"))
        self.assertEqual(server.db_all(), [])
        self.assertNotIn("test-token", server.log_text())

    def test_claim_days_answers_a_count_other_than_the_days_written(self):
        server = self.start("--claim-days", "99999")
        resp = server.post_days(self.one(0) + self.one(1))
        self.assertEqual((resp.status, resp.json), (201, {"days": 99999}))
        self.assertEqual(len(server.db_rows()), 2)  # stored as usual
        self.assertEqual(server.post_days([{"date": "2026-03-10", "steps": -5}]).status, 400)  # errors unchanged
        server.admin("/_admin/config", {"claim_days": -1})
        self.assertEqual(server.post_days(self.one(2)).json, {"days": -1})
        self.assertEqual(server.state()["recent"][-1]["days_written"], 1)

    def test_drop_every_third_before_processing(self):
        server = self.start("--drop-every", "3")
        outcomes = []
        for i in range(7):
            try:
                outcomes.append(server.post_days(self.one(i)).status)
            except (urllib.error.URLError, ConnectionError, http.client.HTTPException) as exc:
                self.assertNotIsInstance(exc, urllib.error.HTTPError)
                outcomes.append("dropped")
        self.assertEqual(outcomes, [201, 201, "dropped", 201, 201, "dropped", 201])
        self.assertEqual(sorted(server.db_rows()),
                         sorted(self.one(i)[0]["date"] for i in (0, 1, 3, 4, 6)))
        state = server.state()
        self.assertEqual(state["dropped_connections"], 2)
        self.assertEqual(state["requests"]["POST /v1/trainee/health/days"], {"201": 5, "dropped": 2})
        self.assertIn(" dropped days=- ", server.log_text())

    def test_drop_after_commit(self):
        server = self.start("--drop-every", "1", "--drop-mode", "after")
        self.assertDropped(server, self.one(0))
        self.assertEqual(server.db_rows(), {"2026-03-10": (1000, "import")})  # written, answer lost
        # an invalid body is still rejected, and still dropped (no answer at all)
        self.assertDropped(server, [{"date": "2026-03-10", "steps": -5}])
        self.assertEqual(server.db_rows(), {"2026-03-10": (1000, "import")})
        self.assertEqual(server.state()["dropped_connections"], 2)

    def test_drop_is_checked_before_fail_first(self):
        server = self.start("--drop-every", "2", "--fail-first", "2")
        self.assertEqual(server.post_days(self.one(0)).status, 503)
        self.assertDropped(server, self.one(1))
        self.assertEqual(server.post_days(self.one(2)).status, 201)
        self.assertDropped(server, self.one(3))
        self.assertEqual(server.db_rows(), {"2026-03-08": (1002, "import")})

    def test_config_restarts_the_fault_sequence(self):
        server = self.start()
        self.assertEqual(server.post_days(self.one(0)).status, 201)
        server.admin("/_admin/config", {"fail_first": 1})
        self.assertEqual(server.post_days(self.one(1)).status, 503)
        self.assertEqual(server.post_days(self.one(1)).status, 201)

    def test_delay(self):
        server = self.start("--delay", "0.6")
        started = time.monotonic()
        self.assertEqual(server.post_days(self.one(0)).status, 201)
        self.assertGreaterEqual(time.monotonic() - started, 0.6)
        started = time.monotonic()
        server.state()  # admin routes are not delayed
        self.assertLess(time.monotonic() - started, 0.5)
        with self.assertRaises((TimeoutError, urllib.error.URLError)) as ctx:
            server.post_days(self.one(1), timeout=0.15)
        self.assertNotIsInstance(ctx.exception, urllib.error.HTTPError)
        # the request the client gave up on is still processed once the delay is over
        deadline = time.monotonic() + 5
        while len(server.db_rows()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(sorted(server.db_rows()), ["2026-03-09", "2026-03-10"])


class SecrecyTests(unittest.TestCase):
    def test_tokens_never_stored_logged_or_returned(self):
        server = ServerProcess("--today", "2026-03-10", "--token", f"ann:{SECRET}=Europe/Berlin",
                               "--token", f"{OTHER_SECRET}=Asia/Tokyo",
                               "--seed-manual", f"{SECRET}:2026-03-01=5", "--drop-every", "4")
        try:
            server.start()
            self.assertEqual(server.post_days([{"date": "2026-03-10", "steps": 1}], token=SECRET).status, 201)
            self.assertEqual(server.post_days([{"date": "2026-03-10", "steps": 2}], token=OTHER_SECRET).status, 201)
            self.assertEqual(server.post_days([{"date": "2026-03-10", "steps": -1}], token=SECRET).status, 400)
            with self.assertRaises((urllib.error.URLError, ConnectionError, http.client.HTTPException)):
                server.post_days([{"date": "2026-03-10", "steps": 1}], token=SECRET)  # 4th: dropped
            self.assertEqual(server.post_days([{"date": "2026-03-10", "steps": 3}], token="not-" + SECRET).status,
                             401)
            # a careless client putting the token in the query or the body
            server.request("GET", f"{SUMMARY}?token={SECRET}", token=SECRET)
            server.request("POST", DAYS, {"days": [{"date": "2026-03-10", "steps": 1}], "token": SECRET},
                           token=SECRET)
            server.request("POST", DAYS, b"not json " + SECRET.encode(), token=SECRET)
            server.request("POST", SAMPLES, {"samples": [SECRET]}, token=SECRET)
            server.admin("/_admin/seed", {"token": SECRET, "days": [{"date": "2026-03-02", "steps": 6}]})
            state_text = server.admin("/_admin/state").body.decode()
            config_text = server.admin("/_admin/config").body.decode()
            state = json.loads(state_text)
            self.assertEqual({r["authorization"] for r in state["recent"]}, {"bearer"})
            self.assertEqual(state["rows"]["ann"][-1]["steps"], 1)
            self.assertEqual(state["rows"]["trainee-2"], [{**state["rows"]["trainee-2"][0], "steps": 2}])
            self.assertEqual(server.stop(), 0)
            texts = {
                "state": state_text,
                "config": config_text,
                "log": server.log_text(),
                "stdout": server.stdout_path.read_text(),
                "stderr": server.stderr_path.read_text(),
                "database": server.db_path.read_bytes().decode("latin-1"),
            }
            self.assertGreater(len(texts["log"].splitlines()), 8)
            for name, text in texts.items():
                for secret in (SECRET, OTHER_SECRET):
                    with self.subTest(where=name, secret=secret[:6]):
                        self.assertNotIn(secret, text)
                        self.assertNotIn(secret.lower(), text.lower())
            self.assertIn("[REDACTED]", state_text)  # the query and the careless body were redacted
        finally:
            server.close()


if __name__ == "__main__":
    unittest.main()
