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


def test_a_mail_body_with_a_f_orders_and_an_exchange():
    from judge.engine import Embark, Location, Move, UnitKind, UnitRef, load_variant
    from judge.engine.calendar import PhaseKind
    from judge.language import OrderBlock, OrderContext, OrderReader, parse_message

    reader = OrderReader(load_variant("abstraction2"))
    body = ("SIGNON Eab2 secret\n"
            "A Lon embarks F Eng\n"
            "A/F Eng - Ang\n"
            "A/F Ang disembarks A Ire\n"
            "EXCHANGE WITH France GIVE Liverpool FOR Brest\n")
    message = parse_message(body, lambda signon: OrderContext(reader, PhaseKind.MOVEMENT, "ENGLAND"),
                            commands=READER)
    blocks = [i for i in message.items if isinstance(i, OrderBlock)]
    orders = [o.order for b in blocks for o in b.parse.orders]
    assert orders[0] == Embark(UnitRef(Location("lon"), UnitKind.ARMY), UnitRef(Location("eng"), UnitKind.FLEET))
    assert orders[1] == Move(UnitRef(Location("eng"), UnitKind.ARMY_FLEET), Location("ang"))
    assert len(orders) == 3 and not message.errors
    assert message.commands[-1] == Exchange("France", ("Liverpool",), ("Brest",))
