"""A game's whole record as one JSON document that `judge adjudicate` can replay.

The document is a whole-game request (docs/adjudicate.md): the variant, the rules,
the position the game started from, and `phases`, each phase played with the orders that were in
when it was played, in canonical notation. Each phase also carries the position it was played from
and its stored results, for readers; `judge adjudicate` reads only `phase` and `orders` of them.

Phases a rollback replaced are left out. Phases nobody had to decide that the game settled by
itself (a neutral power's retreats, say) are listed with no orders, as the replay needs them; the
orders the judge's stand-in gave a power nobody plays (SET STANDIN) are read from the stored results.
Where the replay cannot give the game's positions (variants whose hooks the games layer runs
itself, such as Abstraction II's exchanges of centres), `replayable` is false and says why.
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from ..engine import notation, process_phase
from ..engine.orders import Order
from ..engine.position import Position
from ..engine.variant import Variant
from .clock import iso
from .gamefile import GameFile
from .ordercodec import order_from_json


def export(gf: GameFile, name: str, now: datetime) -> dict[str, Any]:
    variant, rules = gf.variant, gf.rules
    rows = [(r["seq"], r["phase"], r["position"], r["result"]) for r in gf.db["phases"].rows_where(
        "rolled_back = 0", order_by="seq", select="seq, phase, position, result")]
    doc: dict[str, Any] = {"game": name, "variant": variant.id, "rules": rules.name, "exported_at": iso(now)}
    if not rows:
        return {**doc, "phases": [], "replayable": {"ok": False, "why": "the game has not started"}}
    start = notation.position_from_json(variant, json.loads(rows[0][2]))
    doc.update({k: v for k, v in notation.position_to_json(variant, start).items() if k != "variant"})
    phases: list[dict[str, Any]] = []
    replay: Position | None = start
    why = None
    unplayed = None
    stood_in = _stand_in_orders([json.loads(r) for _, _, _, r in rows if r])
    for seq, phase, position_json, result in rows:
        position = notation.position_from_json(variant, json.loads(position_json))
        replay, settled, mismatch = _catch_up(gf, replay, position, stood_in)
        phases += settled
        why = why or mismatch
        if not result:
            unplayed = position      # the phase being played now: the replay must reach it
            continue
        orders = {**gf.orders(seq), **stood_in.get(phase, {})}
        phases.append({"phase": phase, "orders": {p: [notation.order_text(o) for o in os] for p, os in orders.items()},
                       "position": notation.position_to_json(variant, position),
                       "results": json.loads(result)["results"]})
        replay = process_phase(variant, replay or position, orders, rules).next
    if why is None and unplayed is not None and not _same(variant, replay, unplayed):
        why = "the replay's last position is not the game's"
    doc["phases"] = phases
    doc["replayable"] = {"ok": why is None, **({"why": why} if why else {})}
    return doc


def _same(variant: Variant, a: Position | None, b: Position) -> bool:
    return a is not None and notation.position_to_json(variant, a) == notation.position_to_json(variant, b)


def _stand_in_orders(results: list[dict[str, Any]]) -> dict[str, dict[str, list[Order]]]:
    """phase code -> power -> the orders the judge's stand-in gave it (SET STANDIN), as stored with the
    results: the players' orders are the game's, the stand-in's only in its results."""
    out: dict[str, dict[str, list[Order]]] = {}
    for stored in results:
        for result in stored.get("results", ()):
            for o in result.get("outcomes", ()):
                if o.get("stand_in"):
                    out.setdefault(result["phase"], {}).setdefault(o["power"], []).append(order_from_json(o["json"]))
    return out


def _catch_up(gf: GameFile, replay: Position | None, stored: Position,
              stood_in: dict[str, dict[str, list[Order]]]) -> tuple[Position | None, list[dict[str, Any]], str | None]:
    """Replay with no orders the phases the game settled by itself before `stored` (at most a
    few: processing settles no more than eight in a row). Returns the replay (None where it
    parted from the game), those phases, and why it parted."""
    settled: list[dict[str, Any]] = []
    for _ in range(9):
        if replay is None or _same(gf.variant, replay, stored):
            return replay, settled, None
        if replay.phase >= stored.phase:
            break
        code = gf.variant.calendar.code(replay.phase)
        orders = stood_in.get(code, {})
        settled.append({"phase": code, "orders": {p: [notation.order_text(o) for o in os] for p, os in orders.items()},
                        "settled_by_the_judge": True})
        replay = process_phase(gf.variant, replay, orders, gf.rules).next
    code = gf.variant.calendar.code(stored.phase)
    return None, settled, f"replayed, {code} is not the position the game played it from"
