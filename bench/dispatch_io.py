"""Benchmark: what one order mail costs the disk, from the archive to the queued reply.

    .venv/bin/python bench/dispatch_io.py [--messages 40]

A started standard game; each mail is a power's three orders sent to its secret reply address
(the usual answer to the judge's mail). Counted per mail over the dispatcher's work alone (claim,
dispatch, record): fsync/fdatasync calls (strace attached to this process), SQLite files opened,
opens of the game's file, COMMITs per file (savepoints inside a transaction are not commits), SQL
statements run, adjudications (the engine's one entry point, judge.engine.phase.adjudicate, which
check_orders and process_phase go through), and the median time. Issue 15's goal: one
connection and one transaction per file per mail, at most 2 fsyncs, the schema checked once; issue
27's: at most 60 statements and 2 adjudications a mail (tests/test_mail_statements.py holds them).
"""
from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Self

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import judge.engine.phase as engine_phase  # noqa: E402 - imported once sys.path names the repository
from dispatch import signed_on  # noqa: E402 - imported once sys.path names the repository
from mailjudge import POWERS, mail  # noqa: E402 - imported once sys.path names the repository

ORDERS = {"AUSTRIA": ["A Vie H", "A Bud H", "F Tri H"], "ENGLAND": ["F Lon H", "F Edi H", "A Lvp H"],
          "FRANCE": ["A Par H", "A Mar H", "F Bre H"], "GERMANY": ["A Ber H", "F Kie H", "A Mun H"],
          "ITALY": ["A Ven H", "A Rom H", "F Nap H"], "RUSSIA": ["A War H", "A Mos H", "F Sev H", "F StP/sc H"],
          "TURKEY": ["F Ank H", "A Con H", "A Smy H"]}


class Counter:
    """Every sqlite3.connect in this process, and every statement run on those connections."""

    def __init__(self) -> None:
        self.opens: list[str] = []
        self.statements = 0
        self.commits: dict[str, int] = {}       # file name -> COMMITs (autocommitted writes not counted)
        self.adjudications = 0
        self._connect = sqlite3.connect
        sqlite3.connect = self.connect
        adjudicate = engine_phase.adjudicate

        def counted(*args, **kwargs):
            self.adjudications += 1
            return adjudicate(*args, **kwargs)
        engine_phase.adjudicate = counted

    def connect(self, database, *args, **kwargs):
        conn = self._connect(database, *args, **kwargs)
        self.opens.append(str(database))
        name = Path(str(database)).name
        conn.set_trace_callback(lambda statement: self.traced(name, statement))
        return conn

    def traced(self, name: str, statement: str) -> None:
        self.statements += 1
        if statement.strip().upper().startswith("COMMIT"):
            self.commits[name] = self.commits.get(name, 0) + 1


class Syscalls:
    """strace attached to this process (all threads) for the calls named, while in the block."""

    def __init__(self, out: Path, calls: str = "fsync,fdatasync") -> None:
        self.out, self.calls = out, calls

    def __enter__(self) -> Self:
        self.process = subprocess.Popen(["strace", "-f", "-qq", "-y", "-e", f"trace={self.calls}", "-o", str(self.out),
                                         "-p", str(os.getpid())], stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not self._attached() and time.monotonic() < deadline:
            self._probe()
            time.sleep(0.05)
        self._probe()
        time.sleep(0.2)
        self.base = self.count()
        return self

    def _probe(self) -> None:
        fd = os.open(self.out.with_suffix(".probe"), os.O_CREAT | os.O_WRONLY, 0o600)
        os.fsync(fd)
        os.close(fd)

    def _attached(self) -> bool:
        return self.out.exists() and self.count() > 0

    def count(self) -> int:
        text = self.out.read_text() if self.out.exists() else ""
        return sum(1 for line in text.splitlines() if any(f"{c}(" in line for c in self.calls.split(",")))

    def __exit__(self, *exc) -> None:
        time.sleep(0.2)
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=30)
        self.total = self.count() - self.base
        self.files: dict[str, int] = {}
        for line in self.out.read_text().splitlines()[self.base:]:
            if "<" in line and any(f"{c}(" in line for c in self.calls.split(",")):
                name = Path(line.split("<", 1)[1].split(">", 1)[0]).name
                self.files[name] = self.files.get(name, 0) + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=40)
    args = parser.parse_args()
    counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        judge, secret = signed_on(Path(tmp))
        stored = []
        for i in range(args.messages):
            p = POWERS[i % len(POWERS)]
            raw = mail(f"{p.lower()}@dip.test", "\n".join(ORDERS[p]), to=secret[p])
            stored.append(judge.processor.archive.store(raw, mail_from=f"{p.lower()}@dip.test",
                                                        rcpt_tos=[secret[p]], via="smtp").id)
        times = []
        opens_before, statements_before, commits_before = len(counter.opens), counter.statements, dict(counter.commits)
        adjudications_before = counter.adjudications
        with Syscalls(Path(tmp) / "strace.out") as syscalls:
            for _ in stored:
                start = time.perf_counter()
                judge.processor.process_next()
                times.append(time.perf_counter() - start)
        commits_after = dict(counter.commits)     # before closing (closing a game file updates its index row)
        opens = counter.opens[opens_before:]
        statements = counter.statements - statements_before
        adjudications = counter.adjudications - adjudications_before
        states = judge.processor.archive.counts()
        judge.close()
    n = len(stored)
    assert states.get("processed", 0) >= n, states
    game_opens = sum(1 for o in opens if "games" in o)
    print(f"one order mail to the secret reply address, {n} mails, dispatched one at a time:")
    # a WAL checkpoint (SQLite's, once the log passes 1000 pages) syncs the log, then the file itself,
    # and the first commit after it the restarted log's header: three syncs, one of them the file's
    checkpoints = 3 * sum(count for name, count in syscalls.files.items() if name.endswith(".sqlite"))
    print(f"  fsync+fdatasync per mail   {syscalls.total / n:6.2f}   (goal: at most 2; issue 15 measured 10)")
    print(f"    the mail's own commits   {(syscalls.total - checkpoints) / n:6.2f};"
          f" WAL checkpoints, spread over the mails {checkpoints / n:.2f}")
    print(f"  SQLite opens per mail      {len(opens) / n:6.1f}   (issue 15 measured 17)")
    print(f"  game file opens per mail   {game_opens / n:6.1f}   (goal 1; issue 15 measured 5)")
    commits = {k: v - commits_before.get(k, 0) for k, v in commits_after.items() if v > commits_before.get(k, 0)}
    print("  commits by file per mail: " + ", ".join(f"{k} {v / n:.1f}" for k, v in sorted(commits.items()))
          + "   (goal: 1 per file; judge.sqlite's was 7)")
    print(f"  SQL statements per mail    {statements / n:6.1f}   (goal: at most 60; issue 27 measured 249)")
    print(f"  adjudications per mail     {adjudications / n:6.2f}   (goal: at most 2; issue 27 measured 23)")
    print("  fsyncs by file: " + ", ".join(f"{name} {count / n:.1f}" for name, count in sorted(syscalls.files.items())))
    print(f"  median {statistics.median(times) * 1000:.1f} ms per mail "
          f"(p95 {sorted(times)[int(0.95 * n) - 1] * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
