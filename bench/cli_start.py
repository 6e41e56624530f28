"""Benchmark: what a command line costs to start, against a bare `python -c pass` of the same interpreter.

    .venv/bin/python bench/cli_start.py [--games 10000] [--rounds 7]

Times, as the median of `--rounds` runs each: `judge --help`, `judge status <game>`, `judge list`
(every game listed, as on a judge at rest: its mark left by an untimed listing first, see
judge.index_look), `judge list --check` (every game file looked at too) and `judge serve` until it
is ready (its banner printed: SMTP is accepting by then), all on one data directory of `--games`
games, as ratios to `python -c pass`. Twice: on the machine as it is, then beside a CPU hog of the
bench's own (one busy process per core, stopped before the bench ends). The issue's goals: --help,
status and list at most 4x a bare start; serve ready in under 0.5 s with 10,000 games.

The games are made cheaply: one standard game played into its first phase, its file shrunk
(512-byte pages) and copied, renamed inside each copy, and the index rows written straight into
judge.sqlite with each copy's fingerprint (judge.games.store), as `judge serve` would have left
them; one untimed `judge serve` start then upgrades judge.sqlite's other components, so each timed
start is a restart.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from judge.games.store import fingerprint, stale_game_files  # noqa: E402 - imported once sys.path names the repository
from test_games_helpers import service, seven_player_game  # noqa: E402

JUDGE = Path(sys.executable).with_name("judge")
GOAL_RATIO = 4.0        # --help, status, list: at most this many bare starts
GOAL_SERVE = 0.5        # seconds to ready with 10,000 games


def make_games(data: Path, count: int) -> None:
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())     # deadlines days ahead: no game is due
    svc, _ = service(data.parent, start=now)     # the service's data directory is <parent>/var
    seven_player_game(svc, "g00000")
    svc.mark_notices_queued("g00000", [n.id for n in svc.pending_notices("g00000")])   # a restart with nothing to mail
    svc.judge.conn.close()
    games = data / "games"
    template = data / "template.sqlite"
    with sqlite3.connect(games / "g00000.sqlite") as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copyfile(games / "g00000.sqlite", template)
    conn = sqlite3.connect(template)
    conn.executescript("PRAGMA journal_mode=DELETE; PRAGMA page_size=512; VACUUM;")
    conn.close()
    for n in range(1, count):
        path = games / f"g{n:05d}.sqlite"
        shutil.copyfile(template, path)
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("UPDATE game SET name = ? WHERE id = 1", [path.stem])
        conn.commit()
        conn.execute("PRAGMA journal_mode=WAL")      # as the judge keeps its files
        conn.close()
    template.unlink()
    index_copies(data, count)


def index_copies(data: Path, count: int) -> None:
    """Each copy's rows in judge.sqlite, as the games index would hold them: g00000's, renamed, with
    the copy's own fingerprint."""
    judge = sqlite3.connect(data / "judge.sqlite")
    with judge:
        for table in ("game_index", "game_powers", "player_records"):
            columns = [r[1] for r in judge.execute(f"PRAGMA table_info({table})")]
            rest = ", ".join(c for c in columns if c not in ("name", "fingerprint"))
            keep = ", fingerprint" if "fingerprint" in columns else ""
            judge.executemany(
                f"INSERT INTO {table} (name{keep}, {rest}) SELECT ?{', ?' if keep else ''}, {rest}"
                f" FROM {table} WHERE name = 'g00000'",
                [(f"g{n:05d}", *([fingerprint(data / "games" / f"g{n:05d}.sqlite")] if keep else []))
                 for n in range(1, count)])
        # the state `judge status` shows, renamed as each copy's file was
        judge.execute("UPDATE game_index SET state = json_set(state, '$.name', name) WHERE state IS NOT NULL")
    judge.close()


