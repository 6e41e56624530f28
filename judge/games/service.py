"""The one API the edges call (mail dispatch, scheduler, CLI) to run games over weeks.

Every operation on a game is one transaction in that game's file, notices included; the
index row in judge.sqlite is refreshed after the commit and can always be rebuilt from the
game files (`sync_index`, run at start-up). The clock is injected: tests move time by hand.

    svc = GameService(Path("var"))
    svc.create_game("alpha", master="gm")
    svc.join("alpha", "ann", ["FRANCE", "ENGLAND"])      # ... the seventh join starts it
    svc.submit_orders("alpha", "FRANCE", parse.orders, source="inbound:17")
    for name in svc.due_games(): svc.wake(name)           # the scheduler
    for n in svc.pending_notices("alpha"): ...; svc.mark_notices_queued("alpha", ids)
"""
from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..engine import load_variant, starting_position
from ..engine.calendar import Phase, PhaseKind
from ..engine.rules import edition
from ..engine.variant import Variant
from . import processing
from .accounts import Accounts
from .clock import Absence, SystemClock, iso, move_past_absences, parse_time
from .ending import Ending, draw_result, survivors
from .gamefile import GameFile
from .model import PLAYING, DrawRule, GameStatus, PowerStatus, Settings
from .submissions import clear_orders, store_orders
from .small import parse_seat, seat_name
from .store import check_game_name, game_path, open_game, open_judge, transaction

Checkpoint = Callable[[str], None]


class GameError(ValueError):
    """A request the game cannot grant; the message is fit to send to the player."""


@dataclass(frozen=True)
class Notice:
    id: str
    kind: str
    recipient: str | None
    payload: dict[str, Any]
    created_at: str


