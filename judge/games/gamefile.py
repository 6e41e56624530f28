"""Reading and writing one game's file: the rows behind a game, and its notices.

`GameFile` is opened for one operation; the caller holds the transaction. It knows the
variant, rules and settings of the game, and writes notices with stable ids so that a
retried operation never announces anything twice.
"""
from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlite_utils

from ..engine import notation
from ..engine.orders import Order
from ..engine.outcomes import Outcome
from ..engine.phase import Need, check_orders, orders_needed
from ..engine.position import Position
from ..engine.rules import Rules, edition
from ..engine.variant import Variant
from ..storage.open_files import KEEP_OPEN_MOST
from .answers import NoticeKind
from .clock import Absence, iso, parse_time, shown
from .model import GameError, GameStatus, PowerStatus, Settings
from .ordercodec import order_from_json
from .small import Setup, setup


@dataclass(frozen=True)
class PowerRow:
    power: str
    account: str | None
    status: PowerStatus
    missed: int
    waiting: bool
    neutral: bool
    excuses_used: int = 0


@dataclass(frozen=True)
class PhaseRow:
    seq: int
    phase: str
    position: Position
    started_at: datetime
    deadline: datetime | None
    late_noticed: bool
    reminded: tuple[float, ...]


class Snapshot:
    """What has been read of one game file since its last write: the game row, the powers, each phase
    row (its position decoded once) and each phase's orders (each decoded once). A mail reads the same
    game a dozen times over (the reply, the confirmation, "is everyone in?", the index row): one
    snapshot, shared by the operations of one mail on one connection (GameService.batch), answers all
    but the first read of each. It holds while the connection's `total_changes` is what it was when
    read: any write it does not know (raw SQL, sqlite-utils) empties it; GameFile's own writes drop
    only what they change. After a rollback the service starts a new one (GameService._forget); once
    the mail's transaction begins, too, unless `version` (SQLite's data_version when the snapshot
    began: it counts other connections' commits) says no other process has written the file since."""
    __slots__ = ("changes", "row", "powers", "phases", "orders", "texts", "queries", "needs", "worked", "version")

    def __init__(self, version: int | None = None) -> None:
        self.version = version
        self.reset(-1)

    def reset(self, changes: int) -> None:
        self.changes = changes
        self.row: dict[str, Any] | None = None
        self.powers: dict[str, PowerRow] | None = None
        self.phases: dict[int, PhaseRow] = {}
        self.texts: dict[int, str] = {}                          # phase seq -> its position as stored
        self.orders: dict[int, list[tuple[str, str]]] = {}      # phase seq -> (power, read) rows as stored
        self.queries: dict[tuple[str, tuple[Any, ...]], list[tuple[Any, ...]]] = {}   # GameFile.read
        self.needs: dict[int, tuple[Position, dict[str, Need]]] = {}    # id(position) -> (it, orders_needed)
        self.worked: dict[Hashable, tuple[frozenset[str] | None, Any]] = {}   # GameFile.worked_out: (reads, it)


