"""No reply shows Python's words: hostile lines sent in-process (tests/mailjudge.py) reach each place
where the dispatcher turns what the games layer raised into a reply, and every exception as the
judge's parts raise it is worded by a typed reason (judge.mail.words.problem_words), never by its
str(): a KeyError's str() is Python's quoted key (`'FRANCE'`). The lines, the exceptions and the
forbidden fragments are data (tests/data/mail/python_words.json)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judge.games.answers import NoSuchGame, NoSuchPower
from judge.games.model import GameError, Refusal
from judge.mail.commands.dispatch import Dispatch
from judge.mail.words.problem_words import Problem, problem_of
from judge.mail.words.refusals import WORDS, refusal_words
from mailjudge import MailJudge

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "python_words.json").read_text())
SENDERS = {"gm": "gm@dip.test", "france": "france@dip.test", "stranger": "someone@else.test",
           "newcomer": "newcomer@else.test"}
# a line that is nothing but a quoted word: a KeyError's str()
QUOTED_KEY = re.compile(r"""^\s*(['"])[^'"]*\1\s*$""")


@pytest.fixture(scope="module")
def playing(tmp_path_factory):
    """alpha with its master and seven players (tests/conftest.py's `playing`), once for the module:
    the exceptions are raised first, then the mails sent in their order."""
    judge = MailJudge(tmp_path_factory.mktemp("words"))
    judge.seven_players()
    yield judge
    judge.close()


def flat(text: str) -> str:
    return " ".join(text.split())


# a refusal's code as the log writes it (`not_paused game=alpha`): never in a reply
CODES = [f"{r.value} " for r in Refusal if "_" in r.value]


def test_every_refusal_has_the_judges_words():
    """Each code of the games layer's refusals is worded (judge.mail.words.refusals), with the facts
    its raisers give it; the words hold none of the code's own."""
    facts = {"game": "alpha", "account": "ann", "power": "FRANCE", "phase": "S1901M", "status": "forming",
             "when": "2026-01-01T00:00:00Z", "needed": 7, "players": 1, "number": 3, "address": "a@b.test",
             "name": "ann", "waiting": 3, "days": 7, "rules": "6th", "variant": "Chaos",
             "known": "standard", "setup": "five", "text": "Dec 99", "zone": "UTC", "word": "99", "date": "Dec 5 2026",
             "weekday": "Saturday", "named": "Monday", "month": "Feb", "day": 30}
    assert set(WORDS) == set(Refusal)
    for why in Refusal:
        words = refusal_words(GameError(why=why, **facts))
        assert words and "{" not in words and ("_" not in why.value or why.value not in words), why


def python_words(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if QUOTED_KEY.match(line) or any(f.lower() in line.lower() for f in DATA["forbidden"])]


def raised(playing, kind: str) -> Exception:
    """The exception of that kind, raised by a real call (a games layer's or Python's own)."""
    calls = {
        "no account": lambda: playing.service.accounts.get("nobody"),
        "no power": lambda: playing.service.units_without_orders("alpha", "ZZZ"),
        "a KeyError of Python's": lambda: {"FRANCE": 1}["ZZZ"],
        "a ValueError of Python's": lambda: int("x"),
        "a refusal of the games layer": lambda: playing.service.rollback("alpha", "F1950M"),
        "no game": lambda: playing.service.status("nosuch"),
        "an unknown time zone": lambda: playing.service.accounts.set_time_zone("france", "/etc/passwd"),
    }
    with pytest.raises((KeyError, ValueError, LookupError)) as caught:
        calls[kind]()
    return caught.value


def test_each_exception_is_worded_by_its_type_never_by_its_str(playing, caplog):
    for kind in DATA["raised"]:
        caplog.clear()
        error = raised(playing, kind)
        words = Dispatch._problem(error, "a test")
        said = problem_of(error) is Problem.SAID        # the games layer's own sentence, written for players
        assert said == isinstance(error, (GameError, NoSuchGame)), kind
        assert words and python_words(words) == [] and (said or str(error) not in words), (kind, words)
        if isinstance(error, NoSuchPower):
            assert words == "there is no power Zzz in alpha"
        # one of Python's own is the judge's defect: logged for the keeper, with its traceback
        assert [r.exc_info is not None for r in caplog.records] == \
            ([True] if problem_of(error) is Problem.NOT_CARRIED_OUT else []), kind


def test_hostile_lines_are_answered_in_the_judges_words(playing):
    shown = []
    for mail in DATA["mails"]:
        replies = playing.send(SENDERS[mail["from"]], mail["body"])
        assert replies, mail["body"]
        said = flat(" ".join(reply.body for reply in replies))
        assert [words for words in mail.get("says", []) if words not in said] == [], said
        shown += [(mail["body"].splitlines()[-1], code) for code in CODES if code in said]
        shown += [(mail["body"].splitlines()[-1], line) for reply in replies for line in python_words(reply.body)]
        shown += [(mail["body"].splitlines()[-1], line) for reply in replies for line in reply.body.splitlines()
                  if any(f in line for f in DATA["faults"])]
    assert shown == []
