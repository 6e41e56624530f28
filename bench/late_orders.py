"""Benchmark (issue 23, item 12): a rush of order mails across many games around one deadline.

    .venv/bin/python bench/late_orders.py [--games 150] [--mails 2053] [--after 0.22] [--seed 23]

Every game's Spring 1901 deadline is the same moment. Order mails (Spring orders, to each power's
secret reply address) come in during the 20 seconds before it and, a share `--after` of them,
in the 20 seconds after it; the daemon's own Processor.tick plays the deadline between them, as
`judge serve` does (mail received before the moment first), and the courier queues the results.
The archive, the games and the tick run on one manual clock; the dispatcher, the courier and the
SQLite files are the real ones. Then a last mail per game, a minute after the results, carries
Fall orders.

Counts: Spring orders acknowledged before the deadline and played exactly as last sent (must be
all of them), rush mails after the deadline answered "too late" and orders of theirs filed for
Fall (misfiled: must be 0), and the Fall mails filed for Fall (must be all). Prints seconds too.
"""
from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
import time
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from judge.games import accounts  # noqa: E402 - imported once sys.path names the repository
from judge.games.clock import parse_time  # noqa: E402
from judge.games.model import Settings  # noqa: E402
from judge.games.submissions import RESULTS_READ_SECONDS  # noqa: E402
from judge.mail.intake.archive import Archive  # noqa: E402
from judge.mail.outbound.courier import Courier  # noqa: E402
from judge.mail.screening.tokens import ReplyTokens  # noqa: E402
from judge.storage.db import open_db  # noqa: E402
from mailjudge import POWERS, MailJudge, mail  # noqa: E402

SPRING = {"AUSTRIA": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
          "ENGLAND": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
          "FRANCE": ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"],
          "GERMANY": ["A Ber - Kie", "F Kie - Den", "A Mun - Ruh"],
          "ITALY": ["A Ven - Tyr", "A Rom - Apu", "F Nap - Ion"],
          "RUSSIA": ["A War - Gal", "A Mos - Ukr", "F Sev - Bla"],
          "TURKEY": ["F Ank - Bla", "A Con - Bul", "A Smy - Arm"]}
FALL = {p: [f"{o.split(' - ')[0]} H" for o in orders] for p, orders in SPRING.items()}   # whatever stands


def setup(tmp: Path, games: int) -> tuple[MailJudge, Archive, dict[tuple[str, str], str]]:
    judge = MailJudge(tmp)
    judge.dispatch.courier = Courier(judge.service, judge.config)
    for p in POWERS:
        judge.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
    judge.service.create_account("gm", "gm@dip.test", "gm-pw")
    for g in range(games):
        name = f"g{g:03d}"
        judge.service.create_game(name, master="gm", settings=Settings(grace_hours=0, pictures=False))
        for p in POWERS:
            judge.service.join(name, p.lower(), [p])
    archive = Archive(judge.config.db_path, clock=lambda: judge.clock().timestamp())
    db = open_db(judge.config.db_path)
    tokens = ReplyTokens(db, judge.config.address)
    secret = {(f"g{g:03d}", p): tokens.address_for(p.lower(), f"g{g:03d}") for g in range(games) for p in POWERS}
    db.close()
    return judge, archive, secret


