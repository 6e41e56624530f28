"""Commands and whole messages: typed commands, press bodies, order blocks after SIGNON."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from judge.engine import Hold, Location, Move, UnitKind, UnitRef, load_variant
from judge.engine.calendar import PhaseKind
from judge.language import (CommandItem, CommandReader, OrderBlock, OrderError, OrderContext, OrderReader,
                            parse_message)
from judge.language.commands import (BecomeMaster, Create, Eject, Extend, Help, History, Join, ListGames,
                                     Observe, Pause, Preview, Process, Register, Replace, Resign, Resume,
                                     Rollback, SetAbsence, SetAddress, SetDeadline, SetDraw, SetPassword,
                                     SetTimezone, SetWait, SignOff, SignOn, Summary)

COMMANDS = CommandReader()
READER = OrderReader(load_variant("standard"))

CASES = [
    ("SIGNON Fgame secret", SignOn("F", "game", "secret")),
    ("signon fgame Secret", SignOn("F", "game", "Secret")),
    ("Sign On Egame pw", SignOn("E", "game", "pw")),
    ("SIGNON ?game pw", Join("game", "pw")),
    ("REGISTER", Register()),
    ("CREATE ?newgame pw standard", Create("newgame", "pw", "standard")),
    ("create game2 pw", Create("game2", "pw")),
    ("JOIN game pw", Join("game", "pw")),
    ("observe game", Observe("game")),
    ("WATCH game pw", Observe("game", "pw")),
    ("LIST", ListGames()),
    ("list game", ListGames("game")),
    ("HISTORY game S1901M F1902M", History("game", ("S1901M", "F1902M"))),
    ("history game", History("game")),
    ("SUMMARY game", Summary("game")),
    ("set wait", SetWait(True)),
    ("SET NOWAIT", SetWait(False)),
    ("set no wait", SetWait(False)),
    ("SET DRAW", SetDraw(True)),
    ("set draw F G", SetDraw(True, ("F", "G"))),
    ("set nodraw", SetDraw(False)),
    ("SET NO DRAW", SetDraw(False)),
    ("set absence 2025-03-01 to 2025-03-07", SetAbsence("2025-03-01 to 2025-03-07")),
    ("set password NewPw", SetPassword("NewPw")),
    ("set address ann@example.org", SetAddress("ann@example.org")),
    ("SET TIMEZONE Europe/Paris", SetTimezone("Europe/Paris")),
    ("set time zone UTC", SetTimezone("UTC")),
    ("set deadline 2025-03-01 12:00", SetDeadline("2025-03-01 12:00")),
    ("resign", Resign()),
    ("SIGNOFF", SignOff()),
    ("sign off", SignOff()),
    ("help", Help()),
    ("HELP press", Help("press")),
    ("BECOME MASTER", BecomeMaster()),
    ("process", Process()),
    ("process S1901M", Process("S1901M")),
    ("PAUSE", Pause()),
    ("resume", Resume()),
    ("extend 24 hours", Extend("24 hours")),
    ("EJECT France", Eject("France")),
    ("replace F new@example.org", Replace("F", "new@example.org")),
    ("ROLLBACK S1901M", Rollback("S1901M")),
    ("roll back", Rollback()),
    ("preview", Preview()),
]


@pytest.mark.parametrize("line,expected", CASES, ids=[c[0] for c in CASES])
def test_command(line, expected):
    assert COMMANDS.parse(line) == expected


@pytest.mark.parametrize("line,usage", [("SIGNON", "SIGNON Fgame password"), ("set bogus", "SET WAIT"),
                                        ("eject", "EJECT power"), ("SIGNON F", "SIGNON Fgame password"),
                                        ("summary", "SUMMARY game")])
def test_bad_command_says_the_usage(line, usage):
    error = COMMANDS.parse(line)
    assert usage in error.expected


def context_for(phase=PhaseKind.MOVEMENT):
    def context(signon):
        if signon is None:
            return None
        return OrderContext(READER, phase, "FRANCE")
    return context


def test_signon_then_orders():
    body = "SIGNON Fgame secret\nA Par-Bur\nF Bre - Mid\nA Mar H"
    message = parse_message(body, context_for(), commands=COMMANDS)
    first, block = message.items
    assert first == CommandItem(1, "SIGNON Fgame secret", SignOn("F", "game", "secret"))
    assert isinstance(block, OrderBlock) and block.signon == SignOn("F", "game", "secret")
    assert [(o.line, o.order, o.power) for o in block.parse.orders] == [
        (2, Move(UnitRef(Location("par"), UnitKind.ARMY), Location("bur")), "FRANCE"),
        (3, Move(UnitRef(Location("bre"), UnitKind.FLEET), Location("mao")), "FRANCE"),
        (4, Hold(UnitRef(Location("mar"), UnitKind.ARMY)), "FRANCE")]
    assert message.errors == []


def test_press_body_up_to_endpress_and_orders_around_it():
    body = ("SIGNON Fgame pw\nA Par-Bur\nPRESS TO E G\nDear friends,\nA Par-Bur is not an order here.\n"
            "ENDPRESS\nA Mar - Xyzzy\nBROADCAST\nHello all\nEND PRESS\nset nowait\nsignoff\nA Bre H")
    message = parse_message(body, context_for(), commands=COMMANDS)
    kinds = [type(i).__name__ for i in message.items]
    assert kinds == ["CommandItem", "OrderBlock", "CommandItem", "OrderBlock", "CommandItem", "CommandItem",
                     "CommandItem"]
    press = message.items[2].command
    assert press.recipients == ("E", "G") and press.body == "Dear friends,\nA Par-Bur is not an order here."
    broadcast = message.items[4].command
    assert broadcast.broadcast and broadcast.body == "Hello all"
    assert [e.line for e in message.errors] == [7]
    assert isinstance(message.items[-1].command, SignOff)  # "A Bre H" after SIGNOFF is not read


def test_orders_without_signon_are_errors_that_say_so():
    message = parse_message("A Par-Bur\nLIST", context_for(), commands=COMMANDS)
    error = message.items[0]
    assert isinstance(error, OrderError) and "sign on first" in error.problem and "SIGNON" in error.expected
    assert message.items[1].command == ListGames()


def test_press_without_endpress_is_an_error():
    message = parse_message("SIGNON Fgame pw\nPRESS TO E\nhello", context_for(), commands=COMMANDS)
    assert "ENDPRESS" in message.errors[0].problem


def test_grey_press():
    message = parse_message("press grey to England, Germany\nhi\nendpress", None, commands=COMMANDS)
    press = message.commands[0]
    assert press.grey and press.recipients == ("England", "Germany")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_any_text_gives_a_message(text):
    message = parse_message(text, context_for(), commands=COMMANDS)
    assert all(item.line >= 1 if not isinstance(item, OrderBlock) else item.first_line >= 1
               for item in message.items)
