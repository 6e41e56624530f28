"""What a confirmation reply says about a power after a message: plain values for the template.

Each order the message gave, exactly as read and in full names; each error with its suggestion;
the power's standing orders and what cannot be carried out as things stand; the units still
without orders; the deadline in the game's zone and the player's, with the time left; whether
the power asked the game to wait; the likely misorders (judge.engine.misorders: warnings, the
orders still stand); the digest of the standing orders (judge.games.digests).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from ...engine.calendar import PhaseKind
from ...engine.geography import UnitKind
from ...engine.notation import parse_loc
from ...engine.variant import Variant
from ...games.answers import GameState, Json
from ...games.clock import parse_time
from ...games.ordercodec import order_from_json
from ...games.service import GameService
from ...language import ParsedOrder, describe
from ...language.parse import OrderError
from ...language.render import place_name, unit_name
from .notices import duration
from .reason_words import detail_words


def order_line(parsed: ParsedOrder, variant: Variant) -> dict[str, Any]:
    return {"line": parsed.line, "written": parsed.text, "read": describe(parsed.order, variant),
            "notes": list(parsed.notes)}


def ordered_place(order: object) -> str | None:
    """The province an order is for (a unit's, or a build's); None for orders of no place (WAIVE)."""
    unit = getattr(order, "unit", None)
    location = unit.location if unit is not None else getattr(order, "location", None)
    return location.province if location is not None else None


def order_lines(orders: list[ParsedOrder], variant: Variant,
                earlier: Mapping[str, Json] | None = None) -> list[dict[str, Any]]:
    """Each order as read; one that a later line of the same mail replaced (a unit has one order)
    says so, or the player would think both stand. `earlier`: the orders stored before this mail,
    by province (`stored_by_place`): the last line for one of those places says what it replaced."""
    lines = [order_line(p, variant) for p in orders]
    last: dict[str, int] = {}
    for index, parsed in enumerate(orders):
        place = ordered_place(parsed.order)
        if place is None:
            continue
        if place in last:
            before = lines[last[place]]
            before["notes"].append(f"replaced by line {parsed.line}: a unit has one order, the last one given")
        last[place] = index
    for place, index in last.items():
        old = (earlier or {}).get(place)
        said = describe(order_from_json(old["read"]), variant) if old is not None else None
        if old is not None and said != lines[index]["read"]:    # (the same order again replaces nothing)
            lines[index]["notes"].append(f"replaces your earlier order for {_whose(old, place, variant)}: {said}")
    return lines


def stored_by_place(orders: Iterable[Json]) -> dict[str, Json]:
    """The stored orders (Confirmation.orders) by the province each is for."""
    return {place: o for o in orders if (place := ordered_place(order_from_json(o["read"]))) is not None}


def _whose(stored: Json, place: str, variant: Variant) -> str:
    """"Army Paris": the unit a stored order is for; its province's name for an order of no unit."""
    unit = getattr(order_from_json(stored["read"]), "unit", None)
    if unit is not None:
        return unit_name(dataclasses.replace(unit, power=None), variant)
    return variant.board.province(place).name


def error_line(error: OrderError, mask: Callable[[str], str]) -> dict[str, Any]:
    return {"line": error.line, "text": mask(error.text), "problem": error.problem, "expected": error.expected,
            "suggestions": [mask(s) for s in error.suggestions], "examples": error.examples}


def unit_full_name(variant: Variant, text: str) -> str:
    """"A PAR" -> "Army Paris"; kept as written if it cannot be read."""
    kind, _, place = text.partition(" ")
    try:
        return f"{UnitKind(kind.upper()).full_name.capitalize()} {place_name(parse_loc(variant, place), variant)}"
    except ValueError:
        return text


def time_left(deadline_utc: str, now: datetime, plays: Json | None = None) -> str:
    """"1 day 23 hours", "3 hours 10 minutes" (the words of the judge's notices); past the deadline,
    whether orders sent now still count, and until when."""
    seconds = (parse_time(deadline_utc) - now).total_seconds()
    if seconds > 0:
        return duration(seconds)
    when = (plays or {}).get("when")
    if when == "at" and plays is not None:
        grace = (parse_time(plays["at"]["utc"]) - now).total_seconds()
        first = next(iter(plays["at"]["shown"].items()), None)
        at = f", at {first[1]} ({first[0]})" if first else ""
        if grace > 0:
            return (f"none: the deadline has passed, but orders sent now still count until the grace"
                    f" period ends, in {duration(grace)}{at}")
        return ("none: the deadline and its grace period have passed; orders count only if they come"
                " before the judge plays the phase, at its next look")
    if when == "waits":
        return "none: the deadline has passed, but orders sent now still count: this game waits for them"
    if when == "manual":
        return "none: the deadline has passed, but orders sent now still count until the game master plays the phase"
    if when == "early":
        return "none: the deadline has passed; every power is in, and the phase is played at the judge's next look"
    return "none: the deadline has passed"


