"""SET STANDIN through a real `judge serve`: the master turns it on by mail, Turkey resigns, and the
results mail of the phase the master then plays shows Turkey's orders given by the judge's stand-in."""
from __future__ import annotations

import smtplib
from email import message_from_bytes, policy

from judge.games.model import Settings
from judge.games.service import GameService
from mailjudge import POWERS, mail
from servers.net import wait_until
from servers.serve import rows, start_judge, stop


def send(port: int, frm: str, body: str) -> str:
    raw = mail(frm, body)
    with smtplib.SMTP("127.0.0.1", port) as smtp:
        smtp.sendmail(frm, ["judge@dip.test"], raw)
    return raw.split(b"Message-ID: <", 1)[1].split(b">", 1)[0].decode()


def answer(tmp_path, port: int, frm: str, body: str) -> str:
    """The judge's reply to this mail, its lines joined."""
    return " ".join(queued(tmp_path, f"In-Reply-To: <{send(port, frm, body)}>").split())


def queued(tmp_path, needle: str) -> str:
    """The body of the one mail the judge queued that holds `needle` (waiting for it)."""
    found = wait_until(lambda: rows(tmp_path / "var" / "judge.sqlite",
                                    "SELECT raw FROM outbox_mail WHERE instr(raw, CAST(? AS BLOB)) > 0",
                                    [needle]), what=repr(needle))
    return message_from_bytes(found[0][0], policy=policy.default).get_body(("plain",)).get_content()


def test_the_stand_in_plays_a_resigned_power_through_judge_serve(tmp_path):
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    service.create_game("alpha", master="gm", settings=Settings(pictures=False))
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        service.join("alpha", p.lower(), [p])
    process, port = start_judge(tmp_path, JUDGE_TICK_SECONDS="0.2")
    try:
        said = answer(tmp_path, port, "gm@dip.test", "signon Malpha gm-pw\nset standin on")
        assert "STANDIN of alpha: on (was off)" in said
        answer(tmp_path, port, "turkey@dip.test", "signon Talpha turkey-pw\nresign")
        send(port, "gm@dip.test", "signon Malpha gm-pw\nprocess")
        wait_until(lambda: service.status("alpha").phase != "S1901M", what="S1901M to be played")
        results = " ".join(queued(tmp_path, "Subject: alpha: Spring 1901 Movement results").split())
        assert "Army Constantinople -> Bulgaria (stand-in)" in results, results
        assert "the judge's stand-in gave their orders" in results
    finally:
        stop(process)
