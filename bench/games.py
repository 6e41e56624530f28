"""Benchmark: 10,000 active games on disk; find the due ones; process 1,000 simultaneous deadlines.

    .venv/bin/python bench/games.py [--games 10000] [--due 1000] [--dir /tmp/judge-bench] [--no-pictures]
                                    [--stages] [--profile] [--hog]

Games are made through the service (joins, orders) for a sample, then the rest are copies of those
game files renamed with SQLite's backup API (making 10,000 games one join at a time only measures
fsync). The index is then rebuilt from the files with the start-up sweep, as after a crash.
The games service is built as the daemon builds it (judge.mail.serve_hooks: judge.sqlite at NORMAL, the
games in play kept open). The deadlines are played and the reports queued by the daemon's own tick
(judge.mail.serve_hooks.Tick): a pipeline, each game played as the courier (judge.mail.outbound.courier)
reads ahead for its next game, so its picture is painted and its mail queued while the later games
are played; `--stages` plays every deadline first, then runs the courier, and prints each stage.
The reports go into the judge file's outbox, each results mail with its board picture, drawn once per
phase and stored once for all its recipients.
A run of that many games paints its pictures in processes of their own, one per core but the courier's
(judge.pictures.pool). `--hog` runs it all again beside a CPU hog the bench starts itself (one
process per core spinning at normal priority, started just before the deadlines and stopped after
the courier) and prints both figures and their ratios; the machine's own load average is printed
before each, as the machine may be shared.
Prints medians and p95s, each deadline's wall clock and CPU (GameService.wake timed, wherever the
pipeline runs it), and the CPU of this process and of the painters, which says more than the wall
clock on a shared machine; goals: finding due games < 1 ms among 10,000, and 1,000 deadlines
processed with every report and its picture queued in < 30 s quiet and < 120 s beside the hog (issue 27).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.config import Config  # noqa: E402
from judge.engine import load_variant  # noqa: E402
from judge.mail.outbound import outbox  # noqa: E402
from judge.mail.outbound.courier import Courier  # noqa: E402
from judge.mail.serve_hooks import Tick  # noqa: E402
from judge.pictures.pool import cores  # noqa: E402
from judge.engine.notation import parse_order  # noqa: E402
from judge.games.clock import ManualClock, iso, parse_time  # noqa: E402
from judge.games.service import GameService  # noqa: E402
from judge.storage.db import open_db  # noqa: E402
from judge.storage.open_files import games_kept_open  # noqa: E402

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
OPENINGS = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
    "GERMANY": ["A BER - KIE", "F KIE - DEN", "A MUN - RUH"],
    "ITALY": ["A VEN H", "A ROM - APU", "F NAP - ION"],
    "RUSSIA": ["A WAR - UKR", "A MOS - STP", "F SEV - BLA", "F STP/SC - BOT"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - ARM"],
}
START = "2026-06-01T12:00:00Z"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def make_templates(svc: GameService, clock: ManualClock, variant, *, later: bool = True) -> tuple[str, str]:
    """Real games to copy: 'due' (deadline at T, all but Italy ordered) and, unless every game is to be
    due, 'later' (a week later)."""
    for i in range(len(POWERS)):
        svc.create_account(f"player{i}", f"player{i}@bench.example", None, time_zone="Europe/Berlin")
    for name, shift in (("due", 0), ("later", 24 * 7))[:2 if later else 1]:
        clock.set(parse_time(START) + timedelta(hours=shift))
        svc.create_game(name, seed=1)
        for i, p in enumerate(POWERS):
            svc.join(name, f"player{i}", [p])
        for i, p in enumerate(POWERS):
            if p != "ITALY":  # one NMR per game: civil disorder in every report
                svc.submit_orders(name, p, [(t, parse_order(variant, t)) for t in OPENINGS[p]],
                                  account=f"player{i}")
        svc.mark_notices_queued(name, [n.id for n in svc.pending_notices(name)])
    return "due", "later"


def clone(data: Path, template: str, name: str) -> None:
    src = sqlite3.connect(data / "games" / f"{template}.sqlite")
    dst = sqlite3.connect(data / "games" / f"{name}.sqlite")
    src.backup(dst)
    dst.execute("UPDATE game SET name = ? WHERE id = 1", [name])
    dst.execute("PRAGMA journal_mode=WAL")
    dst.commit()
    dst.close()
    src.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--due", type=int, default=1_000)
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument("--no-pictures", action="store_true", help="queue the reports without their pictures")
    ap.add_argument("--stages", action="store_true",
                    help="every deadline first, then the courier (the figures of each stage), not as the daemon's tick")
    ap.add_argument("--profile", action="store_true",
                    help="profile the main thread's work (with --stages: each stage's); SORT=cumulative"
                         " and ROWS=N in the environment to change what is printed")
    ap.add_argument("--hog", action="store_true", help="run it again beside a CPU hog: one busy process per core")
    args = ap.parse_args()
    runs = {"quiet": run(args, hog=False)}
    if args.hog:
        runs["beside the hog"] = run(args, hog=True)
    print()
    for label, (processed, couriered, total, load) in runs.items():
        goal = 120 if label != "quiet" else 30
        stages = f"deadlines {processed:5.1f} s + reports and pictures {couriered:5.1f} s = " if args.stages else ""
        print(f"{label:>15}: {stages}{total:5.1f} s, every deadline played and every report queued (goal < {goal} s;"
              f" load average before {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})")
    if args.hog:
        (p0, c0, t0, _), (p1, c1, t1, _) = runs.values()
        stages = f"deadlines {p1 / p0:.2f}x, reports and pictures {c1 / c0:.2f}x, " if args.stages else ""
        print(f"{'hog / quiet':>15}: {stages}in all {t1 / t0:.2f}x")
    return 0


def run(args: argparse.Namespace, *, hog: bool) -> tuple[float, float, float, tuple[float, float, float]]:
    """Make the games, then play the due ones and queue every report, timed: (deadlines, courier,
    both, the load average just before). `hog`: with one busy process per core running meanwhile."""
    print(f"--- {'beside a CPU hog (' + str(cores()) + ' busy processes)' if hog else 'quiet'} ---")
    base = args.dir or Path(tempfile.mkdtemp(prefix="judge-bench-"))
    if base.exists():
        shutil.rmtree(base)
    data = base / "var"
    variant = load_variant("standard")
    clock = ManualClock(START)
    # as the daemon builds it (judge.mail.serve_hooks): judge.sqlite made durable per piece of work,
    # the games in play kept open
    svc = GameService(data, clock=clock, judge_synchronous="NORMAL", keep_open=games_kept_open())

    t0 = time.perf_counter()
    # exactly `--due` of the `--games` games are due (the templates count: 'due' is one of them, and
    # 'later' is made only when some game is not to be due)
    due_count = min(args.due, args.games)
    due_t, later_t = make_templates(svc, clock, variant, later=args.games > due_count)
    made = time.perf_counter() - t0
    templates = 2 if args.games > due_count else 1
    print(f"{templates} games made through the service (create, 7 joins, 6 order messages each): {made:.2f} s")

    t0 = time.perf_counter()
    for i in range(args.games - templates):
        clone(data, due_t if i < due_count - 1 else later_t, f"g{i:05d}")
    print(f"{args.games - templates} more games written (file copies): {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    indexed = svc.sync_index()
    print(f"start-up sweep rebuilt the index of {indexed} games: {time.perf_counter() - t0:.1f} s")
    size = sum(p.stat().st_size for p in (data / "games").glob("*.sqlite"))
    print(f"disk: {size / indexed / 1024:.0f} KiB per game file")

    deadline = parse_time(svc.status("due").deadline["utc"]) + timedelta(hours=12)  # after grace
    clock.set(deadline)
    # finding due games: the scheduler's query, timed as it runs
    for label, now, limit in (("none due yet", parse_time(START), 1000),
                              ("the first 10 of 1,000 due", deadline, 10),
                              (f"all {due_count} due", deadline, due_count + 10)):
        times = []
        for _ in range(200):
            t = time.perf_counter()
            found = svc.due_games(now, limit=limit)
            times.append((time.perf_counter() - t) * 1000)
        print(f"due_games among {indexed} ({label}: {len(found)} found): median {statistics.median(times):.3f} ms,"
              f" p95 {pct(times, 0.95):.3f} ms")

    # processing every due game and queueing every report with the daemon's courier: as the daemon's
    # tick does it (judge.mail.serve_hooks.Tick: each game's news queued while the later games are
    # played), or with --stages one stage after the other (every deadline, then the courier)
    config = Config(data_dir=data, address="judge@bench.example")
    courier = Courier(svc, config)
    if args.no_pictures:
        courier.start_picture = lambda *a, **k: None
    db = open_db(config.db_path)
    played = Played(svc)
    hogs = start_hog() if hog else []
    try:
        load = os.getloadavg()
        t0, cpu = time.perf_counter(), time.process_time()
        names = svc.due_games(deadline, limit=due_count + 10)
        painters = PainterClock()
        if args.stages:
            profiled(args.profile, lambda: [svc.wake(name) for name in names])
            processed = time.perf_counter() - t0
            t1 = time.perf_counter()
            queued = profiled(args.profile, lambda: courier.run(db))
            couriered = time.perf_counter() - t1
        else:
            queued = profiled(args.profile, lambda: Tick(svc, courier, config)(deadline.timestamp()))
            processed = couriered = 0.0
        total, cpu = time.perf_counter() - t0, time.process_time() - cpu
        painted_cpu = painters.stop()
    finally:
        stop_hog(hogs)
    assert played.outcomes == ["processed"] * len(names), set(played.outcomes)
    per_game = played.wall
    print(f"processed {len(names)} simultaneous deadlines: {sum(per_game) / 1000:.1f} s"
          f" ({sum(played.cpu):.1f} s of CPU)"
          f" (per game median {statistics.median(per_game):.1f} ms, p95 {pct(per_game, 0.95):.1f} ms)")
    mails, parts = db.conn.execute(
        "SELECT (SELECT count(*) FROM outbox), (SELECT count(*) FROM outbox_parts)"
    ).fetchone()
    queued = queued if args.stages else mails
    painted = "without pictures" if args.no_pictures else f"{parts} pictures painted by {painter(courier, names)}"
    print(f"the courier queued {queued} reports ({painted}); this process's CPU in all {cpu:.1f} s (the deadlines'"
          f" {sum(played.cpu):.1f} s, the courier's {cpu - sum(played.cpu):.1f} s), the painters' about"
          f" {painted_cpu:.1f} s; outbox {mails} mails, {outbox.stored_bytes(db) / 2**20:.0f} MiB")
    if args.stages:
        print(f"one stage after the other: the deadlines {processed:.1f} s, then the reports and pictures"
              f" {couriered:.1f} s")
    print(f"deadlines processed and every report queued: {total:.1f} s (wall clock)")
    left = svc.due_games(deadline)
    print(f"due after the run: {len(left)}; next deadline of a processed game: "
          f"{svc.status(names[0]).deadline['utc']} (now {iso(clock())})")
    db.close()
    if not args.dir:
        shutil.rmtree(base)
    return processed, couriered, total, load


class Played:
    """Each game's deadline as the service plays it (GameService.wake, wrapped): what it did, its
    wall clock (ms) and its thread's CPU (s), however the run interleaves the games with the courier."""

    def __init__(self, svc: GameService) -> None:
        self.outcomes: list[str] = []
        self.wall: list[float] = []
        self.cpu: list[float] = []
        wake = svc.wake

        def timed(name: str, now=None) -> str:
            t, c = time.perf_counter(), time.thread_time()
            done = wake(name, now)
            self.cpu.append(time.thread_time() - c)
            self.wall.append((time.perf_counter() - t) * 1000)
            self.outcomes.append(done)
            return done
        svc.wake = timed


