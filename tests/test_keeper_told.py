"""Issue 23 item 13: the keeper hears of outbound mail that failed for good (once per mail), and CLI
output to a closed pipe ends quietly. Through a real `judge serve`, a real relay, real pipes."""
from __future__ import annotations

import subprocess
import sqlite3
from email import message_from_bytes, policy

from judge.games.service import GameService

from servers.judge_process import JUDGE, JudgeServe, judge_env
from servers.net import wait_until
from servers.sink import Sink, SinkHandler
from test_game_trouble import send, serve_args

GONE = [f"gone{n}@players.test" for n in range(3)]


def test_the_keeper_is_told_once_of_each_mail_that_failed_for_good(tmp_path):
    handler = SinkHandler(refuse_rcpt={a: "550 5.1.1 No such user here" for a in GONE})
    with Sink(handler) as relay, JudgeServe(serve_args(tmp_path / "var", relay.port)) as judge:
        for address in GONE:
            send(judge.port, address, "HELP")
        notes = wait_until(lambda: [r for r in relay.received if r.rcpt_tos == ["keeper@dip.test"]]
                           if len([r for r in relay.received if r.rcpt_tos == ["keeper@dip.test"]]) == 3 else None,
                           what="three notes to the keeper")
    assert judge.stop() == 0
    texts = sorted(" ".join(message_from_bytes(n.raw, policy=policy.default).get_body(("plain",)).get_content()
                            .split()) for n in notes)
    for address, text in zip(GONE, texts):
        assert f"To: {address}" in text and "No such user here" in text
    with sqlite3.connect(tmp_path / "var" / "judge.sqlite") as conn:
        failed = conn.execute("SELECT count(*) FROM outbox WHERE state = 'failed'").fetchone()[0]
        notes_queued = conn.execute("SELECT count(*) FROM outbox WHERE recipients = '[\"keeper@dip.test\"]'"
                                    ).fetchone()[0]
    assert (failed, notes_queued) == (3, 3)


def test_cli_output_to_a_closed_pipe_ends_quietly(tmp_path):
    """`judge list | head` once head has gone: no BrokenPipeError traceback, the status SIGPIPE would give."""
    svc = GameService(tmp_path / "var")
    svc.create_account("gm", "gm@dip.test", "gm-pw")
    svc.create_game("alpha", master="gm")
    svc.judge.conn.close()
    for args in (["list"], ["status", "alpha"], ["history", "alpha"], ["status", "alpha", "--json"]):
        child = subprocess.Popen([str(JUDGE), *args, "--data", str(tmp_path / "var")], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, env=judge_env())
        child.stdout.close()             # the reader is gone before the judge writes a line (it is still importing)
        errors = child.stderr.read().decode()
        assert child.wait(60) == 141, (args, errors)
        assert errors == "", (args, errors)
