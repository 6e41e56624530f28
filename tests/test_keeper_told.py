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
    for address, text in zip(GONE, texts, strict=True):
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


SPOOL_ON_A_FULL_DISK = """
import json, resource, signal, sys
from pathlib import Path
from judge.mail.intake.archive import Arrival
from judge.mail.intake.spool import Spool
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)       # a write past the limit fails (EFBIG), as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
directory = Path(sys.argv[1])
spool = Spool(directory, segment_bytes=64 << 10)
big = b"Message-ID: <big@players.test>\\r\\n\\r\\n" + b"x" * (3 << 19)
outcomes = [spool.add_many([Arrival(big, "ann@players.test", ("judge@dip.test",), "smtp", None)])[0]
            for _ in range(3)]
print(json.dumps({"refused": sum(isinstance(o, OSError) for o in outcomes),
                  "spares": sorted(p.stat().st_size for p in directory.glob("*.tmp"))}))
spool.close()
"""


def test_a_disk_that_fills_leaves_no_half_made_spool_files(tmp_path):
    """Each mail too big for the room left fails (451, tried again by its sender) and leaves nothing behind:
    only the one whole spare segment the spool keeps ready, which it removes when it closes."""
    import json
    import sys
    done = subprocess.run([sys.executable, "-c", SPOOL_ON_A_FULL_DISK, str(tmp_path / "spool")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen == {"refused": 3, "spares": [64 << 10]}, seen
    assert list((tmp_path / "spool").glob("*.tmp")) == []