def take_in(judge: MailJudge, archive: Archive, secret: dict, when: datetime, game: str, power: str,
            orders: list[str]) -> int:
    judge.clock.set(when)
    frm = f"{power.lower()}@dip.test"
    to = secret[(game, power)]
    return archive.store(mail(frm, "\n".join(orders), to=to), mail_from=frm, rcpt_tos=[to], via="smtp").id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--mails", type=int, default=2053)
    parser.add_argument("--after", type=float, default=0.22, help="share of the rush after the deadline")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--dir", default="/dev/shm" if Path("/dev/shm").is_dir() else None,
                        help="where the data directory is made (tmpfs by default: the counts, not the syncs, matter)")
    args = parser.parse_args()
    accounts._N = 2 ** 8        # cheap scrypt, as the in-process tests (the hashes are not what is measured)
    r = random.Random(args.seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        judge, archive, secret = setup(Path(tmp), args.games)
        deadline = parse_time(judge.service.status("g000").deadline["utc"])
        rush = []
        for _ in range(args.mails):
            after = r.random() < args.after
            offset = r.uniform(0.01, 20.0) * (1 if after else -1)
            game, power = f"g{r.randrange(args.games):03d}", r.choice(POWERS)
            orders = r.sample(SPRING[power], r.randint(1, 3))
            rush.append((deadline + timedelta(seconds=offset), game, power, orders, after))
        rush.sort(key=lambda m: m[0])
        last_before: dict[tuple[str, str], dict[str, str]] = {}
        late_ids = []
        prepared = time.perf_counter()
        for when, game, power, orders, after in rush:
            if after and judge.clock() < deadline:     # the daemon's tick at the deadline, mail before it read first
                judge.clock.set(deadline)
                judge.processor.tick(lambda now: (judge.service.run_due(deadline),
                                                  judge.dispatch.courier.run(judge.processor.context.db)),
                                     deadline.timestamp())
            inbound = take_in(judge, archive, secret, when, game, power, orders)
            judge.processor.process_next()
            if after:
                late_ids.append(inbound)
            else:
                slots = last_before.setdefault((game, power), {})
                slots.update({o.split(" - ")[0].upper(): o.upper() for o in orders})
        rushed = time.perf_counter()
        # A minute after the results: Fall orders, to be filed for Fall.
        fall_time = judge.clock() + timedelta(seconds=RESULTS_READ_SECONDS + 1)
        fall_ids = [take_in(judge, archive, secret, fall_time, f"g{g:03d}", "FRANCE", FALL["FRANCE"])
                    for g in range(args.games)]
        while judge.processor.process_next() is not None:
            pass
        figures = count(judge, args.games, last_before, late_ids, fall_ids)
        figures.update({"games": args.games, "mails in the rush": args.mails, "after the deadline": len(late_ids),
                        "seconds to set up": round(prepared - started, 1),
                        "seconds for the rush": round(rushed - prepared, 1)})
        print(json.dumps(figures, indent=1))
        judge.close()
        archive.close()


def count(judge: MailJudge, games: int, last_before: dict, late_ids: list[int], fall_ids: list[int]) -> dict:
    played_exactly = played_otherwise = misfiled_orders = 0
    misfiled_mails: set[int] = set()
    late = set(late_ids)
    for g in range(games):
        name = f"g{g:03d}"
        [spring] = [p for p in judge.service.history(name) if p.phase == "S1901M"]
        played = {o["order"].split(" - ")[0]: o["order"] for r in spring.results for o in r["outcomes"]}
        for (game, _power), orders in last_before.items():
            if game == name:
                exact = sum(played.get(unit) == order for unit, order in orders.items())
                played_exactly += exact
                played_otherwise += len(orders) - exact
        with sqlite3.connect(judge.config.data_dir / "games" / f"{name}.sqlite") as gdb:
            for source, orders in gdb.execute(
                    "SELECT s.source, (SELECT count(*) FROM orders o WHERE o.submission_id = s.id) FROM submissions s"
                    " JOIN phases p ON p.seq = s.phase_seq WHERE p.phase = 'F1901M' AND s.source LIKE 'mail:%'"):
                inbound = int(source.split(":")[1])
                if inbound in late:
                    misfiled_mails.add(inbound)
                    misfiled_orders += orders
    with sqlite3.connect(judge.config.db_path) as db:
        told_late = sum(1 for i in late_ids if "too late for Spring 1901" in _answer(db, i))
    fall_filed = sum(1 for g in range(games) if [o["written"] for o in judge.service.confirmation(
        f"g{g:03d}", "FRANCE").orders] == FALL["FRANCE"])
    return {"spring orders sent before the deadline": played_exactly + played_otherwise,
            "played exactly as last sent": played_exactly, "played otherwise": played_otherwise,
            "late mails answered too late": told_late,
            "late mails filed for fall (misfiled)": len(misfiled_mails),
            "their orders filed for fall (misfiled)": misfiled_orders,
            "fall mails": len(fall_ids), "fall mails filed for fall": fall_filed}


def _answer(db, inbound: int) -> str:
    """The text of the judge's answer to one stored mail ('' if none)."""
    [mid] = db.execute("SELECT message_id FROM inbound WHERE id = ?", [inbound]).fetchone()
    row = db.execute("SELECT raw FROM outbox_mail WHERE instr(raw, CAST(? AS BLOB)) > 0 LIMIT 1",
                     [f"In-Reply-To: <{mid}>"]).fetchone()
    if row is None:
        return ""
    return " ".join(message_from_bytes(row[0], policy=policy.default).get_body(("plain",)).get_content().split())


if __name__ == "__main__":
    main()
