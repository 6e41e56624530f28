"""Benchmark: how long after the judge's 250 a player's reply leaves, end to end through a real
`judge serve` (SMTP in, the reply written out by the outbox as an .eml file, no relay).

Each mail is a HELP from an address with no account (no password check), sent one at a time; the
clock runs from smtplib's return (the 250) to the reply's file appearing. Issue 15's goal: a
confirmation in the outbox within 50 ms median. The outbox's poll interval (1 s) is printed
beside it: before processing woke the outbox, a reply waited for that poll.

    .venv/bin/python bench/reply_latency.py [--mails 60]
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

JUDGE = Path(sys.executable).with_name("judge")


def start(data: Path) -> tuple[subprocess.Popen, int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env.update(JUDGE_SMTP_PORT="0", JUDGE_DATA_DIR=str(data), JUDGE_SMTP_RATE_LIMIT="100000")
    process = subprocess.Popen([str(JUDGE), "serve"], env=env, cwd=data, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    lines = []
    while not lines or not lines[-1].startswith("Stop with"):
        line = process.stdout.readline()
        if not line:
            raise SystemExit(f"judge serve exited: {process.wait()}")
        lines.append(line)
    return process, int(re.search(r"SMTP\s+127\.0\.0\.1:(\d+)", "".join(lines)).group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        process, port = start(data)
        outbox = data / "outbox"
        try:
            times = []
            with smtplib.SMTP("127.0.0.1", port) as smtp:
                for n in range(args.mails + 5):
                    before = set(outbox.glob("*.eml")) if outbox.exists() else set()
                    m = EmailMessage()
                    m["From"], m["To"], m["Subject"] = f"p{n}@players.test", "judge@localhost", "help"
                    m["Message-ID"] = f"<bench{n}.{time.time_ns()}@players.test>"
                    m.set_content("help")
                    smtp.send_message(m)
                    acked = time.perf_counter()
                    while not (set(outbox.glob("*.eml")) - before if outbox.exists() else None):
                        time.sleep(0.001)
                        if time.perf_counter() - acked > 30:
                            raise SystemExit("no reply in 30 s")
                    if n >= 5:                      # the first few warm the judge up
                        times.append(time.perf_counter() - acked)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
    median, p95 = statistics.median(times) * 1e3, sorted(times)[int(0.95 * len(times))] * 1e3
    print(f"{len(times)} HELP mails, one at a time: reply out {median:.1f} ms median after the 250, p95 {p95:.1f} ms")
    print(f"the outbox's poll: 1000 ms; ratio {1000 / median:.1f}x; goal 50 ms median: "
          f"{'met' if median <= 50 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
