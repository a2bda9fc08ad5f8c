#!/usr/bin/env python3
"""Runs a command and records its peak memory and time.

Usage:
    scripts/peak_rss.py OUT -- COMMAND [ARG...]

Standard input, output and error pass through to COMMAND. When it ends, OUT holds one line,
`<peak RSS in KiB> <wall seconds>`, and this script exits with COMMAND's status (128 + N for
signal N). The peak is the kernel's (wait4's ru_maxrss) for COMMAND itself.
"""

from __future__ import annotations

import os
import sys
import time


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        print(__doc__.strip(), file=sys.stderr)
        return 64
    out, command = argv[1], argv[3:]
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.monotonic() - start
    with open(out, "w") as handle:
        handle.write(f"{usage.ru_maxrss} {elapsed:.3f}\n")
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
