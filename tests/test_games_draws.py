"""Who shares a draw of all survivors, by edition (judge/games/ending.py, `Rules.draw_share`).

1982 and 2000: "all players who still have pieces on the board share equally in a draw".
5th: "All players who still have supply centers agree to share equally in a draw."
"""
from __future__ import annotations

import pytest

from judge.engine import Location, Position, Unit, UnitKind, load_variant
from judge.engine.calendar import Phase, PhaseKind
from judge.engine.rules import edition
from judge.games.ending import draw_survivors, survivors

V = load_variant("standard")

# France has centres but has lost every unit (it will build in the winter); Germany still has an
# army but no centre left (it will remove it); England has both; the others are gone.
POSITION = Position(Phase(1905, 1, PhaseKind.MOVEMENT), (
    Unit("GERMANY", UnitKind.ARMY, Location("bur")),
    Unit("ENGLAND", UnitKind.FLEET, Location("nth")),
), {"par": "FRANCE", "bre": "FRANCE", "lon": "ENGLAND"})

CASES = [
    ("1982", ("ENGLAND", "GERMANY")),
    ("2000", ("ENGLAND", "GERMANY")),
    ("5th", ("ENGLAND", "FRANCE")),
]


@pytest.mark.parametrize("rules,sharing", CASES, ids=[c[0] for c in CASES])
def test_draw_survivors_by_edition(rules, sharing):
    assert draw_survivors(POSITION, V.power_ids, edition(rules)) == tuple(p for p in V.power_ids if p in sharing)


def test_still_in_the_game_is_a_centre_or_a_unit_in_every_edition():
    assert set(survivors(POSITION, V.power_ids)) == {"ENGLAND", "FRANCE", "GERMANY"}
