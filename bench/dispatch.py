"""Benchmark: how long the dispatcher takes over one player's mail, from the archive to the queued reply.

    .venv/bin/python bench/dispatch.py [--messages 200]

Each message is `SIGNON Fgame password` and the power's three orders (the usual mail), or the same
orders sent to the player's secret reply address (no password). Prints the median and p95 per
message for both, and their ratio: the difference is the scrypt password check (16 MiB per guess,
on purpose). Goal: a player's answer is queued well within a second.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from mailjudge import POWERS, MailJudge, mail  # noqa: E402 - imported once sys.path names the repository

ORDERS = {"AUSTRIA": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb", "ENGLAND": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
          "FRANCE": "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mid", "GERMANY": "A Ber - Kie\nF Kie - Den\nA Mun - Ruh",
          "ITALY": "A Ven H\nA Rom - Apu\nF Nap - Ion", "RUSSIA": "A War - Ukr\nA Mos - StP\nF Sev - Bla",
          "TURKEY": "F Ank - Bla\nA Con - Bul\nA Smy - Arm"}


def timed(judge: MailJudge, frm: str, body: str, to: str) -> float:
    judge.processor.archive.store(mail(frm, body, to=to), mail_from=frm, rcpt_tos=[to], via="smtp")
    start = time.perf_counter()
    judge.processor.process_next()
    return time.perf_counter() - start


def signed_on(tmp: Path) -> tuple[MailJudge, dict[str, str]]:
    """A started game whose seven players have signed on once: each power's secret reply address."""
    judge = MailJudge(tmp)
    judge.seven_players()
    secret = {}
    for p in POWERS:
        first = judge.outbox()
        timed(judge, f"{p.lower()}@dip.test", f"signon {p[0]}alpha {p.lower()}-pw", "judge@dip.test")
        reply = next(s for s in judge.outbox() if s.message_id not in {f.message_id for f in first})
        secret[p] = str(reply.mail["Reply-To"])
    return judge, secret


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        judge, secret = signed_on(Path(tmp))
        with_password, with_address = [], []
        for i in range(args.messages):
            p = POWERS[i % len(POWERS)]
            with_password.append(timed(judge, f"{p.lower()}@dip.test",
                                       f"signon {p[0]}alpha {p.lower()}-pw\n{ORDERS[p]}", "judge@dip.test"))
            with_address.append(timed(judge, f"{p.lower()}@dip.test", ORDERS[p], secret[p]))
        judge.close()
    for name, values in (("SIGNON with password + 3 orders", with_password),
                         ("secret reply address + 3 orders", with_address)):
        values.sort()
        print(f"{name:<34} median {statistics.median(values) * 1000:7.1f} ms   "
              f"p95 {values[int(len(values) * 0.95) - 1] * 1000:7.1f} ms   ({len(values)} messages)")
    print(f"ratio password/reply address (medians): "
          f"{statistics.median(with_password) / statistics.median(with_address):.2f}")


if __name__ == "__main__":
    main()
