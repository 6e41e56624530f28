"""Benchmark: what checking a game file whole costs (SQLite's `PRAGMA quick_check`, as `judge doctor`
runs on every game file and `judge serve`'s start-up sweep on every file changed since the index saw it).

    .venv/bin/python bench/doctor_games.py [--phases 0 100 1000] [--runs 200]

A seven-player game is made through the service; for a longer game its phase, order and event rows are
copied in `--phases` times (what a game some decades long holds). Prints the file's size and the median
time of one quick_check, the file opened each time, as doctor does.
"""
from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.games.service import GameService  # noqa: E402

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def game_file(directory: Path, phases: int) -> Path:
    svc = GameService(directory)
    svc.create_account("gm", "gm@bench.test", "gm-pw")
    svc.create_game("g", master="gm")
    for p in POWERS:
        svc.create_account(p.lower(), f"{p.lower()}@bench.test", "pw")
        svc.join("g", p.lower(), [p])
    svc.close_games()
    svc.judge.conn.close()
    path = directory / "games" / "g.sqlite"
    with sqlite3.connect(path) as conn:
        position, = conn.execute("SELECT position FROM phases").fetchone()
        for _ in range(phases):
            conn.execute("INSERT INTO phases (phase, position, started_at, processed_at, result) VALUES"
                         " ('S1901M', ?, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', ?)", [position, position])
            conn.execute("INSERT INTO events (at, kind, detail) VALUES ('2026-01-01T00:00:00Z', 'bench', ?)",
                         [position[:400]])
    sqlite3.connect(path).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phases", type=int, nargs="+", default=[0, 100, 1000])
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args()
    for phases in args.phases:
        with tempfile.TemporaryDirectory() as tmp:
            path = game_file(Path(tmp), phases)
            times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
                ok = conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
                conn.close()
                times.append(time.perf_counter() - t0)
            assert ok
            print(f"{phases:>5} extra phases  {path.stat().st_size / 1024:>7.0f} KiB  quick_check"
                  f" {statistics.median(times) * 1000:.2f} ms median of {args.runs}")


if __name__ == "__main__":
    main()
