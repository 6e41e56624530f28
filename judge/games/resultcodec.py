"""A phase result as JSON and back: the one place an engine result becomes stored JSON.

Storage (a phase's `result`, and through it HISTORY, the results mail and `judge export`),
`judge adjudicate` and the pictures all go through here, so a change to the engine's outcomes
(its reasons, say) meets the JSON in this file only. A reason is a code (`reason`, and `why` with
its `args`: judge.engine.outcomes.Why); the words are the mail's (judge.mail.words.reason_words), which
also read the English `detail` sentence results stored before the codes carried.

One phase played, as stored:

    {"phase": "S1901M", "phase_name": "Spring 1901 Movement",
     "outcomes": [{"power": "FRANCE", "order": "A PAR - BUR", "json": {...ordercodec...},
                   "written": "a par-bur", "succeeded": true, "reason": "moved", "why": null, "args": [],
                   "involving": [], "dislodged_from": null, "by_judge": false}],
     "standoffs": ["BUR"],
     "dislodged": [{"power": "FRANCE", "unit": "A BUR", "from": "RUH", "retreats": ["PAR"],
                    "civil_disorder": false}]}

`judge adjudicate` answers with a view of the same outcomes grouped by power (`by_power`), the
shape docs/adjudicate.md documents, made here from the same fields.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..engine import notation
from ..engine.geography import UnitKind
from ..engine.notation import parse_loc
from ..engine.orders import Order
from ..engine.outcomes import Outcome, PhaseResult, Reason, Why
from ..engine.position import DislodgedUnit, Unit
from ..engine.variant import Variant
from .ordercodec import order_from_json, order_to_json

# (power, the order as read) -> the line written. Orders are frozen values that compare equal however
# they were built (as their canonical JSON does, which a key once was: a json.dumps an order in every phase)
Written = Mapping[tuple[str, Order], str]


def outcome_to_json(o: Outcome, written: Written | None = None) -> dict[str, Any]:
    order_json = order_to_json(o.order)
    return {"power": o.power, "order": notation.order_text(o.order), "json": order_json,
            "written": (written or {}).get((o.power, o.order)),
            "succeeded": o.succeeded, "reason": reason_json(o.reason),
            "why": o.why.value if o.why else None, "args": list(o.args),
            "involving": list(o.involving), "dislodged_from": o.dislodged_from, "by_judge": o.by_judge}


def dislodged_to_json(d: DislodgedUnit) -> dict[str, Any]:
    return {"power": d.unit.power, "unit": str(d.unit).upper(), "from": d.attacker_from,
            "retreats": [str(x).upper() for x in d.retreats], "civil_disorder": d.civil_disorder}


def result_to_json(variant: Variant, result: PhaseResult, written: Written | None = None) -> dict[str, Any]:
    """One phase played. `written`: the lines the players wrote, to show beside each order read."""
    calendar = variant.calendar
    return {"phase": calendar.code(result.phase), "phase_name": calendar.name(result.phase),
            "outcomes": [outcome_to_json(o, written) for o in result.outcomes],
            "standoffs": list(result.standoffs),
            "dislodged": [dislodged_to_json(d) for d in result.dislodged]}


def outcomes_from_json(result: Mapping[str, Any]) -> tuple[Outcome, ...]:
    """The stored outcomes of one phase as the engine's."""
    return tuple(Outcome(o["power"], order_from_json(o["json"]), bool(o["succeeded"]), reason_from_json(o["reason"]),
                         Why(o["why"]) if o.get("why") else None, tuple(o.get("args") or ()),
                         tuple(o.get("involving") or ()), o.get("dislodged_from"),
                         bool(o.get("by_judge"))) for o in result.get("outcomes", ()))


def dislodged_from_json(variant: Variant, result: Mapping[str, Any]) -> tuple[DislodgedUnit, ...]:
    out = []
    for d in result.get("dislodged", ()):
        kind, _, where = d["unit"].partition(" ")
        unit = Unit(d["power"], UnitKind(kind.upper()), parse_loc(variant, where))
        out.append(DislodgedUnit(unit, d["from"].lower(), tuple(parse_loc(variant, r) for r in d.get("retreats", ())),
                                 bool(d.get("civil_disorder"))))
    return tuple(out)


def by_power(result: PhaseResult, texts: Mapping[int, str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """`judge adjudicate`'s view of a phase: each power's orders with `succeeds`/`fails`, the reason,
    and the code of why, attacker and judge's mark only where they say something (the stored shape's
    fields, without the order's JSON, which costs as much again to make). `texts`: orders whose
    canonical text is known already, by `id` (`read_order_lines`')."""
    out: dict[str, list[dict[str, Any]]] = {}
    order_text, reasons, whys, known = notation.order_text, _REASON_JSON, _WHY_JSON, texts or {}
    for o in result.outcomes:
        text = known.get(id(o.order))
        entry: dict[str, Any] = {"order": order_text(o.order) if text is None else text,
                                 "result": "succeeds" if o.succeeded else "fails", "reason": reasons[o.reason]}
        why = o.why
        if why:
            entry["why"] = whys[why]  # a code (judge.engine.outcomes.Why) and what it is about
            entry["args"] = list(o.args)
        if o.dislodged_from:
            entry["dislodged_from"] = o.dislodged_from.upper()
        if o.by_judge:
            entry["by_judge"] = True
        out.setdefault(o.power, []).append(entry)
    return out


def reason_json(reason: Reason) -> str:
    """A reason as stored and answered: the one place an engine reason becomes JSON."""
    return _REASON_JSON[reason]


# (each member's value read once: `.value` is a Python call, and a game's results name thousands)
_REASON_JSON = {r: r.value for r in Reason}
_WHY_JSON = {w: w.value for w in Why}


def reason_from_json(text: str) -> Reason:
    return Reason(text)


def own_result(results: Iterable[Mapping[str, Any]], phase: str) -> Mapping[str, Any] | None:
    """Among the phases one processing played, the one of `phase` (not the ones settled after it)."""
    return next((r for r in results if r["phase"] == phase), None)
