"""`judge serve` killed (SIGKILL) while it works through players' mail, then started again: every
mail acknowledged is handled, each once; each gets one reply; no order is stored twice."""
import json
import signal
import smtplib
import sqlite3

from judge.games.service import GameService
from judge.mail.intake import spool_format

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


def test_every_mail_acknowledged_by_group_commit_survives_a_kill(tmp_path):
    """Eight clients at once, so that their messages share commits; the judge is killed (SIGKILL) while
    they send. Every message that got its 250 is on disk after the kill (in intake's spool, or drained
    into the archive already), and in the archive exactly once after a restart, the spool then empty."""
    import threading
    from email.message import EmailMessage
    process, port = start_judge(tmp_path)
    db = tmp_path / "var" / "judge.sqlite"
    acked: list[str] = []
    lock = threading.Lock()

    def client(n: int) -> None:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
                for k in range(40):
                    m = EmailMessage()
                    m["From"], m["To"], m["Subject"] = f"p{n}@players.test", "judge@dip.test", "help"
                    m["Message-ID"] = f"<kill-{n}-{k}@players.test>"
                    m.set_content("help")
                    smtp.send_message(m)
                    with lock:
                        acked.append(f"kill-{n}-{k}@players.test")
        except (OSError, smtplib.SMTPException):
            pass        # the judge was killed under this client: what it acknowledged is what counts

    clients = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    try:
        for t in clients:
            t.start()
        wait_until(lambda: len(acked) >= 40, what="forty messages acknowledged")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    for t in clients:
        t.join(60)
    spool = tmp_path / "var" / "spool"

    def in_spool() -> list[str]:
        return [r.message_id for _, path in spool_format.segments(spool)
                for r in spool_format.read_segment(path, 0) or []]
    on_disk = [r[0] for r in rows(db, "SELECT message_id FROM inbound")] + in_spool()
    assert set(acked) <= set(on_disk)
    process, port = start_judge(tmp_path)       # drains the spool before it serves
    try:
        wait_until(lambda: set(acked) <= {r[0] for r in rows(db, "SELECT message_id FROM inbound")},
                   what="the spool to be drained")
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    stored = [r[0] for r in rows(db, "SELECT message_id FROM inbound")]
    assert set(acked) <= set(stored) and len(stored) == len(set(stored))
    assert spool_format.segments(spool) == [] and in_spool() == []     # a clean stop leaves the spool empty
