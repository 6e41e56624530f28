"""Reading the DATC v2.4 cases in jDip's text format (tests/data/datc/datc_v2.4_06.txt)."""
from __future__ import annotations

from pathlib import Path

from judge.engine import (Build, Convoy, Disband, Hold, Location, Move, SupportHold, SupportMove, Unit,
                          UnitKind, UnitRef)

FILE = Path(__file__).parent / "data" / "datc" / "datc_v2.4_06.txt"
RENAMED = {"gol": "lyo", "mid": "mao", "nrg": "nwg", "nat": "nao"}  # godip's ids for four seas


def loc(text: str) -> Location:
    province, _, coast = text.lower().partition("/")
    return Location.parse(RENAMED.get(province, province) + ("/" + coast if coast else ""))


def read_cases() -> list[dict]:
    cases, case, section = [], None, None
    for raw in FILE.read_text().splitlines():
        line = raw.split("#")[0].strip()
        if not line:
            continue
        head = line.split()[0]
        if head == "CASE":
            case = {"id": line.split()[1], "sections": {}}
            section = None
        elif head == "END":
            cases.append(case)
            case = None
        elif case is None:
            continue
        elif head == "PRESTATE_SETPHASE":
            case["phase"] = line.split(None, 1)[1]
        elif head in ("PRESTATE", "PRESTATE_DISLODGED", "PRESTATE_RESULTS", "PRESTATE_SUPPLYCENTER_OWNERS",
                      "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED", "POSTSTATE_SAME"):
            section = head
            case["sections"].setdefault(section, [])
        else:
            case["sections"][section].append(line)
    return cases


MISSPELT = {"GERMNAY": "GERMANY"}  # the file's one typo in a power name


def split_power(line: str) -> tuple[str, str]:
    if ":" in line:
        power, _, rest = line.partition(":")
    else:  # a few POSTSTATE lines leave out the colon
        power, _, rest = line.partition(" ")
    power = power.strip().upper()
    return MISSPELT.get(power, power), rest.strip()


def read_unit(line: str) -> Unit:
    power, rest = split_power(line)
    if line.lstrip().startswith("###"):
        raise ValueError(line)
    kind, where = rest.split()
    return Unit(power, UnitKind(kind.upper()), loc(where))


def _ref(words: list[str]) -> UnitRef:
    kind = None
    if words[0] in ("a", "f"):
        kind = UnitKind(words.pop(0).upper())
    return UnitRef(loc(words.pop(0)), kind)


def read_order(text: str):
    words = text.lower().replace("-", " - ").split()
    if words[0] == "build":
        return Build(UnitKind(words[1].upper()), loc(words[2]))
    if words[0] in ("remove", "disband"):
        return Disband(_ref(words[1:]))
    unit = _ref(words)
    verb = words.pop(0)
    if verb in ("h", "hold", "holds"):
        return Hold(unit)
    if verb == "-":
        dest = loc(words.pop(0))
        return Move(unit, dest, words[:2] == ["via", "convoy"])
    if verb in ("s", "supports", "support"):
        target = _ref(words)
        if words and words[0] == "-":
            return SupportMove(unit, target, loc(words[1]))
        return SupportHold(unit, target)
    if verb in ("c", "convoys", "convoy"):
        target = _ref(words)
        return Convoy(unit, UnitRef(target.location, UnitKind.ARMY), loc(words[1]))
    raise ValueError(f"cannot read {text!r}")
