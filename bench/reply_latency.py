"""Benchmark: how long after the judge's 250 a player's reply leaves, end to end through a real
`judge serve` (SMTP in, the reply written out by the outbox as an .eml file, no relay).

Each mail is a HELP from an address with no account (no password check), sent one at a time; the
clock runs from smtplib's return (the 250) to the reply's file appearing. Issue 15's goal: a
confirmation in the outbox within 50 ms median. The outbox's poll interval (1 s) is printed
beside it: before processing woke the outbox, a reply waited for that poll.

Then the phase: in each of several started games (no one waiting), the seven players send their
orders by mail, and the clock runs from the last one's 250 to the phase being played (the game's
phase in the index moves on). Issue 15's goal: within a second, where the daemon's tick (30 s)
used to set the pace.

    .venv/bin/python bench/reply_latency.py [--mails 60] [--games 6]
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import smtplib
import sqlite3
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


POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def started_games(data: Path, count: int) -> list[str]:
    """`count` standard games, each with seven players signed up (so started), made before serve runs."""
    from judge.games.service import GameService
    service = GameService(data)
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@players.test", f"{p.lower()}-pw")
    names = [f"game{n}" for n in range(count)]
    for name in names:
        service.create_game(name)
        for p in POWERS:
            service.join(name, p.lower(), [p])
    service.judge.conn.close()
    return names


def phase_played_after(data: Path, port: int, game: str) -> float:
    """Every power's orders (hold everything) by mail; seconds from the last 250 to the phase played."""
    index = sqlite3.connect(f"{(data / 'judge.sqlite').as_uri()}?mode=ro", uri=True)
    try:
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            for p in POWERS:
                m = EmailMessage()
                m["From"], m["To"], m["Subject"] = f"{p.lower()}@players.test", "judge@localhost", "orders"
                m["Message-ID"] = f"<{game}.{p}.{time.time_ns()}@players.test>"
                m.set_content(f"signon {p[0]}{game} {p.lower()}-pw\n" + "\n".join(f"{u} H" for u in UNITS[p]))
                smtp.send_message(m)
            acked = time.perf_counter()
        while index.execute("SELECT phase FROM game_index WHERE name = ?", [game]).fetchone()[0] == "S1901M":
            time.sleep(0.005)
            if time.perf_counter() - acked > 120:
                raise SystemExit(f"{game}: no phase played in 120 s")
        return time.perf_counter() - acked
    finally:
        index.close()


UNITS = {"AUSTRIA": ["A Vie", "A Bud", "F Tri"], "ENGLAND": ["F Lon", "F Edi", "A Lvp"],
         "FRANCE": ["A Par", "A Mar", "F Bre"], "GERMANY": ["A Ber", "F Kie", "A Mun"],
         "ITALY": ["A Ven", "A Rom", "F Nap"], "RUSSIA": ["A War", "A Mos", "F Sev", "F StP/sc"],
         "TURKEY": ["F Ank", "A Con", "A Smy"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=60)
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        games = started_games(data, args.games)
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
            played = [phase_played_after(data, port, game) for game in games]
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
    median, p95 = statistics.median(times) * 1e3, sorted(times)[int(0.95 * len(times))] * 1e3
    print(f"{len(times)} HELP mails, one at a time: reply out {median:.1f} ms median after the 250, p95 {p95:.1f} ms")
    print(f"the outbox's poll: 1000 ms; ratio {1000 / median:.1f}x; goal 50 ms median: "
          f"{'met' if median <= 50 else 'NOT met'}")
    phase = statistics.median(played) * 1e3
    print(f"{len(played)} games, the last power's orders in: phase played {phase:.0f} ms median after the 250, "
          f"max {max(played) * 1e3:.0f} ms; the tick: 30000 ms (ratio {30000 / phase:.0f}x); goal within 1000 ms: "
          f"{'met' if phase <= 1000 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
