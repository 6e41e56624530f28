"""Shared helpers for the games tests (no tests here): a service on a temporary directory, orders
written in the engine's canonical notation, and a stand-in for the mail layer that drains notices."""
from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

from collections import deque

from judge.engine import load_variant
from judge.engine.calendar import PhaseKind
from judge.engine.geography import Location, UnitKind
from judge.engine.notation import parse_order
from judge.engine.orders import Build, Hold, Move, SupportMove, UnitRef
from judge.engine.position import Position
from judge.games.answers import Confirmation, GameState, PowerState
from judge.games.clock import ManualClock
from judge.games.service import GameService

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
STANDARD = load_variant("standard")
START = "2026-03-02T12:00:00Z"


def service(tmp_path: Path, start: str = START, **kwargs) -> tuple[GameService, ManualClock]:
    clock = ManualClock(start)
    return GameService(tmp_path / "var", clock=clock, **kwargs), clock


def process_at_deadline(svc: GameService, clock: ManualClock, game: str) -> str:
    """The master's PROCESS once the phase's deadline has passed: powers without orders miss it (before
    the deadline they would not)."""
    clock.set(svc.status(game).deadline["utc"])
    return svc.process(game)


def accounts(svc: GameService, names: list[str], zone: str = "Europe/Berlin") -> None:
    for n in names:
        svc.create_account(n, f"{n}@example.org", f"secret-{n}", time_zone=zone)


def seven_player_game(svc: GameService, name: str = "alpha", settings=None, rules: str = "5th") -> dict:
    """A standard game where player 'p-france' gets France, and so on (each asked for one power)."""
    names = [f"p-{p.lower()}" for p in POWERS]
    accounts(svc, [n for n in names if not _exists(svc, n)])
    if not _exists(svc, "gm"):
        svc.create_account("gm", "gm@example.org", "gm-secret", time_zone="America/New_York")
    svc.create_game(name, master="gm", settings=settings, rules=rules, seed=7)
    for p, n in zip(POWERS, names, strict=True):
        status = svc.join(name, n, [p])
    return status


def _exists(svc: GameService, name: str) -> bool:
    try:
        svc.accounts.get(name)
        return True
    except KeyError:
        return False


def orders(*texts: str, variant=STANDARD) -> list[tuple[str, object]]:
    return [(t, parse_order(variant, t)) for t in texts]


_messages = itertools.count(1)


def submit(svc: GameService, game: str, power: str, *texts: str) -> Confirmation:
    """Orders from the power's player, as if in a new mail message each time."""
    return svc.submit_orders(game, power, orders(*texts), account=f"p-{power.lower()}",
                             source=f"test:{next(_messages)}")


def whole(svc: GameService, game: str, power: str, *texts: str) -> list[str]:
    """The given orders, and a hold for each of the power's other units: a power is "in" (so the
    phase may be played before its deadline) only when every unit has an order."""
    named = {" ".join(t.split()[:2]).upper() for t in texts}
    units = svc.status(game).position["units"][power]
    return [*texts, *(f"{u} H" for u in units if u.upper() not in named)]


