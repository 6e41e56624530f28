"""The EXCHANGE command (Abstraction II's exchange of centres), as players write it."""
from __future__ import annotations

import pytest

from judge.language.commands import COMMAND_WORDS, CommandError, CommandReader, Exchange

READER = CommandReader()


@pytest.mark.parametrize("line, partner, give, receive", [
    ("EXCHANGE WITH Russia GIVE Bud Pec FOR War Mos", "Russia", ("Bud", "Pec"), ("War", "Mos")),
    ("exchange russia bud, pec for war, mos", "russia", ("bud", "pec"), ("war", "mos")),
    ("EXCHANGE Bud and Pec FOR War and Mos WITH Russia", "Russia", ("Bud", "Pec"), ("War", "Mos")),
    ("Exchange with Turkey give Serbia receive Bulgaria", "Turkey", ("Serbia",), ("Bulgaria",)),
    ("SWAP with England give St Petersburg for Edinburgh", "England", ("St", "Petersburg"), ("Edinburgh",)),
    ("EXCHANGE WITH Russia CANCEL", "Russia", (), ()),
])
def test_exchange_lines(line, partner, give, receive):
    assert READER.parse(line) == Exchange(partner, give, receive)


@pytest.mark.parametrize("line, problem", [
    ("EXCHANGE WITH Russia GIVE Bud", "say what you give and what you receive"),
    ("EXCHANGE WITH Russia GIVE FOR War", "name centres on both sides"),
    ("EXCHANGE WITH", "names the other power"),
])
def test_bad_exchange_lines_say_how_to_write_one(line, problem):
    result = READER.parse(line)
    assert isinstance(result, CommandError) and problem in result.problem
    assert "EXCHANGE WITH power GIVE centres FOR centres" in result.expected


def test_exchange_is_a_command_word():
    assert {"exchange", "swap"} <= COMMAND_WORDS
