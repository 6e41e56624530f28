"""What GameService answers: frozen values with typed fields, not dicts indexed by strings.

The edges (mail, CLI, ops) read these by attribute; Jinja templates do too (`status.phase_name`).
Where a part of an answer is genuinely JSON -- a position or a phase's results as stored, a
notice's payload, the settings as a game file holds them, a time as notices carry it -- it stays a
mapping and its field says so: those shapes are shared with the stored records and the templates
that read them, and changing them would change what old game files mean.

`NoticeKind` names every kind of notice; its value is the text stored in a game file's `notices`
table and the template's name (`templates/notice_<value>.j2`), so files written before it read the
same. `NoSuchGame` is what asking for a game that is not there raises: a LookupError, not a
KeyError, so an unrelated KeyError (a time zone, a variant, a dict) is never taken for it.
"""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# A JSON value as the game file stores it (or as `judge adjudicate` speaks it): read, not typed here.
Json = Mapping[str, Any]


class NoSuchGame(LookupError):
    """There is no game of that name. str(e) is the sentence the player is told (`sentence`, where
    a caller has always said it its own way)."""

    def __init__(self, name: str, sentence: str | None = None) -> None:
        super().__init__(sentence or f"no game called {name!r}")
        self.name = name


class NoSuchPower(KeyError):
    """The game has no power of that id (a power the player's sign-on named that the game has not,
    or no longer has): a KeyError, as before, that says which game and power (words:
    judge.mail.words.problem_words)."""

    def __init__(self, game: str, power: str) -> None:
        super().__init__(power)
        self.game, self.power = game, power


class NoticeKind(enum.StrEnum):
    """Every kind of notice the games layer writes. The value is stored as the notice's kind."""
    ABANDONED = "abandoned"
    CIVIL_DISORDER = "civil_disorder"
    COIN_TOSS = "coin_toss"
    CONCESSION = "concession"
    DIARIES = "diaries"
    DEADLINE_MOVED = "deadline_moved"
    ELIMINATED = "eliminated"
    EXCUSED = "excused"
    EXCHANGE_OFFER = "exchange_offer"
    GAME_END = "game_end"
    GAME_START = "game_start"
    ITALY_JOINS = "italy_joins"
    LATE = "late"
    LATER_ORDERS = "later_orders"
    MASTER_ACTED = "master_acted"
    OFFER = "offer"
    OFFER_ENDED = "offer_ended"
    PASSWORD_SET = "password_set"
    PAUSED = "paused"
    PRESS = "press"
    REMINDER = "reminder"
    REPLACEMENT = "replacement"
    RESIGNED = "resigned"
    RESULTS = "results"
    RESUMED = "resumed"
    RETURNED = "returned"
    REVEALED = "revealed"
    ROLLBACK = "rollback"
    TAKEOVER_REQUEST = "takeover_request"
    UNSTARTED = "unstarted"


@dataclass(frozen=True)
class DiaryEntry:
    """One entry of a player's diary (judge.games.diaries): numbered per power and player."""
    power: str
    account: str | None
    number: int
    phase: str | None
    at: str
    body: str


def notice_kind(stored: str) -> NoticeKind | str:
    """A notice's stored kind. One this judge does not know (a file a later version wrote) stays
    text: the courier then sets that notice aside (it has no template) instead of every notice of
    its game failing to be read."""
    try:
        return NoticeKind(stored)
    except ValueError:
        return stored


@dataclass(frozen=True)
class Notice:
    """A notice waiting for the mail layer. `payload` is the stored JSON (its results filled in
    from the phase it names, `results_of`); `recipient` None is public news; `kind` text only for a
    kind this judge does not know (`notice_kind`)."""
    id: str
    kind: NoticeKind | str
    recipient: str | None
    payload: Json
    created_at: str


@dataclass(frozen=True)
class PowerState:
    """One power's seat now. `status` is the stored PowerStatus value ("active", "civil disorder", ...)."""
    account: str | None
    status: str
    missed: int
    waiting: bool
    owes: bool          # it has units that need orders and has given none
    centres: int
    excuses_used: int = 0   # excused misses its seat has spent (judge.games.excuses)


@dataclass(frozen=True)
class GameState:
    """A game as it stands (GameService.status). `status` is the stored GameStatus value; `settings`
    the settings' JSON (Settings.to_json); `position` the position before the current phase's
    orders (notation.position_to_json); `deadline` a time as notices carry it ({"utc", "shown"});
    `result` the stored result of a finished game."""
    name: str
    variant: str
    rules: str
    status: str
    master: str | None
    masters: tuple[str, ...]
    phase: str | None
    phase_name: str | None
    deadline: Json | None
    position: Json | None
    next_event_at: str | None
    settings: Json
    result: Json | None
    signups: tuple[str, ...]
    players_needed: int
    powers: Mapping[str, PowerState]

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON (`judge status --json`). Built field by field, not by dataclasses.asdict:
        the index row's copy of it is made on every mail that writes a game, and asdict's deep copy of
        the position was an eighth of such a mail's CPU (bench/backlog.py). The JSON fields are the
        answer's own (each made for it), so they are shared, not copied."""
        answer = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        answer["powers"] = {power: {f.name: getattr(seat, f.name) for f in dataclasses.fields(seat)}
                            for power, seat in self.powers.items()}
        return answer


