"""A player's record across games (judge.games.records): phases on time, late and missed, civil
disorders, abandonments and games finished, summed over the judge's games; rollbacks undo them."""
from __future__ import annotations

import pytest

from judge.games.model import GameError
from judge.games.service import GameService

from test_games_helpers import france_plays_on_alone, seven_player_game, service, submit


def test_a_record_counts_each_phase_once_across_games_and_a_restart(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "one", settings={"abandon_after": 3})
    seven_player_game(svc, "two", settings={"abandon_after": 2})
    for game in ("one", "two"):
        submit(svc, game, "FRANCE", "A PAR H", "A MAR H", "F BRE H")     # on time
    clock.set(svc.status("one").deadline["utc"])                      # (both games' first deadline)
    for game in ("one", "two"):
        svc.process(game)                                             # everyone else: missed, civil disorder
    clock.set(svc.status("one").deadline["utc"])
    svc.run_due()                                                     # the deadline passes: France late
    submit(svc, "one", "FRANCE", "A PAR H", "A MAR H", "F BRE H")
    svc.process("one")
    svc.process("two")                                                # France misses; Germany abandons "two"

    france = svc.record("p-france")
    assert (france.games, france.on_time, france.late, france.missed, france.civil_disorder) == (2, 2, 1, 1, 1)
    assert france.reliability == 75.0
    germany = svc.record("p-germany")
    assert (germany.missed, germany.civil_disorder, germany.abandoned) == (4, 2, 1)
    assert svc.record("nobody").reliability is None and svc.record("nobody").games == 0

    again = GameService(tmp_path / "var", clock=clock)                # rebuilt from the game files
    again.judge.execute("DELETE FROM player_records")
    again.sync_index()
    assert again.record("p-france") == france and again.record("p-germany") == germany

    svc.rollback("two", "S1901M")                     # game two's phases are replaced: they count no more
    after = svc.record("p-germany")
    assert (after.games, after.missed, after.civil_disorder, after.abandoned) == (1, 2, 1, 0)


def test_the_players_still_in_a_game_at_its_end_finished_it(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc)
    france_plays_on_alone(svc, "alpha", lambda: clock.advance(hours=200))
    assert svc.status("alpha").status == "finished"
    assert svc.record("p-france").finished == 1 and svc.record("p-france").missed == 0
    assert svc.record("p-germany").finished == 0 and svc.record("p-germany").abandoned == 1


def test_a_master_may_ask_for_a_record_to_join_and_newcomers_may_always_join(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "one")
    submit(svc, "one", "FRANCE", "A PAR H", "A MAR H", "F BRE H")
    clock.set(svc.status("one").deadline["utc"])
    svc.process("one")                          # France 1 of 1; Germany 0 of 1
    svc.create_account("new", "new@example.org", "pw")
    svc.create_game("strict", master="gm", settings={"players": "two", "min_reliability": 90})
    with pytest.raises(GameError, match=r"at least 90% of their phases; yours is 0% over 1 phases"):
        svc.join("strict", "p-germany")
    svc.join("strict", "p-france")
    svc.join("strict", "new")
    assert svc.status("strict").status == "active"
