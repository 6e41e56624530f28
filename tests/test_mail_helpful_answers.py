"""Answers that help (issue 25 item 4), by mail to the real dispatcher in-process: no parser's or
Python's words in a reply, no fix that repeats the failed line, a player's refused SET naming the
master's equivalent once, no deadline or "not in yet" after a game ends, and a master acting for a
power (BECOME) reading the times in the master's own zone. One test per row of
tests/data/mail/helpful_answers.json; one judge for all of them (no case changes what another reads)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judge.games.model import Settings
from mailjudge import POWERS, MailJudge, deliver, start

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "helpful_answers.json").read_text(encoding="utf-8"))
CASES = DATA["cases"]
# an error in the reply: the line as written, then what was wrong and the fix, up to the next block
ERROR = re.compile(r"^ERROR on line \d+: (.*)\n((?:  .*\n?)*)", re.MULTILINE)


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    j = MailJudge(tmp_path_factory.mktemp("helpful"))
    j.service.create_account("gm", "gm@dip.test", "gm-secret", time_zone="America/New_York")
    start(j)                                                    # alpha, under way
    j.send("france@dip.test", "SIGNON Falpha france-pw\nSET ZONE Asia/Tokyo")
    j.service.create_game("omega", master="gm", settings=Settings(pictures=False))
    for p in POWERS:
        j.service.join("omega", p.lower(), [p])
    deliver(j)
    j.send("gm@dip.test", "SIGNON Momega gm-secret\nTERMINATE")   # omega, ended
    yield j
    j.close()


def said(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_answer_helps(judge, case):
    body = judge.reply_to(f"{case['from']}@dip.test", case["mail"]).body
    text = said(body)
    for word in DATA["never"]:
        assert word not in body, body
    for word in case.get("must", []):
        assert said(word) in text, body
    for word in case.get("once", []):
        assert text.count(said(word)) == 1, body
    for word in case.get("must_not", []):
        assert said(word) not in text, body
    for line, rest in ERROR.findall(body):
        fix = said(rest).partition("how to fix it:")[2].strip()
        assert said(fix).upper() != said(line).upper(), body
