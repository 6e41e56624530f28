"""The turn-results report: the games layer's `results` payload laid out for people.

One processing can play several phases (a movement, then the retreats and adjustments the judge
settled alone), so the report has one section per phase played, then the position after them:
dislodged units and where each may go, centre ownership (after a season with adjustments),
builds and removals due.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict, deque
from collections.abc import Mapping
from typing import Any

from ...engine.notation import parse_order
from ...engine.geography import Location
from ...engine.outcomes import Reason
from ...engine.seasonal import shut_now
from ...engine.variant import Variant
from ...language.render import describe
from .outcome_words import contest_of, explain, order_words, phase_contests, place, unit_words, units_at


def _adjusts(variant: Variant, phase: str) -> bool:
    cal = variant.calendar
    return cal.adjusts(cal.parse(phase))


# A phase's section is the same in every copy of the report but under fog (each reader's outcomes are
# cut to what it sees): the last few are kept, by content, so that the players' copies share one.
_SECTIONS: OrderedDict[tuple[object, ...], tuple[Variant, dict[str, Any]]] = OrderedDict()
_SECTIONS_KEPT = 16
_SECTIONS_LOCK = threading.Lock()     # (a courier's run and a reply may render at once)


def shared_section(variant: Variant, result: dict[str, Any], players: dict[str, str | None],
                   silent: frozenset[str] = frozenset(), fog: bool = False) -> dict[str, Any]:
    """phase_section, made once for the copies of one report (the answer is shared: only read)."""
    key = (id(variant), _text_of(result), tuple(sorted(players.items())), tuple(sorted(silent)), fog)
    with _SECTIONS_LOCK:
        kept = _SECTIONS.get(key)
        if kept is not None and kept[0] is variant:      # (the variant is held: its id is not reused meanwhile)
            _SECTIONS.move_to_end(key)
            return kept[1]
    section = phase_section(variant, result, players, silent, fog)
    with _SECTIONS_LOCK:
        _SECTIONS[key] = variant, section
        if len(_SECTIONS) > _SECTIONS_KEPT:
            _SECTIONS.popitem(last=False)
    return section


def phase_section(variant: Variant, result: dict[str, Any], players: dict[str, str | None],
                  silent: frozenset[str] = frozenset(), fog: bool = False) -> dict[str, Any]:
    """One phase's results. A power nobody orders (abandoned or resigned: `silent`) whose units all
    held for want of orders is told in one line, `idle`, not as a block of "no order given: held"
    that the closing paragraph would then say again. Under `fog` no strengths are told: the
    supports behind them may be out of the reader's sight."""
    units = units_at(result["outcomes"])
    found = None if fog else phase_contests(variant, result)
    # a unit whose order could not be carried out holds: the judge's hold is listed after it
    refused = {(o["power"], o["json"]["unit"]["at"]) for o in result["outcomes"]
               if o["reason"] == Reason.ILLEGAL.value and "unit" in o["json"]}
    powers: dict[str, list[tuple[str, str]]] = {}
    for o in result["outcomes"]:
        outcome = explain(variant, o, units, contest_of(o, found))
        if o["by_judge"] and o["reason"] == Reason.HELD.value and (o["power"], o["json"]["unit"]["at"]) in refused:
            outcome = "held instead"
        powers.setdefault(o["power"], []).append((order_words(variant, o), outcome))
    idle = {p for p in silent & set(powers)
            if all(o["by_judge"] and o["reason"] == Reason.HELD.value and not o.get("stand_in")
                   for o in result["outcomes"] if o["power"] == p)
            and not any(d["power"] == p for d in result["dislodged"])}
    # a vassal's orders are its overlord's player's (judge.engine.vassals; marked by judge.games.processing)
    lords = {o["power"]: o["overlord"] for o in result["outcomes"] if o.get("overlord")}
    return {
        "phase": result["phase"], "phase_name": result["phase_name"],
        "powers": [{"id": p, "name": variant.power(p).name, "player": players.get(p), "rows": powers[p],
                    "overlord": variant.power(lords[p]).name if p in lords else None}
                   for p in variant.power_ids if p in powers and p not in idle],
        "idle": [(variant.power(p).name, players.get(p), [order_words(variant, o).removesuffix(" holds")
                                                          for o in result["outcomes"] if o["power"] == p])
                 for p in variant.power_ids if p in idle],
        "standoffs": [place(variant, s) for s in result["standoffs"]],
        "dislodged": [{"power": variant.power(d["power"]).name, "unit": unit_words(variant, d["unit"], d["power"]),
                       "attacker": place(variant, d["from"]),
                       "retreats": [place(variant, r) for r in d["retreats"]],
                       "civil_disorder": d.get("civil_disorder", False)} for d in result["dislodged"]],
    }