def profiled(profile: bool, work):
    """`work()`, under cProfile when asked (the 40 costliest calls by their own time printed)."""
    if not profile:
        return work()
    import cProfile
    import pstats
    prof = cProfile.Profile()
    answer = prof.runcall(work)
    pstats.Stats(prof).sort_stats(os.environ.get("SORT", "tottime")).print_stats(int(os.environ.get("ROWS", "40")))
    return answer


def painter(courier: Courier, names: list[str]) -> str:
    if len(names) >= courier.pool_from:
        return f"{max(1, cores() - 1)} painter process(es) beside the courier's"
    return "the courier's painting thread"


class PainterClock:
    """The CPU the painter processes took, read from /proc twice a second while the courier runs
    (they are the children of the pool's fork server, itself a child of this process): a worker's
    last half second may be missed, so the figure is about, and a little low. 0 off Linux."""

    def __init__(self) -> None:
        self._seen: dict[int, float] = {}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done.wait(0.5):
            self._look()

    def _look(self) -> None:
        ticks = os.sysconf("SC_CLK_TCK")
        ours = {os.getpid()}
        stats = []
        for entry in Path("/proc").iterdir():
            try:
                text = (entry / "stat").read_text() if entry.name.isdigit() else ""
            except OSError:
                continue
            if text:
                fields = text.rpartition(")")[2].split()
                stats.append((int(entry.name), int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks))
        children = {pid for pid, ppid, _ in stats if ppid in ours}
        for pid, ppid, cpu in stats:
            if ppid in children:
                self._seen[pid] = max(cpu, self._seen.get(pid, 0.0))

    def stop(self) -> float:
        self._done.set()
        self._thread.join()
        return sum(self._seen.values())


def _spin(parent: int) -> None:
    while os.getppid() == parent:     # (ends with the bench, however the bench ends)
        pass


def start_hog() -> list[multiprocessing.Process]:
    """One busy process per core, at normal priority (the bench's own hog, beside whatever else runs)."""
    fork = multiprocessing.get_context("fork")
    hogs = [fork.Process(target=_spin, args=(os.getpid(),), daemon=True) for _ in range(cores())]
    for h in hogs:
        h.start()
    return hogs


def stop_hog(hogs: list[multiprocessing.Process]) -> None:
    for h in hogs:
        h.terminate()
    for h in hogs:
        h.join()


if __name__ == "__main__":
    sys.exit(main())
