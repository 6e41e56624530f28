"""Every reply laid out once: HELP on every topic and a few replies by mail, each line within a mail's
width and no word left alone on a line by a wrap (a paragraph wrapped, then indented and wrapped
again, left its last word on a line of its own). The mails are data: tests/data/mail/wrapped_replies.json."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.mail.commands.help_pages import TOPICS, help_document
from judge.mail.words.textlayout import WIDTH
from mailjudge import MailJudge

MAILS = json.loads((Path(__file__).parent / "data" / "mail" / "wrapped_replies.json").read_text())["mails"]
HELPS = [{"from": "france@dip.test", "body": f"HELP {topic}".strip()} for topic in ("", *TOPICS, "tactics")]


def strays(text: str, width: int = WIDTH) -> list[str]:
    """Lines wider than `width` (a single word too long to break aside), and lines holding one word
    that a wrap put there: the line above could not take it."""
    lines = text.splitlines()
    return [line for above, line in zip(["", *lines[:-1]], lines, strict=True)
            if (len(line) > width and len(line.split()) > 1)
            or (len(line.split()) == 1 and above.strip() and len(above) + 1 + len(line.strip()) > width)]


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    j = MailJudge(tmp_path_factory.mktemp("wrap"))
    j.seven_players()
    yield j
    j.close()


@pytest.mark.parametrize("sent", HELPS + MAILS, ids=lambda m: m["body"].split("\n")[-1][:30])
def test_a_reply_is_wrapped_once(judge, sent):
    reply = judge.reply_to(sent["from"], sent["body"])
    assert strays(reply.body) == [], reply.body


def test_the_help_pages_are_laid_out_for_the_reply_that_indents_them():
    pages = help_document().split("```")[1::2]           # docs/help.md: each page between fences
    assert len(pages) == len(TOPICS) + 1
    for page in pages:
        assert strays(page, WIDTH - 2) == []              # the reply indents a command's answer by two


@pytest.mark.parametrize("text, flagged", [
    ("x" * 40 + " " + "y" * 35 + "\n  word", ["  word"]),
    ("x" * 40 + " " + "y" * 30 + "\n  word", []),
    ("x" * 78 + " y", ["x" * 78 + " y"]),
    ("short\nword", []),
    ("https://" + "x" * 90, []),
])
def test_the_check_sees_what_it_looks_for(text, flagged):
    assert strays(text) == flagged