class Outbox:
    """What the mail layer does with notices: one mail per notice, keyed by a Message-ID made from the
    notice id (so a retry after a crash adds nothing), then the notice is marked queued."""

    def __init__(self, path: Path, checkpoint=lambda name: None) -> None:
        self.conn = sqlite3.connect(str(path), isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("CREATE TABLE IF NOT EXISTS outbox (message_id TEXT PRIMARY KEY, game TEXT, kind TEXT,"
                          " recipient TEXT)")
        self.checkpoint = checkpoint

    def drain(self, svc: GameService) -> int:
        count = 0
        for game in svc.games_with_notices():
            notices = svc.pending_notices(game)
            for n in notices:
                self.conn.execute("INSERT OR IGNORE INTO outbox VALUES (?, ?, ?, ?)",
                                  [f"<{n.id}@judge.test>", game, n.kind, n.recipient])
            self.checkpoint("outbox written")
            svc.mark_notices_queued(game, [n.id for n in notices])
            count += len(notices)
        return count

    def rows(self) -> list[tuple]:
        return self.conn.execute("SELECT message_id, game, kind, recipient FROM outbox ORDER BY message_id").fetchall()


# -- a greedy player, to play whole games against powers in civil disorder ---------------------------

def _steps(variant, kind: UnitKind, loc: Location) -> list[Location]:
    board = variant.board
    if kind is UnitKind.ARMY:
        return [Location(p) for p in sorted(board.army_neighbours(loc.province)) if not board.province(p).is_sea]
    return sorted(board.fleet_neighbours(loc), key=str)


def _first_step(variant, kind, loc, goals, blocked):
    """The first move on a shortest way to any goal province, around blocked provinces."""
    prev = {loc: None}
    queue = deque([loc])
    while queue:
        here = queue.popleft()
        if here.province in goals and here != loc:
            while prev[here] != loc:
                here = prev[here]
            return here
        for nxt in _steps(variant, kind, here):
            if nxt not in prev and (nxt.province not in blocked or nxt.province in goals):
                prev[nxt] = here
                queue.append(nxt)
    return None


def greedy_orders(variant, position: Position, me: str) -> list:
    """Take centres: hold on them in the fall, attack occupied ones with one support (units in civil
    disorder hold unsupported), step into empty ones, walk the rest toward the nearest; build at home."""
    if position.phase.kind is PhaseKind.ADJUSTMENT:
        due = len(position.centres_of(me)) - len(position.units_of(me))
        builds = []
        for c in variant.power(me).home_centres:
            if due > 0 and position.owners.get(c) == me and position.unit_in(c) is None:
                coastal = variant.board.province(c).is_coastal and not variant.board.province(c).coasts
                builds.append(Build(UnitKind.FLEET if coastal and len(builds) % 2 else UnitKind.ARMY, Location(c)))
                due -= 1
        return builds
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return []
    fall = variant.calendar.seasons[position.phase.season].adjustments
    mine = list(position.units_of(me))
    targets = {c for c in variant.supply_centres if position.owners.get(c) != me}
    occupied = {u.location.province for u in position.units}
    used, claimed, out = set(), set(), []
    ref = lambda u: UnitRef(u.location, u.kind)  # noqa: E731
    for u in mine:
        if fall and u.location.province in targets:
            out.append(Hold(ref(u)))
            used.add(u)
            claimed.add(u.location.province)
    for t in sorted(targets - claimed):
        enemy = position.unit_in(t)
        if not enemy or enemy.power == me:
            continue
        able = [(u, d) for u in mine if u not in used for d in _steps(variant, u.kind, u.location) if d.province == t]
        if len({u for u, _ in able}) >= 2:
            attacker, dest = able[0]
            helper = next(u for u, _ in able if u != attacker)
            out += [Move(ref(attacker), dest), SupportMove(ref(helper), ref(attacker), Location(t))]
            used |= {attacker, helper}
            claimed.add(t)
    for u in mine:
        if u in used:
            continue
        for d in _steps(variant, u.kind, u.location):
            if d.province in targets and d.province not in occupied | claimed:
                out.append(Move(ref(u), d))
                used.add(u)
                claimed.add(d.province)
                break
    for u in mine:
        if u in used:
            continue
        d = _first_step(variant, u.kind, u.location, targets - claimed, occupied | claimed)
        if d is not None and d.province not in occupied | claimed:
            out.append(Move(ref(u), d))
            claimed.add(d.province)
        else:
            out.append(Hold(ref(u)))
    return out


def france_plays_on_alone(svc: GameService, game: str, past_grace, after_phase=lambda: None) -> int:
    """France sends greedy orders each phase while the others fall into civil disorder, until the game
    ends. `past_grace()` moves the clock past a deadline nobody beat. Returns how many phases were
    played early, by France's orders alone, without waiting for a deadline."""
    from judge.engine.notation import order_text, position_from_json
    early = 0
    for _ in range(150):
        status = svc.status(game)
        if status.status == "finished":
            break
        mine = greedy_orders(STANDARD, position_from_json(STANDARD, status.position), "FRANCE")
        if status.powers["FRANCE"].owes and mine:
            svc.submit_orders(game, "FRANCE", [(order_text(o), o) for o in mine], account="p-france")
        if svc.run_due().get(game) in ("processed", "finished"):
            early += 1
        else:
            past_grace()
        after_phase()
    return early


def a_game_state(seats: dict[str, str | None] | None = None, **fields) -> GameState:
    """A GameState made by hand, for a test of what reads one (who sees the board, whose names are
    hidden): `seats` power -> account; any other field as given, the rest a plain active game."""
    seat = PowerState(account=None, status="active", missed=0, waiting=False, owes=False, centres=3)
    values = dict(name="g", variant="standard", rules="5th", status="active", master="gm", masters=("gm",),
                  phase="S1901M", phase_name="Spring 1901 Movement", deadline=None, position=None,
                  next_event_at=None, settings={}, result=None, signups=(), players_needed=7,
                  powers={p: PowerState(**{**seat.__dict__, "account": a}) for p, a in (seats or {}).items()})
    return GameState(**{**values, **fields})
