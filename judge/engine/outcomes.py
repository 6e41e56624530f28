"""Typed outcomes: what happened to each order, and why."""
from __future__ import annotations

import enum
from collections.abc import Callable
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


class PhaseResult:
    """A phase played: the position after it, and every order's outcome.

    The outcomes may be given as a function that works them out: adjudication needs only the
    decisions, and who bounced whom is asked far less often than the board after the move is
    (a game's later phases, a differential run), so it is worked out on the first read."""

    __slots__ = ("phase", "position", "dislodged", "standoffs", "_outcomes", "_explain")

    def __init__(self, phase: Phase, outcomes: tuple[Outcome, ...] | Callable[[], tuple[Outcome, ...]],
                 position: Position, dislodged: tuple[DislodgedUnit, ...] = (),
                 standoffs: tuple[str, ...] = ()) -> None:
        self.phase = phase
        self.position = position  # the position right after this phase, before any skipping
        self.dislodged = dislodged
        self.standoffs = standoffs  # provinces left empty by a standoff
        if callable(outcomes):
            self._outcomes: tuple[Outcome, ...] | None = None
            self._explain: Callable[[], tuple[Outcome, ...]] | None = outcomes
        else:
            self._outcomes, self._explain = outcomes, None

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        if self._outcomes is None:
            assert self._explain is not None
            self._outcomes, self._explain = self._explain(), None
        return self._outcomes

    def with_position(self, position: Position) -> PhaseResult:
        """The same phase with the position after it changed (a variant's exchange of centres)."""
        return PhaseResult(self.phase, lambda: self.outcomes, position, self.dislodged, self.standoffs)

    def outcome_of(self, order: Order) -> Outcome | None:
        return next((o for o in self.outcomes if o.order == order), None)

    def _key(self) -> tuple[object, ...]:
        return (self.phase, self.outcomes, self.position, self.dislodged, self.standoffs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PhaseResult) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable cache inside; equal by value

    def __repr__(self) -> str:
        return (f"PhaseResult(phase={self.phase!r}, outcomes={self.outcomes!r}, position={self.position!r}, "
                f"dislodged={self.dislodged!r}, standoffs={self.standoffs!r})")
