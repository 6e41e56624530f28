"""`judge serve` killed (SIGKILL) while it works through players' mail, then started again: every
mail acknowledged is handled, each once; each gets one reply; no order is stored twice."""
import json
import signal
import smtplib
import sqlite3

from judge.games.service import GameService

from mailjudge import POWERS, mail
from servers.net import wait_until
from servers.serve import rows, start_judge

ORDERS = {"AUSTRIA": "A Vie - Gal", "ENGLAND": "F Lon - Nth", "FRANCE": "A Par - Bur", "GERMANY": "A Mun - Ruh",
          "ITALY": "A Ven H", "RUSSIA": "A War - Ukr", "TURKEY": "A Con - Bul"}


def test_a_killed_judge_loses_nothing_and_does_nothing_twice(tmp_path):
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    service.create_game("alpha", master="gm")
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        service.join("alpha", p.lower(), [p])
    db = tmp_path / "var" / "judge.sqlite"
    process, port = start_judge(tmp_path)
    sent = 0
    try:
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            for round_ in range(3):
                for p in POWERS:
                    body = f"signon {p[0]}alpha {p.lower()}-pw\n{ORDERS[p]}\npress to all\nround {round_}\nendpress"
                    smtp.sendmail(f"{p.lower()}@dip.test", ["judge@dip.test"], mail(f"{p.lower()}@dip.test", body))
                    sent += 1
        # Kill it once it is under way: some mail handled, the rest acknowledged and waiting.
        wait_until(lambda: rows(db, "SELECT count(*) FROM inbound WHERE state = 'processed'")[0][0] >= 5,
                   what="the judge to be working through the mail")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    before = rows(db, "SELECT count(*) FROM inbound WHERE state = 'processed'")[0][0]
    print(f"killed with {before} of {sent} mails handled")   # shown with -s: how far the kill cut in
    process, port = start_judge(tmp_path)
    try:
        wait_until(lambda: rows(db, "SELECT count(*) FROM inbound WHERE state IN ('processed', 'failed')")[0][0]
                   == sent, what="every mail to be handled after the restart")
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    assert rows(db, "SELECT state, count(*) FROM inbound GROUP BY state") == [("processed", sent)]
    replies = rows(db, "SELECT recipients FROM outbox_mail WHERE instr(raw, CAST('In-Reply-To:' AS BLOB)) > 0")
    assert len(replies) == sent
    with sqlite3.connect(tmp_path / "var" / "games" / "alpha.sqlite") as game:
        sources = [r[0] for r in game.execute("SELECT source FROM submissions")]
        press = game.execute("SELECT body, count(*) FROM press GROUP BY body").fetchall()
    assert len(sources) == len(set(sources)) == sent
    assert press == [(f"round {r}", len(POWERS)) for r in range(3)]
    assert all(json.loads(r[0])[0].endswith("@dip.test") for r in replies)
