"""One mail, one transaction per file (issue 15): every statement the real Dispatch and the daemon's
Processor run on judge.sqlite and the game files is traced (sqlite3's trace callback on every
connection opened), and each mail of tests/data/mail/one_transaction.json must commit judge.sqlite
exactly once, the game file at most as often as the case says, and the outbox rows of its reply
only in a commit made with FULL sync (so the outbox's sender, reading its own connection, can
never send a reply whose record a power cut could still undo)."""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mailjudge import MailJudge, mail

CASES = json.loads((Path(__file__).parent / "data" / "mail" / "one_transaction.json").read_text())["cases"]


@dataclass
class Traced:
    """What one file's connections did: COMMITs, and the sync level each commit with outbox rows had."""
    commits: int = 0
    outbox_commit_levels: list[str] = field(default_factory=list)
    level: str = "FULL"            # SQLite's default until a PRAGMA sets another
    outbox_pending: bool = False


class Tracer:
    """Wraps sqlite3.connect so that every connection opened from now on reports its statements."""

    def __init__(self, monkeypatch) -> None:
        self.files: dict[str, Traced] = {}
        self.on = False
        connect = sqlite3.connect

        def traced_connect(database, *args, **kwargs):
            conn = connect(database, *args, **kwargs)
            name = Path(str(database)).name
            conn.set_trace_callback(lambda statement: self.seen(name, statement))
            return conn
        monkeypatch.setattr(sqlite3, "connect", traced_connect)

    def seen(self, name: str, statement: str) -> None:
        words = " ".join(statement.split()).upper()
        per_file = self.files.setdefault(name, Traced())
        if words.startswith("PRAGMA SYNCHRONOUS="):
            per_file.level = words.split("=", 1)[1].strip()
        if not self.on:
            return
        if words.startswith("INSERT INTO OUTBOX "):
            per_file.outbox_pending = True
        elif words.startswith("COMMIT"):
            per_file.commits += 1
            if per_file.outbox_pending:
                per_file.outbox_commit_levels.append(per_file.level)
            per_file.outbox_pending = False
        elif words.startswith("ROLLBACK") and not words.startswith("ROLLBACK TO"):
            per_file.outbox_pending = False

    def start(self) -> None:
        for traced in self.files.values():
            traced.commits, traced.outbox_commit_levels, traced.outbox_pending = 0, [], False
        self.on = True


@pytest.fixture(scope="module")
def cases_run(tmp_path_factory):
    """Every case on one judge, in order (a module-scoped monkeypatch: the tracer wraps the judge's
    connections from its first one on)."""
    monkeypatch = pytest.MonkeyPatch()
    tracer = Tracer(monkeypatch)
    judge = MailJudge(tmp_path_factory.mktemp("one-transaction"))
    try:
        judge.seven_players()
        secret = {}
        for case in CASES:
            if case["to"] == "secret" and case["power"] not in secret:
                p = case["power"]
                reply = judge.reply_to(f"{p.lower()}@dip.test", f"signon {p[0]}alpha {p.lower()}-pw")
                secret[p] = str(reply.mail["Reply-To"])
        results = {}
        for case in CASES:
            p = case["power"]
            frm = f"{p.lower()}@dip.test"
            to = secret[p] if case["to"] == "secret" else "judge@dip.test"
            failures_before, outbox_before = guard_failures(judge), judge.last_outbox_row()
            judge.processor.archive.store(mail(frm, case["body"].format(pw=f"{p.lower()}-pw"), to=to),
                                          mail_from=frm, rcpt_tos=[to], via="smtp")   # intake's own commit
            tracer.start()
            judge.last = judge.processor.process_next()
            tracer.on = False
            [reply] = [s for s in judge.outbox(after=outbox_before) if frm in s.to]
            results[case["name"]] = (reply, {k: Traced(**vars(v)) for k, v in tracer.files.items()},
                                     judge.processor.archive.state_of(judge.last.id),
                                     guard_failures(judge) - failures_before)
        yield results
    finally:
        judge.close()
        monkeypatch.undo()


def guard_failures(judge: MailJudge) -> int:
    return judge.processor.archive.db.execute("SELECT count(*) FROM guard_failures").fetchone()[0]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_each_mail_is_one_transaction_of_the_judge_file(cases_run, case):
    reply, files, (state, outcome), guarded = cases_run[case["name"]]
    assert state == "processed", outcome
    assert bool(guarded) == case.get("guard", False), f"{guarded} wrong password(s) counted"
    assert case["reply"] in reply.body, reply.body
    judge_file = files["judge.sqlite"]
    assert judge_file.commits == 1, f"judge.sqlite committed {judge_file.commits} times for one mail"
    # the reply's outbox row committed once, and with FULL sync: durable before the sender sees it
    assert judge_file.outbox_commit_levels == ["FULL"]
    game_commits = files.get("alpha.sqlite", Traced()).commits
    assert game_commits <= case["game_commits"], f"alpha.sqlite committed {game_commits} times"


