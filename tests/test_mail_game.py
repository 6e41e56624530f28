"""A whole game year by mail, through `judge serve` in-process: real SMTP in (smtplib and swaks),
an SMTP sink as the relay out, the games on disk, and the daemon restarted partway.

Seven players register and join by mail; in spring one sends HTML-only mail, one answers the
judge's mail at its secret reply address with the quote below, one signs off with a signature,
one gets the password wrong first, a stranger forges Russia's address, England and France
exchange press, and Turkey sends nothing and falls into civil disorder at the deadline. The
daemon stops and starts again before the autumn; the year ends with builds and spring 1902.
"""
import shutil
import smtplib
import subprocess
from email import message_from_bytes, policy
from email.utils import make_msgid

import pytest

from judge.config import load_config
from judge.games.clock import ManualClock
from judge.games.service import GameService
from judge.mail.serve_hooks import build_hooks

from mailjudge import POWERS, mail
from servers.net import wait_until
from servers.running import DaemonThread
from servers.sink import Sink

PASSWORDS = {p: f"{p.lower()}-Secret9" for p in POWERS}


class Table:
    """The players' side: send mail to the running judge and read what came back through the sink."""

    def __init__(self, sink: Sink):
        self.sink = sink
        self.port = 0

    def mails(self, to: str | None = None):
        out = [message_from_bytes(r.raw, policy=policy.default) for r in self.sink.received]
        return [m for m in out if to is None or to in str(m["To"])]

    def send(self, frm: str, body: str, *, to: str = "judge@dip.test", html: bool = False,
             subject: str = "orders", headers: dict | None = None):
        """Send by SMTP and wait for the judge's reply to this mail; return it."""
        raw = mail(frm, body, to=to, html=html, subject=subject, headers=headers)
        mid = message_from_bytes(raw, policy=policy.default)["Message-ID"]
        with smtplib.SMTP("127.0.0.1", self.port) as smtp:
            smtp.sendmail(frm, [to], raw)
        return self.reply_to(mid)

    def reply_to(self, mid: str):
        found = wait_until(lambda: [m for m in self.mails() if m["In-Reply-To"] == mid],
                           what=f"the reply to {mid}")
        assert len(found) == 1
        return found[0]


def text(message) -> str:
    return message.get_body(("plain",)).get_content()


def judge_config(tmp_path, sink):
    return load_config(env={}, overrides={
        "data_dir": tmp_path / "var", "smtp.port": 0, "address": "judge@dip.test",
        "master_address": "keeper@dip.test", "relay.host": "127.0.0.1", "relay.port": sink.port,
        "tick_seconds": 0.1, "outbox.poll_seconds": 0.05, "smtp.rate_limit": 1000})


def running(config, service):
    dispatch, tick = build_hooks(config, service)
    # The tick plays what is due at the moment the daemon hands it: here the test's manual clock's.
    return DaemonThread(config, dispatch=dispatch, tick=lambda now: tick(service.clock().timestamp()))


def phase_is(service, phase):
    return lambda: service.status("alpha").phase == phase


