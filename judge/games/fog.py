"""Fog of war (the `fog` game setting; Classic Fog of War, DPjudge's BLIND): what a power sees.

The rule (docs/players.md, "Fog of war"): a power sees the provinces its units stand in and every province
adjacent to them (by land or sea, whatever the unit's kind), and the provinces of the supply
centres it owns. Of a phase it sees what lies in the provinces it saw before the phase or sees
after it: a foreign order is shown only if every province it names is so seen, foreign units and
centre ownership only where seen. Its own units, orders, centres and counts it always sees.

The cut is a function of (variant, positions, powers) over the games layer's plain JSON (results,
positions): the engine stays pure and untouched; the mail layer calls these where notices, the
picture, HISTORY and SUMMARY are built. `view_for` says who sees what: nobody is cut in a game
without fog or once it has ended (the whole record is revealed), the master sees all, a player
sees what its powers see, everyone else (observers, strangers) sees no province at all.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.geography import Location
from ..engine.notation import position_from_json
from ..engine.outcomes import Outcome, Reason
from ..engine.position import Position
from ..engine.variant import Variant
from .answers import GameState
from .ordercodec import order_to_json


@dataclass(frozen=True)
class View:
    """What one reader sees: its powers (empty for an observer) and the provinces seen."""
    powers: frozenset[str]
    seen: frozenset[str]

    def sees(self, provinces: Iterable[str]) -> bool:
        return all(p.lower() in self.seen for p in provinces)


def view_for(status: GameState, account: str | None) -> frozenset[str] | None:
    """The powers whose sight `account` reads a game with (empty: none, an observer or stranger),
    or None when it sees everything: no fog, the game over, or the game's master."""
    if not status.settings.get("fog") or status.status in ("finished", "forming"):
        return None
    if account is not None and account == status.master:
        return None
    return frozenset(p for p, info in status.powers.items() if account is not None and info.account == account)


def sight(variant: Variant, position: Position, powers: Iterable[str]) -> frozenset[str]:
    """The provinces `powers` see in `position`: their units' provinces and all next to them,
    and their centres' provinces (a dislodged unit still sees from where it stands); a power sees
    with its vassals (judge.engine.vassals), whose units its player orders."""
    powers = frozenset(powers)
    powers |= {v for v, lord in (position.vassals or {}).items() if lord in powers}
    board = variant.board
    seen: set[str] = set()
    units = [u for u in position.units if u.power in powers]
    units += [d.unit for d in position.dislodged if d.unit.power in powers]
    for unit in units:
        seen.add(unit.location.province)
        seen |= board.neighbours(unit.location.province)
    seen |= {c for c, owner in position.owners.items() if owner in powers}
    return frozenset(seen)


def phase_view(variant: Variant, before: Mapping[str, Any], after: Mapping[str, Any] | None,
               powers: Iterable[str]) -> View:
    """What `powers` see of a phase played from `before` to `after` (position JSON)."""
    powers = frozenset(powers)
    seen = sight(variant, position_from_json(variant, before), powers)
    if after is not None:
        seen |= sight(variant, position_from_json(variant, after), powers)
    return View(powers, seen)


# -- what a piece of news names ------------------------------------------------------------------

def _province(variant: Variant, text: str) -> str | None:
    try:
        province = Location.parse(text).province
    except (ValueError, KeyError, AttributeError):
        return None
    return province if province in variant.board.provinces else None


def order_provinces(variant: Variant, order_json: Mapping[str, Any]) -> set[str]:
    """Every province an order (as `order_to_json` writes it) names: its unit, target, supported
    unit, convoy route."""
    out: set[str] = set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, Mapping):
            for k, v in value.items():
                if k not in ("type", "kind"):
                    walk(v, k)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, key)
        elif isinstance(value, str):
            found = _province(variant, value)
            if found:
                out.add(found)
    walk(order_json)
    return out


def _names(variant: Variant, provinces: Iterable[str]) -> re.Pattern[str] | None:
    words = set()
    for p in provinces:
        words |= {p.upper(), variant.board.province(p).name}
    if not words:
        return None
    return re.compile(
        r"(?<![\w])(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")(?![\w])"
    )


