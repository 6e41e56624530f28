"""What movement adjudication works on: each unit (or landing army) with the one order it carries out."""
from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from .orders import Order
from .outcomes import Outcome, Rejected, Why

__all__ = ["Entry", "MovementOrders", "Rejected", "Route"]
from .position import Unit


class Route(enum.Enum):
    # identity hash, computed in C (see judge.engine.geography.Terrain)
    __hash__ = object.__hash__

    LAND = "land"  # a direct move (fleets always move this way)
    CONVOY = "convoy"  # only by convoy; fails if every convoy route is disrupted
    CONVOY_ELSE_LAND = "convoy, else land"  # older readings: land route if the convoy fails
    DISEMBARK = "disembark"  # the army aboard an A/F lands (see judge.engine.army_fleet)


@dataclass(slots=True)
class Entry:
    """A unit with the one order it will carry out.

    Never changed once made (`dataclasses.replace` makes a new one). Not `frozen`: one is built
    for every unit every phase, and a frozen dataclass takes about five times as long to build."""
    power: str
    unit: Unit
    order: Order  # normalised: Hold, Move, SupportHold, SupportMove or Convoy
    given: Order | None  # as the player wrote it; None when the judge made it
    route: Route = Route.LAND
    # An order that was rejected leaves its unit holding; the reason goes in the report.
    rejected_reason: Why | None = None
    # A disembarking army landing from the sea its A/F moves to: the A/F's key, whose move must succeed.
    carrier: str | None = None

    @property
    def province(self) -> str:
        return self.unit.location.province


@dataclass(frozen=True, slots=True)
class MovementOrders:
    entries: Mapping[str, Entry]  # province of the unit -> its entry
    rejected: tuple[Outcome, ...]  # orders that will not be carried out, with the reason
