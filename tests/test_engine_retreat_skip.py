"""A retreat phase with nobody to retreat and no orders is settled without the general retreat
code (judge.engine.retreat): the board is the same as the general code makes it, in the same
order, with ownership updated after the fall's move, on every variant's seeded boards."""
from __future__ import annotations

import random

import pytest

from engine_phases import random_position
from judge.engine import FIFTH, load_variant
from judge.engine.calendar import Phase, PhaseKind
from judge.engine.ownership import update_ownership
from judge.engine.position import Position
from judge.engine.retreat import adjudicate_retreats

VARIANTS = ("standard", "ancmed", "modern", "youngstown", "hundred")


@pytest.mark.parametrize("name", VARIANTS)
def test_a_retreat_with_nobody_to_retreat_makes_the_general_codes_board(name):
    variant = load_variant(name)
    rng = random.Random(27)
    for i in range(12):
        board = random_position(variant, rng, per_power=rng.choice((1, 3, 5)))
        season = i % len(variant.calendar.seasons)
        position = board.with_(phase=Phase(variant.calendar.start_year + i, season, PhaseKind.RETREAT))
        result = adjudicate_retreats(variant, position, {p: [] for p in variant.power_ids[:2]}, FIFTH)
        expected = Position(variant.calendar.next_phase(position.phase), position.units, dict(position.owners), (),
                            position.homes, position.vassals)
        if variant.calendar.adjusts(position.phase):
            expected = update_ownership(variant, expected)
        assert result.outcomes == () and result.phase == position.phase
        assert result.position == expected and result.position.units == expected.units
        assert all(result.position.unit_in(u.location.province) == u for u in expected.units)