def env_for(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env.update(JUDGE_SMTP_PORT="0", JUDGE_DATA_DIR=str(data))
    return env


def run(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr[-2000:]}")
    return took


def serve_ready(data: Path, env: dict[str, str]) -> float:
    """From `judge serve`'s start to its banner's last line (SMTP accepts before the banner is printed)."""
    start = time.perf_counter()
    process = subprocess.Popen([str(JUDGE), "serve"], env=env, cwd=data, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        for line in process.stdout:
            if line.startswith("Stop with"):
                return time.perf_counter() - start
        raise SystemExit(f"judge serve exited: {process.wait()}\n{process.stderr.read()[-2000:]}")
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=300)        # the sweep after the banner, then a clean stop


def measures(data: Path) -> dict[str, Callable[[], float]]:
    env = env_for(data)
    return {
        "python -c pass": lambda: run([sys.executable, "-c", "pass"], env),
        "judge --help": lambda: run([str(JUDGE), "--help"], env),
        "judge status": lambda: run([str(JUDGE), "status", "g00001", "--data", str(data)], env),
        "judge list": lambda: run([str(JUDGE), "list", "--data", str(data)], env),
        "judge list --check": lambda: run([str(JUDGE), "list", "--check", "--data", str(data)], env),
        "judge serve (ready)": lambda: serve_ready(data, env),
    }


def spin() -> None:
    while True:
        pass


class Hog:
    """One busy process per core, the bench's own: started on entering, stopped on leaving."""

    def __enter__(self) -> Hog:
        self.processes = [multiprocessing.Process(target=spin, daemon=True) for _ in range(os.cpu_count() or 1)]
        for p in self.processes:
            p.start()
        time.sleep(1.0)     # the scheduler shares the cores out before the first measure
        return self

    def __exit__(self, *exc) -> None:
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            p.join()


def at_rest(data: Path) -> None:
    """The games directory still for longer than a listing's mark needs (judge.index_look.SETTLED_NS;
    `judge serve`'s stop closes files, which changes it), then one untimed `judge list` to leave it."""
    from judge.index_look import CHECKED, SETTLED_NS
    still = (data / "games").stat().st_mtime_ns + SETTLED_NS + 100_000_000 - time.time_ns()
    time.sleep(max(0.0, still / 1e9))
    run([str(JUDGE), "list", "--data", str(data)], env_for(data))
    if not (data / CHECKED).exists():
        raise SystemExit("judge list left no mark: every listing would look at every game file")


def round_of(data: Path, rounds: int, label: str) -> dict[str, float]:
    at_rest(data)
    load = os.getloadavg()[0]
    medians = {}
    for name, measure in measures(data).items():
        medians[name] = statistics.median(measure() for _ in range(rounds))
    bare = medians["python -c pass"]
    print(f"\n{label} (load {load:.1f} before, {os.getloadavg()[0]:.1f} after; median of {rounds}):")
    for name, took in medians.items():
        goal = "" if name in ("python -c pass", "judge list --check") else \
            f"  goal {GOAL_SERVE} s: {'met' if took < GOAL_SERVE else 'NOT met'}" if "serve" in name else \
            f"  goal {GOAL_RATIO:.0f}x: {'met' if took <= GOAL_RATIO * bare else 'NOT met'}"
        print(f"  {name:<21} {took * 1000:7.1f} ms  {took / bare:5.1f}x{goal}")
    return medians


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "var"
        made = time.perf_counter()
        make_games(data, args.games)
        print(f"{args.games} games made in {time.perf_counter() - made:.0f} s", flush=True)
        first = serve_ready(data, env_for(data))
        print(f"first start (judge.sqlite upgraded, every game file's fingerprint checked): {first:.2f} s")
        with sqlite3.connect(data / "judge.sqlite") as judge:
            import sqlite_utils
            stale = stale_game_files(data, sqlite_utils.Database(judge))
        if stale:
            raise SystemExit(f"{len(stale)} game files not as the index has them, e.g. {stale[0]}")
        round_of(data, args.rounds, "quiet")
        with Hog():
            round_of(data, args.rounds, f"beside a CPU hog ({os.cpu_count()} busy processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
