"""What happened to an order, in words a player understands.

The games layer stores each outcome as JSON (`reason`, the code `why` with its `args`, `involving`
provinces, `dislodged_from`; a result stored before the codes has a sentence in `detail`). The
code's words are in `reason_words`; here the units behind the provinces are named too ("bounced with
the German army from Munich"), from the other orders
of the same phase: in a movement phase every unit has an order, the judge's holds included.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from ...engine.geography import Location, UnitKind
from ...engine.outcomes import Reason, Why
from ...engine.strengths import Strengths, contests
from ...engine.variant import Variant
from ...games.ordercodec import order_from_json
from ...games.resultcodec import outcomes_from_json
from ...language.render import describe, place_name
from .reason_words import REASONS, detail_words

# Outcomes whose own reason says it all when the order succeeded.
_DONE = {
    Reason.MOVED: "moved", Reason.HELD: "held", Reason.SUPPORTED: "support given",
    Reason.CONVOYED: "convoyed the army", Reason.RETREATED: "retreated", Reason.DISBANDED: "disbanded",
    Reason.BUILT: "built", Reason.WAIVED: "build waived",
}

# Failures whose detail is a whole sentence that already names the failure.
_SAYS_IT_ALL = {Reason.SUPPORT_UNMATCHED, Reason.CONVOY_UNMATCHED, Reason.CONVOY_DISRUPTED}

# The failures the engine gives no particulars for, in words.
_FAILED = {
    Reason.SUPPORT_UNMATCHED: "the supported unit was not ordered to do what this support says",
    Reason.CONVOY_UNMATCHED: "the army was not ordered to move along this convoy",
}

# The sentence a result stored before the codes has in `detail` where one stored now has Why.OWN_UNIT:
# stored data, compared as such (the words players read are reason_words', and may change).
_OWN_UNIT_BEFORE_CODES = "a power cannot dislodge its own unit"


def place(variant: Variant, text: str) -> str:
    """A province or coast as people name it: "St Petersburg (south coast)"."""
    return place_name(Location.parse(text), variant)


def unit_words(variant: Variant, text: str, power: str | None = None) -> str:
    """A unit as the position JSON writes it ("A PAR"), in words: "French army in Paris"."""
    kind, _, where = text.strip().partition(" ")
    words = [variant.power(power).adjective] if power else []
    return " ".join([*words, UnitKind(kind.upper()).full_name, "in", place(variant, where)])


def units_at(outcomes: list[dict[str, Any]]) -> dict[str, tuple[str, UnitKind | None]]:
    """province -> (power, unit kind) of the unit that was ordered there this phase."""
    out = {}
    for o in outcomes:
        unit = o["json"].get("unit")
        if unit:
            kind = UnitKind(unit["kind"]) if unit.get("kind") else None
            out[Location.parse(unit["at"]).province] = (o["power"], kind)
    return out


def unit_phrase(variant: Variant, units: dict[str, tuple[str, UnitKind | None]], province: str) -> str:
    """ "the German army" for the unit ordered in `province`, or "the unit" when unknown."""
    province = province.lower()
    power, kind = units.get(province, (None, None))
    words = ["the"]
    if power:
        words.append(variant.power(power).adjective)
    words.append(kind.full_name if kind else "unit")
    return " ".join(words)


def order_words(variant: Variant, outcome: dict[str, Any]) -> str:
    """The order in full names, marked when the judge gave it (a default hold, a removal, the orders
    of the stand-in for a power nobody plays)."""
    text = describe(order_from_json(outcome["json"]), variant)
    if outcome.get("stand_in"):
        return text + " (stand-in)"
    # a default hold says so in its result ("no order given: held")
    return text + " (by the judge)" if outcome.get("by_judge") and outcome["reason"] != Reason.HELD.value else text


def _why(outcome: dict[str, Any]) -> Why | None:
    """The outcome's code; for a result stored before the codes, the one its sentence stands for
    where this module needs to know it."""
    if outcome.get("why"):
        return Why(outcome["why"])
    return Why.OWN_UNIT if outcome.get("detail") == _OWN_UNIT_BEFORE_CODES else None


def phase_contests(variant: Variant, result: Mapping[str, Any]) -> dict[str, Strengths]:
    """Each bounced or dislodged unit's strengths in one phase's stored result (judge.engine.strengths),
    by the unit's province."""
    return contests(outcomes_from_json(result), variant)


