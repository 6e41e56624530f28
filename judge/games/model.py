"""A game's settings and the statuses of games and powers. Plain values, stored as JSON."""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from . import deadlines


class GameStatus(enum.Enum):
    FORMING = "forming"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"


class PowerStatus(enum.Enum):
    ACTIVE = "active"
    LATE = "late"                    # the deadline has passed and it owes orders (grace period)
    CIVIL_DISORDER = "civil disorder"  # missed the last phase; its units hold
    ABANDONED = "abandoned"          # missed too many phases in a row: open for takeover
    RESIGNED = "resigned"            # its player left: open for takeover
    ELIMINATED = "eliminated"        # no units and no centres
    NEUTRAL = "neutral"              # nobody plays it (games for fewer than seven)


# Powers whose player can be expected to send orders; the others are played by the rules alone.
PLAYING = frozenset({PowerStatus.ACTIVE, PowerStatus.LATE, PowerStatus.CIVIL_DISORDER})


class NmrPolicy(enum.Enum):
    # At the deadline (after grace) a power without orders is in civil disorder, per the rulebooks.
    CIVIL_DISORDER = "civil disorder"
    # The game waits for every playing power; only the game master's `process` forces it on.
    WAIT = "wait"


class MissedOrders(enum.Enum):
    """What a missed movement deadline costs a power that is still played."""
    # The hobby's judges (njudge, DPjudge, webDiplomacy, diplicity): its units hold, and it still
    # gets its retreats and adjustments; only an abandoned, resigned or neutral power has its
    # dislodged units disbanded and its removals made by the judge.
    HOBBY = "hobby"
    # The rulebooks, written for a table: "If they are dislodged, they are disbanded."
    BOOK = "book"


class PressType(enum.Enum):
    WHITE = "white"          # signed
    GREY = "grey"            # may be sent anonymously
    BROADCAST = "broadcast"  # signed, and only to every power at once (no private deals)
    NONE = "none"            # only to and from the game master


class ObserverPress(enum.Enum):
    """What press observers may send (njudge's SET OBSERVER); to the master they may always write."""
    NONE = "none"            # none but to the master (the default)
    WHITE = "white"          # signed, under the game's other press rules
    ANY = "any"              # as the players may: grey too where the game allows it


class FakePress(enum.Enum):
    """Whether press may show its readers other recipients than its true ones (njudge's fakes)."""
    OFF = "off"              # what a reader is told of the recipients is true
    ON = "on"                # a writer may fake it: FAKE BROADCAST, FAKE TO powers
    BROADCAST = "broadcast"  # all press between players is shown as a broadcast


class DrawRule(enum.Enum):
    # The rulebooks: every survivor agrees, and the draw is shared by all survivors.
    ALL_SURVIVORS = "all survivors"
    # Every survivor votes for the same list of powers, who share the draw (others may be left out).
    NAMED = "named"


class Assignment(enum.Enum):
    RANDOM = "random"
    PREFERENCE = "preference"


# a phase kind's letter -> the word its own settings are named with (movement_clock, ...)
_KINDS = {"M": "movement", "R": "retreat", "A": "adjustment"}
_PHASE_DAYS = frozenset(f"{kind}_days" for kind in _KINDS.values())


