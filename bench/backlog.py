"""Benchmark: a backlog of order mails drained by the real dispatcher, quiet and beside a CPU hog (issue 27).

    .venv/bin/python bench/backlog.py [--mails 2000] [--games 300] [--no-hog]

One standard game is started through the service (seven accounts, seven joins); the other games are
copies of its file made with SQLite's backup API and renamed inside, the index rebuilt by the start-up
sweep (making 300 games one join at a time only measures fsync). Each mail is one power's orders
(three or four moves) sent to its player's secret reply address: game after game, each power in turn.
All the mails are put in intake's spool first (var/spool/, synced, as SMTP intake leaves them when the
dispatcher is behind); then the clock runs while the archive takes the spool in (the drain) and the
daemon's Processor, with the real Dispatch as `judge serve` builds it, handles every mail (claim,
dispatch, reply queued, FULL commit). Run twice, each on a fresh copy of the data directory: quiet, and
beside a CPU hog of the bench's own (one busy process per core). Prints mails per second, SQL
statements and adjudications per mail, the load, and the ratio. Goal: 100 mails a second or more quiet.
`--no-hog`: the quiet run alone, to set two trees' code side by side on a shared machine (run each with
PYTHONPATH=<its tree> and compare the CPU a mail, which the load changes less than the mails a second).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import judge.engine.phase as engine_phase  # noqa: E402 - imported once sys.path names the repository
from cli_start import Hog  # noqa: E402
from judge.mail.intake.archive import Arrival  # noqa: E402
from judge.mail.intake.spool import Spool, spool_dir  # noqa: E402
from judge.mail.intake.spool_drain import SpoolReader  # noqa: E402
from judge.mail.screening.tokens import ReplyTokens  # noqa: E402
from mailjudge import POWERS, MailJudge, mail  # noqa: E402

ORDERS = {"AUSTRIA": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb", "ENGLAND": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
          "FRANCE": "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mid", "GERMANY": "A Ber - Kie\nF Kie - Den\nA Mun - Ruh",
          "ITALY": "A Ven H\nA Rom - Apu\nF Nap - Ion", "TURKEY": "F Ank - Bla\nA Con - Bul\nA Smy - Arm",
          "RUSSIA": "A War - Ukr\nA Mos - StP\nF Sev - Bla\nF StP/sc - Bot"}


class Counter:
    """SQL statements on every connection opened from now on, and the engine's adjudications."""

    def __init__(self) -> None:
        self.statements = self.adjudications = 0
        connect, adjudicate = sqlite3.connect, engine_phase.adjudicate

        def traced(database, *args, **kwargs):
            conn = connect(database, *args, **kwargs)
            conn.set_trace_callback(self._statement)
            return conn

        def counted(*args, **kwargs):
            self.adjudications += 1
            return adjudicate(*args, **kwargs)
        sqlite3.connect = traced
        engine_phase.adjudicate = counted

    def _statement(self, _sql: str) -> None:
        self.statements += 1


def template(where: Path, games: int) -> dict[tuple[str, str], str]:
    """The data directory to copy for each run; each (game, power)'s secret reply address."""
    judge = MailJudge(where)
    judge.seven_players("g000")
    data = judge.config.data_dir
    first = sqlite3.connect(str(data / "games" / "g000.sqlite"))
    for i in range(1, games):
        name = f"g{i:03d}"
        copy = sqlite3.connect(str(data / "games" / f"{name}.sqlite"))
        first.backup(copy)
        copy.execute("UPDATE game SET name = ? WHERE id = 1", [name])
        copy.commit()
        copy.close()
    first.close()
    judge.service.sync_index()
    tokens = ReplyTokens(judge.service.judge, judge.config.address)
    secret = {(f"g{i:03d}", p): tokens.address_for(p.lower(), f"g{i:03d}") for i in range(games) for p in POWERS}
    judge.close()
    return secret


def run(source: Path, into: Path, secret: dict[tuple[str, str], str], mails: int, games: int,
        counter: Counter, label: str) -> float:
    shutil.copytree(source / "var", into / "var")
    judge = MailJudge(into)
    judge.service.sync_index()      # (the copies' fingerprints, as a restart's sweep would)
    spool = Spool(spool_dir(judge.config.db_path))
    arrivals = []
    for i in range(mails):
        game, power = f"g{i % games:03d}", POWERS[(i // games) % len(POWERS)]
        frm, to = f"{power.lower()}@dip.test", secret[(game, power)]
        arrivals.append(Arrival(mail(frm, ORDERS[power], to=to), frm, (to,), "smtp"))
    for start in range(0, mails, 100):      # intake's group commits
        spool.add_many(arrivals[start:start + 100])
    spool.close()
    load = os.getloadavg()[0]
    statements, adjudications = counter.statements, counter.adjudications
    began, cpu = time.perf_counter(), time.process_time()
    judge.processor.archive.drain_spool(SpoolReader(spool_dir(judge.config.db_path)))
    handled = 0
    while judge.processor.process_next() is not None:
        handled += 1
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    statements, adjudications = counter.statements - statements, counter.adjudications - adjudications
    states = judge.processor.archive.counts()
    judge.close()
    assert handled == mails and states.get("processed", 0) >= mails, (handled, states)
    rate = mails / took
    print(f"{label:<42} {rate:7.1f} mails/s   ({mails} mails in {took:.1f} s, this process's CPU"
          f" {cpu / mails * 1000:.1f} ms a mail; {statements / mails:.1f} statements and"
          f" {adjudications / mails:.2f} adjudications a mail; load {load:.1f} before, {os.getloadavg()[0]:.1f} after)")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--no-hog", action="store_true", help="the quiet run only (to alternate two trees' code)")
    args = parser.parse_args()
    counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        secret = template(base / "template", args.games)
        print(f"a backlog of {args.mails} order mails across {args.games} games, spooled, then drained and "
              f"dispatched one by one:")
        quiet = run(base / "template", base / "quiet", secret, args.mails, args.games, counter, "quiet")
        if args.no_hog:
            return
        with Hog():
            busy = run(base / "template", base / "hog", secret, args.mails, args.games, counter,
                       f"beside a CPU hog ({os.cpu_count()} busy processes)")
    print(f"ratio beside the hog / quiet: {busy / quiet:.2f}   (goal: 100 mails/s or more quiet)")


if __name__ == "__main__":
    main()
