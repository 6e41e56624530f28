"""Reading and writing one game's file: the rows behind a game, and its notices.

`GameFile` is opened for one operation; the caller holds the transaction. It knows the
variant, rules and settings of the game, and writes notices with stable ids so that a
retried operation never announces anything twice.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlite_utils

from ..engine import notation
from ..engine.orders import Order
from ..engine.position import Position
from ..engine.rules import Rules, edition
from ..engine.variant import Variant
from .answers import NoticeKind
from .clock import Absence, iso, parse_time, shown
from .model import GameError, GameStatus, PowerStatus, Settings
from .ordercodec import order_from_json
from .small import Setup, setup


@dataclass
class PowerRow:
    power: str
    account: str | None
    status: PowerStatus
    missed: int
    waiting: bool
    neutral: bool
    excuses_used: int = 0


@dataclass
class PhaseRow:
    seq: int
    phase: str
    position: Position
    started_at: datetime
    deadline: datetime | None
    late_noticed: bool
    reminded: list[float]


class GameFile:
    def __init__(self, db: sqlite_utils.Database, variants: Callable[[str], Variant],
                 zone_of: Callable[[str | None], str | None]) -> None:
        self.db = db
        row = self.row()
        self.name: str = row["name"]
        self.variant = variants(row["variant"])
        self.rules: Rules = edition(row["edition"])
        self.settings = Settings.from_json(json.loads(row["settings"]))
        self.setup: Setup = setup(self.settings.players, self.variant)
        self.zone_of = zone_of

    # -- reading -----------------------------------------------------------------------------
    # row, powers, masters, phase_row and the orders are read many times for every mail: one plain
    # SELECT each, where sqlite-utils' rows_where would first look the schema up three times
    # (bench/dispatch_io.py counts the statements).
    def row(self) -> dict[str, Any]:
        cur = self.db.execute("SELECT * FROM game WHERE id = 1")
        names = [d[0] for d in cur.description]
        return dict(zip(names, cur.fetchone(), strict=True))

    @property
    def status(self) -> GameStatus:
        return GameStatus(self.row()["status"])

    def powers(self) -> dict[str, PowerRow]:
        return {r[0]: PowerRow(r[0], r[1], PowerStatus(r[2]), r[3], bool(r[4]), bool(r[5]), r[6])
                for r in self.db.execute("SELECT power, account, status, missed, waiting, neutral, excuses_used"
                                         " FROM powers ORDER BY power")}

    def owners(self) -> dict[str, str | None]:
        return {p.power: p.account for p in self.powers().values()}

    def masters(self) -> list[str]:
        """The master, then the co-masters (PROMOTE): each has the master's rights and mail."""
        master = self.row()["master"]
        return [*([master] if master else []),
                *(r[0] for r in self.db.execute("SELECT account FROM comasters ORDER BY since, account")
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
        r = self.db.execute("SELECT seq, phase, position, started_at, deadline, late_noticed, reminded "
                            "FROM phases WHERE seq = ?", [seq]).fetchone()
        return PhaseRow(r[0], r[1], notation.position_from_json(self.variant, json.loads(r[2])),
                        parse_time(r[3]), parse_time(r[4]) if r[4] else None, bool(r[5]), json.loads(r[6]))

    def orders(self, seq: int) -> dict[str, list[Order]]:
        out: dict[str, list[Order]] = {}
        for power, read in self.db.execute(
                "SELECT power, read FROM orders WHERE phase_seq = ? ORDER BY power, position", [seq]):
            out.setdefault(power, []).append(order_from_json(json.loads(read)))
        return out

    def order_rows(self, seq: int, power: str) -> list[dict[str, Any]]:
        return [{"slot": r[0], "written": r[1], "read": json.loads(r[2])} for r in self.db.execute(
            "SELECT slot, written, read FROM orders WHERE phase_seq = ? AND power = ? ORDER BY position",
            [seq, power])]

    def absences(self, accounts: Iterable[str | None]) -> list[Absence]:
        wanted = [a for a in accounts if a]
        if not wanted:
            return []
        marks = ",".join("?" * len(wanted))
        return [Absence(parse_time(r["starts"]), parse_time(r["ends"])) for r in self.db["absences"].rows_where(
            f"account IN ({marks})", wanted, select="starts, ends")]

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
        sets = ", ".join(f"{k} = ?" for k in values)
        self.db.execute(f"UPDATE game SET {sets} WHERE id = 1", list(values.values()))

    def set_power(self, power: str, **values: Any) -> None:
        values = {k: (v.value if isinstance(v, PowerStatus) else v) for k, v in values.items()}
        # Raw SQL: for each power in every phase played; sqlite-utils' update() reads the row and the
        # table's columns first (eleven statements for this one).
        sets = ", ".join(f"{k} = ?" for k in values)
        self.db.execute(f"UPDATE powers SET {sets} WHERE power = ?", [*values.values(), power])

    def set_deadline(self, seq: int, deadline: datetime) -> None:
        """A new deadline brings its own reminders and late notice; nobody is late any more."""
        self.db.table("phases").update(seq, {"deadline": iso(deadline), "reminded": "[]", "late_noticed": 0})
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
        return cast(int, self.db.table("submissions").insert({    # (sqlite-utils types last_pk as optional)
            "phase_seq": seq, "power": power, "at": iso(now), "source": source, "action": action, "written": written,
            "read": json.dumps(read)}).last_pk)

    def new_phase(self, position: Position, now: datetime, deadline: datetime | None) -> int:
        powers = {p: {"account": r.account, "status": r.status.value, "missed": r.missed}
                  for p, r in self.powers().items()}
        seq = self.db.table("phases").insert({
            "phase": self.phase_code(position),
            "position": json.dumps(notation.position_to_json(self.variant, position)),
            "started_at": iso(now), "deadline": iso(deadline) if deadline else None,
            "powers": json.dumps(powers)}).last_pk
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
        nid = f"{self.name}:{key}:{kind}:{recipient or '*'}"
        body = {"game": self.name, "kind": kind, "recipient": recipient,
                "powers": list(self.powers_of(recipient)) if recipient else [], **payload}
        # Raw SQL: per recipient of every notice; sqlite-utils' insert(ignore=True) looks up the row it
        # did not insert with five more statements.
        self.db.execute(
            "INSERT OR IGNORE INTO notices (id, created_at, kind, recipient, payload) VALUES (?, ?, ?, ?, ?)",
            [nid, iso(now), kind, recipient, json.dumps(body, sort_keys=True)],
        )

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
        """The same news to each recipient, with the deadline shown in the game's zone and their own."""
        for r in (self.recipients() if recipients is None else recipients):
            extra = {"deadline": self.times(deadline, r)} if deadline is not None else {}
            self.notice(key, kind, r, {**payload, **extra}, now)
