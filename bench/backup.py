"""Benchmark: `judge backup` of a data directory with many games, and how long intake waits meanwhile.

    .venv/bin/python bench/backup.py [--games 100 1000] [--runs 5] [--dir /tmp/judge-bench-backup]

judge.sqlite is frozen (its write lock held) for the whole backup, so the backup's duration is the
longest an intake commit can wait. One game is made through the service; the others are copies of
its file. Each run backs up while a thread stores mail in the archive as fast as it can, and prints
medians of: the backup's duration, the longest single store during it, and the ratio of the backup
to a plain file copy of the same files (what consistency costs).
"""
from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from judge.mail.intake.archive import Archive  # noqa: E402
from judge.ops.backup import backup, data_files  # noqa: E402
from test_games_helpers import seven_player_game, service  # noqa: E402


def make_data(root: Path, games: int) -> Path:
    svc, _ = service(root)
    seven_player_game(svc, "g0")
    data = root / "var"
    Archive(data / "judge.sqlite").close()
    source = sqlite3.connect(data / "games" / "g0.sqlite")
    for n in range(1, games):
        target = sqlite3.connect(data / "games" / f"g{n}.sqlite")
        source.backup(target)
        target.close()
    source.close()
    svc.sync_index()
    return data


def one_run(data: Path, out: Path) -> tuple[float, float, float]:
    stop = threading.Event()
    waits: list[float] = []

    def intake() -> None:
        archive = Archive(data / "judge.sqlite", synchronous="NORMAL")
        n = 0
        while not stop.is_set():
            started = time.perf_counter()
            archive.store(f"Subject: {n}\r\nMessage-ID: <{time.time_ns()}@bench>\r\n\r\nA PAR H\r\n".encode(),
                          mail_from="bench@example.net", rcpt_tos=["judge@example.org"], via="smtp")
            waits.append(time.perf_counter() - started)
            n += 1
        archive.close()

    writer = threading.Thread(target=intake)
    writer.start()
    time.sleep(0.05)
    started = time.perf_counter()
    backup(data, out / "backup")
    took = time.perf_counter() - started
    stop.set()
    writer.join()

    copied = out / "plain"
    (copied / "games").mkdir(parents=True)
    started = time.perf_counter()
    for name in data_files(data):
        shutil.copyfile(data / name, copied / name)
    plain = time.perf_counter() - started
    return took, max(waits), took / plain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    base = Path(args.dir or tempfile.mkdtemp(prefix="judge-bench-backup-"))
    try:
        for games in args.games:
            root = base / f"{games}"
            data = make_data(root, games)
            results = []
            for run in range(args.runs):
                out = root / f"run{run}"
                results.append(one_run(data, out))
                shutil.rmtree(out)
            took, wait, ratio = (statistics.median(r[i] for r in results) for i in range(3))
            size = sum((data / n).stat().st_size for n in data_files(data)) / 2**20
            print(f"{games:>6} games ({size:.0f} MiB): backup median {took * 1000:.0f} ms, "
                  f"longest intake store during it median {wait * 1000:.0f} ms, backup/plain copy {ratio:.1f}x")
    finally:
        if args.dir is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
