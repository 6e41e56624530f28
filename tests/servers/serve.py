"""`judge serve` as a real process on a data directory, for tests that kill and restart it."""
from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

JUDGE = Path(sys.executable).with_name("judge")


def start_judge(cwd: Path, **settings: str) -> tuple[subprocess.Popen, int]:
    """Start `judge serve` in cwd (data in cwd/var) and return it with its SMTP port, once it listens.
    `settings` are JUDGE_* variables, e.g. JUDGE_TICK_SECONDS="0.2"."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env.update(JUDGE_SMTP_PORT="0", JUDGE_ADDRESS="judge@dip.test", JUDGE_SMTP_RATE_LIMIT="1000", **settings)
    process = subprocess.Popen([str(JUDGE), "serve"], cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    lines = []
    while not lines or not lines[-1].startswith("Stop with"):
        line = process.stdout.readline()
        assert line, f"judge serve exited: {process.wait()} {process.stderr.read()}"
        lines.append(line)
    return process, int(re.search(r"SMTP\s+127\.0\.0\.1:(\d+)", "".join(lines)).group(1))


def kill(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()


def stop(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=60)


def rows(db: Path, sql: str, params=()):
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()
