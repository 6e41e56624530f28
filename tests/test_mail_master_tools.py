"""The master's FORCE START, TERMINATE, ALLOW and DENY by mail, and a player's record on JOIN."""
from __future__ import annotations

import pytest



@pytest.fixture
def judge(judge):
    for name in ("gm", "ann", "bob", "cy"):
        judge.service.create_account(name, f"{name}@dip.test", f"{name}-pw")
    judge.service.create_game("alpha", master="gm")
    return judge


def said(reply) -> str:
    return " ".join(reply.body.split())


def test_a_private_game_by_mail_then_forced_to_start_and_terminated(judge):
    r = said(judge.reply_to("gm@dip.test", "SIGNON Malpha gm-pw\nALLOW ann bob\nDENY cy\nALLOW nosuchplayer"))
    assert "alpha is private: only those invited may join; invited: ann, bob; kept out: nobody" in r
    assert "invited: ann, bob; kept out: cy" in r and "there is no account" in r
    assert "the game master of alpha has not allowed you" in said(judge.reply_to("cy@dip.test", "JOIN alpha cy-pw"))
    joined = said(judge.reply_to("ann@dip.test", "JOIN alpha ann-pw France"))
    assert "joined alpha: 1 of 7 players" in joined and "your record: no phase played on this judge yet" in joined
    judge.reply_to("bob@dip.test", "JOIN alpha bob-pw Germany")
    player = said(judge.reply_to("ann@dip.test", "FORCE START"))
    assert "FORCE START is the game master's: sign on first" in player
    r = said(judge.reply_to("gm@dip.test", "SIGNON Malpha gm-pw\nFORCE START"))
    assert "alpha has started with the players there are; " in r and "Italy" in r and "are neutral" in r
    status = judge.service.status("alpha")
    assert status.status == "active" and status.powers["FRANCE"].account == "ann"
    r = said(judge.reply_to("gm@dip.test", "SIGNON Malpha gm-pw\nTERMINATE"))
    assert "alpha is over: you ended it, with no winner" in r
    assert judge.service.status("alpha").result["how"] == "terminated"
