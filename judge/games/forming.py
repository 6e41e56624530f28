"""A game forming: players sign up with their preferences; when enough have joined it starts."""
from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from ..engine import starting_position
from ..engine.calendar import Phase, PhaseKind
from . import processing
from .answers import NoticeKind
from .assignment import assign_by_rank, assign_random
from .clock import iso
from .gamefile import GameFile
from .model import Assignment, GameError, GameStatus, PowerStatus, Refusal
from .small import parse_seat, seat_name


def sign_up(gf: GameFile, account: str, preferences: Sequence[str | Sequence[str]], now: datetime) -> None:
    """Join (or change one's preferences); the last player needed starts the game."""
    if gf.status is not GameStatus.FORMING:
        raise GameError(f"{gf.name} is not forming; an open power can be taken over instead")
    seats = _seats(gf, preferences)
    # Raw SQL: a player changing preferences keeps their place in the queue (joined_at), which
    # sqlite-utils' upsert would overwrite.
    gf.db.execute("INSERT INTO signups (account, preferences, joined_at) VALUES (?, ?, ?) "
                  "ON CONFLICT(account) DO UPDATE SET preferences = excluded.preferences",
                  [account, json.dumps(seats), iso(now)])
    if signups(gf) >= gf.setup.players and not gf.settings.manual_start:   # (MANUAL START: the master's START)
        start(gf, now)


def _seats(gf: GameFile, preferences: Sequence[str | Sequence[str]]) -> list[str | list[str]]:
    """The preferences as stored: seat names best first, a list of them for seats of equal rank."""
    try:
        return [seat_name(parse_seat(gf.setup, p)) if isinstance(p, str) else
                [seat_name(parse_seat(gf.setup, q)) for q in p] for p in preferences]
    except ValueError as e:
        raise GameError(str(e)) from None


def set_preferences(gf: GameFile, account: str, preferences: Sequence[str | Sequence[str]]) -> None:
    """A player signed up changes the ranked list (njudge's SET PREFERENCE); the place in line stays."""
    if gf.status is not GameStatus.FORMING:
        raise GameError(f"{gf.name} has started: preferences count only while a game is forming")
    if not gf.db["signups"].count_where("account = ?", [account]):
        raise GameError(f"you have not joined {gf.name}: JOIN {gf.name} password, then your preferences")
    gf.db.table("signups").update(account, {"preferences": json.dumps(_seats(gf, preferences))})


def _ranks(gf: GameFile, stored: str) -> dict[tuple[str, ...], int]:
    """Stored preferences as ranks: each entry one rank, a list's seats all of that rank."""
    ranks: dict[tuple[str, ...], int] = {}
    for i, entry in enumerate(json.loads(stored)):
        for name in [entry] if isinstance(entry, str) else entry:
            ranks.setdefault(parse_seat(gf.setup, name), i)
    return ranks


def leave(gf: GameFile, account: str) -> None:
    if gf.status is not GameStatus.FORMING:
        raise GameError("the game has started: resign instead")
    gf.db.table("signups").delete_where("account = ?", [account])


def signups(gf: GameFile) -> int:
    return gf.db["signups"].count


def start(gf: GameFile, now: datetime, *, force: bool = False) -> None:
    """Give out the seats, set up the first phase and its deadline, and tell everyone. `force` (the
    master's FORCE START): start with the players there are; the seats nobody took are neutral
    powers, whose units hold and whose retreats and adjustments the rules make."""
    if gf.status is not GameStatus.FORMING:
        raise GameError(why=Refusal.STARTED_ALREADY, game=gf.name)
    if force and signups(gf) < 2:
        raise GameError(why=Refusal.TOO_FEW_TO_FORCE, game=gf.name, players=signups(gf))
    if signups(gf) != gf.setup.players and not force:
        raise GameError(why=Refusal.NOT_FULL, game=gf.name, needed=gf.setup.players, players=signups(gf))
    rows = [(r["account"], r["preferences"]) for r in gf.db["signups"].rows_where(order_by="joined_at, account")]
    players = [a for a, _ in rows]
    seed = gf.row()["seed"]
    if gf.settings.assignment is Assignment.RANDOM:
        seats = assign_random(players, gf.setup.seats, seed)
    else:
        seats = assign_by_rank(players, gf.setup.seats, {a: _ranks(gf, p) for a, p in rows}, seed)
    for account, seat in seats.items():
        for power in seat:
            gf.db.table("powers").insert({"power": power, "account": account, "status": PowerStatus.ACTIVE.value})
            gf.power_event(power, account, "assigned", now, None)
    taken = {p for seat in seats.values() for p in seat}
    empty = [p for seat in gf.setup.seats for p in seat if p not in taken]
    neutral = [*gf.setup.neutral, *empty]
    for power in neutral:
        gf.db.table("powers").insert({"power": power, "account": None, "status": PowerStatus.NEUTRAL.value,
                                      "neutral": 1})
    position = starting_position(gf.variant)
    if gf.setup.start_year:
        position = position.with_(phase=Phase(gf.setup.start_year, position.phase.season, PhaseKind.MOVEMENT))
    deadline = processing.phase_deadline(gf, position, now)
    gf.new_phase(position, now, deadline)
    gf.update_game(status=GameStatus.ACTIVE.value, started_at=iso(now))
    gf.event("started", now, seats={a: list(s) for a, s in seats.items()}, forced=force, neutral=neutral)
    # a variant rebuilt without its original map data says so to everyone (Abstraction II)
    about = {"variant": gf.variant.name, "variant_notice": gf.variant.extra.get("x_reconstruction_notice")
             if gf.variant.reconstructed else None}
    # a notice is written once per key: a game started again after UNSTART needs keys of its own
    unstarts = gf.db["events"].count_where("kind = 'unstarted'")
    key = f"0:{unstarts}" if unstarts else "0"
    for account, seat in seats.items():
        gf.notice(key, NoticeKind.GAME_START, account, {**about,
            "phase": gf.phase_code(position), "phase_name": gf.phase_name(position), "seat": list(seat),
            "players": {p: a for a, s in seats.items() for p in s}, "neutral": neutral,
            "settings": gf.settings.to_json(), "deadline": gf.times(deadline, account)}, now)
    gf.announce(key, NoticeKind.GAME_START, {**about, "phase": gf.phase_code(position), "neutral": neutral},
                now, deadline, recipients=[r for r in gf.recipients() if r not in seats])
    if not processing.needs(gf, position):
        # a first phase only powers nobody plays decide (Vassal's Winter 1900: the small countries'
        # builds, the judge's): played at once, as such phases are later in the game
        processing.process(gf, now)
    nxt = processing.next_event(gf, now)
    gf.update_game(next_event_at=iso(nxt) if nxt else None)     # (as master.resume writes it)
