"""The coasts in an order, held to the map and the board: the unit named is the unit that is there.

A player who writes `F StP(nc) - Bot` with the fleet on St Petersburg's south coast means that fleet:
there is one unit in St Petersburg, so the order is read as `F STP/SC - BOT` and the reply says how
(DATC 6.B.10; the same reading makes `F Spa(sc) - Lyo` from the north coast fail, as 6.B.11 asks).
What is confirmed, published and stored is the unit that stands there, never the coast as written.

A coast the map does not have (`F Por - Spa(ec)`) is never read as one. In a unit named, it is the
unit standing there if there is one; in a destination, the one coast the unit can reach if there is
only one, the bare province if the province has no coasts; anything else is refused, and the refusal
lists the real coasts. An army takes no coast: one written after an army's destination is dropped.
Notes and refusals are made here in words; the caller (judge.language.parse) says which line.
"""
from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple, cast

from ..engine import (Build, Convoy, Disembark, Location, Move, Order, Retreat, SupportMove, UnitKind, UnitRef,
                      Variant)
from ..engine.calendar import PhaseKind
from ..engine.notation import order_text
from ..engine.position import Unit
from .board_reading import BoardView
from .names import or_list
from .render import describe

# The fields of an order that name a unit, and those that name where one goes.
_REFS = ("unit", "supported", "army", "fleet")
RETREAT = PhaseKind.RETREAT


class Refusal(NamedTuple):
    problem: str
    expected: str
    suggestions: tuple[str, ...]


def read_coasts(order: Order, text: str, variant: Variant, view: BoardView | None,
                power: str | None) -> tuple[Order, tuple[str, ...]] | Refusal:
    """`order` with each unit named placed where that unit stands and each destination's coast one
    the map has, and the notes saying what changed; or why it cannot be read so."""
    board = variant.board
    why: list[str] = []
    changes: dict[str, Any] = {}
    for field in _REFS:
        ref = getattr(order, field, None)
        if ref is None:
            continue
        at = ref.location
        standing = _standing(view, ref, ordering=field == "unit")
        if standing is not None:
            if standing.location.coast is not at.coast:      # (the province is the same: only the coast can differ)
                changes[field] = dataclasses.replace(ref, location=standing.location)
                if at.coast is not None:
                    why.append(_unit_note(variant, at, standing, power))
        elif at.coast is not None and not _real(variant, ref.kind, at):
            return _refuse(variant, order, field, at, ref.kind, board.coasts_of(at.province))
    if changes:
        order = dataclasses.replace(cast(Any, order), **changes)
    dest, goes = _destination(order)
    to: Location | None = getattr(order, dest) if dest is not None else None
    if dest is not None and to is not None and to.coast is not None:
        kind, start = _mover(order, view)
        name = board.province(to.province).name
        coasts = board.coasts_of(to.province)
        if kind is UnitKind.ARMY:
            order = dataclasses.replace(cast(Any, order), **{dest: to.bare})
            why.append(f"an army takes no coast: it {goes} {name}")
        elif to.coast not in coasts:
            if not coasts:
                order = dataclasses.replace(cast(Any, order), **{dest: to.bare})
                why.append(f"{name} has no coasts")
            else:
                reach = [c for c in coasts if start is not None and Location(to.province, c)
                         in board.fleet_can_reach_province(start, to.province)]
                if len(reach) != 1:
                    return _refuse(variant, order, dest, to, kind, tuple(reach) or coasts)
                order = dataclasses.replace(cast(Any, order), **{dest: Location(to.province, reach[0])})
                why.append(f"{name} has no {to.coast.full_name}, and the {reach[0].full_name} is the only"
                           " coast of it the fleet can reach")
    if not why:
        return order, ()
    return order, (f"read '{text}' as {describe(order, variant)}: {'; '.join(why)}",)


def _standing(view: BoardView | None, ref: UnitRef, *, ordering: bool) -> Unit | None:
    """The unit in the province `ref` names, if the board shows one of the kind named (in a retreat
    phase the unit ordered is a dislodged one)."""
    if view is None:
        return None
    province = ref.location.province
    if ordering and view.kind is RETREAT:
        dislodged = view.dislodged.get(province)
        unit = dislodged.unit if dislodged is not None else None
    else:
        unit = view.units.get(province)
    if unit is None or (ref.kind is not None and ref.kind is not unit.kind):
        return None
    return unit


def _real(variant: Variant, kind: UnitKind | None, loc: Location) -> bool:
    """Whether a unit of `kind` could be named at `loc`: an army on no coast, a fleet on one the map has."""
    return kind is not UnitKind.ARMY and loc.coast in variant.board.coasts_of(loc.province)


def _unit_note(variant: Variant, written: Location, unit: Unit, power: str | None) -> str:
    assert written.coast is not None
    kind = f"your {unit.kind.full_name}" if unit.power == power else f"the {unit.kind.full_name} there"
    prov = variant.board.province(written.province)
    if written.coast not in prov.coasts:
        said = f"{prov.name} has no {written.coast.full_name}" if prov.coasts else f"{prov.name} has no coasts"
    else:
        said = f"you wrote the {written.coast.full_name}"
    if unit.location.coast is None:
        return f"{said}; {kind} is in {prov.name}"
    return f"{said}; {kind} is on the {unit.location.coast.full_name}"


def _destination(order: Order) -> tuple[str | None, str]:
    """Which field of `order` names where a unit goes, and the verb for a note."""
    kind = type(order)
    if kind is Move or kind is Disembark:
        return "to", "moves to"
    if isinstance(order, Retreat):
        return "to", "retreats to"
    if isinstance(order, (SupportMove, Convoy)):
        return "to", "goes to"
    if isinstance(order, Build):
        return "location", "is built in"
    return None, ""


def _mover(order: Order, view: BoardView | None) -> tuple[UnitKind | None, Location | None]:
    """The kind of the unit that goes to the order's destination, and where it starts (for a fleet,
    the coasts it can reach depend on it): known where the board shows the unit."""
    if isinstance(order, Build):
        return order.kind, None
    if isinstance(order, (Convoy, Disembark)):
        return UnitKind.ARMY, None
    ref: UnitRef = order.supported if isinstance(order, SupportMove) else cast(Any, order).unit
    standing = _standing(view, ref, ordering=not isinstance(order, SupportMove))
    if standing is not None:
        return standing.kind, standing.location
    return ref.kind, None


def _refuse(variant: Variant, order: Order, field: str, at: Location, kind: UnitKind | None,
            coasts: tuple[Any, ...]) -> Refusal:
    """A coast that is not there: name the province's coasts (those the unit could reach, when that
    is known), each as the order it would make."""
    prov = variant.board.province(at.province)
    assert at.coast is not None
    if kind is UnitKind.ARMY:
        places = [at.bare]
        problem = f"an army stands on no coast: it is in {prov.name}"
    else:
        places = [Location(at.province, c) for c in coasts] or [at.bare]
        problem = (f"{prov.name} has no {at.coast.full_name}" if prov.coasts else f"{prov.name} has no coasts")
    expected = or_list([f"the {c.full_name}" for c in coasts]) if prov.coasts and kind is not UnitKind.ARMY \
        else prov.name
    made = []
    for place in places:
        value = getattr(order, field)
        value = dataclasses.replace(value, location=place) if isinstance(value, UnitRef) else place
        made.append(order_text(dataclasses.replace(cast(Any, order), **{field: value})))
    return Refusal(problem, expected, tuple(made))