def power_summary(service: GameService, game: str, power: str, tick_seconds: float = 30.0,
                  viewer: str | None = None, status: GameState | None = None) -> dict[str, Any]:
    """The state of one power's orders now, for the end of the reply. `tick_seconds`: how often the
    scheduler looks, so a phase every power is in is said to be played within that time (it is).
    `viewer`: whose zone the times are shown in besides the game's (by default the power's player).
    `status`: the game's state now, when the caller has just read it (each read builds it anew)."""
    status = status or service.status(game)
    variant = service.variant(status.variant)
    confirmed = service.confirmation(game, power, viewer=viewer)
    deadline = confirmed.deadline
    return {
        "game": game, "power": variant.power(power).name, "phase": status.phase_name,
        "orders": [{"written": o["written"], "read": describe(order_from_json(o["read"]), variant)}
                   for o in confirmed.orders],
        "problems": [{"order": describe(order_from_json(p["read"]), variant), "detail": detail_words(variant, p)}
                     for p in confirmed.problems],
        "missing": [unit_full_name(variant, u) for u in confirmed.units_without_orders],
        "refused": [{"order": describe(order_from_json(p["read"]), variant), "detail": detail_words(variant, p)}
                    for p in confirmed.owed_orders],
        "adjustment": confirmed.adjustment,
        "retreat": variant.calendar.parse(confirmed.phase).kind is PhaseKind.RETREAT,
        "deadline": [f"{text} ({zone})" for zone, text in deadline["shown"].items()] if deadline else [],
        "time_left": ("the clock is stopped: the game is paused until the master's RESUME"
                      if status.status == "paused" or not deadline
                      else time_left(deadline["utc"], service.clock(), confirmed.plays)),
        "waiting": bool(status.powers[power].waiting),
        "in": confirmed.all_in,
        "plays": _plays(confirmed.plays, tick_seconds),
        "warnings": [misorder_words(variant, w) for w in confirmed.warnings],
        "digest": confirmed.digest,
        "later": [{"phase": k["phase_name"], "lines": k["written"].splitlines()} for k in confirmed.later],
        # a vassal's orders, which its overlord's player gives (the Vassal map: judge.engine.vassals)
        "overlord": variant.power(lord).name if (lord := _overlord(service, game, variant, power)) else None,
    }


def _overlord(service: GameService, game: str, variant: Variant, power: str) -> str | None:
    return service.vassals(game).get(power) if "vassal_dummies" in variant.hooks else None


def misorder_words(variant: Variant, warning: Json) -> dict[str, Any]:
    """A likely misorder for the template: its kind's code and the provinces in full names (the
    template has the sentence for each kind)."""
    return {"kind": warning["kind"], "places": [place_name(parse_loc(variant, a), variant) for a in warning["args"]]}


def _plays(plays: Json, tick_seconds: float) -> Json:
    if plays["when"] == "early":
        return {**plays, "within": duration(max(2 * tick_seconds, 60.0))}
    if plays["when"] == "at":
        return {**plays, "at": [f"{text} ({zone})" for zone, text in plays["at"]["shown"].items()]}
    return plays


def not_yours(variant: Variant, game: str, power: str, overlord: str | None) -> str:
    """Why a line naming a power the writer does not play was not taken: a small country (a dummy)
    says whose vassal it is, or that it is nobody's (the Vassal map: judge.engine.vassals)."""
    name = variant.power(power).name
    if overlord is not None:
        lord = variant.power(overlord).name
        return f"{name} is {lord}'s vassal in {game}: only {lord}'s player orders it"
    if power in variant.dummies:
        free = " and is no power's vassal" if "vassal_dummies" in variant.hooks else ""
        return f"{name} is played by nobody in {game}{free}: the judge gives its orders"
    return f"you do not play {name} in {game}"