class Problems:
    """The orders that cannot be carried out (judge.engine.check_orders) for a phase as stored, kept by
    what the phase holds: the variant, rules, position and every stored order, as text. A game checked
    again with nothing changed (the reminder tick, another reply to the same player, "is everyone
    in?" after the confirmation) is not adjudicated again. Bounded; shared by a service's threads."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._found: dict[tuple[Any, ...], tuple[Outcome, ...]] = {}
        self._lock = threading.Lock()

    def of(self, key: tuple[Any, ...], check: Callable[[], tuple[Outcome, ...]]) -> tuple[Outcome, ...]:
        with self._lock:
            found = self._found.get(key)
        if found is not None:
            return found
        found = check()
        with self._lock:
            if len(self._found) >= self.size:
                self._found.pop(next(iter(self._found)))     # the oldest first
            self._found[key] = found
        return found


class GameFile:
    def __init__(self, db: sqlite_utils.Database, variants: Callable[[str], Variant],
                 zone_of: Callable[[str | None], str | None], snapshot: Snapshot | None = None,
                 problems: Problems | None = None) -> None:
        self.db = db
        self._snapshot = snapshot if snapshot is not None else Snapshot()
        self._problems = problems if problems is not None else Problems(size=16)
        row = self.row()
        self.name: str = row["name"]
        self.variant = variants(row["variant"])
        self.rules: Rules = edition(row["edition"])
        self.settings = _settings(row["settings"])
        self.setup: Setup = setup(self.settings.players, self.variant)
        self.zone_of = zone_of

    # -- reading -----------------------------------------------------------------------------
    # row, powers, phase_row and the orders are asked for many times for every mail: read once into
    # the snapshot (above), each with one plain SELECT, where sqlite-utils' rows_where would first
    # look the schema up three times (bench/dispatch_io.py counts the statements).
    def _fresh(self) -> Snapshot:
        """The snapshot, emptied first if the file was written since it was read."""
        snapshot = self._snapshot
        changes = self.db.conn.total_changes
        if snapshot.changes != changes:
            snapshot.reset(changes)
        return snapshot

    def _wrote(self, snapshot: Snapshot, *parts: str, table: str | None = None) -> None:
        """One write of ours just ran, on a snapshot fresh before it: only `parts` are read again (and
        any query: `read` does not say which tables it reads; `table`, the one table written, when
        given: only the queries whose text names it, as a phase's dozens of notices would otherwise
        read the co-masters again after each)."""
        if "row" in parts:
            snapshot.row = None
        if "powers" in parts:
            snapshot.powers = None
        if "orders" in parts:
            snapshot.orders.clear()
        if table is None:
            snapshot.queries.clear()
        else:
            for key in [key for key in snapshot.queries if table in key[0]]:
                del snapshot.queries[key]
        snapshot.worked = {key: made for key, made in snapshot.worked.items()
                           if made[0] is not None and made[0].isdisjoint(parts)}
        snapshot.changes = self.db.conn.total_changes

    def read(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """A SELECT's rows, run once per snapshot (until the file is written)."""
        snapshot = self._fresh()
        key = (sql, tuple(args))
        if key not in snapshot.queries:
            snapshot.queries[key] = [tuple(r) for r in self.db.execute(sql, list(args))]
        return snapshot.queries[key]

    def row(self) -> dict[str, Any]:
        snapshot = self._fresh()
        if snapshot.row is None:
            cur = self.db.execute("SELECT * FROM game WHERE id = 1")
            names = [d[0] for d in cur.description]
            snapshot.row = dict(zip(names, cur.fetchone(), strict=True))
        return dict(snapshot.row)

    @property
    def status(self) -> GameStatus:
        return GameStatus(self.row()["status"])

    def powers(self) -> dict[str, PowerRow]:
        snapshot = self._fresh()
        if snapshot.powers is None:
            snapshot.powers = {
                r[0]: PowerRow(r[0], r[1], PowerStatus(r[2]), r[3], bool(r[4]), bool(r[5]), r[6])
                for r in self.db.execute("SELECT power, account, status, missed, waiting, neutral, excuses_used"
                                         " FROM powers ORDER BY power")}
        return dict(snapshot.powers)

    def owners(self) -> dict[str, str | None]:
        return {p.power: p.account for p in self.powers().values()}

    def masters(self) -> list[str]:
        """The master, then the co-masters (PROMOTE): each has the master's rights and mail."""
        master = self.row()["master"]
        return [*([master] if master else []),
                *(r[0] for r in self.read("SELECT account FROM comasters ORDER BY since, account")
                  if r[0] != master)]

    def powers_of(self, account: str) -> tuple[str, ...]:
        return tuple(p.power for p in self.powers().values() if p.account == account and not p.neutral)

    def current(self) -> PhaseRow | None:
        seq = self.row()["phase_seq"]
        return self.phase_row(seq) if seq is not None else None

    def phase_now(self) -> PhaseRow:
        """The phase being played, for what only a game under way does (a game still forming has none)."""
        row = self.current()
        if row is None:
            raise GameError(f"{self.name} has not started")
        return row

    def phase_row(self, seq: int) -> PhaseRow:
        snapshot = self._fresh()
        if seq not in snapshot.phases:
            r = self.db.execute("SELECT seq, phase, position, started_at, deadline, late_noticed, reminded "
                                "FROM phases WHERE seq = ?", [seq]).fetchone()
            snapshot.texts[seq] = r[2]
            snapshot.phases[seq] = PhaseRow(
                r[0], r[1], _decoded.position(self.db, self.variant, r[2]), parse_time(r[3]),
                parse_time(r[4]) if r[4] else None, bool(r[5]), tuple(json.loads(r[6])))
        return snapshot.phases[seq]

    def _order_texts(self, seq: int) -> list[tuple[str, str]]:
        snapshot = self._fresh()
        if seq not in snapshot.orders:
            snapshot.orders[seq] = [(power, read) for power, read in self.db.execute(
                "SELECT power, read FROM orders WHERE phase_seq = ? ORDER BY power, position", [seq])]
        return snapshot.orders[seq]

    def orders(self, seq: int) -> dict[str, list[Order]]:
        out: dict[str, list[Order]] = {}
        for power, read in self._order_texts(seq):
            out.setdefault(power, []).append(_order(read))
        return out

    def worked_out(self, key: Hashable, work: Callable[[], Any], reads: frozenset[str] | None = None) -> Any:
        """What `work` makes of the file as read, made once per snapshot (until the file is written):
        for answers asked many times a mail, such as what each power owes. `reads`: the snapshot's
        parts ("row", "powers", "orders") it reads, if it reads nothing else but the phases (which
        only writes outside GameFile's own change, and they empty the snapshot): kept through
        GameFile's writes of other parts, as an order mail's store writes its submission and the
        game's next_event_at after its orders. None: made again after any write."""
        snapshot = self._fresh()
        if key not in snapshot.worked:
            snapshot.worked[key] = (reads, work())
        return snapshot.worked[key][1]

    def orders_needed(self, position: Position) -> dict[str, Need]:
        """judge.engine.orders_needed of a position, worked out once per snapshot for a position read
        from the file (asked a dozen times a mail: who owes, who is in, the reply)."""
        snapshot = self._fresh()
        known = snapshot.needs.get(id(position))
        if known is None or known[0] is not position:
            known = snapshot.needs[id(position)] = (position, orders_needed(self.variant, position))
        return dict(known[1])

    def problems(self, seq: int) -> tuple[Outcome, ...]:
        """The stored orders of phase `seq` that cannot be carried out as things stand (check_orders,
        every power's orders at once, so a move by an ally's convoy is no problem once the convoy is
        ordered). Adjudicated once per state of the phase (Problems)."""
        row = self.phase_row(seq)
        texts = self._order_texts(seq)
        key = (self.variant.id, self.rules, self._snapshot.texts[seq], tuple(texts))
        return self._problems.of(key, lambda: check_orders(self.variant, row.position, self.orders(seq),
                                                           self.rules))

    def order_rows(self, seq: int, power: str) -> list[dict[str, Any]]:
        return [{"slot": r[1], "written": r[2], "read": json.loads(r[3])} for r in self._order_rows(seq)
                if r[0] == power]

    def written_lines(self, seq: int) -> dict[tuple[str, Order], str]:
        """Phase `seq`'s stored orders: (power, the order as read) -> the line the player wrote (the last
        for an order given twice), for the results to show beside each order."""
        return {(r[0], _order(r[3])): r[2] for r in self._order_rows(seq)}

    def _order_rows(self, seq: int) -> list[tuple[Any, ...]]:
        # every power's rows in one SELECT, read once per snapshot
        return self.read("SELECT power, slot, written, read FROM orders WHERE phase_seq = ? ORDER BY power, position",
                         [seq])

    def absences(self, accounts: Iterable[str | None]) -> list[Absence]:
        wanted = [a for a in accounts if a]
        if not wanted:
            return []
        marks = ",".join("?" * len(wanted))
        return [Absence(parse_time(r[0]), parse_time(r[1])) for r in self.db.execute(
            f"SELECT starts, ends FROM absences WHERE account IN ({marks})", wanted)]

    def votes(self, kind: str) -> dict[str, str]:
        return {r["power"]: r["value"] for r in self.db["votes"].rows_where("kind = ?", [kind], select="power, value")}

    def phase_code(self, position: Position) -> str:
        return self.variant.calendar.code(position.phase)

    def phase_name(self, position: Position) -> str:
        return self.variant.calendar.name(position.phase)

    # -- writing -----------------------------------------------------------------------------
    # update_game runs on every mail: one UPDATE, where sqlite-utils' update() would first read the
    # row and look the table up (ten statements; bench/dispatch_io.py counts them).
    def update_game(self, **values: Any) -> None:
        snapshot = self._fresh()
        sets = ", ".join(f"{k} = ?" for k in values)
        self.db.execute(f"UPDATE game SET {sets} WHERE id = 1", list(values.values()))
        row = snapshot.row
        self._wrote(snapshot, "row")
        if row is not None and all(v is None or type(v) in (str, int, float) for v in values.values()):
            snapshot.row = {**row, **values}    # as SQLite gives them back: no need to read the row again

    def set_power(self, power: str, **values: Any) -> None:
        values = {k: (v.value if isinstance(v, PowerStatus) else v) for k, v in values.items()}
        # Raw SQL: for each power in every phase played; sqlite-utils' update() reads the row and the
        # table's columns first (eleven statements for this one).
        snapshot = self._fresh()
        sets = ", ".join(f"{k} = ?" for k in values)
        self.db.execute(f"UPDATE powers SET {sets} WHERE power = ?", [*values.values(), power])
        self._wrote(snapshot, "powers")

    def update_phase(self, seq: int, **values: Any) -> None:
        """Phase `seq`'s columns set. Raw SQL: in every phase played, where sqlite-utils' update() looks the
        schema up four times first. (Not in the snapshot: the next read starts a fresh one.)"""
        sets = ", ".join(f"{k} = ?" for k in values)
        self.db.execute(f"UPDATE phases SET {sets} WHERE seq = ?", [*values.values(), seq])

    def set_deadline(self, seq: int, deadline: datetime) -> None:
        """A new deadline brings its own reminders and late notice; nobody is late any more."""
        self.update_phase(seq, deadline=iso(deadline), reminded="[]", late_noticed=0)
        for p, pr in self.powers().items():
            if pr.status is PowerStatus.LATE:
                self.set_power(p, status=PowerStatus.ACTIVE)

    def power_event(self, power: str, account: str | None, event: str, now: datetime, phase: str | None) -> None:
        self.db.table("power_history").insert({"power": power, "account": account, "at": iso(now), "phase": phase,
                                         "event": event})

    def event(self, kind: str, now: datetime, **detail: Any) -> None:
        self.db.table("events").insert({"at": iso(now), "kind": kind, "detail": json.dumps(detail, sort_keys=True)})

    def submission(self, seq: int, power: str, now: datetime, source: str | None, action: str, written: str,
                   read: Any) -> int:
        """A message's orders (or CLEAR, or EXCHANGE) as it came, kept for good. Returns its id."""
        # Raw SQL: on every order mail; sqlite-utils' insert looks the schema up twice and wraps the one
        # statement in a savepoint.
        snapshot = self._fresh()
        sid = self.db.execute(
            "INSERT INTO submissions (phase_seq, power, at, source, action, written, read)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [seq, power, iso(now), source, action, written, json.dumps(read)]).lastrowid
        self._wrote(snapshot)       # (no submission is in the snapshot)
        return cast(int, sid)

    def put_orders(self, seq: int, power: str, rows: Sequence[tuple[str, int, str, str, int]],
                   replace_all: bool) -> None:
        """Orders stored for `power` in phase `seq`, each row (slot, position, written, read as JSON,
        submission id) replacing the order in its slot; `replace_all`: every order of the power's
        before goes. The rows in one statement, in their order (so the last for a slot stands)."""
        snapshot = self._fresh()
        if replace_all:
            self.db.execute("DELETE FROM orders WHERE phase_seq = ? AND power = ?", [seq, power])
        if rows:
            self.db.execute(
                "INSERT INTO orders (phase_seq, power, slot, position, written, read, submission_id)"
                " SELECT ?, ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'),"
                " json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]')"
                " FROM json_each(?) WHERE true ON CONFLICT(phase_seq, power, slot) DO UPDATE SET"
                " position = excluded.position, written = excluded.written, read = excluded.read,"
                " submission_id = excluded.submission_id",
                [seq, power, json.dumps(rows)])
        self._wrote(snapshot, "orders")

    def new_phase(self, position: Position, now: datetime, deadline: datetime | None) -> int:
        powers = {p: {"account": r.account, "status": r.status.value, "missed": r.missed}
                  for p, r in self.powers().items()}
        text = json.dumps(notation.position_to_json(self.variant, position))
        # Raw SQL: in every phase played (sqlite-utils' insert looks the schema up and wraps it in a savepoint)
        seq = self.db.execute(
            "INSERT INTO phases (phase, position, started_at, deadline, powers) VALUES (?, ?, ?, ?, ?)",
            [self.phase_code(position), text, iso(now), iso(deadline) if deadline else None,
             json.dumps(powers)]).lastrowid
        _decoded.keep(self.db, self.variant, text, position)      # read back at once: not decoded again
        self.update_game(phase_seq=seq)
        return cast(int, seq)       # (sqlite-utils types last_pk as optional)

    # -- notices -----------------------------------------------------------------------------
    def recipients(self) -> list[str | None]:
        """Every player with a power (once, however many powers), the masters, and the public (None)."""
        accounts = sorted({p.account for p in self.powers().values() if p.account and not p.neutral})
        return [*accounts, *(m for m in self.masters() if m not in accounts), None]

    def times(self, when: datetime | None, recipient: str | None) -> dict[str, Any] | None:
        if when is None:
            return None
        zones = [self.settings.time_zone]
        zone = self.zone_of(recipient)
        if zone:
            zones.append(zone)
        return {"utc": iso(when), "shown": shown(when, zones)}

    def notice(self, key: str, kind: NoticeKind, recipient: str | None, payload: dict[str, Any], now: datetime) -> None:
        """Write a notice once: its id is game:key:kind:recipient, the same however often we retry."""
        body = {"game": self.name, "kind": kind, "recipient": recipient,
                "powers": list(self.powers_of(recipient)) if recipient else [], **payload}
        self._write_notice(key, kind, recipient, json.dumps(body, sort_keys=True), now)

    def _write_notice(self, key: str, kind: NoticeKind, recipient: str | None, text: str, now: datetime) -> None:
        nid = f"{self.name}:{key}:{kind}:{recipient or '*'}"
        # Raw SQL: per recipient of every notice; sqlite-utils' insert(ignore=True) looks up the row it
        # did not insert with five more statements.
        snapshot = self._fresh()
        self.db.execute(
            "INSERT OR IGNORE INTO notices (id, created_at, kind, recipient, payload) VALUES (?, ?, ?, ?, ?)",
            [nid, iso(now), kind, recipient, text],
        )
        self._wrote(snapshot, table="notices")       # (no notice is in the snapshot but as counted)

    def read_notice_payload(self, text: str, results: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
        """A stored notice's payload as the mail layer reads it: a results notice names the phase whose
        stored result it reports (`results_of`, a phase seq) rather than carrying a copy per recipient,
        and gets that result here. Notices written before carry `results` themselves. `results`:
        the phases read so far, shared by one read of many notices."""
        payload: dict[str, Any] = json.loads(text)
        seq = payload.get("results_of")
        if seq is not None and "results" not in payload:
            if seq not in results:
                row = self.db.execute("SELECT result FROM phases WHERE seq = ?", [seq]).fetchone()
                results[seq] = json.loads(row[0])["results"] if row and row[0] else []
            payload["results"] = results[seq]
        return payload

    def announce(self, key: str, kind: NoticeKind, payload: dict[str, Any], now: datetime,
                 deadline: datetime | None = None, recipients: Iterable[str | None] | None = None) -> None:
        """The same news to each recipient, with the deadline shown in the game's zone and their own.
        Each copy is stored as `notice` stores it; the members all copies share are encoded once (a
        phase's results went to JSON nine times over: a tenth of playing a deadline, issue 27)."""
        shared = _members({"game": self.name, "kind": kind, **payload})
        for r in (self.recipients() if recipients is None else recipients):
            own: dict[str, Any] = {k: v for k, v in (("recipient", r), ("powers", list(self.powers_of(r)) if r else []))
                                   if k not in payload}
            if deadline is not None:
                own["deadline"] = self.times(deadline, r)
            self._write_notice(key, kind, r, _joined({**shared, **_members(own)}), now)


def _members(obj: dict[str, Any]) -> dict[str, str]:
    """Each member of a JSON object as `json.dumps(obj, sort_keys=True)` writes it ("key": value)."""
    return {k: f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in obj.items()}


def _joined(members: dict[str, str]) -> str:
    """The object of these members, as `json.dumps(..., sort_keys=True)` writes it."""
    return "{" + ", ".join(members[k] for k in sorted(members)) + "}"


class DecodedPositions:
    """Positions as stored (JSON text) decoded once per game file: a phase played reads its position,
    writes (which empties the snapshot), reads it again, and reads the new phase's back, which it has
    just encoded. Kept by the file's connection and the text (a position is frozen: shared safely);
    bounded, the oldest going first. Not shared between games, which hold different positions. The bound
    holds two positions (the current phase's and the one before) for each game file the worker keeps
    open: a backlog that reaches each of 300 games in turn found none of 256 still kept, and decoded
    the position again for every mail."""

    def __init__(self, size: int = 2 * KEEP_OPEN_MOST) -> None:
        self.size = size
        self._known: OrderedDict[tuple[int, str, str], Position] = OrderedDict()
        self._lock = threading.Lock()

    def position(self, db: sqlite_utils.Database, variant: Variant, text: str) -> Position:
        key = (id(db.conn), variant.id, text)
        with self._lock:
            known = self._known.get(key)
        if known is None:
            known = notation.position_from_json(variant, json.loads(text))
            self.keep(db, variant, text, known)
        return known

    def keep(self, db: sqlite_utils.Database, variant: Variant, text: str, position: Position) -> None:
        with self._lock:
            self._known[(id(db.conn), variant.id, text)] = position
            while len(self._known) > self.size:
                self._known.popitem(last=False)


_decoded = DecodedPositions()


@functools.lru_cache(maxsize=8192)
def _order(read: str) -> Order:
    """An order as stored (JSON text), decoded once: orders are frozen values, so one may be shared."""
    return order_from_json(json.loads(read))


@functools.lru_cache(maxsize=1024)
def _settings(text: str) -> Settings:
    """A game's settings as stored (JSON text), read once: Settings is frozen, so one may be shared."""
    return Settings.from_json(json.loads(text))