def test_a_mail_queued_on_its_own_commits_with_full_sync(tmp_path, monkeypatch):
    """outbox.enqueue outside any transaction, on a connection that runs NORMAL (as the daemon's
    does): its own commit is FULL, so the sender cannot see the mail before it is on disk."""
    from judge.mail.outbound import outbox
    from judge.storage.db import open_db

    tracer = Tracer(monkeypatch)
    db = open_db(tmp_path / "judge.sqlite", synchronous="NORMAL")
    outbox.prepare(db)
    tracer.start()
    raw = b"Message-ID: <one@judge.test>\r\nSubject: hi\r\n\r\nhello\r\n"
    assert outbox.enqueue(db, "one@judge.test", ["ann@example.org"], raw, envelope_from="judge@judge.test")
    traced = tracer.files["judge.sqlite"]
    assert traced.commits == 1 and traced.outbox_commit_levels == ["FULL"]
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 1      # the connection is NORMAL again after
    db.conn.close()


def test_a_dispatcher_writing_on_its_own_connection_gets_short_transactions(tmp_path):
    """A dispatcher that says it has no connection to this judge file, and writes it on one of its
    own, is not made to wait for a mail transaction it cannot join: the daemon falls back to the
    claim, the dispatch and the mark as separate commits."""
    from judge.config import load_config
    from judge.daemon import Processor
    from judge.storage.db import open_db, transaction

    config = load_config(None, env={}, overrides={"data_dir": str(tmp_path / "var"), "address": "judge@dip.test"})
    config.data_dir.mkdir(parents=True)
    own = open_db(config.db_path)
    own.conn.execute("PRAGMA busy_timeout=2000")      # a wait on the mail's lock fails the mail at once

    class OwnConnection:
        def judge_connection(self, path):
            return None

        def __call__(self, message, verdict, context):
            with transaction(own):
                own.execute("CREATE TABLE IF NOT EXISTS notes (inbound INTEGER)")
                own.execute("INSERT INTO notes VALUES (?)", [message.id])
            return "noted"

    processor = Processor(config, OwnConnection())
    try:
        stored = processor.archive.store(mail("ann@dip.test", "help"), mail_from="ann@dip.test",
                                         rcpt_tos=["judge@dip.test"], via="smtp")
        processor.process_next()
        assert processor.archive.state_of(stored.id) == ("processed", "noted")
        assert own.execute("SELECT inbound FROM notes").fetchall() == [(stored.id,)]
    finally:
        processor.close()
        own.conn.close()


def test_a_mail_whose_handling_fails_leaves_no_trace_in_either_file(tmp_path, monkeypatch):
    """A fault after the orders were stored (here: building the reply raises) rolls back the mail's
    game transaction and its judge.sqlite transaction alike: no orders, no reply, the mail pending
    for its retry, which then stores the orders once and sends one reply."""
    import time

    from judge.mail.commands.dispatch import Dispatch

    judge = MailJudge(tmp_path)
    try:
        judge.seven_players()
        answer = Dispatch.answer

        def broken(self, *args, **kwargs):
            raise RuntimeError("the reply could not be built")
        monkeypatch.setattr(Dispatch, "answer", broken)
        before = judge.last_outbox_row()
        stored = judge.processor.archive.store(mail("france@dip.test", "signon Falpha france-pw\nA Par - Bur"),
                                               mail_from="france@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
        judge.processor.process_next()
        state, outcome = judge.processor.archive.state_of(stored.id)
        assert state == "new" and "could not be built" in outcome
        assert judge.service.confirmation("alpha", "FRANCE").orders == ()
        assert judge.outbox(after=before) == []

        monkeypatch.setattr(Dispatch, "answer", answer)
        judge.processor.archive.clock = lambda: time.time() + 3600      # the retry is due
        judge.processor.process_next()
        assert judge.processor.archive.state_of(stored.id)[0] == "processed"
        assert [o["written"] for o in judge.service.confirmation("alpha", "FRANCE").orders] == ["A Par - Bur"]
        [reply] = judge.outbox(after=before)
        assert "read before" not in reply.text and "Army Paris -> Burgundy" in reply.body
    finally:
        judge.close()