def _arg_provinces(variant: Variant, args: Iterable[Any]) -> set[str]:
    """The provinces a reason's arguments name (a province, a coast, a unit as `F stp/sc`)."""
    out = set()
    for a in args or ():
        if isinstance(a, str) and a:
            found = _province(variant, a.split()[-1])
            if found:
                out.add(found)
    return out


def _void_out_of_sight(variant: Variant, order_json: Mapping[str, Any], reason: str, why: tuple[Any, ...] | str | None,
                       seen: frozenset[str]) -> bool:
    """An order refused over the unit it supports or convoys (no unit in Bohemia to support),
    that unit's province unseen. `why`: the reason's arguments (a stored result's `args`), or the
    English `detail` sentence results stored before the codes carried."""
    other = order_json.get("supported") or order_json.get("army")
    if reason != Reason.ILLEGAL.value or other is None:
        return False
    province = Location.parse(other["at"]).province
    if province in seen:
        return False
    if isinstance(why, str) or why is None:
        return variant.board.province(province).name in (why or "")
    return province in _arg_provinces(variant, why)


def private_problems(variant: Variant, position: Position, power: str, problems: Iterable[Outcome]) -> list[Outcome]:
    """What a power's confirmation may say cannot be carried out: not a support or convoy refused
    over a unit out of its sight (that would tell it the province is empty)."""
    seen = sight(variant, position, {power})
    return [p for p in problems if not _void_out_of_sight(variant, order_to_json(p.order), p.reason.value,
                                                          tuple(p.args), seen)]


# -- cutting the games layer's JSON ---------------------------------------------------------------

class Cut:
    """Cuts one phase's news to a view. Own news is kept whole but for words about provinces unseen."""

    def __init__(self, variant: Variant, view: View) -> None:
        self.variant = variant
        self.view = view
        self.hidden = _names(variant, set(variant.board.provinces) - view.seen)

    def _clean(self, text: str | None, allowed: Iterable[str] = ()) -> str:
        """A sentence, or "" when it names a province unseen (one the order itself names aside)."""
        if not text or self.hidden is None:
            return text or ""
        allowed_words = {w for p in allowed for w in (p.upper(), self.variant.board.province(p).name)}
        return "" if any(m.group(1) not in allowed_words for m in self.hidden.finditer(text)) else text

    def outcome(self, o: Mapping[str, Any]) -> dict[str, Any] | None:
        named = order_provinces(self.variant, o["json"])
        own = o["power"] in self.view.powers
        if not own and not self.view.sees(named):
            return None
        said = tuple(o.get("args") or ()) if o.get("why") else o.get("detail")
        if own and _void_out_of_sight(self.variant, o["json"], o["reason"], said, self.view.seen):
            # a support or convoy of a unit out of sight that is not there (or not of that kind):
            # told as unmatched, as BLIND never tells a void order, lest it show what is not there
            unmatched = Reason.CONVOY_UNMATCHED if "army" in o["json"] else Reason.SUPPORT_UNMATCHED
            return {**o, "reason": unmatched.value, "why": None, "args": [], "detail": "", "involving": [],
                    "dislodged_from": None}
        seen = self.view.seen | (named if own else set())
        out = dict(o)
        out["involving"] = [p for p in o.get("involving") or () if p.lower() in seen]
        if o.get("detail"):
            out["detail"] = self._clean(o.get("detail"), named if own else ())
        allowed = named if own else set()
        if o.get("why") and any(p not in self.view.seen and p not in allowed
                                for p in _arg_provinces(self.variant, o.get("args") or ())):
            out["why"], out["args"] = None, []      # the words would name a province unseen
        if o.get("dislodged_from") and o["dislodged_from"].lower() not in seen:
            out["dislodged_from"] = None
        if not own:
            out["written"] = None          # what another player typed is theirs
        return out

    def result(self, r: Mapping[str, Any]) -> dict[str, Any]:
        """One phase's stored result (`_result_json`'s shape)."""
        outcomes = [c for c in (self.outcome(o) for o in r["outcomes"]) if c is not None]
        dislodged = []
        for d in r["dislodged"]:
            where = _province(self.variant, d["unit"].partition(" ")[2])
            if d["power"] in self.view.powers:
                dislodged.append(d)
            elif self.view.sees([where or "", d["from"]]):
                dislodged.append(self._foreign_dislodged(d, self.view.seen))
        return {**r, "outcomes": outcomes, "dislodged": dislodged,
                "standoffs": [s for s in r["standoffs"] if s.lower() in self.view.seen]}

    def position(self, pos: Mapping[str, Any], seen: frozenset[str] | None = None) -> dict[str, Any]:
        """A position's JSON with foreign units and centres only where seen (`seen`: by default
        the view's)."""
        seen = self.view.seen if seen is None else seen
        mine = self.view.powers

        def keep(power: str, texts: Iterable[str]) -> list[str]:
            return [t for t in texts if power in mine or (_province(self.variant, t.split()[-1]) or "") in seen]
        out = dict(pos)
        out["units"] = {p: keep(p, us) for p, us in pos["units"].items()}
        out["centres"] = {p: keep(p, cs) for p, cs in pos["centres"].items()}
        if "homes" in pos:      # reassigned homes (NEWHOMES): another's only where seen, as its centres
            out["homes"] = {p: keep(p, cs) for p, cs in pos["homes"].items()}
        if "dislodged" in pos:
            out["dislodged"] = {p: [d if p in mine else self._foreign_dislodged(d, seen) for d in ds
                                    if p in mine or self._seen(seen, d["unit"].split()[-1], d["attacker_from"])]
                                for p, ds in pos["dislodged"].items()}
        return out

    def _seen(self, seen: frozenset[str], *places: str) -> bool:
        return all((_province(self.variant, x) or "") in seen for x in places)

    def _foreign_dislodged(self, d: Mapping[str, Any], seen: frozenset[str]) -> dict[str, Any]:
        return {**d, "retreats": [x for x in d["retreats"] if self._seen(seen, x)]}


