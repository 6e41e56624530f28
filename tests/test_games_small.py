"""The rulebooks' games for fewer than seven players, and how powers are given out."""
from __future__ import annotations

from datetime import timedelta

import pytest

from judge.engine import starting_position
from judge.engine.rules import FIFTH, SECOND_1982
from judge.games.answers import PowerState
from judge.games.assignment import assign_by_preference, assign_random
from judge.games.clock import parse_time
from judge.games.ending import check_win
from judge.games.model import Settings
from judge.games.small import SETUPS, parse_seat, setup
from test_games_helpers import STANDARD, accounts, orders, service


def past_grace(svc, clock, game):
    status = svc.status(game)
    clock.set(parse_time(status.deadline["utc"]) + timedelta(hours=status.settings["grace_hours"]))
    return svc.run_due()


def small_game(svc, name, players, seats):
    names = [f"{name}-{i}" for i in range(len(seats))]
    accounts(svc, names)
    svc.create_game(name, settings=Settings(players=players), seed=3)
    for n, seat in zip(names, seats, strict=True):
        status = svc.join(name, n, [seat])
    return status, dict(zip(seats, names, strict=True))


def test_every_setup_covers_the_seven_powers_once():
    for s in SETUPS.values():
        powers = [p for seat in s.seats for p in seat] + list(s.neutral)
        assert sorted(powers) == sorted(STANDARD.power_ids), s.name
    assert [s.players for s in SETUPS.values()] == [7, 6, 5, 4, 3, 3, 2]
    assert parse_seat(setup("four"), "france") == ("AUSTRIA", "FRANCE")
    with pytest.raises(ValueError):
        parse_seat(setup("four"), "England/France")


def test_six_players_italy_neutral_holds_and_is_disbanded_when_dislodged(tmp_path):
    svc, clock = service(tmp_path)
    seats = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY"]
    status, who = small_game(svc, "six", "six", seats)
    assert status.status == "active"
    assert status.powers["ITALY"] == PowerState(account=None, status="neutral", missed=0, waiting=False,
                                                owes=False, centres=3)
    svc.submit_orders("six", "AUSTRIA", orders("A VIE - TYR"), account=who["AUSTRIA"])
    past_grace(svc, clock, "six")
    svc.submit_orders("six", "AUSTRIA", orders("A TYR - VEN", "F TRI S A TYR - VEN"), account=who["AUSTRIA"])
    past_grace(svc, clock, "six")
    status = svc.status("six")
    # the Italian retreat had nobody to decide it: the unit was disbanded and play went on
    assert status.phase == "W1901A"
    history = svc.history("six")
    fall = next(h for h in history if h.phase == "F1901M")
    assert "ITALY" not in fall.civil_disorder
    retreat = next(r for r in fall.results if r["phase"] == "F1901R")
    # a neutral power never orders: like a power in civil disorder, its dislodged units are disbanded
    assert [(o["power"], o["order"], o["reason"], o["by_judge"]) for o in retreat["outcomes"]] == [
        ("ITALY", "A VEN D", "civil disorder", True)]
    assert status.powers["ITALY"].status == "neutral"
    assert status.powers["AUSTRIA"].centres == 4
    assert not [n for n in svc.pending_notices("six") if "ITALY" in n.payload.get("powers", [])]


def test_five_players_italy_and_germany_neutral(tmp_path):
    svc, clock = service(tmp_path)
    status, _ = small_game(svc, "five", "five", ["AUSTRIA", "ENGLAND", "FRANCE", "RUSSIA", "TURKEY"])
    assert {p for p, v in status.powers.items() if v.status == "neutral"} == {"GERMANY", "ITALY"}
    past_grace(svc, clock, "five")
    fall = svc.history("five")[0]
    assert sorted(fall.civil_disorder) == ["AUSTRIA", "ENGLAND", "FRANCE", "RUSSIA", "TURKEY"]


def test_four_players_one_person_two_countries_counted_separately(tmp_path):
    svc, clock = service(tmp_path)
    status, who = small_game(svc, "four", "four", ["ENGLAND", "AUSTRIA/FRANCE", "GERMANY/TURKEY", "ITALY/RUSSIA"])
    af = who["AUSTRIA/FRANCE"]
    assert status.powers["AUSTRIA"].account == status.powers["FRANCE"].account == af
    assert status.powers["ENGLAND"].account == who["ENGLAND"]
    svc.submit_orders("four", "FRANCE", orders("A MAR - SPA"), account=af)
    svc.submit_orders("four", "AUSTRIA", orders("A VIE H"), account=af)
    start = [n for n in svc.pending_notices("four") if n.kind == "game_start" and n.recipient == af]
    assert len(start) == 1 and start[0].payload["seat"] == ["AUSTRIA", "FRANCE"]
    past_grace(svc, clock, "four")
    submit_all = svc.submit_orders("four", "FRANCE", orders("A SPA H"), account=af)
    assert submit_all.power == "FRANCE"
    past_grace(svc, clock, "four")
    status = svc.status("four")
    assert status.powers["FRANCE"].centres == 4 and status.powers["AUSTRIA"].centres == 3
    # one vote from a person counts for every country they play
    for seat in ["ENGLAND", "GERMANY/TURKEY", "ITALY/RUSSIA"]:
        assert not svc.vote_draw("four", who[seat])
    assert svc.vote_draw("four", af)


