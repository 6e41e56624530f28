"""A real `judge serve` for the security suite (tests/test_security.py), started once for the whole
module, and on it one `Table` per test: the test's own game under way with seven players, a master
and a spare, its own addresses and its own computers, so no test sees another's mail or counts.
Mail is sent by SMTP from any loopback address, and what the judge queued in return is read from
its outbox."""
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
    """`judge serve` on a data directory of its own, shared by a module's tests: each lays its own
    `table()` on it."""

    def __init__(self, tmp_path: Path) -> None:
        self.dir = tmp_path
        self.db = tmp_path / "var" / "judge.sqlite"
        self.service = GameService(tmp_path / "var")
        self.tables = itertools.count(1)
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

    def table(self) -> Table:
        return Table(self, next(self.tables))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.communicate(timeout=60)

    def rows(self, sql: str, args=()) -> list:
        with sqlite3.connect(self.db) as conn:
            return conn.execute(sql, args).fetchall()

    def last_queued(self) -> int:
        """The outbox's newest row: what is queued after it is new."""
        return self.rows("SELECT ifnull(max(rowid), 0) FROM outbox")[0][0]

    def queued_after(self, rowid: int) -> list[Out]:
        """The mail queued after outbox row `rowid`, in the order queued."""
        return [Out(json.loads(r[0]), message_from_bytes(r[1], policy=policy.default), bytes(r[1]))
                for r in self.rows("SELECT recipients, raw FROM outbox_mail WHERE rowid > ? ORDER BY rowid",
                                   [rowid])]

    def send(self, raw: bytes, *, mail_from: str, rcpt: list[str], peer: str, client: str | None) -> list[Out]:
        """Send one mail by SMTP (from the loopback address `peer`; 127.0.0.1 is a relay's, by default
        trusted: then `client` is the computer it names with XFORWARD), wait until the judge has handled
        it and queued the notices it released (the courier runs after the mail's own commit, so a
        game started or a player ejected is announced just after the mail is marked processed), and
        return what it queued meanwhile."""
        before = self.last_queued()
        stored = self.rows("SELECT count(*) FROM inbound")[0][0]
        with smtplib.SMTP("127.0.0.1", self.port, source_address=(peer, 0)) as smtp:
            if client is not None:
                smtp.ehlo("relay.dip.test")
                code, text = smtp.docmd("XFORWARD", f"ADDR={client} PORT=40000 NAME=[UNAVAILABLE]")
                assert code == 250, text
            smtp.sendmail(mail_from, rcpt, raw)
        wait_until(lambda: self.rows("SELECT count(*) FROM inbound")[0][0] > stored
                   and not self.rows("SELECT 1 FROM inbound WHERE state IN ('new', 'claimed')")
                   and not self.rows("SELECT 1 FROM game_index WHERE pending_notices > 0"),
                   what="the judge to handle the mail")
        return self.queued_after(before)


@dataclass(frozen=True)
class Person:
    account: str
    address: str
    password: str


class Table:
    """One test's own world on the shared judge, numbered n: game alpha<n> under way (and beta<n>'s
    name free), mastered by gm<n>, with france<n> ... turkey<n> each in their power and spare<n> on
    the side; passwords france-<n>-pw and gm-<n>-secret; every address under t<n>.test (the players'
    at dip.t<n>.test, a stranger's at evil.t<n>.test); every computer 127.<n>.x.y, or 10.<n>.0.x
    when a relay names it. The judge counts wrong passwords per account, address and computer, and
    answers an unproven address only so often: nothing here is another test's."""

    def __init__(self, judge: ServedJudge, n: int) -> None:
        self.judge, self.n = judge, n
        self.laid = judge.last_queued()
        self.service = judge.service
        self.game, self.other = f"alpha{n}", f"beta{n}"
        self.gm = self._account("gm", f"gm-{n}-secret")
        self.spare = self._account("spare", f"spare-{n}-pw")
        self.service.create_game(self.game, master=self.gm.account)
        self.players: dict[str, Person] = {}
        for p in POWERS:
            self.players[p.lower()] = self._account(p.lower(), f"{p.lower()}-{n}-pw")
            self.service.join(self.game, self.players[p.lower()].account, [p])
        self.mail(self.at("nobody"), "list")      # the game-start notices go out with it: not in later answers

    def _account(self, name: str, password: str) -> Person:
        person = Person(f"{name}{self.n}", self.at(name, "dip"), password)
        self.service.create_account(person.account, person.address, person.password)
        return person

    def __getattr__(self, power: str) -> Person:
        """table.france: the player of France."""
        try:
            return self.__dict__["players"][power]
        except KeyError:
            raise AttributeError(power) from None

    def at(self, name: str, host: str = "evil") -> str:
        return f"{name}@{host}.t{self.n}.test"

    def peer(self, host: int, subnet: int = 0) -> str:
        """A computer of this table's, connecting to the judge itself (127.0.0.1 is the relay: no table's)."""
        return f"127.{self.n}.{subnet}.{host}"

    def client(self, host: int) -> str:
        """A computer of this table's that the relay names."""
        return f"10.{self.n}.0.{host}"

    def send(self, raw: bytes, *, mail_from: str, rcpt: list[str] | None = None, peer: str | None = None,
             client: str | None = None) -> list[Out]:
        return self.judge.send(raw, mail_from=mail_from, rcpt=rcpt or ["judge@dip.test"],
                               peer=peer or self.peer(2), client=client)

    def mail(self, frm: str, body: str, *, mail_from: str | None = None, to: str = "judge@dip.test",
             rcpt: list[str] | None = None, peer: str | None = None, client: str | None = None, **kw) -> list[Out]:
        return self.send(compose(frm, body, to=to, **kw), mail_from=mail_from or frm, rcpt=rcpt or [to], peer=peer,
                         client=client)

    def queued(self) -> list[Out]:
        """Every mail the judge queued since the table was laid (the module's tests run one at a time)."""
        return self.judge.queued_after(self.laid)

    def orders(self, power: str, game: str | None = None) -> list[str]:
        return [o["written"] for o in self.service.confirmation(game or self.game, power).orders]

    def secret_of(self, player: Person) -> str:
        """The player's secret reply address for the table's game, as the judge's reply to a sign-on carries it."""
        letter = player.account[0].upper()
        [reply] = [o for o in self.mail(player.address, f"signon {letter}{self.game} {player.password}")
                   if o.to == [player.address] and o.mail["In-Reply-To"]]
        return str(reply.mail["Reply-To"])