def strength_words(strength: Fraction) -> str:
    """A strength as the results write it: a whole number, or with a half in decimals ("0.5", "1.5": a
    move round the Cape, judge/engine/cape.py), which reads in any mail client and any tool; a weak
    strait's unsupported move is "0"."""
    return str(strength.numerator) if strength.denominator == 1 else f"{float(strength):g}"


def contest_of(outcome: dict[str, Any], found: dict[str, Strengths] | None) -> Strengths | None:
    """The strengths of the unit this outcome is about, if they were worked out (not under fog of war:
    supports out of sight would be counted, or be missing)."""
    unit = outcome["json"].get("unit")
    if not found or not unit or outcome["reason"] == Reason.ILLEGAL.value:
        return None
    return found.get(Location.parse(unit["at"]).province)


def explain(variant: Variant, outcome: dict[str, Any], units: dict[str, tuple[str, UnitKind | None]],
            strengths: Strengths | None = None) -> str:
    """The result of one order, e.g. "bounced with the German army from Munich"; with its unit's
    `strengths`, "beaten 2 to 1 by the German army from Munich" or "bounced 1 to 1 with ..."."""
    reason = Reason(outcome["reason"])
    why = _why(outcome)
    involving = [p.lower() for p in outcome.get("involving") or ()]
    attacker = outcome.get("dislodged_from")
    name: Callable[[str], str] = lambda prov: variant.board.province(prov.lower()).name  # noqa: E731
    by: Callable[[str], str] = lambda prov: f"{unit_phrase(variant, units, prov)} from {name(prov)}"  # noqa: E731
    dislodged = f"dislodged by {by(attacker)}" if attacker else ""
    contest = strengths.bounced if strengths else None
    lost = strengths.dislodged if strengths else None
    if attacker and lost is not None and lost.by == (attacker.lower(),):
        dislodged = f"dislodged {strength_words(lost.against)} to {strength_words(lost.own)} by {by(attacker)}"
    detail = detail_words(variant, outcome) or _FAILED.get(reason, "")

    if reason is Reason.BOUNCED and involving and why is not Why.OWN_UNIT:
        target = Location.parse(outcome["json"]["to"]).province if "to" in outcome["json"] else None
        parts = {q: f"{unit_phrase(variant, units, q)} in {name(q)}" if q == target else by(q) for q in involving}
        if contest is not None and contest.beaten and set(contest.by) <= set(parts):
            text = (f"beaten {strength_words(contest.against)} to {strength_words(contest.own)} by "
                    + " and ".join(parts[q] for q in contest.by))
        elif contest is not None and contest.against == contest.own:
            text = f"bounced {strength_words(contest.own)} to {strength_words(contest.against)} with " \
                + " and ".join(parts.values())
        else:
            text = "bounced with " + " and ".join(parts.values())
        if why is Why.STAYS_ABOARD:  # a ferried army that could not land
            text += f", and {detail}"
    elif reason is Reason.SUPPORT_CUT:
        if attacker:
            return f"support cut: {dislodged}"
        text = f"support cut by {by(involving[0])}" if involving else "support cut"
    elif reason is Reason.DISLODGED:
        return dislodged if attacker else "dislodged"
    elif reason is Reason.ILLEGAL:
        text = f"illegal order: {detail}" if detail else "illegal order"
    elif outcome["succeeded"] and reason in _DONE:
        text = _DONE[reason]
        if outcome.get("by_judge") and reason is Reason.HELD and not outcome.get("stand_in"):
            text = "no order given: held"
        if detail:
            text += f" ({detail})"
    elif reason in _SAYS_IT_ALL and detail:
        text = detail
    else:
        text = REASONS[reason]
        if detail and detail != text:
            text += f": {detail}"
    if attacker:        # (a dislodged unit's words were returned above)
        text += f"; {dislodged}"
    return text