# The key text of a phase's result, by the object: a game's notices read together share their phases'
# results (judge.games.gamefile.read_notice_payload), so each is written out once, not once a copy
# (json.dumps of a result was a twentieth of the courier's CPU in a deadline rush). Held with its
# object, so that an id is not reused while its entry lives.
_TEXTS: OrderedDict[int, tuple[object, str]] = OrderedDict()


def _text_of(result: dict[str, Any]) -> str:
    with _SECTIONS_LOCK:
        kept = _TEXTS.get(id(result))
        if kept is not None and kept[0] is result:
            return kept[1]
    text = json.dumps(result, sort_keys=True, default=str)
    with _SECTIONS_LOCK:
        _TEXTS[id(result)] = result, text
        if len(_TEXTS) > _SECTIONS_KEPT:
            _TEXTS.popitem(last=False)
    return text


# What each reader's copy of a report shares: all of it but the order of `standing` (the reader's
# powers first). The copies of one phase's results are rendered one after another (a notice per
# player, the master and the public), so the last few reports are kept and a copy whose payload,
# bar who reads it, is equal to one of theirs shares its report (the rest of the report was made
# anew per reader: a third of rendering a results mail), and the texts made of it (`shared_texts`).
_READER_KEYS = frozenset({"recipient", "powers", "deadline"})    # the payload's per-reader fields
_REPORTS: deque[tuple[Variant, dict[str, str | None], dict[str, Any], dict[str, Any],
                      list[tuple[str, tuple[str, list[str]]]], dict[object, str]]] = deque(maxlen=_SECTIONS_KEPT)


def results_report(variant: Variant, payload: Mapping[str, Any], players: dict[str, str | None],
                   reader: tuple[str, ...] = ()) -> dict[str, Any]:
    """Everything the results template shows, with names in full and tables ready to align; the
    powers of `reader` (the recipient's) come first where the units stand. `shared_texts`: a dict
    shared by every copy of this report, for the parts of its mail rendered once for them all
    (judge.mail.words.notices); nothing else may be kept there."""
    shared = {k: v for k, v in payload.items() if k not in _READER_KEYS}
    with _SECTIONS_LOCK:      # the latest first: a phase's copies come one after another
        found = next((kept for kept in reversed(_REPORTS)
                      if kept[0] is variant and _alike(kept[2], shared) and kept[1] == players and kept[2] == shared),
                     None)
    if found is None:
        found = (variant, dict(players), shared, _report(variant, shared, players),
                 _standing_lines(variant, shared["position"]), {})
        with _SECTIONS_LOCK:
            _REPORTS.append(found)
    return {**found[3], "standing": _first(found[4], reader), "shared_texts": found[5]}


def _alike(kept: Mapping[str, Any], payload: Mapping[str, Any]) -> bool:
    """Whether two payloads are of the same game's phase: another's is told apart at once, not after
    comparing the whole board (each copy's payload is read on its own, so nothing is the same object)."""
    return bool(kept.get("game") == payload.get("game") and kept.get("phase") == payload.get("phase"))


