"""One phase at a time: adjudicate it, then move on past phases nobody has to play."""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from .adjustment import adjudicate_adjustments, adjustment_due, build_capacity
from .calendar import PhaseKind
from .geography import Location
from .homes import settle_new_homes
from .movement import adjudicate_movement
from .orders import Order
from .outcomes import Outcome, PhaseResult, Reason
from .position import DislodgedUnit, Position
from .retreat import adjudicate_retreats
from .seasonal import close_spaces
from .rules import DEFAULT, Rules
from .variant import Variant

_BY_KIND = {
    PhaseKind.MOVEMENT: adjudicate_movement,
    PhaseKind.RETREAT: adjudicate_retreats,
    PhaseKind.ADJUSTMENT: adjudicate_adjustments,
}


@dataclass(frozen=True)
class Need:
    """What one power has to decide in the current phase."""
    units: tuple[Location, ...] = ()  # movement: units to order
    retreats: tuple[DislodgedUnit, ...] = ()  # retreat: dislodged units
    builds: int = 0  # adjustment: builds it may make (limited by free home centres)
    removals: int = 0  # adjustment: units it must remove

    def __bool__(self) -> bool:
        return bool(self.units or self.retreats or self.builds or self.removals)


@dataclass(frozen=True)
class Turn:
    result: PhaseResult  # the phase that was played
    skipped: tuple[PhaseResult, ...]  # phases after it that needed no decision, settled by the judge
    next: Position  # where somebody has something to decide (or the game's end)


def adjudicate(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
               rules: Rules = DEFAULT, *, disorder: Collection[str] | None = None) -> PhaseResult:
    """Adjudicate exactly the phase `position` is in. Pure: no I/O, no clock.

    `disorder` (a movement): the powers in civil disorder, whose dislodged units are disbanded with
    no retreat. None: as the rulebooks have it (`Rules.civil_disorder_disbands_dislodged`), every
    power with units that sent no orders. A mail game's house rule passes the powers it holds to be
    gone (abandoned, resigned, neutral), so a player who only missed a deadline still retreats."""
    if position.phase.kind is PhaseKind.MOVEMENT:
        return adjudicate_movement(variant, position, orders, rules, disorder)
    return _BY_KIND[position.phase.kind](variant, position, orders, rules)


def check_orders(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                 rules: Rules = DEFAULT) -> tuple[Outcome, ...]:
    """The orders that cannot be carried out as things stand, each with the reason.

    For a confirmation at submission time: it sees only the orders given here, so a move
    that needs another power's convoy may still be reported as lacking one.
    """
    result = adjudicate(variant, position, orders, rules)
    return tuple(o for o in result.outcomes
                 if not o.by_judge and o.reason in (Reason.ILLEGAL, Reason.NOT_NEEDED))


def orders_needed(variant: Variant, position: Position) -> dict[str, Need]:
    """The powers that have something to decide now, and what."""
    kind = position.phase.kind
    needs: dict[str, Need] = {}
    for power in variant.power_ids:
        if kind is PhaseKind.MOVEMENT:
            need = Need(units=tuple(u.location for u in position.units_of(power)))
        elif kind is PhaseKind.RETREAT:
            # a unit with nowhere to go has nothing to decide
            need = Need(retreats=tuple(d for d in position.dislodged if d.unit.power == power and d.retreats))
        else:
            due = adjustment_due(variant, position, power)
            if due > 0:
                need = Need(builds=min(due, build_capacity(variant, position, power)))
            else:
                need = Need(removals=max(0, -due))
        if need:
            needs[power] = need
    return needs


def process_phase(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                  rules: Rules = DEFAULT, *, after_movement: Callable[[Position], Position] | None = None,
                  disorder: Collection[str] | None = None) -> Turn:
    """Adjudicate this phase, then settle the following phases that need no decision.

    `after_movement` changes the position at the end of a move, before retreats and adjustments
    (a variant's exchange of centres); it must be pure like the rest. `disorder`: as `adjudicate`."""
    result = adjudicate(variant, position, orders, rules, disorder=disorder)
    if after_movement is not None and position.phase.kind is PhaseKind.MOVEMENT:
        result = result.with_position(after_movement(result.position))
    skipped: list[PhaseResult] = []
    nxt = result.position
    while not _anyone_decides(variant, nxt) and not _game_over(variant, nxt):
        step = adjudicate(variant, nxt, {}, rules)
        if step.outcomes or nxt.phase.kind is not PhaseKind.MOVEMENT:
            skipped.append(step)
        if nxt.phase.kind is PhaseKind.MOVEMENT:
            break  # a movement phase with no units at all: nothing more to play
        nxt = step.position
    return Turn(result, tuple(skipped), close_spaces(variant, settle_new_homes(variant, nxt)))


def _anyone_decides(variant: Variant, position: Position) -> bool:
    """Is `orders_needed` not empty? Asked after every phase played, so answered without making
    every power's need: a movement with units, a retreat with somewhere to go, an adjustment where
    the first power with a build it can make or a removal says so."""
    kind = position.phase.kind
    ids = variant.power_ids
    if kind is PhaseKind.MOVEMENT:
        return any(u.power in ids for u in position.units)
    if kind is PhaseKind.RETREAT:
        return any(d.retreats and d.unit.power in ids for d in position.dislodged)
    for power in ids:
        due = adjustment_due(variant, position, power)
        if due < 0 or due > 0 and build_capacity(variant, position, power):
            return True
    return False


def _game_over(variant: Variant, position: Position) -> bool:
    last = variant.last_phase
    return last is not None and not (position.phase < last or position.phase == last)