@dataclass(frozen=True)
class Confirmation:
    """A power's orders after a message (GameService.confirmation, submit_orders, clear_orders).
    `orders`: the standing orders as stored ({"slot", "written", "read": order JSON}); `problems`:
    what cannot be carried out as things stand, each shaped as a result's outcome ({"order",
    "read", "reason", "why", "args"}); `adjustment` the builds or removals due and given;
    `units_without_orders` the units that need an order and have none; `owed_orders` the orders
    for units that need one which the rules reject as things stand (shaped as `problems`; `why`
    None where fog of war keeps the reason back), so they count for none; `all_in` whether the
    power owes nothing (judge.games.processing.owed); `plays` when the phase will
    be played ({"when": "early" | "at" | "waits" | "paused", ...}); `repeated` the same message
    was handled before; `refused` the index of each order not kept, and why; `warnings` the
    likely misorders among the orders ({"kind": judge.engine.misorders.Kind's code, "args"});
    `digest` the standing orders' digest (judge.games.digests)."""
    game: str
    power: str
    phase: str
    orders: tuple[Json, ...]
    problems: tuple[Json, ...]
    units_without_orders: tuple[str, ...]
    adjustment: Json | None
    all_in: bool
    plays: Json
    deadline: Json | None
    repeated: bool = False
    refused: Mapping[int, str] = field(default_factory=dict)
    warnings: tuple[Json, ...] = ()
    digest: str = ""
    owed_orders: tuple[Json, ...] = ()
    later: tuple[Json, ...] = ()     # orders kept for later phases (njudge's PHASE): {"phase", "written"}, oldest first


@dataclass(frozen=True)
class ListedGame:
    """A game's row in LIST (GameService.list_games), from the index."""
    name: str
    variant: str
    status: str
    phase: str | None
    master: str | None
    next_event_at: str | None


@dataclass(frozen=True)
class PlayedPhase:
    """One phase in a game's history. `position` the position before it (JSON); `results` its
    stored results (JSON, one entry per phase the processing played)."""
    seq: int
    phase: str
    started_at: str
    deadline: str | None
    processed_at: str | None
    rolled_back: bool
    position: Json
    civil_disorder: tuple[str, ...]
    results: tuple[Json, ...]


@dataclass(frozen=True)
class SeatChange:
    """A power changing hands: `event` is "assigned" (at the start), "replaced", "resigned",
    "abandoned", "returned", "eliminated", ..."""
    power: str
    account: str | None
    at: str
    phase: str | None
    event: str


@dataclass(frozen=True)
class CentreCount:
    """Supply centres per power at the start of one phase played."""
    phase: str
    year: int
    centres: Mapping[str, int]


@dataclass(frozen=True)
class PhaseRecord:
    """One phase as played (GameService.phase_record): `position` before its orders and, once
    processed, its `results`, both JSON as stored; `settings` the game's settings' JSON."""
    seq: int
    phase: str
    variant: str
    settings: Json
    position: Json
    results: tuple[Json, ...]


@dataclass(frozen=True)
class OwnPreview(PhaseRecord):
    """One power's PREVIEW (GameService.preview_for): the current phase as a `PhaseRecord` played
    with that power's standing orders alone, nothing stored; `power` the one whose orders they are,
    `after` the position right after the phase (JSON)."""
    power: str
    after: Json


@dataclass(frozen=True)
class AccessRules:
    """A game's joining rules: whether a join password is set, its ALLOW and DENY lists."""
    password: bool
    allow: tuple[str, ...]
    deny: tuple[str, ...]


@dataclass(frozen=True)
class AbsenceSet:
    """SET ABSENCE done: its span (ISO times, UTC) and, if the current deadline fell in it, the
    deadline it moved to. `repeated`: the same message set it before (then nothing else is said)."""
    starts: str | None
    ends: str | None
    deadline_moved: bool = False
    deadline: str | None = None
    repeated: bool = False


@dataclass(frozen=True)
class ExchangeState:
    """Where a power's offer to exchange centres with `partner` stands in the current phase:
    `status` "offered", "agreed" (the partner's offer matches) or "withdrawn"; `partner_offer` the
    partner's standing offer ({"give", "receive"}); `warning` a centre the power still occupies."""
    status: str
    game: str
    phase: str
    power: str
    partner: str
    give: tuple[str, ...]
    receive: tuple[str, ...]
    partner_offer: Mapping[str, list[str]] | None
    warning: str | None = None
    repeated: bool = False
