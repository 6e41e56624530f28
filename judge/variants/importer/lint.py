"""Check an imported map: what a DPjudge map may get wrong and the judge would then play wrongly.

Each problem is a plain sentence; `errors` would make a game unplayable or wrong, `warnings`
are oddities worth a look (a one-sided border DPjudge would also have refused).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .convert import COASTS, Geography, supply_centres
from .mapfile import MapData, base


@dataclass
class Report:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def lint(data: MapData, variant: dict[str, Any]) -> Report:
    r = Report()
    geo = Geography(data)
    _names(data, r)
    _symmetry(geo, r)
    _coasts(data, geo, r)
    _centres(data, geo, r)
    _units(data, geo, r)
    _reachable(variant, r)
    letters = [p["letter"] for p in variant["powers"]]
    for letter in sorted({x for x in letters if letters.count(x) > 1}):
        r.errors.append(f"powers share the initial {letter!r}")
    r.warnings += geo.loose + data.renamed
    return r


def _names(data: MapData, r: Report) -> None:
    for k in data.terrain:
        if k not in data.places and base(k) not in data.places:
            r.errors.append(f"{k} has a terrain line but no name")
    for k in data.places:
        if k not in data.terrain:
            r.warnings.append(f"{k} ({data.places[k].name}) is named but has no terrain line")


def _symmetry(geo: Geography, r: Report) -> None:
    for (a, b) in sorted(geo.army_pairs):
        if (b, a) not in geo.army_pairs:
            r.warnings.append(f"{a} lists {b} as a neighbour, but {b} does not list {a}")
    for (a, b) in sorted(geo.fleet_pairs):
        if (b, a) not in geo.fleet_pairs:
            r.warnings.append(f"a fleet may go from {a} to {b} but not back")


def _coasts(data: MapData, geo: Geography, r: Report) -> None:
    for p, coasts in geo.coasts.items():
        main = data.terrain.get(p)
        if main is None:
            r.errors.append(f"{p} has coasts ({', '.join(coasts)}) but no line of its own")
        elif main.fleet_ok:
            r.errors.append(f"{p} has coasts but its own line is not in lower case (a fleet could stand on it)")
        for c in coasts:
            if c not in COASTS:
                r.errors.append(f"{p}/{c}: the judge knows only north, south, east and west coasts")
            if not any(a == f"{p}/{c}" or b == f"{p}/{c}" for a, b in geo.fleet_pairs):
                r.errors.append(f"{p}/{c} touches no sea or coast a fleet can reach")
    for k in geo.fleet_at:
        if not any(k in pair for pair in geo.fleet_pairs):
            r.warnings.append(f"a fleet at {k} could never move")


def _played(data: MapData):
    """The powers on the board (an UNPLAYED power's homes and units are off it)."""
    return [p for p in data.powers.values() if p.id not in data.unplayed]


def _centres(data: MapData, geo: Geography, r: Report) -> None:
    homes: dict[str, str] = {}
    for p in _played(data):
        if not p.homes and "BUILD_ANY" not in data.rules:
            r.errors.append(f"{p.name} has no home centre to build in")
        for c in p.homes:
            if c in homes:
                r.warnings.append(f"{c} is a home centre of both {homes[c]} and {p.name}")
            homes[c] = p.name
    for c in supply_centres(data):
        if c not in geo.kind:
            r.errors.append(f"supply centre {c} is not on the map")
        elif geo.kind[c] in ("WATER", "SHUT"):
            r.errors.append(f"supply centre {c} is {geo.kind[c].lower()}, where no army can take it")
    # every centre is owned by a power or listed as neutral: by construction (UNOWNED or a home);
    # but a centre that a power owns at the start must be one of the map's centres.
    for p in data.powers.values():
        for c in p.owns or ():
            if c not in geo.kind:
                r.errors.append(f"{p.name} owns {c}, which is not on the map")


def _units(data: MapData, geo: Geography, r: Report) -> None:
    seen: dict[str, str] = {}
    for p in _played(data):
        for kind, loc in p.units:
            where = base(loc)
            if where in seen:
                r.errors.append(f"{p.name}'s {kind} {loc} shares {where} with a unit of {seen[where]}")
            seen[where] = p.name
            if kind == "A" and (where not in geo.army_ok or "/" in loc):
                r.errors.append(f"{p.name}'s army cannot stand in {loc}")
            if kind == "F" and loc not in geo.fleet_at:
                r.errors.append(f"{p.name}'s fleet cannot stand in {loc}"
                                + (" (say which coast)" if where in geo.coasts and "/" not in loc else ""))


def _reachable(variant: dict[str, Any], r: Report) -> None:
    """Every playable province is reachable from every other by some unit's moves."""
    open_ = [p["id"] for p in variant["provinces"] if p["terrain"] != "impassable"]
    if not open_:
        r.errors.append("the map has no provinces")
        return
    nbrs: dict[str, set[str]] = {p: set() for p in open_}
    for a, b in variant["army_edges"]:
        nbrs[a].add(b), nbrs[b].add(a)
    for a_coast, b_coast in variant["fleet_edges"]:
        a, b = a_coast.split("/")[0], b_coast.split("/")[0]
        nbrs[a].add(b), nbrs[b].add(a)
    seen = {open_[0]}
    todo = deque([open_[0]])
    while todo:
        for n in nbrs[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    lost = [p for p in open_ if p not in seen]
    if lost:
        r.errors.append(f"not reachable from {open_[0]}: {', '.join(lost)}")
