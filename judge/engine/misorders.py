"""Likely misorders in one power's orders: legal orders that probably do not do what was meant.

A confirmation warns of these; the orders still stand as given. Each warning is a kind and the
provinces it is about; the words are the mail layer's. Only the power's own orders are known
when it sends them, so a warning is about its own units: another power's unit may well do what
a support or convoy expects of it.

    warnings(variant, position, "FRANCE", orders) -> (Misorder(Kind.SAME_PLACE, ("bur", "mar", "par")), ...)
"""
from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from .calendar import PhaseKind
from .geography import UnitKind
from .orders import Convoy, Move, Order, Retreat, SupportHold, SupportMove
from .position import Position
from .variant import Variant


class Kind(enum.Enum):
    """What looks wrong. The values are codes the words layer looks up (never rename one)."""
    # args: (destination, province of each unit sent there, ...)
    SAME_PLACE = "same_place"
    # args: (mover's province, destination): an own unit there holds, supports or convoys
    INTO_OWN_UNIT = "into_own_unit"
    # args: (supporter's province, supported unit's province, destination)
    SUPPORT_NOT_MATCHED = "support_not_matched"
    # args: (fleet's province, army's province, destination)
    CONVOY_NOT_MATCHED = "convoy_not_matched"
    # args: (supporter's province, supported unit's province, where that unit moves)
    HOLD_SUPPORT_OF_MOVER = "hold_support_of_mover"
    # args: (army's province, destination)
    NO_OWN_CONVOY = "no_own_convoy"
    # args: (supporter's or fleet's province, the empty province it names)
    NOBODY_THERE = "nobody_there"


@dataclass(frozen=True, slots=True)
class Misorder:
    kind: Kind
    args: tuple[str, ...]


def warnings(variant: Variant, position: Position, power: str, orders: Sequence[Order]) -> tuple[Misorder, ...]:
    """The likely misorders among `power`'s `orders` in `position`, in a stable order."""
    kind = position.phase.kind
    if kind is PhaseKind.RETREAT:
        return _same_place([o for o in orders if isinstance(o, Retreat)])
    if kind is not PhaseKind.MOVEMENT:
        return ()
    own = {u.location.province for u in position.units_of(power)}
    by_unit: dict[str, Order] = {}
    for order in orders:
        unit = getattr(order, "unit", None)
        if unit is not None and unit.location.province in own:
            by_unit[unit.location.province] = order   # the last order for a unit is the one that stands
    given = list(by_unit.values())
    moves = {o.unit.location.province: o for o in given if isinstance(o, Move)}
    found: list[Misorder] = list(_same_place([o for o in given if isinstance(o, Move)]))
    for move in moves.values():
        dest = move.to.province
        if dest in own and dest not in moves:
            found.append(Misorder(Kind.INTO_OWN_UNIT, (move.unit.location.province, dest)))
        if _needs_convoy(variant, position, move) and not any(
                isinstance(o, Convoy) and o.army.location.province == move.unit.location.province
                and o.to.province == dest for o in given):
            found.append(Misorder(Kind.NO_OWN_CONVOY, (move.unit.location.province, dest)))
    for order in given:
        if isinstance(order, (SupportHold, SupportMove, Convoy)):
            found.extend(_helper_warnings(position, own, moves, order))
    return tuple(found)


def _same_place(moves: Sequence[Move | Retreat]) -> tuple[Misorder, ...]:
    sent: dict[str, list[str]] = {}
    for move in moves:
        sent.setdefault(move.to.province, []).append(move.unit.location.province)
    return tuple(Misorder(Kind.SAME_PLACE, (dest, *sorted(froms)))
                 for dest, froms in sorted(sent.items()) if len(froms) > 1)


def _needs_convoy(variant: Variant, position: Position, move: Move) -> bool:
    """An army's move that can only go by sea: asked for by convoy, or to a place it cannot walk to."""
    unit = position.unit_in(move.unit.location.province)
    if unit is None or unit.kind is not UnitKind.ARMY:
        return False
    return move.via_convoy or move.to.province not in variant.board.army_steps(unit.location.province)


def _helper_warnings(position: Position, own: set[str], moves: dict[str, Move],
                     order: SupportHold | SupportMove | Convoy) -> list[Misorder]:
    """A support or convoy naming an empty province, or an own unit not ordered as it expects."""
    here = order.unit.location.province
    helped = (order.army if isinstance(order, Convoy) else order.supported).location.province
    if position.unit_in(helped) is None:
        return [Misorder(Kind.NOBODY_THERE, (here, helped))]
    if helped not in own or helped == here:
        return []   # another power's unit: its orders are not known; supporting itself is an error already
    move = moves.get(helped)
    if isinstance(order, SupportHold):
        return [Misorder(Kind.HOLD_SUPPORT_OF_MOVER, (here, helped, move.to.province))] if move else []
    if move is not None and move.to.province == order.to.province:
        return []
    kind = Kind.CONVOY_NOT_MATCHED if isinstance(order, Convoy) else Kind.SUPPORT_NOT_MATCHED
    return [Misorder(kind, (here, helped, order.to.province))]
