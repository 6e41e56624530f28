"""A real `judge serve` for the security suite (tests/test_security.py): a game under way with seven
players and a master, mail sent by SMTP from any loopback address, and what the judge queued in
return read from its outbox."""
from __future__ import annotations

import itertools
import json
import os
import re
import signal
import smtplib
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from judge.games.service import GameService

from mailjudge import POWERS
from servers.net import wait_until

JUDGE = Path(sys.executable).with_name("judge")
_ids = itertools.count(1)


@dataclass
class Out:
    to: list[str]
    mail: EmailMessage
    raw: bytes

    @property
    def text(self) -> str:
        """The body with its lines joined: for phrases the layout may wrap."""
        return " ".join(self.mail.get_body(("plain",)).get_content().split())


def compose(frm: str, body: str, *, to: str = "judge@dip.test", headers: dict | None = None,
            message_id: bool = True, html: bool = False) -> bytes:
    m = EmailMessage()
    m["From"], m["To"] = frm, to
    if "Subject" not in (headers or {}):
        m["Subject"] = "orders"
    if message_id:
        m["Message-ID"] = f"<sec{next(_ids)}.{os.getpid()}@players.test>"
    for k, v in (headers or {}).items():
        m[k] = v
    m.set_content(body, subtype="html" if html else "plain")
    return m.as_bytes(policy=policy.SMTP)


class ServedJudge:
    def __init__(self, tmp_path: Path) -> None:
        self.dir = tmp_path
        self.db = tmp_path / "var" / "judge.sqlite"
        service = GameService(tmp_path / "var")
        service.create_account("gm", "gm@dip.test", "gm-secret")
        service.create_account("spare", "spare@dip.test", "spare-pw")
        service.create_game("alpha", master="gm")
        for p in POWERS:
            service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
            service.join("alpha", p.lower(), [p])
        self.service = service
        env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
        env.update(JUDGE_SMTP_PORT="0", JUDGE_ADDRESS="judge@dip.test", JUDGE_SMTP_RATE_LIMIT="100000",
                   JUDGE_MASTER_ADDRESS="keeper@dip.test")
        self.process = subprocess.Popen([str(JUDGE), "serve"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        lines: list[str] = []
        while not lines or not lines[-1].startswith("Stop with"):
            line = self.process.stdout.readline()
            assert line, f"judge serve exited: {self.process.wait()} {self.process.stderr.read()}"
            lines.append(line)
        self.port = int(re.search(r"SMTP\s+127\.0\.0\.1:(\d+)", "".join(lines)).group(1))
        self.mail("nobody@dip.test", "list")      # the game-start notices go out with it: not in later answers

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.communicate(timeout=60)

    def rows(self, sql: str, args=()) -> list:
        with sqlite3.connect(self.db) as conn:
            return conn.execute(sql, args).fetchall()

    def outbox(self) -> dict[str, Out]:
        return {r[0]: Out(json.loads(r[1]), message_from_bytes(r[2], policy=policy.default), bytes(r[2]))
                for r in self.rows("SELECT message_id, recipients, raw FROM outbox_mail")}

    def send(self, raw: bytes, *, mail_from: str, rcpt: list[str] | None = None, peer: str = "127.0.0.2",
             client: str | None = None) -> list[Out]:
        """Send one mail by SMTP (from the loopback address `peer`; 127.0.0.1 is a relay's, by default
        trusted: then `client` is the computer it names with XFORWARD), wait until the judge has handled
        it and queued the notices it released (the courier runs after the mail's own commit, so a
        game started or a player ejected is announced just after the mail is marked processed), and
        return what it queued meanwhile."""
        before = set(self.outbox())
        stored = self.rows("SELECT count(*) FROM inbound")[0][0]
        with smtplib.SMTP("127.0.0.1", self.port, source_address=(peer, 0)) as smtp:
            if client is not None:
                smtp.ehlo("relay.dip.test")
                code, text = smtp.docmd("XFORWARD", f"ADDR={client} PORT=40000 NAME=[UNAVAILABLE]")
                assert code == 250, text
            smtp.sendmail(mail_from, rcpt or ["judge@dip.test"], raw)
        wait_until(lambda: self.rows("SELECT count(*) FROM inbound")[0][0] > stored
                   and not self.rows("SELECT 1 FROM inbound WHERE state IN ('new', 'claimed')")
                   and not self.rows("SELECT 1 FROM game_index WHERE pending_notices > 0"),
                   what="the judge to handle the mail")
        return [o for mid, o in self.outbox().items() if mid not in before]

    def mail(self, frm: str, body: str, *, mail_from: str | None = None, to: str = "judge@dip.test",
             rcpt: list[str] | None = None, peer: str = "127.0.0.2", client: str | None = None, **kw) -> list[Out]:
        return self.send(compose(frm, body, to=to, **kw), mail_from=mail_from or frm, rcpt=rcpt or [to], peer=peer,
                         client=client)

    def orders(self, power: str) -> list[str]:
        return [o["written"] for o in self.service.confirmation("alpha", power).orders]

    def secret_of(self, player: str) -> str:
        """The player's secret reply address for alpha, as the judge's reply to a sign-on carries it."""
        [reply] = [o for o in self.mail(f"{player}@dip.test", f"signon {player[0].upper()}alpha {player}-pw")
                   if o.to == [f"{player}@dip.test"] and o.mail["In-Reply-To"]]
        return str(reply.mail["Reply-To"])