@pytest.mark.skipif(shutil.which("swaks") is None, reason="swaks is not installed (bin/setup installs it as root)")
def test_a_game_year_by_mail(tmp_path):
    clock = ManualClock("2026-03-02T12:00:00Z")
    with Sink() as sink:
        table = Table(sink)
        config = judge_config(tmp_path, sink)
        service = GameService(config.data_dir, clock=clock)
        with running(config, service) as judge:
            table.port = judge.port
            # -- forming, by mail; the master registers with swaks, an independent client ---------
            swaks = subprocess.run(
                ["swaks", "--server", f"127.0.0.1:{judge.port}", "--from", "gm@dip.test", "--to", "judge@dip.test",
                 "--header", "Subject: new game", "--header", "Message-Id: <gm-1@dip.test>",
                 "--body", "REGISTER gm gm-Secret9 Europe/London\nCREATE alpha gm-Secret9"],
                capture_output=True, text=True, timeout=60)
            assert swaks.returncode == 0, swaks.stdout
            created = table.reply_to("<gm-1@dip.test>")
            assert "created alpha" in text(created)
            for p in POWERS:
                r = table.send(f"{p.lower()}@dip.test",
                               f"REGISTER {p.lower()} {PASSWORDS[p]} Asia/Tokyo\nJOIN alpha {PASSWORDS[p]} {p}")
                assert "joined alpha" in text(r)
            wait_until(lambda: len([m for m in table.mails() if "Reply-To" in m and "alpha" in str(m["Subject"])
                                    and m["In-Reply-To"] is None]) >= 8, what="game start notices")
            assert service.status("alpha").status == "active"
            start = [m for m in table.mails("germany@dip.test") if m["In-Reply-To"] is None][0]
            germany_secret = str(start["Reply-To"])

            # -- spring 1901: messy orders --------------------------------------------------------
            r = table.send("france@dip.test", f"signon Falpha {PASSWORDS['FRANCE']}\nA Par-Bur\nA Mar - Spa\n"
                                              "F Bre-Mid\n\n--\nFrançois\nSent from my phone")
            assert "Army Paris -> Burgundy" in text(r)
            assert "France is in: every unit that needs an order has a valid one" in text(r)
            r = table.send("italy@dip.test", f"<html><body><p>SIGNON Ialpha {PASSWORDS['ITALY']}</p>"
                                             "<p>A Ven H<br>A Rom - Apu<br>F Nap - Ion</p></body></html>", html=True)
            assert "Fleet Naples -> Ionian Sea" in text(r)
            quoted = ("A Mun - Ruh\nA Ber - Kie\nF Kie - Den\n\nOn Mon, 2 Mar 2026, Diplomacy judge wrote:\n"
                      + "".join(f"> {line}\n" for line in text(start).splitlines()))
            r = table.send("germany@dip.test", quoted, to=germany_secret, subject="Re: alpha")
            assert "Fleet Kiel -> Denmark" in text(r) and "ERROR" not in text(r)
            r = table.send("austria@dip.test", "signon Aalpha austria-wrong\nA Bud - Ser")
            assert "password is not right" in text(r)
            r = table.send("austria@dip.test", f"signon Aalpha {PASSWORDS['AUSTRIA']}\nA Bud - Ser\nA Vie H\nF Tri H")
            assert "Army Budapest -> Serbia" in text(r)
            forged = table.send("russia@dip.test", "A War - Gal\nF Sev - Bla",
                                headers={"Sender": "mallory@evil.test"})
            assert "sign on first" in text(forged)
            assert service.confirmation("alpha", "RUSSIA").orders == ()
            table.send("russia@dip.test",
                       f"signon Ralpha {PASSWORDS['RUSSIA']}\nF StP/sc - Bot\nA War H\nA Mos H\nF Sev H")
            r = table.send("england@dip.test", f"signon Ealpha {PASSWORDS['ENGLAND']}\nF Lon - Nth\nF Edi - Nwg\n"
                                               "A Lvp - Yor\npress to France\nLet us keep the Channel empty.\nendpress")
            assert "press sent to France" in text(r)
            press = wait_until(lambda: [m for m in table.mails("france@dip.test") if "Channel empty" in text(m)],
                               what="England's press to France")
            answer = table.send("france@dip.test", "press to England\nAgreed.\nendpress",
                                to=str(press[0]["Reply-To"]), subject="Re: press")
            assert "press sent to England" in text(answer)
            wait_until(lambda: [m for m in table.mails("england@dip.test") if "Agreed." in text(m)],
                       what="France's press to England")
            # Turkey sends nothing: at the deadline (and its grace) Turkey is in civil disorder.
            clock.advance(hours=61)
            wait_until(phase_is(service, "F1901M"), what="spring 1901 to be played")
        # -- the daemon stops and starts again, on the same files ---------------------------------
        service = GameService(config.data_dir, clock=clock)
        with running(config, service) as judge:
            table.port = judge.port
            results = wait_until(lambda: [m for m in table.mails("turkey@dip.test")
                                          if "civil disorder" in text(m).lower()], what="Turkey's notices")
            assert results
            assert service.status("alpha").powers["TURKEY"].status == "civil disorder"
            autumn = {
                "FRANCE": "F Mid - Por\nA Spa H\nA Bur H", "GERMANY": "A Kie - Hol\nF Den H\nA Ruh H",
                "ITALY": "F Ion - Tun\nA Ven H\nA Apu H", "ENGLAND": "F Nwg - Nwy\nF Nth H\nA Yor H",
                "AUSTRIA": "A Ser H\nA Vie H\nF Tri H", "RUSSIA": "F Bot - Swe\nF Sev - Rum\nA War H\nA Mos H",
                "TURKEY": "F Ank - Bla\nA Con - Bul\nA Smy H",
            }
            for p, orders in autumn.items():
                r = table.send(f"{p.lower()}@dip.test", f"signon {p[0]}alpha {PASSWORDS[p]}\n{orders}")
                assert "ERROR" not in text(r), text(r)
            wait_until(phase_is(service, "W1901A"), what="autumn 1901 to be played")
            r = table.send("france@dip.test", f"signon Falpha {PASSWORDS['FRANCE']}\nbuild A Par\nbuild F Bre")
            assert "Build army Paris" in text(r) or "Build Army Paris" in text(r), text(r)
            clock.advance(hours=37)
            wait_until(phase_is(service, "S1902M"), what="winter 1901 to be played")
            wait_until(lambda: service.pending_notices("alpha") == [], what="every notice queued")
            wait_until(lambda: judge.daemon and _all_sent(config.db_path), what="the outbox to empty")

    everything = [m for m in (message_from_bytes(r.raw, policy=policy.default) for r in sink.received)]
    for p, pw in PASSWORDS.items():
        assert all(pw not in r.raw.decode("utf-8", "replace") for r in sink.received), p
    assert all("austria-wrong" not in r.raw.decode("utf-8", "replace") for r in sink.received)
    ids = [str(m["Message-ID"]) for m in everything]
    assert len(ids) == len(set(ids)), "a mail was sent twice"
    assert all(m["Auto-Submitted"] in ("auto-replied", "auto-generated") for m in everything)
    france_results = [m for m in everything if "france@dip.test" in str(m["To"]) and m["In-Reply-To"] is None
                      and "Reply-To" in m]
    assert len(france_results) >= 4      # start, spring, autumn and winter results at least
    position = service.status("alpha").position
    assert service.status("alpha").powers["FRANCE"].centres == 5
    assert position is not None


def _all_sent(db_path) -> bool:
    import sqlite3
    with sqlite3.connect(db_path) as conn:
        return conn.execute("SELECT count(*) FROM outbox WHERE state != 'sent'").fetchone()[0] == 0


def make_id() -> str:
    return make_msgid(domain="players.test")
