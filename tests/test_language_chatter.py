"""Greetings and sign-offs among orders: ignored lines, never errors that hide good orders."""
from __future__ import annotations

import pytest

from judge.engine import load_variant
from judge.engine.calendar import PhaseKind
from judge.language import CommandReader, OrderBlock, OrderContext, OrderReader, parse_message
from judge.language.chatter import is_chatter

READER = OrderReader(load_variant("standard"))
COMMANDS = CommandReader()


@pytest.mark.parametrize("line", ["Hi judge,", "Thanks, Ann", "Best regards,", "Cheers", "Sent from my iPhone",
                                  "Get Outlook for Android", "Viele Grüße", "Cordialement,", "Orders:", "---",
                                  "Have a nice day", "Here are my orders for Spring 1901:", "No changes"])
def test_plain_conversation_is_chatter(line):
    assert is_chatter(line, READER, PhaseKind.MOVEMENT)


@pytest.mark.parametrize("line", ["A Lndn - Yrk", "Pariss holds", "Hold Paris", "Greetings from Berlin",
                                  "England:", "waive", "Army Lndn", "1. F Xyz - Abc", "SINGON Fgame pw",
                                  "Regsiter me please"])
def test_anything_that_could_be_an_order_is_read(line):
    assert not is_chatter(line, READER, PhaseKind.MOVEMENT)


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
