"""Typed outcomes: what happened to each order, and why."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from .calendar import Phase
from .orders import Order
from .position import DislodgedUnit, Position


class Reason(enum.Enum):
    # identity hash, computed in C (see judge.engine.geography.Terrain)
    __hash__ = object.__hash__

    # the order did what it said
    MOVED = "moved"
    HELD = "held"
    SUPPORTED = "support given"
    CONVOYED = "convoyed the army"
    EMBARKED = "embarked"  # an army boarded a fleet (A/F variants)
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    BUILT = "built"
    WAIVED = "build waived"
    # it did not
    BOUNCED = "bounced"
    SUPPORT_CUT = "support cut"
    SUPPORT_UNMATCHED = "the supported unit was not ordered so"
    CONVOY_UNMATCHED = "the army did not move along this convoy"
    CONVOY_DISRUPTED = "convoy disrupted"
    NO_CONVOY = "no convoy route"
    DISEMBARK_FAILED = "disembarkation failed"  # the A/F never reached the sea it was to land from
    DISLODGED = "dislodged"
    ILLEGAL = "illegal order"
    NOT_NEEDED = "not needed"  # e.g. more builds than allowed
    DISBANDED_NO_RETREAT = "disbanded: nowhere to retreat"
    RETREAT_BOUNCED = "retreat bounced"
    CIVIL_DISORDER = "civil disorder"


@dataclass(frozen=True, slots=True)
class Outcome:
    power: str
    order: Order
    succeeded: bool
    reason: Reason
    detail: str = ""  # a sentence for people: why it was illegal, who bounced it, ...
    # provinces involved: units that bounced it, the unit that cut the support, ...
    involving: tuple[str, ...] = ()
    # set when this order's unit was dislodged: the province the attack came from
    dislodged_from: str | None = None
    # an order the judge made, not the player (civil-disorder removal, default hold)
    by_judge: bool = False


@dataclass(frozen=True, slots=True)
class PhaseResult:
    phase: Phase
    outcomes: tuple[Outcome, ...]
    position: Position  # the position right after this phase, before any skipping
    dislodged: tuple[DislodgedUnit, ...] = ()
    standoffs: tuple[str, ...] = ()  # provinces left empty by a standoff

    def outcome_of(self, order: Order) -> Outcome | None:
        return next((o for o in self.outcomes if o.order == order), None)
