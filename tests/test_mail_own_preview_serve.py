"""A player's PREVIEW through a real `judge serve` over SMTP: the reply, to that player alone, says what
its orders would do with every other power holding and carries the picture; the game is not played
and nobody else gets mail (the in-process cases: tests/test_mail_own_preview.py)."""
import smtplib
from email import message_from_bytes, policy

from judge.games.model import Settings
from judge.games.service import GameService

from mailjudge import POWERS, mail
from servers.net import wait_until
from servers.serve import rows, start_judge, stop


def test_a_players_preview_through_judge_serve(tmp_path):
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    service.create_game("alpha", master="gm", settings=Settings(grace_hours=0))
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        service.join("alpha", p.lower(), [p])
    process, port = start_judge(tmp_path, JUDGE_TICK_SECONDS="0.2")
    try:
        db = tmp_path / "var" / "judge.sqlite"
        wait_until(lambda: not service.pending_notices("alpha"), what="the start notices to be mailed")
        before = rows(db, "SELECT count(*) FROM outbox")[0][0]
        raw = mail("france@dip.test", "signon Falpha france-pw\nA Par - Bur\nA Mar S A Par - Bur\npreview")
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            smtp.sendmail("france@dip.test", ["judge@dip.test"], raw)
        found = wait_until(lambda: rows(db, "SELECT recipients, raw FROM outbox_mail WHERE rowid > ?", [before]),
                           what="the reply to the preview")
    finally:
        stop(process)
    assert [r[0] for r in found] == ['["france@dip.test"]']
    reply = message_from_bytes(found[0][1], policy=policy.default)
    said = " ".join(reply.get_body(("plain",)).get_content().split())
    assert "PREVIEW: what the orders of France standing now would do in Spring 1901 Movement" in said
    assert "Army Marseilles supports Army Paris -> Burgundy support given" in said
    assert "France: fleet in Brest, army in Burgundy, army in Marseilles" in said
    pictures = [p for p in reply.iter_attachments() if p.get_content_type() == "image/png"]
    assert [p.get_filename() for p in pictures] == ["alpha-S1901M-preview.png"]
    assert service.status("alpha").phase == "S1901M"
    assert [h.processed_at for h in service.history("alpha")] == [None]
