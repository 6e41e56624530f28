"""After an order line that does not read, the reply shows orders from the writer's own units, by
mail through the real dispatcher: the cases of tests/data/mail/own_examples.json. A generic example
("A Bur - Gas") names a unit the player may not have, so it is never offered as "did you mean"."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mailjudge import MailJudge

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "own_examples.json").read_text(encoding="utf-8"))
CASES = DATA["cases"]


def signon(power: str) -> str:
    return f"SIGNON {power[0]}alpha {power.lower()}-pw"


def play(j: MailJudge, phases: list[dict[str, list[str]]]) -> None:
    """Each phase's orders sent by mail, then played by the master's PROCESS by mail."""
    for orders in phases:
        for power, lines in orders.items():
            reply = j.reply_to(f"{power.lower()}@dip.test", "\n".join([signon(power), *lines]))
            assert "ERROR" not in reply.body, reply.body
        phase = j.service.status("alpha").phase
        done = " ".join(j.reply_to("gm@dip.test", f"SIGNON Malpha gm-secret\nPROCESS {phase}").body.split())
        assert f"alpha {phase}: processed" in done, done


@pytest.mark.parametrize("case", CASES, ids=[f"{c['power']}:{c['line']}@{c['setup']}" for c in CASES])
def test_a_line_that_does_not_read_shows_the_writers_own_orders(playing, case):
    j = playing
    play(j, DATA["setups"][case["setup"]])
    power, line = case["power"], case["line"]
    if "before" in case:
        j.reply_to(f"{power.lower()}@dip.test", "\n".join([signon(power), *case["before"]]))
    body = j.reply_to(f"{power.lower()}@dip.test", f"{signon(power)}\n{line}").body
    assert f"ERROR on line 2: {line}" in body, body
    shown = [s.strip() for s in body.splitlines() if s.strip().startswith(("for example:", "did you mean:"))]
    assert shown == [case["shown"]], body


def test_without_a_game_the_examples_are_not_offered_as_a_guess(judge):
    """No game signed on to: no board and no power, so the phase's generic examples, as examples."""
    judge.seven_players()
    body = judge.reply_to("france@dip.test", "A Par H H").body
    assert "did you mean" not in body, body
