"""Writes tests/data/upgrade/v1/: a data directory made by an older judge, for tests/test_ops_upgrade.py.

Run it with that judge's code first on the path, e.g. for commit c63e4f1 (games schema 1, judge
index schema 1; mail 2, outbox 1):

    git archive c63e4f1 | tar -x -C /tmp/judge-v1
    PYTHONPATH=/tmp/judge-v1 .venv/bin/python tests/data/upgrade/make_v1.py tests/data/upgrade/v1

It makes a standard game "alpha" in Spring 1901 with France's orders in and one mail in the archive
and the outbox, and a game "beta" still forming. Files are left without -wal/-shm beside them.
"""
import shutil
import sqlite3
import sys
from pathlib import Path

import judge
from judge.config import OutboxConfig, RelayConfig
from judge.engine import load_variant
from judge.engine.notation import parse_order
from judge.games.clock import ManualClock
from judge.games.service import GameService
from judge.mail.outbound import outbox
from judge.mail.intake.archive import Archive

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]

print(f"writing with the judge in {Path(judge.__file__).parent}")
target = Path(sys.argv[1])
if target.exists():
    sys.exit(f"{target} exists; remove it first")
svc = GameService(target, clock=ManualClock("2026-03-02T12:00:00Z"))
svc.create_account("gm", "gm@example.org", "gm-secret", time_zone="America/New_York")
for power in POWERS:
    name = f"p-{power.lower()}"
    svc.create_account(name, f"{name}@example.org", f"secret-{name}", time_zone="Europe/Berlin")
svc.create_game("alpha", master="gm", seed=7)
for power in POWERS:
    svc.join("alpha", f"p-{power.lower()}", [power])
standard = load_variant("standard")
orders = [(t, parse_order(standard, t)) for t in ("A PAR - BUR", "A MAR - SPA", "F BRE - MAO")]
svc.submit_orders("alpha", "FRANCE", orders, account="p-france", source="inbound:1")
svc.create_game("beta", master="gm", seed=8)
svc.join("beta", "p-italy", ["ITALY"])

archive = Archive(target / "judge.sqlite")
archive.store(b"From: p-france@example.org\r\nSubject: orders\r\nMessage-ID: <v1-1@example.org>\r\n\r\n"
              b"A PAR-BUR\r\n", mail_from="p-france@example.org", rcpt_tos=["judge@example.org"], via="smtp")
archive.mark_processed(archive.claim_next().id, "orders for alpha")
outbox.prepare(archive.db)
outbox.enqueue(archive.db, "v1-reply@example.org", ["p-france@example.org"],
               b"Message-ID: <v1-reply@example.org>\r\nSubject: orders received\r\n\r\nOK\r\n",
               envelope_from="judge@example.org")
archive.close()
sender = outbox.Sender(target / "judge.sqlite", RelayConfig(), OutboxConfig(), target / "outbox")
sender.deliver_due()
sender.close()
svc.judge.conn.close()

for path in [target / "judge.sqlite", *sorted((target / "games").glob("*.sqlite"))]:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("VACUUM")
    conn.close()
shutil.rmtree(target / "outbox")     # the .eml the old judge wrote: not part of the fixture
