"""A mail judge in-process for tests: the daemon's Processor with the real Dispatch over files in
tmp_path, a manual clock, and helpers to send a mail and read what the judge queued in return."""
from __future__ import annotations

import itertools
from collections.abc import Iterator
import json
import sqlite3
from dataclasses import dataclass
from functools import cached_property
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from judge.config import load_config
from judge.daemon import Processor
from judge.games.clock import ManualClock
from judge.games.model import Settings
from judge.games.service import GameService
from judge.language.commands import CommandReader
from judge.mail.commands.dispatch import Dispatch
from judge.mail.words.reports import Reports
from judge.mail.outbound.courier import Courier
from judge.storage.open_files import games_kept_open
from judge.storage.db import open_db

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
HOLDS = {"AUSTRIA": "A VIE H", "ENGLAND": "A LVP H", "FRANCE": "A PAR H", "GERMANY": "A BER H",
         "ITALY": "A ROM H", "RUSSIA": "A MOS H", "TURKEY": "A CON H"}     # an order for each power's first unit
_ids = itertools.count(1)


@dataclass
class Sent:
    message_id: str
    to: list[str]
    raw: bytes

    @cached_property
    def mail(self) -> EmailMessage:
        """Parsed on first use: most tests read a few of the mails a step queues (the reply, not every
        notice), and parsing each one queued was a tenth of a long game's time."""
        return message_from_bytes(self.raw, policy=policy.default)

    @property
    def body(self) -> str:
        return self.mail.get_body(("plain",)).get_content()

    @property
    def text(self) -> str:
        """The body with its lines joined: for phrases the layout may wrap."""
        return " ".join(self.body.split())

    @property
    def subject(self) -> str:
        return str(self.mail["Subject"])


def mail(frm: str, body: str, *, to: str = "judge@dip.test", subject: str = "orders", html: bool = False,
         headers: dict | None = None, in_reply_to: str | None = None) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = frm, to, subject
    m["Message-ID"] = f"<t{next(_ids)}.{abs(hash(body)) % 10**8}@players.test>"
    if in_reply_to:
        m["In-Reply-To"] = in_reply_to
    for k, v in (headers or {}).items():
        m[k] = v
    if html:
        m.set_content(body, subtype="html")
    else:
        m.set_content(body)
    return m.as_bytes(policy=policy.SMTP)      # CRLF line ends, as SMTP carries them


# Built once per test process and shared by every MailJudge in it: the command parser's LALR tables,
# the order readers (one per variant) and the compiled templates. Each is read-only once built, and
# making them again for each of some thousand tests cost more than the tests themselves.
_COMMANDS: CommandReader | None = None
_REPORTS: Reports | None = None
_ORDER_READERS: dict = {}


def _shared_commands() -> CommandReader:
    global _COMMANDS
    if _COMMANDS is None:
        _COMMANDS = CommandReader()
    return _COMMANDS


def _shared_reports() -> Reports:
    global _REPORTS
    if _REPORTS is None:
        _REPORTS = Reports()
    return _REPORTS


class MailJudge:
    def __init__(self, tmp_path: Path, *, courier=None, start="2026-03-02T12:00:00Z"):
        self.config = load_config(None, env={}, overrides={
            "data_dir": str(tmp_path / "var"), "address": "judge@dip.test", "master_address": "keeper@dip.test"})
        self.clock = ManualClock(start)
        self.service = GameService(self.config.data_dir, clock=self.clock, judge_synchronous="NORMAL",
                                   keep_open=games_kept_open())    # as judge serve makes it (judge.mail.serve_hooks)
        self.dispatch = Dispatch(self.service, self.config, reports=_shared_reports(), courier=courier,
                                 commands=_shared_commands())
        self.dispatch._readers = _ORDER_READERS
        self.processor = Processor(self.config, self.dispatch, on_bounce=self.dispatch.bounced)

    def close(self) -> None:
        self.processor.close()

    def outbox(self, after: int = 0) -> list[Sent]:
        """The mail queued so far, or only what was queued after outbox row `after`."""
        with sqlite3.connect(self.config.db_path) as conn:
            rows = conn.execute("SELECT message_id, recipients, raw FROM outbox_mail WHERE rowid > ?"
                                " ORDER BY created_at, rowid", (after,)).fetchall()
        return [Sent(r[0], json.loads(r[1]), r[2]) for r in rows]

    def last_outbox_row(self) -> int:
        with sqlite3.connect(self.config.db_path) as conn:
            return conn.execute("SELECT coalesce(max(rowid), 0) FROM outbox").fetchone()[0]

    def send(self, frm: str, body: str, **kw) -> list[Sent]:
        """Store the mail as intake would, process it, and return the mail it queued (reading only the
        new outbox rows: parsing the whole outbox per mail made long games by mail slow to test)."""
        before = self.last_outbox_row()
        rcpt = kw.get("to", "judge@dip.test")
        self.processor.archive.store(mail(frm, body, **kw), mail_from=frm, rcpt_tos=[rcpt], via="smtp")
        self.last = self.processor.process_next()
        return self.outbox(after=before)

    def reply_to(self, frm: str, body: str, **kw) -> Sent:
        replies = [s for s in self.send(frm, body, **kw) if frm in s.to]
        assert len(replies) == 1, [s.to for s in replies]
        return replies[0]

    def seven_players(self, game: str = "alpha") -> None:
        """A master and seven registered players, each in the power they asked for (by the service)."""
        self.service.create_account("gm", "gm@dip.test", "gm-secret")
        self.service.create_game(game, master="gm")
        for p in POWERS:
            self.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw", time_zone="Asia/Tokyo")
            self.service.join(game, p.lower(), [p])


# -- a game "alpha" mastered by gm, with seven players, played by mail and by the tick -------------

def judge_with_master(tmp_path: Path) -> Iterator[MailJudge]:
    """For a module's fixture: a mail judge in-process with the master's account, gm (gm-secret)."""
    judge = MailJudge(tmp_path)
    judge.service.create_account("gm", "gm@dip.test", "gm-secret")
    yield judge
    judge.close()


def start(j: MailJudge, **settings: Any) -> None:
    """Game alpha, with these settings, each power's player (france, france-pw ...) in its seat; the
    start mail delivered and set aside."""
    j.service.create_game("alpha", master="gm", settings=Settings(grace_hours=2, pictures=False, **settings))
    for p in POWERS:
        j.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        j.service.join("alpha", p.lower(), [p])
    deliver(j)


def deliver(j: MailJudge) -> list[Sent]:
    """The courier's run, as the daemon's tick makes it: the pending notices into the outbox."""
    before = j.last_outbox_row()
    Courier(j.service, j.config).run(open_db(j.config.db_path))
    return j.outbox(after=before)
