"""Orders in full names, for confirmations: "Army Paris -> Burgundy"."""
from __future__ import annotations

from ..engine import (Build, Convoy, Disband, Disembark, Embark, Hold, Location, Move, Order, Retreat, SupportHold,
                      SupportMove, UnitKind, UnitRef, Variant, Waive)


def place_name(loc: Location, variant: Variant) -> str:
    name = variant.board.provinces[loc.province].name
    return name if loc.coast is None else f"{name} ({loc.coast.full_name})"


def unit_name(unit: UnitRef, variant: Variant) -> str:
    parts = []
    if unit.power is not None:
        parts.append(variant.power(unit.power).adjective)
    if unit.kind is not None:
        kind = unit.kind.full_name
        parts.append(kind.capitalize() if not parts else kind)
    parts.append(place_name(unit.location, variant))
    return " ".join(parts)


def describe(order: Order, variant: Variant) -> str:
    """`order` in full names, e.g. "Fleet Mid-Atlantic Ocean -> Spain (north coast)"."""
    def u(ref: UnitRef) -> str:
        return unit_name(ref, variant)

    def p(loc: Location) -> str:
        return place_name(loc, variant)

    if isinstance(order, Hold):
        return f"{u(order.unit)} holds"
    if isinstance(order, Move):
        via = [p(Location(r)) for r in order.route]
        text = " -> ".join([u(order.unit), *via, p(order.to)])
        return text + (" via convoy" if order.via_convoy and not order.route else "")
    if isinstance(order, SupportHold):
        return f"{u(order.unit)} supports {u(order.supported)}"
    if isinstance(order, SupportMove):
        if order.supported.location.province == order.unit.location.province:
            return f"{u(order.unit)} supports its own army disembarking -> {p(order.to)}"
        return f"{u(order.unit)} supports {u(order.supported)} -> {p(order.to)}"
    if isinstance(order, Embark):
        return f"{u(order.unit)} embarks on {u(order.fleet)}, forming an army aboard fleet (A/F)"
    if isinstance(order, Disembark):
        return f"{u(order.unit)}: its army disembarks -> {p(order.to)}"
    if isinstance(order, Convoy):
        return f"{u(order.unit)} convoys {u(order.army)} -> {p(order.to)}"
    if isinstance(order, Retreat):
        text = f"{u(order.unit)} retreats -> {p(order.to)}"
        if order.unit.kind is UnitKind.ARMY_FLEET and not variant.board.provinces[order.to.province].is_sea:
            text += " (as a fleet: its army is disbanded)"
        return text
    if isinstance(order, Disband):
        return f"{u(order.unit)} disbands"
    if isinstance(order, Build):
        return f"Build {order.kind.full_name} {p(order.location)}"
    if isinstance(order, Waive):
        return "Waive a build"
    raise TypeError(f"not an order: {order!r}")
