"""The judge's canonical text and JSON forms, as Diplomacy tools write them.

Phases `S1901M`, units `A PAR` and `F STP/SC`, power ids in capitals, and orders in
one strict spelling (`A PAR - BUR`, `A GAS S A MAR - BUR`, `F NTH C A LON - NWY`,
`A BUR R GAS`, `A BUR D`, `BUILD F STP/NC`, `WAIVE`; with armies aboard fleets `A LON EMBARK F ENG`
and `A/F MAO DISEMBARK POR`). This is a codec for machines
and storage, written and read back exactly; what players type goes through the
forgiving parser in `judge.language`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .geography import Coast, Location, UnitKind
from .orders import (Build, Convoy, Disband, Disembark, Embark, Hold, Move, Order, Retreat, SupportHold, SupportMove,
                     UnitRef, Waive)
from .position import DislodgedUnit, Position, Unit
from .variant import Variant


class NotationError(ValueError):
    pass


# (enum members' values looked up once: reading `.value` is a Python call, and results name thousands)
_COAST_TEXT = {c: c.value.upper() for c in Coast}
_KIND_TEXT = {k: k.value for k in UnitKind}


def loc_text(loc: Location) -> str:
    coast = loc.coast
    return loc.province.upper() if coast is None else f"{loc.province.upper()}/{_COAST_TEXT[coast]}"


def parse_loc(variant: Variant, text: str) -> Location:
    try:
        loc = Location.parse(text)
    except ValueError:
        raise NotationError(f"not a location: {text!r}") from None
    if loc.province not in variant.board.provinces:
        raise NotationError(f"no province {text!r} on the {variant.name} map")
    return loc


def unit_text(kind: UnitKind | None, loc: Location) -> str:
    return f"{_KIND_TEXT[kind]} {loc_text(loc)}" if kind else loc_text(loc)


def _ref_text(ref: UnitRef) -> str:
    return unit_text(ref.kind, ref.location)


def order_text(order: Order) -> str:
    kind = type(order)  # the everyday orders first, by their exact class (none is subclassed)
    if kind is Move and not order.via_convoy:  # type: ignore[union-attr]
        return f"{_ref_text(order.unit)} - {loc_text(order.to)}"  # type: ignore[union-attr]
    if kind is SupportMove:
        return f"{_ref_text(order.unit)} S {_ref_text(order.supported)} - {loc_text(order.to)}"  # type: ignore[union-attr]
    return _other_text(order)


def _other_text(order: Order) -> str:
    if isinstance(order, Hold):
        return f"{_ref_text(order.unit)} H"
    if isinstance(order, Move):
        via = " VIA CONVOY" if order.via_convoy else ""
        return f"{_ref_text(order.unit)} - {loc_text(order.to)}{via}"
    if isinstance(order, SupportHold):
        return f"{_ref_text(order.unit)} S {_ref_text(order.supported)}"
    if isinstance(order, SupportMove):
        return f"{_ref_text(order.unit)} S {_ref_text(order.supported)} - {loc_text(order.to)}"
    if isinstance(order, Convoy):
        return f"{_ref_text(order.unit)} C {_ref_text(order.army)} - {loc_text(order.to)}"
    if isinstance(order, Retreat):
        return f"{_ref_text(order.unit)} R {loc_text(order.to)}"
    if isinstance(order, Embark):
        return f"{_ref_text(order.unit)} EMBARK {_ref_text(order.fleet)}"
    if isinstance(order, Disembark):
        return f"{_ref_text(order.unit)} DISEMBARK {loc_text(order.to)}"
    if isinstance(order, Disband):
        return f"{_ref_text(order.unit)} D"
    if isinstance(order, Build):
        return f"BUILD {unit_text(order.kind, order.location)}"
    if isinstance(order, Waive):
        return "WAIVE"
    raise TypeError(order)


def _read_ref(variant: Variant, words: list[str]) -> UnitRef:
    kind = UnitKind(words.pop(0).upper()) if words and words[0].upper() in ("A", "F", "A/F") else None
    if not words:
        raise NotationError("a unit's location is missing")
    return UnitRef(parse_loc(variant, words.pop(0)), kind)


def parse_order(variant: Variant, text: str) -> Order:
    """Read the canonical spelling written by `order_text`."""
    words = text.replace("-", " - ").split()
    upper = [w.upper() for w in words]
    if upper == ["WAIVE"]:
        return Waive()
    if upper[:1] == ["BUILD"]:
        ref = _read_ref(variant, words[1:])
        if ref.kind is None:
            raise NotationError("a build names A or F")
        return Build(ref.kind, ref.location)
    rest = list(words)
    unit = _read_ref(variant, rest)
    if not rest:
        raise NotationError(f"no order for the unit in {text!r}")
    verb = rest.pop(0).upper()
    if verb == "H" and not rest:
        return Hold(unit)
    if verb == "D" and not rest:
        return Disband(unit)
    if verb == "R" and len(rest) == 1:
        return Retreat(unit, parse_loc(variant, rest[0]))
    if verb == "EMBARK":
        fleet = _read_ref(variant, rest)
        if not rest:
            return Embark(unit, fleet)
    if verb == "DISEMBARK" and rest and rest[0].upper() == "A":
        rest.pop(0)  # "A/F MAO DISEMBARK A POR" names the army too
    if verb == "DISEMBARK" and len(rest) == 1:
        return Disembark(unit, parse_loc(variant, rest[0]))
    if verb == "-":
        via = [w.upper() for w in rest[1:]] == ["VIA", "CONVOY"]
        if len(rest) == 1 or via:
            return Move(unit, parse_loc(variant, rest[0]), via)
    if verb in ("S", "C"):
        target = _read_ref(variant, rest)
        if not rest and verb == "S":
            return SupportHold(unit, target)
        if len(rest) == 2 and rest[0] == "-":
            to = parse_loc(variant, rest[1])
            return SupportMove(unit, target, to) if verb == "S" else Convoy(unit, target, to)
    raise NotationError(f"not an order in canonical notation: {text!r}")


# -- positions ----------------------------------------------------------------------------------------

def position_to_json(variant: Variant, position: Position) -> dict[str, Any]:
    units: dict[str, list[str]] = {p: [] for p in variant.power_ids}
    for u in position.units:
        units.setdefault(u.power, []).append(unit_text(u.kind, u.location))
    centres: dict[str, list[str]] = {p: [] for p in variant.power_ids}
    for c, p in position.owners.items():
        centres.setdefault(p, []).append(c.upper())
    out: dict[str, Any] = {
        "variant": variant.id,
        "phase": variant.calendar.code(position.phase),
        "units": units,
        "centres": centres,
    }
    if position.dislodged:
        dislodged: dict[str, list[dict[str, Any]]] = {}
        for d in position.dislodged:
            dislodged.setdefault(d.unit.power, []).append({
                "unit": unit_text(d.unit.kind, d.unit.location),
                "attacker_from": d.attacker_from.upper(),
                "retreats": [loc_text(x) for x in d.retreats],
                **({"civil_disorder": True} if d.civil_disorder else {}),
            })
        out["dislodged"] = dislodged
    if position.homes is not None:     # reassigned during the game (NEWHOMES)
        out["homes"] = {p: [c.upper() for c in cs] for p, cs in position.homes.items()}
    if position.vassals:     # dummies a power controls (VASSAL_DUMMIES): vassal -> overlord
        out["vassals"] = dict(position.vassals)
    return out


def _read_unit(variant: Variant, power: str, text: str) -> Unit:
    words = text.split()
    if len(words) != 2:
        raise NotationError(f"a unit is written like 'A PAR' or 'F STP/SC', not {text!r}")
    try:
        kind = UnitKind(words[0].upper())
    except ValueError:
        raise NotationError(f"unknown unit kind in {text!r}") from None
    loc = parse_loc(variant, words[1])
    if not variant.board.can_stand(kind, loc):
        raise NotationError(f"{text!r}: a {kind.full_name} cannot stand there")
    return Unit(power, kind, loc)


def position_from_json(variant: Variant, data: Mapping[str, Any]) -> Position:
    phase = variant.calendar.parse(data["phase"])
    powers = set(variant.power_ids)

    def power_id(name: str) -> str:
        pid = name.strip().upper()
        if pid not in powers:
            raise NotationError(f"no power {name!r} in the {variant.name} variant")
        return pid

    units = [_read_unit(variant, power_id(p), u) for p, us in data.get("units", {}).items() for u in us]
    owners = {}
    for p, cs in data.get("centres", {}).items():
        for c in cs:
            prov = parse_loc(variant, c).province
            if not variant.board.province(prov).supply_centre:
                raise NotationError(f"{c} is not a supply centre")
            owners[prov] = power_id(p)
    dislodged = []
    occupied = {u.location.province for u in units}
    for p, ds in data.get("dislodged", {}).items():
        for d in ds:
            unit = _read_unit(variant, power_id(p), d["unit"])
            retreats = tuple(parse_loc(variant, r) for r in d.get("retreats", ()))
            for loc in retreats:  # (the engine takes the listed places as free: a unit going there stands alone)
                if loc.province in occupied:
                    raise NotationError(f"{d['unit']} cannot retreat to {loc_text(loc)}: a unit stands there")
            dislodged.append(
                DislodgedUnit(
                    unit,
                    parse_loc(variant, d.get("attacker_from", unit.location.province)).province,
                    retreats,
                    bool(d.get("civil_disorder", False)),
                )
            )
    homes = None
    if data.get("homes") is not None:
        homes = {power_id(p): tuple(parse_loc(variant, c).province for c in cs) for p, cs in data["homes"].items()}
        for c in (c for cs in homes.values() for c in cs):
            if not variant.board.province(c).supply_centre:
                raise NotationError(f"home centre {c.upper()} is not a supply centre")
    vassals = {power_id(v): power_id(o) for v, o in (data.get("vassals") or {}).items()}
    try:
        return Position(phase, tuple(units), owners, tuple(dislodged), homes, vassals or None)
    except ValueError as e:
        raise NotationError(str(e)) from None
