"""1900's victory (its rule page; DPjudge's for every map it plays): with 39 centres two powers may
reach 18 at once; the one with more wins, and if they are tied the game goes on."""
from __future__ import annotations

from judge.engine import FIFTH, load_variant, starting_position
from judge.games.ending import check_win
from judge.games.model import Settings
from judge.games.small import setup

VARIANT = load_variant("1900")


def _owning(counts: dict[str, int]):
    centres = iter(sorted(VARIANT.supply_centres))
    owners = {next(centres): power for power, n in counts.items() for _ in range(n)}
    return starting_position(VARIANT).with_(owners=owners)


def test_two_powers_at_18_the_one_with_more_wins_tied_they_play_on():
    won = check_win(VARIANT, _owning({"BRITAIN": 19, "FRANCE": 18}), Settings(), setup("seven"), FIFTH, {})
    assert won is not None and won.winners == ("BRITAIN",)
    assert check_win(VARIANT, _owning({"BRITAIN": 18, "FRANCE": 18}), Settings(), setup("seven"), FIFTH, {}) is None
    assert check_win(VARIANT, _owning({"BRITAIN": 18, "FRANCE": 17}), Settings(), setup("seven"), FIFTH, {}).winners \
        == ("BRITAIN",)
