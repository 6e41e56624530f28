"""Greetings and sign-offs among orders: ignored lines, never errors that hide good orders."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.engine.calendar import PhaseKind
from judge.language import CommandReader, OrderBlock, OrderContext, OrderReader, parse_message

READER = OrderReader(load_variant("standard"))
COMMANDS = CommandReader()


CASES = json.loads((Path(__file__).parent / "data" / "language" / "chatter_cases.json").read_text())


@pytest.mark.parametrize("line, set_aside", [(line, True) for line in CASES["set_aside"]]
                         + [(line, False) for line in CASES["answered"]])
def test_a_line_among_orders_is_set_aside_or_answered(line, set_aside):
    message = parse_message("SIGNON Fgame pw\n" + line, lambda s: OrderContext(READER, PhaseKind.MOVEMENT, "FRANCE"),
                            commands=COMMANDS)
    orders = [o for i in message.items if isinstance(i, OrderBlock) for o in i.parse.orders]
    if set_aside:
        assert [i.text for i in message.ignored] == [line.strip()] and not message.errors and not orders
    else:
        assert not message.ignored          # read: an order, an error, or a power heading ("England:")
        assert all(e.expected for e in message.errors)   # a failed line is told what was expected


def test_greeting_and_sign_off_are_listed_as_ignored_and_orders_all_count():
    body = "Hi judge,\nSIGNON Fgame pw\nHello again!\nA Par - Bur\nA Mar - Xyzzy\nF Bre - Mid\nThanks,\nAnn"
    message = parse_message(body, lambda s: OrderContext(READER, PhaseKind.MOVEMENT, "FRANCE"), commands=COMMANDS)
    blocks = [i for i in message.items if isinstance(i, OrderBlock)]
    assert [o.line for b in blocks for o in b.parse.orders] == [4, 6]
    assert [e.line for e in message.errors] == [5]  # the real mistake stands alone
    assert [(i.line, i.text) for i in message.ignored] == [(1, "Hi judge,"), (3, "Hello again!"), (7, "Thanks,"),
                                                            (8, "Ann")]


def test_without_a_game_orders_still_hear_they_need_one_but_greetings_do_not():
    message = parse_message("Hi judge,\nA Par - Bur\nParis holds\nThanks", lambda s: None, commands=COMMANDS)
    assert [e.line for e in message.errors] == [2, 3]
    assert [i.text for i in message.ignored] == ["Hi judge,", "Thanks"]


def test_a_hard_wrapped_order_line_is_read_whole():
    body = "SIGNON Fgame pw\nA Par - Bur; F Bre - Mid; A Mar S A Par -\nBur\nA Mun -\n\nBur\nHi judge,\nA Kie H"
    message = parse_message(body, lambda s: OrderContext(READER, PhaseKind.MOVEMENT, "FRANCE"), commands=COMMANDS)
    orders = [(o.line, o.text) for i in message.items if isinstance(i, OrderBlock) for o in i.parse.orders]
    assert orders == [(2, "A Par - Bur"), (2, "F Bre - Mid"), (2, "A Mar S A Par - Bur"), (8, "A Kie H")]
    assert [e.line for e in message.errors] == [4, 6]  # a blank line between is no wrap
