"""The two-player World War I game: Italy neutral and closed, the coin toss, Italy joins in 1915.

The rulebooks: "Italy is neutral and Italian territory cannot be entered. The game begins in
1914. Before the Fall 1914 adjustments, a coin is flipped. Italy joins the winner of the toss
in Spring 1915." The engine knows nothing of this; the games layer rules orders into Italy
illegal (the unit holds), closes Italy to retreats, tosses the coin with the game's seed and
hands Italy to the winner.
"""
from __future__ import annotations

import json
import random
from dataclasses import replace
from datetime import datetime
from typing import Any

from ..engine import notation
from ..engine.calendar import Phase, PhaseKind
from ..engine.orders import Convoy, Move, Order, Retreat, SupportMove
from ..engine.position import Position
from .gamefile import GameFile
from .model import PowerStatus
from .small import ITALIAN_TERRITORY, WORLD_WAR_TOSS_YEAR, seat_name

ITALY = "ITALY"


def italy_closed(phase: Phase) -> bool:
    return phase.year <= WORLD_WAR_TOSS_YEAR


def close_italy(orders: dict[str, list[Order]]) -> tuple[dict[str, list[Order]], list[dict[str, Any]]]:
    """Orders that would enter Italian territory are void: the unit holds instead."""
    kept: dict[str, list[Order]] = {}
    rulings: list[dict[str, Any]] = []
    for power, given in orders.items():
        kept[power] = []
        for order in given:
            if isinstance(order, (Move, SupportMove, Convoy, Retreat)) and order.to.province in ITALIAN_TERRITORY:
                rulings.append({"power": power, "order": notation.order_text(order),
                                "ruling": "Italian territory cannot be entered before Spring 1915; "
                                          "the order is void and the unit holds"})
            else:
                kept[power].append(order)
    return kept, rulings


def retreats_outside_italy(position: Position) -> Position:
    dislodged = tuple(replace(d, retreats=tuple(r for r in d.retreats if r.province not in ITALIAN_TERRITORY))
                      for d in position.dislodged)
    return position.with_(dislodged=dislodged)


def _toss(gf: GameFile) -> tuple[str, ...] | None:
    row = next(gf.db["events"].rows_where("kind = 'coin toss'", select="detail", limit=1), None)
    if not row:
        return None
    return tuple(json.loads(row["detail"])["winner"])


def world_war_events(gf: GameFile, position: Position, now: datetime) -> tuple[Position, list[dict[str, Any]]]:
    """Apply the game's special events up to `position`; returns it (retreats closed) and the news."""
    news: list[dict[str, Any]] = []
    fall = max(i for i, s in enumerate(gf.variant.calendar.seasons) if s.adjustments)
    if position.phase > Phase(WORLD_WAR_TOSS_YEAR, fall, PhaseKind.MOVEMENT) and _toss(gf) is None:
        seats = gf.setup.seats
        winner = random.Random(f"{gf.row()['seed']}:coin").choice(seats)
        gf.event("coin toss", now, winner=list(winner))
        news.append({"kind": "coin_toss", "power": ITALY, "winner": list(winner), "seat": seat_name(winner),
                     "joins": "Spring 1915"})
    italy = gf.powers().get(ITALY)
    if italy and italy.neutral and position.phase >= Phase(WORLD_WAR_TOSS_YEAR + 1, 0, PhaseKind.MOVEMENT) \
            and (tossed := _toss(gf)) is not None:      # (tossed in 1915: see above)
        account = gf.powers()[tossed[0]].account
        gf.set_power(ITALY, account=account, neutral=0, missed=0,
                     status=PowerStatus.ACTIVE if position.units_of(ITALY) or position.centres_of(ITALY)
                     else PowerStatus.ELIMINATED)
        gf.power_event(ITALY, account, "joined " + seat_name(tossed), now, gf.phase_code(position))
        news.append({"kind": "italy_joins", "power": ITALY, "seat": seat_name(tossed), "account": account})
    if italy_closed(position.phase):
        position = retreats_outside_italy(position)
    return position, news
