"""The master's FORCE START (empty seats become neutral powers) and TERMINATE (started or not)."""
from __future__ import annotations

import pytest

from judge.games.model import GameError, Refusal
from judge.mail.words.notices import render_notice
from judge.mail.words.refusals import refusal_words
from judge.mail.words.reports import Reports

from test_games_helpers import accounts, orders, service


def mails(svc, game: str, kind: str) -> dict:
    return {n.recipient: " ".join(render_notice(Reports(), svc, n).body.split())
            for n in svc.pending_notices(game) if n.kind == kind}


def test_force_start_plays_the_empty_seats_as_neutral_powers(tmp_path):
    svc, _ = service(tmp_path)
    accounts(svc, ["gm", "ann", "bob", "cy"])
    svc.create_game("alpha", master="gm", seed=3)
    svc.join("alpha", "ann", ["FRANCE"])
    with pytest.raises(GameError) as full:
        svc.start("alpha")
    assert (full.value.why, full.value.facts) == (Refusal.NOT_FULL, {"game": "alpha", "needed": 7, "players": 1})
    assert refusal_words(full.value) == "alpha needs 7 players and has 1"
    with pytest.raises(GameError) as two:
        svc.start("alpha", force=True)
    assert refusal_words(two.value) == "alpha has 1 player: a game needs two"
    svc.join("alpha", "bob", ["GERMANY"])
    svc.join("alpha", "cy", ["ENGLAND"])
    status = svc.start("alpha", force=True, source="mail:1:0")
    assert status.status == "active"
    seats = {p: (v.account, v.status) for p, v in status.powers.items()}
    assert seats["FRANCE"] == ("ann", "active") and seats["GERMANY"] == ("bob", "active")
    assert seats["ENGLAND"] == ("cy", "active")
    neutral = {p for p, (a, s) in seats.items() if s == "neutral" and a is None}
    assert neutral == {"AUSTRIA", "ITALY", "RUSSIA", "TURKEY"}
    assert svc.start("alpha", force=True, source="mail:1:0").status == "active"    # the same mail again: nothing
    start = mails(svc, "alpha", "game_start")["ann"]
    assert "Italy" in start and "(neutral)" in start
    # the game plays on: the neutral powers have no orders to give
    svc.submit_orders("alpha", "FRANCE", orders("A PAR - BUR", "A MAR H", "F BRE H"), account="ann")
    svc.process("alpha")
    assert svc.status("alpha").phase == "F1901M"


def test_terminate_ends_a_game_with_no_winner_and_says_so(tmp_path):
    svc, _ = service(tmp_path)
    accounts(svc, ["gm", "ann", "bob"])
    svc.create_game("two", master="gm", settings={"players": "two"})
    svc.join("two", "ann")
    svc.join("two", "bob")
    svc.terminate("two")
    status = svc.status("two")
    assert status.status == "finished" and status.result["how"] == "terminated"
    assert status.result["winners"] == []
    end = mails(svc, "two", "game_end")
    assert set(end) >= {"ann", "bob", "gm"}
    assert "is over: the game master ended it, with no winner and no draw." in end["ann"]
    with pytest.raises(GameError, match="already over"):
        svc.terminate("two")

    svc.create_game("never", master="gm")
    svc.join("never", "ann")
    svc.terminate("never")
    end = mails(svc, "never", "game_end")
    assert set(end) == {"ann", "gm", None}
    assert "the game master ended it before it started." in end["ann"]


def test_a_forced_start_on_a_big_board_gives_each_player_a_seat_they_asked_for():
    from judge.games.assignment import assign_by_preference
    seats = [(f"P{i}",) for i in range(34)]          # Chaos: past trying every order
    given = assign_by_preference(["ann", "bob", "cy"], seats, {"ann": [("P3",)], "bob": [("P30",), ("P3",)]}, 5)
    assert given["ann"] == ("P3",) and given["bob"] == ("P30",) and given["cy"] not in (("P3",), ("P30",))
