"""Reading DATC v3.0 JSON cases into positions and orders (test support)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from judge.engine import (Build, Convoy, Disband, Hold, Location, Move, Position, SupportHold, SupportMove,
                          Unit, UnitKind, UnitRef, starting_position)
from judge.engine.calendar import Phase, PhaseKind

DATA = Path(__file__).parent / "data" / "datc"
POWERS = {"ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY", "ITA": "ITALY", "AUS": "AUSTRIA",
          "RUS": "RUSSIA", "TUR": "TURKEY"}


def loc(text: str) -> Location:
    m = re.fullmatch(r"(\w+)(?:\((\w+)\))?", text.strip().lower())
    province = {"nor": "nwy"}.get(m.group(1), m.group(1))  # the file spells Norway both ways
    return Location.parse(province + ("/" + m.group(2) if m.group(2) else ""))


def read_order(line: str):
    """(power, order, unit) from the DATC JSON spelling `ENG: F nth -> pic`."""
    power, _, rest = line.partition(":")
    power = POWERS[power.strip()]
    words = rest.split()
    kind = UnitKind(words[0].upper())
    where = loc(words[1])
    ref = UnitRef(where, kind)
    unit = Unit(power, kind, where)
    tail = " ".join(words[2:])
    low = tail.lower()
    if low in ("hold", "holds"):
        return power, Hold(ref), unit
    if low == "build":
        return power, Build(kind, where), None
    if low == "disband":
        return power, Disband(ref), unit
    m = re.fullmatch(r"->\s*(\S+)(\s+via convoy)?", low)
    if m:
        return power, Move(ref, loc(m.group(1)), bool(m.group(2))), unit
    m = re.fullmatch(r"supports\s+([af])\s+(\S+)(?:\s*->\s*(\S+))?", low)
    if m:
        target = UnitRef(loc(m.group(2)), UnitKind(m.group(1).upper()))
        if m.group(3) is None:
            return power, SupportHold(ref, target), unit
        return power, SupportMove(ref, target, loc(m.group(3))), unit
    m = re.fullmatch(r"convoys\s+(\S+)\s*->\s*(\S+)", low)
    if m:
        return power, Convoy(ref, UnitRef(loc(m.group(1)), UnitKind.ARMY), loc(m.group(2))), unit
    raise ValueError(f"cannot read DATC order {line!r}")


def read_unit(line: str) -> Unit:
    power, _, rest = line.partition(":")
    kind, where = rest.split()
    return Unit(POWERS[power.strip()], UnitKind(kind.upper()), loc(where))


def load_cases() -> list[dict]:
    cases = json.loads((DATA / "datc.json").read_text())["cases"]
    fixes = json.loads((DATA / "datc_corrections.json").read_text())
    by_key = {(c["name"], c.get("edition")): c for c in cases}
    for fix in fixes["replace"]:
        key = (fix["name"], fix.get("edition"))
        if key in by_key:
            by_key[key].clear()
        by_key.setdefault(key, {}).update(fix)
    return list(by_key.values())


def position_for(variant, case: dict, orders: dict, phase_kind: PhaseKind) -> Position:
    """Units from starting_state, else implied by the orders; centres as in 1901 plus `occupiers`."""
    start = starting_position(variant)
    if "starting_state" in case:
        units = [read_unit(u) for u in case["starting_state"]]
    else:
        units = []
        for line in orders:
            _, _, unit = read_order(line)
            if unit is not None and all(u.location.province != unit.location.province for u in units):
                units.append(unit)
    owners = dict(start.owners)
    for province, power in case.get("occupiers", {}).items():
        owners[province] = POWERS[power]
    for u in units:
        if variant.board.province(u.location.province).supply_centre and "occupiers" in case \
                or phase_kind is PhaseKind.ADJUSTMENT and variant.board.province(u.location.province).supply_centre:
            owners[u.location.province] = u.power
    season = 1 if phase_kind is PhaseKind.ADJUSTMENT else 0
    return Position(Phase(1901, season, phase_kind), tuple(units), owners)
