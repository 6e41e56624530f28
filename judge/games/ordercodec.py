"""Engine orders to JSON and back, losslessly (the canonical notation drops a supported unit's power).

    {"type": "SupportMove", "unit": {"at": "mun", "kind": "A"},
     "supported": {"at": "bur", "kind": "A", "power": "FRANCE"}, "to": "mar"}
"""
from __future__ import annotations

from typing import Any

from ..engine.geography import Location, UnitKind
from ..engine.orders import (Build, Convoy, Disband, Disembark, Embark, Hold, Move, Order, Retreat, SupportHold,
                             SupportMove, UnitRef, Waive)

_TYPES = {c.__name__: c for c in (Hold, Move, SupportHold, SupportMove, Convoy, Embark, Disembark, Retreat, Disband,
                                  Build, Waive)}
_REFS = ("unit", "supported", "army", "fleet")
_LOCS = ("to", "location")


def _ref_json(ref: UnitRef) -> dict[str, Any]:
    out: dict[str, Any] = {"at": str(ref.location)}
    if ref.kind is not None:
        out["kind"] = ref.kind.value
    if ref.power is not None:
        out["power"] = ref.power
    return out


def _ref(data: dict[str, Any]) -> UnitRef:
    kind = UnitKind(data["kind"]) if data.get("kind") else None
    return UnitRef(Location.parse(data["at"]), kind, data.get("power"))


def order_to_json(order: Order) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(order).__name__}
    for name in _REFS:
        if hasattr(order, name):
            out[name] = _ref_json(getattr(order, name))
    for name in _LOCS:
        if hasattr(order, name):
            out[name] = str(getattr(order, name))
    if isinstance(order, Build):
        out["kind"] = order.kind.value
    if isinstance(order, Move):
        if order.via_convoy:
            out["via_convoy"] = True
        if order.route:
            out["route"] = list(order.route)
    return out


def order_from_json(data: dict[str, Any]) -> Order:
    cls = _TYPES[data["type"]]
    values: dict[str, Any] = {}
    for name in _REFS:
        if name in data:
            values[name] = _ref(data[name])
    for name in _LOCS:
        if name in data:
            values[name] = Location.parse(data[name])
    if cls is Build:
        values["kind"] = UnitKind(data["kind"])
    if cls is Move:
        values["via_convoy"] = bool(data.get("via_convoy"))
        values["route"] = tuple(data.get("route", ()))
    return cls(**values)
