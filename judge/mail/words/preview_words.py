"""A player's PREVIEW in words: what the power's standing orders would do in the current phase if no
other power ordered anything, as the reply's lines (judge.mail.commands.own_preview plays it)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine.calendar import PhaseKind
from ...engine.outcomes import Reason
from ...engine.variant import Variant
from .outcome_words import contest_of, explain, order_words, phase_contests, place, unit_words, units_at
from .results_report import standing
from .textlayout import WIDTH, columns, wrap

_FIT = WIDTH - 2       # the reply indents a command's lines by two
_STAYS = {Reason.HELD.value, Reason.WAIVED.value}     # another power's unit that simply stays goes unsaid

# What the other powers do in the preview, by the kind of phase: what the judge does for a power
# that sent no orders.
_OTHERS = {
    PhaseKind.MOVEMENT: "every other power's units hold",
    PhaseKind.RETREAT: "every other power's dislodged units are disbanded",
    PhaseKind.ADJUSTMENT: "the other powers build nothing, and make the removals they owe as the judge"
                          " makes them for a power in civil disorder",
}


def _item(text: str) -> list[str]:
    """One indented item, wrapped here so that the reply keeps its indent."""
    return wrap(text, "      ", "  ", _FIT).splitlines()


def preview_lines(variant: Variant, game: str, power: str, result: Mapping[str, Any], after: Mapping[str, Any],
                  fog: bool) -> list[str]:
    """`result`: the phase as the games layer encodes it, `after`: the position after it (JSON), both
    already cut to what `power` sees when `fog`."""
    name = variant.power(power).name
    kind = variant.calendar.parse(result["phase"]).kind
    lines = [f"PREVIEW: what the orders of {name} standing now would do in {result['phase_name']} of {game}"
             f" if no other power ordered anything ({_OTHERS[kind]}); nothing was played or stored,"
             " and no one else is told"]
    if fog:
        lines.append(f"fog of war: only what {name} can see is shown")
    units = units_at(result["outcomes"])
    found = None if fog else phase_contests(variant, result)
    mine = [o for o in result["outcomes"] if o["power"] == power]
    # its vassals' orders, which its player gives (the Vassal map: judge.engine.vassals), each under its name
    ruled: dict[str, list[dict[str, Any]]] = {}
    for o in result["outcomes"]:
        if o.get("overlord") == power:
            ruled.setdefault(o["power"], []).append(o)
    if not mine:
        lines.append(f"{name} has no orders to give in {result['phase_name']}")
    if mine:
        rows = [(order_words(variant, o), explain(variant, o, units, contest_of(o, found))) for o in mine]
        lines += columns(rows, width=_FIT, max_left=36).splitlines()
    for vassal, outcomes in ruled.items():
        lines.append(f"{variant.power(vassal).name} ({name}'s vassal, ordered by {name}'s player):")
        rows = [(order_words(variant, o), explain(variant, o, units, contest_of(o, found))) for o in outcomes]
        lines += columns(rows, width=_FIT, max_left=36).splitlines()
    for o in result["outcomes"]:        # another power's unit that would not simply stay
        if o["power"] != power and o["power"] not in ruled and not (o["succeeded"] and o["reason"] in _STAYS):
            lines += _item(f"{variant.power(o['power']).name}: {order_words(variant, o)}:"
                           f" {explain(variant, o, units, contest_of(o, found))}")
    for d in result["dislodged"]:
        where = ", ".join(place(variant, r) for r in d["retreats"]) or "nowhere: it is disbanded"
        lines += _item(f"the {unit_words(variant, d['unit'], d['power'])} would be dislodged by the attack"
                       f" from {place(variant, d['from'])}; it could retreat to {where}")
    if result["standoffs"]:
        lines += _item("standoffs (left empty): " + ", ".join(place(variant, s) for s in result["standoffs"]))
    lines.append("the units would then stand:")
    for who, places in standing(variant, after, (power, *ruled)):
        lines += _item(f"{who}: {', '.join(places)}")
    return lines
