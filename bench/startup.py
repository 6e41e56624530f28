"""Benchmark: how long `judge serve` takes to be ready (its banner printed) with many games on disk.

    .venv/bin/python bench/startup.py [--games 10000]

One standard game is played into its first phase with orders in, and its file copied (renamed
inside) to make the others; then `judge serve` is started twice on the directory: the first start
builds the games index, the second is an ordinary restart. Each start migrates (checks) every
file and rebuilds the index from the game files (the repair after a crash between the two).
Issue 15's goal: 10,000 games ready in under 20 s (measured before: ~115 s).
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_games_helpers import POWERS, service, seven_player_game, submit, whole  # noqa: E402 - imported once sys.path names the repository

JUDGE = Path(sys.executable).with_name("judge")
HOLDS = {"AUSTRIA": "A VIE H", "ENGLAND": "F LON H", "FRANCE": "A PAR H", "GERMANY": "A BER H"}


def make_games(data: Path, count: int) -> None:
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())     # deadlines days ahead: no game is due
    svc, _ = service(data.parent, start=now)     # the service's data directory is <parent>/var
    seven_player_game(svc, "g00000")
    for power, order in HOLDS.items():
        submit(svc, "g00000", power, *whole(svc, "g00000", power, order))
    # its news already sent: a start with nothing to mail, as most restarts are
    svc.mark_notices_queued("g00000", [n.id for n in svc.pending_notices("g00000")])
    svc.judge.conn.close()
    games = data / "games"
    template = games / "g00000.sqlite"
    with sqlite3.connect(template) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for n in range(1, count):
        path = games / f"g{n:05d}.sqlite"
        shutil.copyfile(template, path)
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("UPDATE game SET name = ? WHERE id = 1", [path.stem])
        conn.commit()
        conn.close()


def ready_after(data: Path) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env.update(JUDGE_SMTP_PORT="0", JUDGE_DATA_DIR=str(data))
    errors = data.parent / "serve.err"
    start = time.perf_counter()
    process = subprocess.Popen([str(JUDGE), "serve"], env=env, cwd=data, stdout=subprocess.PIPE,
                               stderr=errors.open("w"), text=True)
    try:
        for line in process.stdout:
            if line.startswith("Stop with"):
                return time.perf_counter() - start
        raise SystemExit(f"judge serve exited: {process.wait()}\n{errors.read_text()[-2000:]}")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=120)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "var"
        made = time.perf_counter()
        make_games(data, args.games)
        print(f"{args.games} game files made in {time.perf_counter() - made:.0f} s ({len(POWERS)} powers each)")
        first = ready_after(data)
        again = ready_after(data)
    print(f"judge serve ready with {args.games} games: first start {first:.1f} s, restart {again:.1f} s "
          f"({again / args.games * 1e6:.0f} us a game)")
    print(f"goal: 10,000 games in under 20 s; at this rate 10,000 take {again / args.games * 10_000:.1f} s "
          f"(ratio to the goal {again / args.games * 10_000 / 20:.2f}; issue 15 measured ~115 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