@dataclass(frozen=True)
class Settings:
    # hours a phase lasts, by phase kind (M, R, A)
    movement_hours: float = 48.0
    retreat_hours: float = 24.0
    adjustment_hours: float = 24.0
    grace_hours: float = 12.0
    # reminders this many hours before the deadline, to powers that still owe orders
    reminder_hours: tuple[float, ...] = (24.0, 4.0)
    press: PressType = PressType.WHITE
    movement_press_only: bool = False  # the face-to-face rule: no press in retreat and adjustment phases
    # DPjudge's FTF_PRESS (Sail Ho!): press only in movement phases, as above, and no private press
    # once a movement deadline has passed (powers late); broadcasts and the master still can be written
    ftf_press: bool = False
    nmr_policy: NmrPolicy = NmrPolicy.CIVIL_DISORDER
    missed_orders: MissedOrders = MissedOrders.HOBBY  # games from before the setting keep BOOK (store v8)
    abandon_after: int = 2           # phases missed in a row before a power is declared abandoned
    draw_rule: DrawRule = DrawRule.ALL_SURVIVORS
    # DPjudge's NO_DRAW: no draw may be voted; the game ends in a win (or a concession to one side).
    # On from the start in a variant whose hooks say `no_draw` (Sengoku).
    no_draw: bool = False
    victory_centres: int | None = None  # None: the variant's (18 on the standard map)
    # Count the player's countries together for victory (the two-player World War I game).
    victory_by_player: bool = False
    last_year: int | None = None     # turn limit: the game ends after this year's last phase
    ends_at: str | None = None       # time limit (UTC ISO): the game ends with the first phase processed then
    time_zone: str = "UTC"           # the game's IANA zone; deadlines are shown in it
    assignment: Assignment = Assignment.PREFERENCE
    players: str = "seven"           # see small.SETUPS: seven, six, five, four, three, three-1982, two, each
    # absences: at most this many days at once, set by a player; the master may set any
    max_absence_days: float = 14.0
    after_absence_hours: float = 24.0  # a deadline moved by an absence falls this long after it ends
    pictures: bool = True            # results mails carry a picture of the board (off: text only)
    unlisted: bool = False           # left out of LIST but for its master and players (judge.games.access)
    # joining needs a record (judge.games.records) of orders sent in at least this per cent of the
    # phases that needed them; None: anyone; newcomers with no phase yet may always join
    min_reliability: float | None = None
    # deadlines on a daily grid (judge.games.deadlines): a local time of day in the game's zone
    # ("18:00"; None: a phase is due its length after it starts), on these weekdays (empty: any)
    deadline_clock: str | None = None
    deadline_days: tuple[str, ...] = ()
    # njudge's per-phase clocks (SET MOVE|RETREAT|ADJUST CLOCK|DAYS|GRACE): a phase kind's own time
    # of day, weekdays and grace hours; None: the game's (deadline_clock, deadline_days, grace_hours)
    movement_clock: str | None = None
    retreat_clock: str | None = None
    adjustment_clock: str | None = None
    movement_days: tuple[str, ...] | None = None
    retreat_days: tuple[str, ...] | None = None
    adjustment_days: tuple[str, ...] | None = None
    movement_grace: float | None = None
    retreat_grace: float | None = None
    adjustment_grace: float | None = None
    # grace "until a date" (njudge's GRACE given a date): missing orders are waited for until this
    # UTC ISO instant, whatever the grace hours say; None: no such date
    grace_until: str | None = None
    # njudge's SET START: no phase is played before this UTC ISO instant, early or at a deadline,
    # and a phase that starts before it is due no sooner (None: no such date)
    earliest: str | None = None
    # fog of war (judge.games.fog): each power sees only what its units and centres see
    fog: bool = False
    # anonymous (gunboat): no player's name or address in mail to the others until the game ends or
    # the master's REVEAL (judge.mail.words.anonymity); set before the start only
    anonymous: bool = False
    # excused misses (judge.games.excuses): each power's player may miss this many deadlines in the
    # game (0: none); a deadline missed with one left moves on `excuse_hours` instead of being played
    excuses: int = 0
    excuse_hours: float = 24.0
    # a power abandoned or resigned, which nobody has taken over, is played by the judge's stand-in
    # (judge.engine.stand_in: DPjudge's SMART_CD) rather than holding; off: its units hold
    stand_in: bool = False
    # a power open for takeover is offered by mail to the standby list (judge.games.standby), one
    # standby at a time for this many hours each, most reliable first (0: to all of them at once)
    offer_hours: float = 24.0
    # a takeover (JOIN or TAKE of an open power) is held until a master's APPROVE (judge.games.takeovers)
    approve_takeovers: bool = False
    # njudge's QUIET: a replacement is announced to the others without the new player's name
    quiet: bool = False
    # press as njudge has it (judge.games.press): observers' own press; observers reading all press,
    # private press too (njudge's WATCH ALL PRESS; broadcasts reach them always); fake recipients;
    # press from a power late with its orders; press only once a power's orders are in (MUST ORDER)
    observer_press: ObserverPress = ObserverPress.NONE
    observers_read_all: bool = False
    fake_press: FakePress = FakePress.OFF
    late_press: bool = True
    must_order: bool = False
    # diaries (judge.games.diaries): each player's notes, shown to all when the game ends; off: never
    diaries_revealed: bool = True
    # njudge's COMMENT: a line about the game, shown in LIST game and SUMMARY (None: none)
    comment: str | None = None
    # an anonymous game shows who played each power when it ends (njudge's REVEAL); off: never (NO REVEAL)
    reveal_at_end: bool = True
    # njudge's MANUAL PROCESS: a phase is played only at a master's PROCESS, never by the clock
    manual_process: bool = False
    # njudge's MANUAL START: a full game waits for a master's START instead of starting at once
    manual_start: bool = False

    def __post_init__(self) -> None:
        ZoneInfo(self.time_zone)  # raises for an unknown zone
        # reminders in one spelling: hours before the deadline, longest first
        object.__setattr__(self, "reminder_hours", tuple(sorted({float(h) for h in self.reminder_hours}, reverse=True)))
        if any(h <= 0 for h in self.reminder_hours):
            raise ValueError("reminder hours must be positive")
        if self.abandon_after < 1:
            raise ValueError("abandon_after must be at least 1")
        for name in ("movement_hours", "retreat_hours", "adjustment_hours"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if self.excuses < 0:
            raise ValueError("excuses cannot be negative")
        if self.offer_hours < 0:
            raise ValueError("offer_hours cannot be negative")
        if self.excuse_hours <= 0:
            raise ValueError("excuse_hours must be positive")
        if self.grace_hours < 0:
            raise ValueError("grace_hours cannot be negative")
        if self.min_reliability is not None and not 0 <= self.min_reliability <= 100:
            raise ValueError("min_reliability is a percentage, from 0 to 100")
        if self.deadline_clock is not None:    # one spelling, HH:MM
            object.__setattr__(self, "deadline_clock", deadlines.parse_clock(self.deadline_clock).strftime("%H:%M"))
        object.__setattr__(self, "deadline_days", deadlines.parse_days(self.deadline_days))
        for kind in _KINDS.values():
            clock, days, grace = (getattr(self, f"{kind}_{what}") for what in ("clock", "days", "grace"))
            if clock is not None:
                object.__setattr__(self, f"{kind}_clock", deadlines.parse_clock(clock).strftime("%H:%M"))
            if days is not None:
                object.__setattr__(self, f"{kind}_days", deadlines.parse_days(days))
            if grace is not None and grace < 0:
                raise ValueError("grace hours cannot be negative")
        for name in ("grace_until", "earliest"):    # UTC instants, as the scheduler reads them
            value = getattr(self, name)
            if value is not None and datetime.fromisoformat(str(value).replace("Z", "+00:00")).tzinfo is None:
                raise ValueError(f"{name} needs a zone (UTC: ...Z)")

    def clock_for(self, kind: str) -> str | None:
        """The time of day a phase of this kind (M, R, A) falls due at: its own, else the game's."""
        own: str | None = getattr(self, f"{_KINDS[kind]}_clock")
        return self.deadline_clock if own is None else own

    def days_for(self, kind: str) -> tuple[str, ...]:
        own: tuple[str, ...] | None = getattr(self, f"{_KINDS[kind]}_days")
        return self.deadline_days if own is None else own

    def grace_for(self, kind: str) -> float:
        own: float | None = getattr(self, f"{_KINDS[kind]}_grace")
        return self.grace_hours if own is None else own

    def phase_hours(self, kind: str) -> float:
        return {"M": self.movement_hours, "R": self.retreat_hours, "A": self.adjustment_hours}[kind]

    def to_json(self) -> dict[str, Any]:
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, enum.Enum) else (
                list(value) if isinstance(value, tuple) else value)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Settings":
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise ValueError(f"unknown game settings: {', '.join(sorted(unknown))}")
        values: dict[str, Any] = {}
        for name, given in data.items():
            default = getattr(cls, name, None)
            value = given
            if isinstance(default, enum.Enum):
                value = type(default)(given)
            elif name in ("reminder_hours", "deadline_days") or (name in _PHASE_DAYS and given is not None):
                value = tuple(given)
            values[name] = value
        return cls(**values)

    def with_(self, **changes: Any) -> "Settings":
        return Settings.from_json({**self.to_json(), **{
            k: (v.value if isinstance(v, enum.Enum) else v) for k, v in changes.items()}})


