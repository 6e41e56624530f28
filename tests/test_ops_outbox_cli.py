"""`judge outbox` (judge/ops/outbox_cli.py): the mail the judge wrote, listed by recipient and shown
whole, from a real data directory, by the installed command."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mailjudge import MailJudge

JUDGE = Path(sys.executable).with_name("judge")


def outbox(data: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(JUDGE), "outbox", "--data", str(data), *args], capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin"})


@pytest.fixture
def judged(tmp_path):
    j = MailJudge(tmp_path)
    j.send("ann@dip.test", "help")
    j.send("bob@dip.test", "register bob bob-pw")
    yield j
    j.close()


def test_the_list_names_each_mail_with_its_recipient_and_subject(judged):
    done = outbox(judged.config.data_dir)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    assert "ann@dip.test" in lines[0] and "Re: orders" in lines[0] and "queued" in lines[0]
    assert "bob@dip.test" in lines[1]


def test_one_recipients_mail_and_one_mail_whole(judged):
    listed = outbox(judged.config.data_dir, "--to", "BOB@dip")
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 1
    number = listed.stdout.split()[0]
    shown = outbox(judged.config.data_dir, "--show", number)
    assert shown.returncode == 0, shown.stderr
    assert "To: bob@dip.test" in shown.stdout and "bob" in shown.stdout.split("\n\n", 1)[1]


def test_no_such_mail_and_no_data_are_said_plainly(judged, tmp_path):
    assert "no mail number 999" in outbox(judged.config.data_dir, "--show", "999").stderr
    empty = outbox(tmp_path / "nothing-here")
    assert empty.returncode == 1 and "nothing written yet" in empty.stderr and "Traceback" not in empty.stderr