class GameService:
    def __init__(self, data: Path | str, *, clock: Callable[[], datetime] | None = None,
                 checkpoint: Checkpoint | None = None) -> None:
        self.data = Path(data)
        self.clock = clock or SystemClock()
        self.checkpoint = checkpoint or (lambda name: None)
        self.judge = open_judge(self.data)
        self.accounts = Accounts(self.judge)
        self._variants: dict[str, Variant] = {}  # loaded once per service, read-only

    # -- plumbing ------------------------------------------------------------------------------
    def variant(self, name: str) -> Variant:
        if name not in self._variants:
            self._variants[name] = load_variant(name)
        return self._variants[name]

    def _file(self, db) -> GameFile:
        return GameFile(db, self.variant, self.accounts.zone_of)

    @contextmanager
    def _write(self, name: str) -> Iterator[GameFile]:
        """One transaction in the game file, then the index row."""
        db = open_game(self.data, name)
        try:
            with transaction(db):
                gf = self._file(db)
                yield gf
            self.checkpoint("committed")
            self._reindex(db)
        finally:
            db.close()

    @contextmanager
    def _read(self, name: str) -> Iterator[GameFile]:
        db = open_game(self.data, name)
        try:
            yield self._file(db)
        finally:
            db.close()

    def _reindex(self, db) -> None:
        # The game file is read while the index is locked: of two processes updating one game's row,
        # the later one reads the later state, so a slow writer cannot put an old state back.
        with transaction(self.judge):
            gf = self._file(db)
            row = gf.row()
            cur = gf.current()
            pending = db.execute("SELECT count(*) FROM notices WHERE queued_at IS NULL").fetchone()[0]
            self.judge.execute(
                "INSERT INTO game_index (name, variant, status, phase, master, next_event_at, pending_notices, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET variant = excluded.variant,"
                " status = excluded.status, phase = excluded.phase, master = excluded.master,"
                " next_event_at = excluded.next_event_at, pending_notices = excluded.pending_notices,"
                " updated_at = excluded.updated_at",
                [row["name"], row["variant"], row["status"], cur.phase if cur else None, row["master"],
                 row["next_event_at"], pending, iso(self.clock())])
            self.judge.execute("DELETE FROM game_powers WHERE name = ?", [row["name"]])
            self.judge.conn.executemany(
                "INSERT INTO game_powers (name, power, account, status) VALUES (?, ?, ?, ?)",
                [(row["name"], p.power, p.account, p.status.value) for p in gf.powers().values()])

    def sync_index(self) -> int:
        """Start-up sweep: rebuild every index row from its game file (repairs a crash between the two)."""
        count = 0
        for path in sorted((self.data / "games").glob("*.sqlite")):
            with self._read(path.stem) as gf:
                self._reindex(gf.db)
            count += 1
        return count

    # -- accounts ------------------------------------------------------------------------------
    def create_account(self, name: str, address: str, password: str | None = None, *,
                       time_zone: str = "UTC", keeper: bool = False):
        return self.accounts.create(name, address, password, self.clock(), time_zone=time_zone, keeper=keeper)

    # -- forming -------------------------------------------------------------------------------
    def create_game(self, name: str, *, variant: str = "standard", rules: str = "5th",
                    settings: Settings | dict | None = None, master: str | None = None,
                    seed: int | None = None) -> dict:
        name = check_game_name(name)
        if game_path(self.data, name).exists():
            raise GameError(f"there is already a game called {name}")
        if isinstance(settings, dict):
            settings = Settings.from_json(settings)
        settings = settings or Settings()
        rules_ = edition(rules)
        v = self.variant(variant)
        from .small import setup as setup_of
        setup_ = setup_of(settings.players)
        powers = {p for seat in setup_.seats for p in seat} | set(setup_.neutral)
        if powers != set(v.power_ids):
            raise GameError(f"the {setup_.name}-player setup is for the standard map, not {v.name}")
        if master:
            self.accounts.get(master)
        db = open_game(self.data, name, create=True)
        try:
            now = self.clock()
            with transaction(db):
                db.execute("INSERT INTO game (id, name, variant, edition, settings, status, master, seed, created_at)"
                           " VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [name, v.id, rules_.name, json.dumps(settings.to_json()), GameStatus.FORMING.value,
                            master, seed if seed is not None else secrets.randbits(31), iso(now)])
                db.execute("INSERT INTO events (at, kind, detail) VALUES (?, 'created', ?)",
                           [iso(now), json.dumps({"master": master, "rules": rules_.name})])
            self._reindex(db)
        finally:
            db.close()
        return self.status(name)

    def join(self, name: str, account: str, preferences: Sequence[str] = ()) -> dict:
        self.accounts.get(account)
        with self._write(name) as gf:
            if gf.status is not GameStatus.FORMING:
                raise GameError(f"{name} is not forming; an open power can be taken over instead")
            seats = [seat_name(parse_seat(gf.setup, p)) for p in preferences]
            gf.db.execute("INSERT INTO signups (account, preferences, joined_at) VALUES (?, ?, ?) "
                          "ON CONFLICT(account) DO UPDATE SET preferences = excluded.preferences",
                          [account, json.dumps(seats), iso(self.clock())])
            count = gf.db.execute("SELECT count(*) FROM signups").fetchone()[0]
            if count >= gf.setup.players:
                self._start(gf)
        return self.status(name)

    def leave(self, name: str, account: str) -> None:
        with self._write(name) as gf:
            if gf.status is not GameStatus.FORMING:
                raise GameError("the game has started: resign instead")
            gf.db.execute("DELETE FROM signups WHERE account = ?", [account])

    def start(self, name: str) -> dict:
        with self._write(name) as gf:
            if gf.status is not GameStatus.FORMING:
                raise GameError(f"{name} has already started")
            count = gf.db.execute("SELECT count(*) FROM signups").fetchone()[0]
            if count != gf.setup.players:
                raise GameError(f"{name} needs {gf.setup.players} players and has {count}")
            self._start(gf)
        return self.status(name)

    def _start(self, gf: GameFile) -> None:
        from .assignment import assign_by_preference, assign_random
        from .model import Assignment
        now = self.clock()
        signups = gf.db.execute("SELECT account, preferences FROM signups ORDER BY joined_at, account").fetchall()
        players = [a for a, _ in signups]
        seed = gf.row()["seed"]
        if gf.settings.assignment is Assignment.RANDOM:
            seats = assign_random(players, gf.setup.seats, seed)
        else:
            prefs = {a: [parse_seat(gf.setup, s) for s in json.loads(p)] for a, p in signups}
            seats = assign_by_preference(players, gf.setup.seats, prefs, seed)
        for account, seat in seats.items():
            for power in seat:
                gf.db.execute("INSERT INTO powers (power, account, status) VALUES (?, ?, ?)",
                              [power, account, PowerStatus.ACTIVE.value])
                gf.power_event(power, account, "assigned", now, None)
        for power in gf.setup.neutral:
            gf.db.execute("INSERT INTO powers (power, account, status, neutral) VALUES (?, NULL, ?, 1)",
                          [power, PowerStatus.NEUTRAL.value])
        position = starting_position(gf.variant)
        if gf.setup.start_year:
            position = position.with_(phase=Phase(gf.setup.start_year, position.phase.season, PhaseKind.MOVEMENT))
        deadline = processing.phase_deadline(gf, position, now)
        gf.new_phase(position, now, deadline)
        gf.update_game(status=GameStatus.ACTIVE.value, started_at=iso(now))
        gf.event("started", now, seats={a: list(s) for a, s in seats.items()})
        for account, seat in seats.items():
            gf.notice("0", "game_start", account, {
                "phase": gf.phase_code(position), "phase_name": gf.phase_name(position), "seat": list(seat),
                "players": {p: a for a, s in seats.items() for p in s}, "neutral": list(gf.setup.neutral),
                "settings": gf.settings.to_json(), "deadline": gf.times(deadline, account)}, now)
        gf.announce("0", "game_start", {"phase": gf.phase_code(position), "neutral": list(gf.setup.neutral)},
                    now, deadline, recipients=[r for r in gf.recipients() if r not in seats])
        gf.update_game(next_event_at=iso(processing.next_event(gf, now)))

    # -- orders ----------------------------------------------------------------------------------
    def _playing(self, gf: GameFile, power: str, account: str | None) -> None:
        if gf.status is not GameStatus.ACTIVE:
            raise GameError(f"{gf.name} is {gf.status.value}; orders are not taken now")
        powers = gf.powers()
        power = power.upper()
        if power not in powers or powers[power].neutral:
            raise GameError(f"nobody plays {power} in {gf.name}")
        pr = powers[power]
        if account is not None and account != pr.account and account != gf.row()["master"]:
            raise GameError(f"{account} does not play {power} in {gf.name}")
        if pr.status in (PowerStatus.RESIGNED, PowerStatus.ELIMINATED) or pr.account is None:
            raise GameError(f"{power} is {pr.status.value}")

    def submit_orders(self, name: str, power: str, items: Sequence[Any], *, account: str | None = None,
                      source: str | None = None, written: str | None = None) -> dict:
        """Store a message's orders. `items`: parsed orders (with .order and .text) or (text, Order) pairs.

        Movement and retreats: the message replaces the orders for the units it names. Adjustments:
        it replaces the power's adjustment orders, since builds count in the order written.
        """
        power = power.upper()
        with self._write(name) as gf:
            if self._seen(gf, source):
                return {**self._confirmation(gf, power), "repeated": True}
            self._playing(gf, power, account)
            row = gf.current()
            store_orders(gf, row, power, items, self.clock(), source, written)
            self._after_orders(gf, power)
            return self._confirmation(gf, power)

    @staticmethod
    def _seen(gf: GameFile, source: str | None) -> bool:
        """This message was handled before (the mail layer retries after a crash): do nothing twice.
        Without this, orders read again after the phase was played would land in the next phase."""
        return source is not None and gf.db.execute(
            "SELECT 1 FROM submissions WHERE source = ? UNION ALL SELECT 1 FROM press WHERE source = ?",
            [source, source]).fetchone() is not None

    def clear_orders(self, name: str, power: str, *, account: str | None = None, source: str | None = None) -> dict:
        power = power.upper()
        with self._write(name) as gf:
            if self._seen(gf, source):
                return {**self._confirmation(gf, power), "repeated": True}
            self._playing(gf, power, account)
            clear_orders(gf, gf.current(), power, self.clock(), source)
            self._after_orders(gf, power)
            return self._confirmation(gf, power)

    def _after_orders(self, gf: GameFile, power: str) -> None:
        now = self.clock()
        pr = gf.powers()[power]
        if pr.status is PowerStatus.ABANDONED:  # its player is back before anyone took it over
            gf.set_power(power, status=PowerStatus.ACTIVE, missed=0)
            gf.power_event(power, pr.account, "returned", now, gf.current().phase)
            gf.announce(f"{gf.current().seq}:{power}:{iso(now)}", "returned", {"power": power}, now)
        gf.update_game(next_event_at=_iso(processing.next_event(gf, now)))

    def _confirmation(self, gf: GameFile, power: str) -> dict:
        from ..engine.phase import check_orders
        row = gf.current()
        mine = gf.orders(row.seq).get(power, [])
        problems = check_orders(gf.variant, row.position, {power: mine}, gf.rules)
        need = processing.needs(gf, row.position).get(power)
        ordered = {o.unit.location.province for o in mine if hasattr(o, "unit")}
        missing = [str(row.position.unit_in(loc.province)).upper() for loc in (need.units if need else ())
                   if loc.province not in ordered]
        return {"game": gf.name, "power": power, "phase": row.phase, "orders": gf.order_rows(row.seq, power),
                "problems": [{"order": _text(p.order), "reason": p.reason.value, "detail": p.detail}
                             for p in problems],
                "units_without_orders": missing, "deadline": gf.times(row.deadline, gf.powers()[power].account)}

    def set_wait(self, name: str, power: str, wait: bool = True, *, account: str | None = None) -> None:
        power = power.upper()
        with self._write(name) as gf:
            self._playing(gf, power, account)
            gf.set_power(power, waiting=int(wait))
            gf.update_game(next_event_at=_iso(processing.next_event(gf, self.clock())))

    # -- time passing ------------------------------------------------------------------------------
    def due_games(self, now: datetime | None = None, limit: int = 1000) -> list[str]:
        """Games with something due by `now`, by the indexed next_event_at: cost grows with the number due."""
        now = now or self.clock()
        return [r[0] for r in self.judge.execute(
            "SELECT name FROM game_index WHERE next_event_at IS NOT NULL AND next_event_at <= ? "
            "ORDER BY next_event_at LIMIT ?", [iso(now), limit])]

    def wake(self, name: str) -> str:
        """Do what is due in this game (reminders, late notices, the phase). Safe to repeat."""
        with self._write(name) as gf:
            return processing.wake(gf, self.clock(), self.checkpoint)

    def run_due(self, limit: int = 1000) -> dict[str, str]:
        return {name: self.wake(name) for name in self.due_games(limit=limit)}

    def process(self, name: str) -> str:
        """The master's `process`: play the current phase now, whatever is missing."""
        with self._write(name) as gf:
            if gf.status is not GameStatus.ACTIVE:
                raise GameError(f"{name} is {gf.status.value}")
            return processing.process(gf, self.clock(), self.checkpoint)

    def pause(self, name: str) -> None:
        with self._write(name) as gf:
            if gf.status is not GameStatus.ACTIVE:
                raise GameError(f"{name} is {gf.status.value}")
            now = self.clock()
            gf.update_game(status=GameStatus.PAUSED.value, paused_at=iso(now), next_event_at=None)
            gf.event("paused", now)
            gf.announce(f"{gf.current().seq}:{iso(now)}", "paused", {"phase": gf.current().phase}, now)

    def resume(self, name: str) -> None:
        """The deadline moves on by as long as the game was paused (and at least past the absences)."""
        with self._write(name) as gf:
            if gf.status is not GameStatus.PAUSED:
                raise GameError(f"{name} is not paused")
            now = self.clock()
            row = gf.current()
            paused = now - parse_time(gf.row()["paused_at"])
            deadline = self._moved(gf, row.deadline + paused)
            self._set_deadline(gf, row.seq, deadline)
            gf.update_game(status=GameStatus.ACTIVE.value, paused_at=None)
            gf.event("resumed", now, deadline=iso(deadline))
            gf.announce(f"{row.seq}:{iso(now)}", "resumed", {"phase": row.phase}, now, deadline)
            gf.update_game(next_event_at=_iso(processing.next_event(gf, now)))

    def _moved(self, gf: GameFile, deadline: datetime) -> datetime:
        accounts = [gf.powers()[p].account for p in processing.expected(gf, gf.current().position)]
        return move_past_absences(gf.settings, deadline, gf.absences(accounts))

    def _set_deadline(self, gf: GameFile, seq: int, deadline: datetime) -> None:
        # a new deadline brings its own reminders and late notice
        gf.db.execute("UPDATE phases SET deadline = ?, reminded = '[]', late_noticed = 0 WHERE seq = ?",
                      [iso(deadline), seq])
        for p, pr in gf.powers().items():
            if pr.status is PowerStatus.LATE:
                gf.set_power(p, status=PowerStatus.ACTIVE)

    def add_absence(self, name: str, account: str, starts: datetime | str, ends: datetime | str, *,
                    by_master: bool = False) -> dict:
        """An absence moves any deadline falling in it to `after_absence_hours` after its end."""
        with self._write(name) as gf:
            now = self.clock()
            s = parse_time(starts, gf.settings.time_zone) if isinstance(starts, str) else starts
            e = parse_time(ends, gf.settings.time_zone) if isinstance(ends, str) else ends
            if e <= s or e <= now:
                raise GameError("an absence must end after it starts, and in the future")
            if not by_master:
                if (e - s) > timedelta(days=gf.settings.max_absence_days):
                    raise GameError(f"a player may be away at most {gf.settings.max_absence_days:g} days at once;"
                                    " ask the game master for more")
                if not gf.powers_of(account):
                    raise GameError(f"{account} plays no power in {name}")
            gf.db.execute("INSERT INTO absences (account, starts, ends, set_by, at) VALUES (?, ?, ?, ?, ?)",
                          [account, iso(s), iso(e), "master" if by_master else "player", iso(now)])
            out = {"starts": iso(s), "ends": iso(e), "deadline_moved": False}
            row = gf.current()
            if gf.status is GameStatus.ACTIVE and row and row.deadline:
                moved = move_past_absences(gf.settings, row.deadline, [Absence(s, e)])
                if moved != row.deadline and account in {gf.powers()[p].account
                                                         for p in processing.expected(gf, row.position)}:
                    self._set_deadline(gf, row.seq, moved)
                    gf.announce(f"{row.seq}:{iso(moved)}", "deadline_moved",
                                {"phase": row.phase, "reason": "absence", "account": account}, now, moved)
                    out["deadline_moved"] = True
                    out["deadline"] = iso(moved)
                gf.update_game(next_event_at=_iso(processing.next_event(gf, now)))
            return out

    # -- players coming and going ----------------------------------------------------------------
    def take_over(self, name: str, power: str, account: str) -> dict:
        """A replacement takes an abandoned or resigned power, and gets a full phase for its orders."""
        power = power.upper()
        self.accounts.get(account)
        with self._write(name) as gf:
            now = self.clock()
            pr = gf.powers().get(power)
            if pr is None or pr.neutral or pr.status not in (PowerStatus.ABANDONED, PowerStatus.RESIGNED):
                raise GameError(f"{power} is not open for takeover in {name}")
            if gf.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is {gf.status.value}")
            gf.set_power(power, account=account, status=PowerStatus.ACTIVE, missed=0, waiting=0)
            gf.power_event(power, account, "replaced", now, gf.current().phase)
            row = gf.current()
            full = self._moved(gf, now + timedelta(hours=gf.settings.phase_hours(row.position.phase.kind.value)))
            deadline = row.deadline
            if deadline is not None and full > deadline:
                self._set_deadline(gf, row.seq, full)
                deadline = full
            gf.announce(f"{row.seq}:{power}:{iso(now)}", "replacement",
                        {"power": power, "account": account, "phase": row.phase,
                         "previous": pr.account}, now, deadline)
            gf.update_game(next_event_at=_iso(processing.next_event(gf, now)))
        return self.status(name)

    def resign(self, name: str, power: str, *, account: str | None = None) -> None:
        power = power.upper()
        with self._write(name) as gf:
            self._playing(gf, power, account)
            now = self.clock()
            pr = gf.powers()[power]
            gf.set_power(power, status=PowerStatus.RESIGNED, waiting=0)
            gf.power_event(power, pr.account, "resigned", now, gf.current().phase)
            gf.announce(f"{gf.current().seq}:{power}:{iso(now)}", "resigned",
                        {"power": power, "open_for_takeover": True}, now)
            gf.update_game(next_event_at=_iso(processing.next_event(gf, now)))

    # -- votes -------------------------------------------------------------------------------------
    def vote_draw(self, name: str, account: str, yes: bool = True, powers: Sequence[str] | None = None) -> bool:
        """The player's draw vote, for every power they play. True: the game ended in a draw.

        By the rulebooks a draw is shared by all survivors. Under the "named" draw rule a vote names
        the powers who share it, and passes when every survivor names the same powers.
        """
        if not yes:
            return self._vote(name, account, "draw", "no")
        if powers is None:
            return self._vote(name, account, "draw", "yes")
        return self._vote(name, account, "draw", "yes:" + ",".join(sorted({p.strip().upper() for p in powers})))

    def concede(self, name: str, account: str, to_power: str | None) -> bool:
        """Concede to a power (None withdraws). When every other survivor concedes to it, it wins."""
        return self._vote(name, account, "concede", to_power.upper() if to_power else "")

    def _vote(self, name: str, account: str, kind: str, value: str) -> bool:
        with self._write(name) as gf:
            if gf.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is {gf.status.value}")
            mine = [p for p in gf.powers_of(account) if gf.powers()[p].status is not PowerStatus.ELIMINATED]
            if not mine:
                raise GameError(f"{account} plays no surviving power in {name}")
            now = self.clock()
            for p in mine:
                gf.db.execute("INSERT INTO votes (power, kind, value, at) VALUES (?, ?, ?, ?) ON CONFLICT(power, kind)"
                              " DO UPDATE SET value = excluded.value, at = excluded.at", [p, kind, value, iso(now)])
            row = gf.current()
            powers = gf.powers()
            alive = [p for p in survivors(row.position, gf.variant.power_ids) if not powers[p].neutral]
            counts = {p: len(row.position.centres_of(p)) for p in gf.variant.power_ids}
            ending = None
            named = gf.settings.draw_rule is DrawRule.NAMED
            if kind == "draw" and (value == "yes") == named and value != "no":
                raise GameError("this game's draws name the powers sharing them" if named
                                else "a draw here is shared by every survivor; vote just yes or no")
            if kind == "draw" and value.startswith("yes:"):
                unknown = set(value[4:].split(",")) - set(alive)
                if unknown:
                    raise GameError("only survivors can share a draw, not " + ", ".join(sorted(unknown)))
            shared = draw_result(gf.votes("draw"), tuple(alive), named) if kind == "draw" else None
            if shared:
                ending = Ending("draw", shared, counts, "centres")
            elif kind == "concede":
                # the powers one person plays are one side: they need not concede to each other
                sides: dict[str | None, list[str]] = {}
                for p in alive:
                    sides.setdefault(powers[p].account, []).append(p)
                votes = gf.votes("concede")
                for side in sides.values():
                    others = [q for q in alive if q not in side]
                    if others and all(votes.get(q) in side for q in others):
                        ending = Ending("concession", tuple(side), counts, "centres")
            if ending:
                processing.finish(gf, ending, row.position, now, key=f"{row.seq}:{kind}")
            return ending is not None

    # -- press ---------------------------------------------------------------------------------------
    def send_press(self, name: str, sender: str, to: Sequence[str] | None, body: str, *,
                   anonymous: bool = False, account: str | None = None, source: str | None = None) -> int:
        """Press from a power (or 'MASTER') to powers (None: everyone). Grey press may hide the sender."""
        from .model import PressType
        with self._write(name) as gf:
            now = self.clock()
            sender = sender.upper()
            if self._seen(gf, source):
                return gf.db.execute("SELECT id FROM press WHERE source = ?", [source]).fetchone()[0]
            if sender != "MASTER":
                self._playing(gf, sender, account)
                if gf.settings.press is PressType.NONE and to != ["MASTER"]:
                    raise GameError(f"{name} has no press between players")
                if anonymous and gf.settings.press is not PressType.GREY:
                    raise GameError(f"{name} has white press: messages are signed")
            powers = gf.powers()
            targets = sorted(powers) if to is None else [t.upper() for t in to]
            for t in targets:
                if t != "MASTER" and t not in powers:
                    raise GameError(f"no power {t} in {name}")
            shown = "anonymous" if anonymous else sender
            row = gf.current()
            cur = gf.db.execute("INSERT INTO press (phase_seq, at, sender, recipients, shown_as, body, source)"
                                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                                [row.seq if row else None, iso(now), sender, json.dumps(targets), shown, body, source])
            accounts = {powers[t].account for t in targets if t != "MASTER" and powers[t].account}
            if "MASTER" in targets or anonymous:
                accounts.add(gf.row()["master"])  # the master sees who sent grey press
            for acc in sorted(a for a in accounts if a):
                gf.notice(f"press:{cur.lastrowid}", "press", acc, {
                    "from": sender if acc == gf.row()["master"] else shown, "to": targets,
                    "broadcast": to is None, "body": body}, now)
            return cur.lastrowid

    # -- the master's tools ------------------------------------------------------------------------
    def rollback(self, name: str, phase: str) -> dict:
        """Play again from an earlier phase: later phases are kept, marked rolled back, never deleted."""
        with self._write(name) as gf:
            now = self.clock()
            target = gf.db.execute("SELECT seq FROM phases WHERE phase = ? AND rolled_back = 0 ORDER BY seq DESC",
                                   [phase.strip().upper()]).fetchone()
            if target is None:
                raise GameError(f"{name} has no phase {phase}")
            old = gf.phase_row(target[0])
            gf.db.execute("UPDATE phases SET rolled_back = 1 WHERE seq >= ?", [old.seq])
            gf.db.execute("DELETE FROM votes")
            gf.update_game(status=GameStatus.ACTIVE.value, finished_at=None, result=None, paused_at=None)
            for p, pr in gf.powers().items():
                if pr.neutral:
                    continue
                alive = old.position.units_of(p) or old.position.centres_of(p)
                if pr.status in (PowerStatus.LATE, PowerStatus.ELIMINATED) and alive:
                    gf.set_power(p, status=PowerStatus.ACTIVE if pr.account else PowerStatus.ABANDONED)
                gf.set_power(p, waiting=0)
            deadline = processing.phase_deadline(gf, old.position, now)
            seq = gf.new_phase(old.position, now, deadline)
            gf.event("rolled back", now, to=old.phase, from_seq=old.seq, new_seq=seq)
            gf.announce(f"{seq}", "rollback", {"phase": old.phase, "phase_name": gf.phase_name(old.position)},
                        now, deadline)
            gf.update_game(next_event_at=_iso(processing.next_event(gf, now)))
        return self.status(name)

    def set_settings(self, name: str, **changes: Any) -> dict:
        with self._write(name) as gf:
            settings = gf.settings.with_(**changes)
            gf.update_game(settings=json.dumps(settings.to_json()))
            gf.event("settings", self.clock(), **{k: str(v) for k, v in changes.items()})
        return self.status(name)

    # -- notices for the mail layer ----------------------------------------------------------------
    def pending_notices(self, name: str) -> list[Notice]:
        with self._read(name) as gf:
            return [Notice(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in gf.db.execute(
                "SELECT id, kind, recipient, payload, created_at FROM notices WHERE queued_at IS NULL "
                "ORDER BY created_at, rowid")]

    def mark_notices_queued(self, name: str, ids: Sequence[str]) -> None:
        with self._write(name) as gf:
            gf.db.conn.executemany("UPDATE notices SET queued_at = ? WHERE id = ? AND queued_at IS NULL",
                              [(iso(self.clock()), i) for i in ids])

    def games_of(self, account: str) -> list[tuple[str, str]]:
        """(game, power) for every power this account plays in a game not finished, from the index."""
        return [(r[0], r[1]) for r in self.judge.execute(
            "SELECT p.name, p.power FROM game_powers p JOIN game_index g ON g.name = p.name "
            "WHERE p.account = ? AND g.status != 'finished' ORDER BY p.name, p.power", [account])]

    def games_with_notices(self) -> list[str]:
        return [r[0] for r in self.judge.execute(
            "SELECT name FROM game_index WHERE pending_notices > 0 ORDER BY name")]

    # -- looking -------------------------------------------------------------------------------------
    def list_games(self) -> list[dict]:
        cur = self.judge.execute("SELECT name, variant, status, phase, master, next_event_at FROM game_index "
                                 "ORDER BY name")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur]

    def status(self, name: str, *, viewer: str | None = None) -> dict:
        with self._read(name) as gf:
            row = gf.row()
            cur = gf.current()
            powers = gf.powers()
            orders = gf.orders(cur.seq) if cur else {}
            need = processing.needs(gf, cur.position) if cur else {}
            return {
                "name": row["name"], "variant": row["variant"], "rules": row["edition"], "status": row["status"],
                "master": row["master"], "phase": cur.phase if cur else None,
                "phase_name": gf.phase_name(cur.position) if cur else None,
                "deadline": gf.times(cur.deadline, viewer) if cur else None,
                "next_event_at": row["next_event_at"], "settings": gf.settings.to_json(),
                "result": json.loads(row["result"]) if row["result"] else None,
                "signups": [r[0] for r in gf.db.execute("SELECT account FROM signups ORDER BY joined_at")],
                "powers": {p: {"account": pr.account, "status": pr.status.value, "missed": pr.missed,
                               "waiting": pr.waiting, "owes": p in need and not orders.get(p) and not pr.neutral,
                               "centres": len(cur.position.centres_of(p)) if cur else 0}
                           for p, pr in powers.items()},
            }

    def history(self, name: str) -> list[dict]:
        with self._read(name) as gf:
            out = []
            for seq, phase, started, deadline, processed, result, rolled in gf.db.execute(
                    "SELECT seq, phase, started_at, deadline, processed_at, result, rolled_back FROM phases ORDER BY seq"):
                res = json.loads(result) if result else None
                out.append({"seq": seq, "phase": phase, "started_at": started, "deadline": deadline,
                            "processed_at": processed, "rolled_back": bool(rolled),
                            "civil_disorder": res["civil_disorder"] if res else [],
                            "results": res["results"] if res else []})
            return out

    def events(self, name: str) -> list[dict]:
        with self._read(name) as gf:
            return [{"at": a, "kind": k, **json.loads(d)} for a, k, d in gf.db.execute(
                "SELECT at, kind, detail FROM events ORDER BY id")]


def _iso(when: datetime | None) -> str | None:
    return iso(when) if when else None


def _text(order) -> str:
    from ..engine.notation import order_text
    return order_text(order)


__all__ = ["GameService", "GameError", "Notice", "PLAYING"]
