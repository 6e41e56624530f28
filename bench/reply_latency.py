"""Benchmark: how long after the judge's 250 a player's reply leaves, end to end through a real
`judge serve` (SMTP in, the reply written out by the outbox as an .eml file, no relay).

Each mail is a HELP from an address with no account (no password check), sent one at a time; the
clock runs from smtplib's return (the 250) to the reply's file appearing. Issue 15's goal: a
confirmation in the outbox within 50 ms median. The outbox's poll interval (1 s) is printed
beside it: before processing woke the outbox, a reply waited for that poll.

Then the phase: in each of several started games (no one waiting), six players answer the judge's
mail (their secret reply address) with their orders; once those are read the seventh does, and the
clock runs from its 250 to the phase being played (the game's phase in the index moves on).
Issue 15's goal: within a second, where the daemon's tick (30 s)
used to set the pace. Half the games are played quiet, half beside a CPU hog of the bench's own (one
busy process per core: issue 27 asks for the second beside it too).

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

from cli_start import Hog  # (bench/ is on sys.path: the script's own directory)

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


def started_games(data: Path, count: int) -> dict[str, dict[str, str]]:
    """`count` standard games, each with seven players signed up (so started), made before serve runs;
    for each game each power's secret reply address (judge.mail.screening.tokens), as the judge's mail gives it."""
    from judge.games.service import GameService
    from judge.mail.screening.tokens import ReplyTokens
    service = GameService(data)
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@players.test", f"{p.lower()}-pw")
    tokens = ReplyTokens(service.judge, "judge@localhost")
    games = {}
    for name in (f"game{n}" for n in range(count)):
        service.create_game(name)
        for p in POWERS:
            service.join(name, p.lower(), [p])
        games[name] = {p: tokens.address_for(p.lower(), name) for p in POWERS}
    service.judge.conn.close()
    return games


def phase_played_after(data: Path, port: int, game: str, secret: dict[str, str]) -> float:
    """Six powers' orders (hold everything) by mail, each to its secret reply address; once they are
    read (handled, not only acknowledged: an acknowledged mail may still wait in intake's spool while
    the worker finishes the previous game's results), the seventh's. Seconds from the seventh's 250 to
    the phase played."""
    judge = sqlite3.connect(f"{(data / 'judge.sqlite').as_uri()}?mode=ro", uri=True)
    try:
        handled = judge.execute("SELECT count(*) FROM inbound WHERE state = 'processed'").fetchone()[0]
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            for p in POWERS:
                if p == POWERS[-1]:     # the six read: out of intake's spool, into the archive, handled
                    wait_for(judge, f"SELECT count(*) >= {handled + 6} FROM inbound WHERE state = 'processed'")
                m = EmailMessage()
                m["From"], m["To"], m["Subject"] = f"{p.lower()}@players.test", secret[p], "orders"
                m["Message-ID"] = f"<{game}.{p}.{time.time_ns()}@players.test>"
                m.set_content("\n".join(f"{u} H" for u in UNITS[p]))
                smtp.send_message(m)
            acked = time.perf_counter()
        wait_for(judge, "SELECT phase != 'S1901M' FROM game_index WHERE name = ?", game)
        return time.perf_counter() - acked
    finally:
        judge.close()


def reply_to(outbox: Path, before: set[Path], address: str) -> bool:
    """Whether a file new since `before` is the judge's mail to `address`."""
    if not outbox.exists():
        return False
    for path in set(outbox.glob("*.eml")) - before:
        try:
            head = path.read_bytes().split(b"\n\n", 1)[0]
        except FileNotFoundError:
            continue
        if f"\nTo: {address}".encode() in head:
            return True
    return False


def wait_for(db: sqlite3.Connection, sql: str, *args: str) -> None:
    start = time.perf_counter()
    while not db.execute(sql, args).fetchone()[0]:
        time.sleep(0.005)
        if time.perf_counter() - start > 120:
            raise SystemExit(f"waited 120 s for: {sql}")


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
                    # this mail's own reply: a new file addressed to its sender (a reply to an earlier
                    # mail that leaves late must not be timed as this one's)
                    while not reply_to(outbox, before, f"p{n}@players.test"):
                        time.sleep(0.001)
                        if time.perf_counter() - acked > 30:
                            raise SystemExit("no reply in 30 s")
                    if n >= 5:                      # the first few warm the judge up
                        times.append(time.perf_counter() - acked)
            both = list(games.items())
            played = [phase_played_after(data, port, game, secret) for game, secret in both[:len(both) // 2]]
            with Hog():
                busy = [phase_played_after(data, port, game, secret) for game, secret in both[len(both) // 2:]]
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
    hogged = statistics.median(busy) * 1e3
    print(f"{len(busy)} games beside a CPU hog ({os.cpu_count()} busy processes): phase played {hogged:.0f} ms"
          f" median after the 250, max {max(busy) * 1e3:.0f} ms (ratio to quiet {hogged / phase:.2f}); goal within"
          f" 1000 ms: {'met' if hogged <= 1000 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