# What a master may change once the game has started: the clock and the manners of play. The
# rest (who plays, what wins, how the seats are given) is fixed when the players join.
CHANGEABLE_IN_PLAY = frozenset({
    "movement_hours", "retreat_hours", "adjustment_hours", "grace_hours", "reminder_hours", "press",
    "movement_press_only", "nmr_policy", "abandon_after", "max_absence_days", "after_absence_hours",
    "pictures", "deadline_clock", "deadline_days", "time_zone", "unlisted", "min_reliability", "last_year",
    "ends_at", "excuses", "excuse_hours", "stand_in",
    "offer_hours", "approve_takeovers", "quiet", "movement_clock", "retreat_clock", "adjustment_clock",
    "movement_days", "retreat_days", "adjustment_days", "movement_grace", "retreat_grace", "adjustment_grace",
    "grace_until", "earliest", "comment", "reveal_at_end", "manual_process", "observer_press", "observers_read_all",
    "fake_press", "late_press", "must_order", "diaries_revealed"})


class Refusal(enum.StrEnum):
    """Why the games layer refused a request, for the mail layer to word (judge.mail.words.refusals):
    the facts a refusal carries (`GameError.facts`) fill in its words. Each code's value is its name in
    lower case (`not_paused`), as the log shows it."""
    NOT_PAUSED = enum.auto()                    # game
    NOT_TERMINATED = enum.auto()                # game
    TERMINATED_LONG_AGO = enum.auto()           # game, when
    FORMING_ALREADY = enum.auto()               # game
    OVER = enum.auto()                          # game
    PLAYED_ALREADY = enum.auto()                # game, phase
    NOT_A_MASTER = enum.auto()                  # game, account
    NO_MASTER_LEFT = enum.auto()                # game
    STARTED_ALREADY = enum.auto()               # game
    TOO_FEW_TO_FORCE = enum.auto()              # game, players
    NOT_FULL = enum.auto()                      # game, needed, players
    MASTER_ALREADY = enum.auto()                # game, account
    MASTER_NOT_COMASTER = enum.auto()           # game, account
    NOT_UNDER_WAY = enum.auto()                 # game, status
    NO_SURVIVING_POWER = enum.auto()            # game, account
    NOT_A_SURVIVOR = enum.auto()                # game, power
    OWN_POWER = enum.auto()
    NO_DIARY_ENTRY = enum.auto()                # game, number
    DIARIES_UNTIL_THE_END = enum.auto()         # game
    DIARIES_PRIVATE = enum.auto()               # game
    NOT_AN_ADDRESS = enum.auto()                # address
    BAD_ACCOUNT_NAME = enum.auto()
    NAME_TAKEN = enum.auto()                    # name
    ADDRESS_YOURS = enum.auto()                 # address
    ADDRESS_TAKEN = enum.auto()                 # address
    CLAIMS_WAITING = enum.auto()                # waiting, days
    NO_CLAIM = enum.auto()                      # address, days
    WRONG_CODE = enum.auto()
    NOT_TAKING_ORDERS = enum.auto()             # game, status
    NOBODY_PLAYS = enum.auto()                  # game, power
    NOT_THEIRS = enum.auto()                    # game, power, account
    POWER_GONE = enum.auto()                    # power, status
    NO_PHASE = enum.auto()                      # game, phase
    NOT_STARTED = enum.auto()                   # game
    ABSENCE_BACKWARDS = enum.auto()
    NO_ABSENCES = enum.auto()                   # game
    ABSENCE_TOO_LONG = enum.auto()              # days
    PLAYS_NO_POWER = enum.auto()                # game, account
    BAD_GAME_NAME = enum.auto()                 # name
    GAME_EXISTS = enum.auto()                   # game
    UNKNOWN_RULES = enum.auto()                 # rules
    UNKNOWN_VARIANT = enum.auto()               # variant, known
    SETUP_NOT_FOR = enum.auto()                 # setup, variant
    NOT_A_DATE_TIME = enum.auto()               # text (judge.games.dates: a date the master wrote)
    PAST = enum.auto()                          # when, zone
    NO_DATE = enum.auto()
    DATE_WORD = enum.auto()                     # word, text
    TOO_FAR_AHEAD = enum.auto()                 # text
    YEAR_PAST = enum.auto()                     # text
    YEAR_NO_DAY = enum.auto()                   # text
    NO_DAY = enum.auto()                        # text
    DAY_AND_MONTH = enum.auto()                 # text
    WRONG_WEEKDAY = enum.auto()                 # date, weekday, named
    NOT_A_DATE = enum.auto()                    # month, day


class GameError(ValueError):
    """A request the game cannot grant. With `why`, a code the mail layer words with the `facts`
    (judge.mail.words.refusals), its str() a line for the log; without, the message is fit to send
    to the player (the refusals not given a code yet)."""

    def __init__(self, message: str = "", *, why: Refusal | None = None, **facts: str | int) -> None:
        self.why = why
        self.facts = facts
        shown = " ".join(f"{k}={v}" for k, v in sorted(facts.items()))
        super().__init__(message or (f"{why.value} {shown}".strip() if why is not None else ""))


class SignedPressOnly(GameError):
    """Grey (unsigned) press in a game whose press is signed: the same press without GREY goes."""
