"""The players' safety net through a real `judge serve` over SMTP, in a game with fog of war:
a misorder warned of with the orders kept, the confirmed digest repeated in the results (each
power's own only: under fog a digest of a few orders could be undone by trying them all), and
the deadline as a calendar file on the start mail and for CALENDAR game.

The cases one by one are in tests/test_mail_player_safety.py (the in-process judge)."""
from __future__ import annotations

import re
import smtplib
from email import message_from_bytes, policy

import icalendar

from judge.games.model import Settings
from judge.games.service import GameService

from mailjudge import POWERS, mail
from servers.net import wait_until
from servers.serve import rows, start_judge, stop

GAME = "veil"


def send(port: int, frm: str, body: str) -> str:
    raw = mail(frm, body)
    with smtplib.SMTP("127.0.0.1", port) as smtp:
        smtp.sendmail(frm, ["judge@dip.test"], raw)
    return raw.split(b"Message-ID: <", 1)[1].split(b">", 1)[0].decode()


def queued(tmp_path, where: str, *params):
    found = wait_until(lambda: rows(tmp_path / "var" / "judge.sqlite", f"SELECT raw FROM outbox_mail WHERE {where}",
                                    params), what=where)
    return [message_from_bytes(r[0], policy=policy.default) for r in found]


def reply(tmp_path, message_id: str):
    (found,) = queued(tmp_path, "instr(raw, CAST(? AS BLOB)) > 0", f"In-Reply-To: <{message_id}>")
    return found


def to_with_subject(tmp_path, address: str, ending: str):
    def found():
        return [m for m in (message_from_bytes(r[0], policy=policy.default) for r in rows(
            tmp_path / "var" / "judge.sqlite", "SELECT raw FROM outbox_mail WHERE recipients LIKE ?",
            [f'%"{address}"%'])) if ending in str(m["Subject"])]
    (got,) = wait_until(found, what=f"{ending!r} for {address}")
    return got


def text(message) -> str:
    return " ".join(message.get_body(("plain",)).get_content().split())


def event(message):
    (part,) = [p for p in message.iter_attachments() if p.get_content_type() == "text/calendar"]
    (found,) = icalendar.Calendar.from_ical(part.get_payload(decode=True)).walk("VEVENT")
    return found


def digests(message) -> dict[str, str]:
    body = message.get_body(("plain",)).get_content()
    return dict(re.findall(r"^  (\S+) +([0-9a-f]{10})\s*$", body.split("Digests of the orders")[1], re.M))


def test_warnings_digests_and_calendar_through_judge_serve(tmp_path):
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    service.create_game(GAME, master="gm", settings=Settings(fog=True, time_zone="Europe/Paris"))
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        service.join(GAME, p.lower(), [p])
    process, port = start_judge(tmp_path, JUDGE_TICK_SECONDS="0.2")
    try:
        start = event(to_with_subject(tmp_path, "france@dip.test", "has started: you play France"))
        assert "Europe/Paris" in str(start["description"])
        confirmed = text(reply(tmp_path, send(port, "france@dip.test",
                                              f"signon F{GAME} france-pw\nA Par - Bur\nA Mar - Bur\nF Bre - Mao")))
        assert "your units in Marseilles and Paris are all ordered to Burgundy" in confirmed
        assert "Army Marseilles -> Burgundy" in confirmed.split("Orders standing now:")[1]    # kept
        digest = re.search(r"Digest of these orders: ([0-9a-f]{10})", confirmed).group(1)
        asked = reply(tmp_path, send(port, "france@dip.test", f"signon F{GAME} france-pw\ncalendar {GAME}"))
        again = event(asked)
        # the same event, a version no older (SEQUENCE counts seconds: both may come within one)
        assert str(again["uid"]) == str(start["uid"]) and int(again["sequence"]) >= int(start["sequence"])
        assert again.decoded("dtstart") == start.decoded("dtstart")
        send(port, "gm@dip.test", f"signon M{GAME} gm-pw\nprocess")
        mine = digests(to_with_subject(tmp_path, "france@dip.test", "Spring 1901 Movement results"))
        assert mine == {"France": digest}                     # its own, and no other power's
        everyone = digests(to_with_subject(tmp_path, "gm@dip.test", "Spring 1901 Movement results"))
        assert everyone["France"] == digest and len(everyone) == 7
    finally:
        stop(process)