def _report(variant: Variant, payload: Mapping[str, Any], players: dict[str, str | None]) -> dict[str, Any]:
    """The report bar `standing`, the same for every reader of the payload."""
    position = payload["position"]
    told = {n["power"] for n in payload.get("news", ())}
    silent = frozenset(p for p in payload["civil_disorder"] if p not in told)
    fog = payload.get("fog")      # cut to what the reader's powers see (judge.games.fog)
    stood_in = {o["power"] for r in payload["results"] for o in r["outcomes"] if o.get("stand_in")}
    sections = [shared_section(variant, r, players, silent, fog is not None) for r in payload["results"]
                if r["outcomes"] or r["dislodged"] or r["standoffs"]]
    due = payload["adjustments"]
    centre_rows = []
    for p in variant.power_ids:
        if fog is not None and p not in fog["powers"]:
            continue
        count, units = len(position["centres"].get(p, ())), len(position["units"].get(p, ()))
        if not count and not units and p not in payload["survivors"]:
            continue
        builds, removals = due.get(p, {}).get("builds", 0), due.get(p, {}).get("removals", 0)
        change = f"builds {builds}" if builds else f"removes {removals}" if removals else ""
        centre_rows.append([variant.power(p).name, count, units, change])
    owned = {c.lower() for cs in position["centres"].values() for c in cs}
    seen = set(fog["seen_after"]) if fog is not None else set(variant.supply_centres)
    return {
        "fog": fog is not None,
        "sections": sections,
        # ownership changes at the end of a season with adjustments: after its retreats, if any
        "centres_changed": any(_adjusts(variant, r["phase"]) for r in payload["results"])
        and not payload["next_phase"].upper().endswith("R"),
        "centre_rows": centre_rows,
        "ownership": [(variant.power(p).name, sorted(place(variant, c) for c in position["centres"].get(p, ())))
                      for p in variant.power_ids if position["centres"].get(p)],
        # the vassals each power controls (the Vassal map: judge.engine.vassals), overlords in order
        "vassals": [(variant.power(lord).name, [variant.power(v).name for v in variant.power_ids
                                                if position.get("vassals", {}).get(v) == lord])
                    for lord in variant.power_ids if lord in position.get("vassals", {}).values()],
        "unowned": sorted(variant.board.province(c).name for c in variant.supply_centres
                          if c not in owned and c in seen),
        "builds": [(variant.power(p).name, n["builds"]) for p, n in due.items() if n["builds"]],
        "removals": [(variant.power(p).name, n["removals"]) for p, n in due.items() if n["removals"]],
        "retreats_due": [(variant.power(p).name, [unit_words(variant, u, p) for u in us])
                         for p, us in payload["retreats"].items()],
        # powers without orders that no news item tells about (already abandoned or resigned), and
        # those of them the judge's stand-in played (SET STANDIN)
        "silent": [(variant.power(p).name, players.get(p)) for p in payload["civil_disorder"]
                   if p not in told and p not in stood_in],
        "stood_in": [(variant.power(p).name, players.get(p)) for p in variant.power_ids if p in stood_in],
        "rulings": [(variant.power(r["power"]).name, describe(parse_order(variant, r["order"]), variant), r["ruling"])
                    for r in payload.get("rulings", ())],
        # civil disorder is told in one list; the other news one paragraph each
        "disorder": [(variant.power(n["power"]).name, players.get(n["power"]), n["missed"])
                     for n in payload.get("news", ()) if n["kind"] == "civil_disorder"],
        "news": [n for n in payload.get("news", ()) if n["kind"] != "civil_disorder"],
        "next_phase_name": payload["next_phase_name"],
        "exchanges": [_exchange(variant, e) for e in payload.get("exchanges", ())],
        "trapped": _trapped(variant, position, payload.get("next_phase")),
        # each power's digest of the orders it was played with (judge.games.digests); a results
        # notice written before digests existed has none
        "digests": [[variant.power(p).name, payload["digests"][p]] for p in variant.power_ids
                    if p in payload.get("digests", {})],
        # builds kept from the reader until the next movement (judge.games.hidden_builds): how many
        "hidden_builds": [f"{variant.power(p).name} {n} unit{'s' if n > 1 else ''}"
                          for p, n in payload.get("hidden_builds", {}).items()],
    }


def standing(variant: Variant, position: Mapping[str, Any],
             first: str | tuple[str, ...] = ()) -> list[tuple[str, list[str]]]:
    """Who stands where in a position (JSON): each power with units, `first` (the reader's own power,
    or powers) before the others, its units in words ("army in Burgundy") by the provinces' names."""
    return _first(_standing_lines(variant, position), first)


def _standing_lines(variant: Variant, position: Mapping[str, Any]) -> list[tuple[str, tuple[str, list[str]]]]:
    """Each power with units and its line of `standing`, in the variant's order of powers."""
    return [(p, (variant.power(p).name, sorted((unit_words(variant, u) for u in position["units"][p]),
                                               key=lambda words: words.partition(" in ")[2])))
            for p in variant.power_ids if position["units"].get(p)]


def _first(lines: list[tuple[str, tuple[str, list[str]]]],
           first: str | tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """The lines with `first`'s powers before the others (who stands where after the phase, under
    fog what the reader sees: the reader's own powers first)."""
    mine = (first,) if isinstance(first, str) else first
    return [line for _, line in sorted(lines, key=lambda kept: kept[0] not in mine)]


def _trapped(variant: Variant, position: Mapping[str, Any], next_phase: str | None) -> dict[str, list[str]] | None:
    """The seasonal spaces shut in the next phase (Loeb9's Arctic Ocean in Fall), and the units
    standing in them, trapped (DPjudge's HIBERNATE): None on a board without, or when none is shut."""
    if variant.seasonal is None or not next_phase:
        return None
    try:
        shut = shut_now(variant, variant.calendar.parse(next_phase))
    except ValueError:      # (a game over: no next phase)
        return None
    if not shut:
        return None
    units = [unit_words(variant, u, p) for p in variant.power_ids for u in position["units"].get(p, ())
             if Location.parse(u.partition(" ")[2].lower()).province in shut]
    return {"spaces": sorted(variant.board.province(s).name for s in shut), "units": units}


def _exchange(variant: Variant, item: dict[str, Any]) -> dict[str, Any]:
    """One exchange of centres agreed for the move (Abstraction II), done or refused at its end."""
    a, b = item["powers"]
    return {"names": (variant.power(a).name, variant.power(b).name),
            "gave": [sorted(place(variant, c) for c in item["gave"][p]) for p in (a, b)],
            "done": item["done"], "reason": item["reason"]}