def test_three_players_both_1982_alternatives(tmp_path):
    svc, clock = service(tmp_path)
    status, who = small_game(svc, "three", "three", ["ENGLAND/GERMANY/AUSTRIA", "RUSSIA/ITALY", "FRANCE/TURKEY"])
    assert {p: v.account for p, v in status.powers.items()}["AUSTRIA"] == who["ENGLAND/GERMANY/AUSTRIA"]
    status, who = small_game(svc, "three-old", "three-1982", ["RUSSIA", "ENGLAND/FRANCE/GERMANY",
                                                               "AUSTRIA/ITALY/TURKEY"])
    assert status.powers["ITALY"].account == who["AUSTRIA/ITALY/TURKEY"]


def test_two_players_world_war_one(tmp_path):
    svc, clock = service(tmp_path)
    status, who = small_game(svc, "ww", "two", ["ENGLAND/FRANCE/RUSSIA", "AUSTRIA/GERMANY/TURKEY"])
    assert status.phase == "S1914M"
    assert status.powers["ITALY"].status == "neutral"
    allies = who["ENGLAND/FRANCE/RUSSIA"]
    # Italian territory cannot be entered: the order is void and the unit holds
    svc.submit_orders("ww", "FRANCE", orders("A MAR - PIE", "A PAR - BUR"), account=allies)
    past_grace(svc, clock, "ww")
    spring = svc.history("ww")[0]
    assert spring.phase == "S1914M"
    from judge.games.store import open_game
    import json
    db = open_game(tmp_path / "var", "ww")
    result = json.loads(db.execute("SELECT result FROM phases WHERE phase = 'S1914M'").fetchone()[0])
    assert [r["order"] for r in result["rulings"]] == ["A MAR - PIE"]
    french = {o["order"]: o["reason"] for o in result["results"][0]["outcomes"] if o["power"] == "FRANCE"}
    assert french["A MAR H"] == "held" and french["A PAR - BUR"] == "moved"
    # the coin is tossed before the Fall 1914 adjustments; Italy joins the winner in Spring 1915
    past_grace(svc, clock, "ww")
    events = svc.events("ww")
    toss = [e for e in events if e["kind"] == "coin toss"]
    assert len(toss) == 1
    winner = tuple(toss[0]["winner"])
    status = svc.status("ww")
    assert status.phase == "S1915M"
    assert status.powers["ITALY"].account == who["/".join(winner)]
    assert status.powers["ITALY"].status == "active"
    kinds = {n.kind for n in svc.pending_notices("ww")}
    assert {"coin_toss", "italy_joins"} <= kinds
    # Italy can be ordered now, by the winner of the toss
    svc.submit_orders("ww", "ITALY", orders("A VEN H"), account=who["/".join(winner)])


def test_world_war_victory_is_24_centres_for_the_player_or_24_units_in_1982():
    two = setup("two")
    start = starting_position(STANDARD)
    allies = ["ENGLAND", "FRANCE", "RUSSIA"]
    neutral = [c for c in STANDARD.supply_centres if c not in start.owners]
    owners = dict(start.owners)
    for i, c in enumerate(neutral + ["vie", "bud"]):  # 10 home centres + 12 neutral + 2 = 24
        owners[c] = allies[i % 3]
    position = start.with_(owners=owners)
    owner = {p: ("allies" if p in allies else "central") for p in STANDARD.power_ids}
    won = check_win(STANDARD, position, Settings(players="two"), two, FIFTH, owner)
    assert won and sorted(won.winners) == allies and won.measure == "centres"
    # in 1982 it takes 24 units on the board, and the allies have only 10
    assert check_win(STANDARD, position, Settings(players="two"), two, SECOND_1982, owner) is None
    # per country, nobody has 18 in the standard game
    assert check_win(STANDARD, position, Settings(), setup("seven"), FIFTH, owner) is None


def test_preference_assignment_minimises_disappointment_and_is_replayable():
    seats = [(p,) for p in STANDARD.power_ids]
    players = [f"p{i}" for i in range(7)]
    prefs = {p: [seats[i]] for i, p in enumerate(players)}
    assert assign_by_preference(players, seats, prefs, 1) == {p: seats[i] for i, p in enumerate(players)}
    # two want France first; p1 gets it, because p1's second choice (Germany) is p2's first
    prefs = {"p0": [("FRANCE",), ("ENGLAND",)], "p1": [("FRANCE",), ("GERMANY",)], "p2": [("GERMANY",)]}
    got = assign_by_preference(players, seats, prefs, 5)
    assert (got["p0"], got["p1"], got["p2"]) == (("ENGLAND",), ("FRANCE",), ("GERMANY",))
    assert got == assign_by_preference(players, seats, prefs, 5)
    assert sorted(got.values()) == sorted(seats)
    randomly = assign_random(players, seats, 9)
    assert sorted(randomly.values()) == sorted(seats) and randomly == assign_random(players, seats, 9)
