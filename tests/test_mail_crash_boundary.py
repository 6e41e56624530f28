"""A mail's writes reach two files: the game file commits first, then judge.sqlite (the claim, the
reply in the outbox, the mark that the mail is processed) in one transaction. Killed (SIGKILL)
between the two, the judge must, when started again, recognise the orders and press as already
stored (their source names the mail) and still send exactly one reply per mail.

The test runs this file as a separate process: a real Processor and Dispatch over files on disk
work through the stored mail and kill themselves right after the N-th commit of a game file.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SENDERS = ("FRANCE", "GERMANY", "RUSSIA")
BODY = {"FRANCE": "A Par - Bur\nA Mar - Spa", "GERMANY": "A Mun - Ruh\nF Kie - Den", "RUSSIA": "A War - Ukr"}


def _run(data: Path, kill_at: int) -> None:
    """The process under test: handle every stored mail; SIGKILL right after game commit `kill_at`."""
    sys.path.insert(0, str(HERE))
    from mailjudge import MailJudge

    judge = MailJudge(data)
    seen = 0

    def checkpoint(name: str) -> None:
        nonlocal seen
        if name == "committed":
            seen += 1
            if seen == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

    judge.service.checkpoint = checkpoint
    judge.processor.archive.release_claims()     # as `judge serve` does at start-up
    while judge.processor.process_next() is not None:
        pass
    print(json.dumps({"game_commits": seen}))


def _setup(data: Path) -> None:
    sys.path.insert(0, str(HERE))
    from mailjudge import MailJudge, mail

    judge = MailJudge(data)
    judge.seven_players()
    for p in SENDERS:
        frm = f"{p.lower()}@dip.test"
        body = f"signon {p[0]}alpha {p.lower()}-pw\n{BODY[p]}\npress to all\nwords from {p}\nendpress"
        judge.processor.archive.store(mail(frm, body), mail_from=frm, rcpt_tos=["judge@dip.test"], via="smtp")
    judge.close()
    judge.service.judge.close()


def _spawn(data: Path, kill_at: int) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, __file__, str(data), str(kill_at)], capture_output=True, text=True,
                          timeout=300, cwd=HERE.parent)


def _rows(path: Path, sql: str) -> list:
    with sqlite3.connect(path) as conn:
        return conn.execute(sql).fetchall()


def _state(data: Path) -> dict:
    judge, game = data / "var" / "judge.sqlite", data / "var" / "games" / "alpha.sqlite"
    return {
        "inbound": _rows(judge, "SELECT id, state FROM inbound ORDER BY id"),
        "replies": _rows(judge, "SELECT json_extract(recipients, '$[0]'), count(*) FROM outbox_mail"
                                " WHERE instr(raw, CAST('In-Reply-To:' AS BLOB)) > 0 GROUP BY 1 ORDER BY 1"),
        "sources": _rows(game, "SELECT source FROM submissions ORDER BY source"),
        "press": _rows(game, "SELECT body, count(*) FROM press GROUP BY body ORDER BY body"),
    }


def _copy(template: Path, name: str) -> Path:
    return Path(shutil.copytree(template, template.with_name(name)))


def test_killed_between_the_game_commit_and_the_judge_commit(tmp_path):
    _setup(tmp_path / "template")
    reference = _copy(tmp_path / "template", "reference")
    done = _spawn(reference, 0)
    assert done.returncode == 0, done.stderr
    commits = json.loads(done.stdout.strip().splitlines()[-1])["game_commits"]
    assert commits == len(SENDERS)        # one commit of the game file per mail, orders and press together
    expected = _state(reference)
    assert [s for _, s in expected["inbound"]] == ["processed"] * len(SENDERS)
    assert expected["replies"] == sorted((f"{p.lower()}@dip.test", 1) for p in SENDERS)
    assert len(expected["sources"]) == len(set(expected["sources"])) == len(SENDERS)
    assert [n for _, n in expected["press"]] == [1] * len(SENDERS)

    for kill_at in range(1, commits + 1):
        data = _copy(tmp_path / "template", f"kill-{kill_at}")
        killed = _spawn(data, kill_at)
        assert killed.returncode == -signal.SIGKILL, (kill_at, killed.stderr)
        cut = _state(data)
        # the mail whose game commit was the last thing done: stored in the game, not yet in judge.sqlite
        assert [s for _, s in cut["inbound"]] == ["processed"] * (kill_at - 1) + ["new"] * (len(SENDERS) - kill_at + 1)
        assert len(cut["sources"]) == kill_at and len(cut["replies"]) == kill_at - 1, cut
        again = _spawn(data, 0)
        assert again.returncode == 0, (kill_at, again.stderr)
        assert _state(data) == expected, kill_at
        reply = _rows(data / "var" / "judge.sqlite", "SELECT raw FROM outbox_mail WHERE"
                      f" json_extract(recipients, '$[0]') = '{SENDERS[kill_at - 1].lower()}@dip.test'")
        assert b"read before" in reply[0][0], "the second handling says the orders stood already"
        shutil.rmtree(data)


if __name__ == "__main__":
    _run(Path(sys.argv[1]), int(sys.argv[2]))