def position_seen(variant: Variant, pos: Mapping[str, Any], powers: Iterable[str]) -> dict[str, Any]:
    """A position (JSON) as `powers` see it now: their own, and foreign units and centres in sight.
    Orders are read against it, so the reader never picks a reading by a unit the power cannot see."""
    powers = frozenset(powers)
    return Cut(variant, View(powers, sight(variant, position_from_json(variant, pos), powers))).position(pos)


def cut_results(variant: Variant, payload: Mapping[str, Any], before: Mapping[str, Any],
                powers: Iterable[str]) -> dict[str, Any]:
    """A `results` notice's payload as `powers` see it: the phases' orders, outcomes, dislodged
    units and standoffs where seen, the position after with foreign units and centres where seen,
    counts, adjustments, retreats and news of their own powers only. `fog` tells the report what
    was cut (the powers and the provinces seen)."""
    view = phase_view(variant, before, payload["position"], powers)
    cut = Cut(variant, view)
    after = sight(variant, position_from_json(variant, payload["position"]), view.powers)
    mine = view.powers
    out = dict(payload)
    out["results"] = [cut.result(r) for r in payload["results"]]
    out["position"] = cut.position(payload["position"], after)
    for key in ("centre_counts", "adjustments", "retreats"):
        if key in payload:
            out[key] = {p: v for p, v in payload[key].items() if p in mine}
    out["survivors"] = [p for p in payload.get("survivors", ()) if p in mine]
    out["civil_disorder"] = [p for p in payload.get("civil_disorder", ()) if p in mine]
    out["news"] = [n for n in payload.get("news", ()) if n["power"] in mine or n.get("open_for_takeover")]
    out["rulings"] = [r for r in payload.get("rulings", ()) if r["power"] in mine]
    # a digest of a few units' orders is found by trying them all: only the reader's own
    out["digests"] = {p: d for p, d in payload.get("digests", {}).items() if p in mine}
    out["exchanges"] = [e for e in payload.get("exchanges", ()) if mine & set(e["powers"])]
    out["fog"] = {"powers": sorted(mine), "seen": sorted(view.seen), "seen_after": sorted(after)}
    return out


def cut_history_phase(variant: Variant, results: Sequence[Mapping[str, Any]], before: Mapping[str, Any],
                      after: Mapping[str, Any] | None, powers: Iterable[str]) -> list[dict[str, Any]]:
    """One played phase's stored results (HISTORY) as `powers` see them."""
    cut = Cut(variant, phase_view(variant, before, after, powers))
    return [cut.result(r) for r in results]
