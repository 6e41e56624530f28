"""The game settings a master sets by mail: `SET <setting> <value>` and `CREATE game password
[variant] [setting value ...]`. One row per setting: the words it is written with (njudge's where
njudge has one), the GameSettings field it sets, how its value is read, what it means, and an
example that HELP SETTINGS shows and a test plays by mail.

Whether a setting may change once the game has started is the games layer's rule
(judge.games.model.CHANGEABLE_IN_PLAY); this module only reads words.
"""
from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from ...engine.rules import edition
from ...games.deadlines import parse_clock, parse_days
from ..screening.auth import Refused


# The longest a length in hours may be: a year. More is no game's wish, and beyond the calendar's
# end it cannot be added to a date at all ("nan" and "1e999" are floats too, and never a length).
MOST_HOURS = 366 * 24


def within_a_year(text: str, value: float) -> float:
    if not math.isfinite(value):
        raise ValueError(f"{text.strip()!r} is not a number")
    if value > MOST_HOURS:
        raise ValueError(f"{text.strip()!r} is too long: at most a year ({MOST_HOURS} hours)")
    return value


def _hours(text: str) -> float:
    try:
        value = float(text.lower().removesuffix("hours").removesuffix("h").strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a number of hours") from None
    if value <= 0:
        raise ValueError("hours must be more than 0")
    return within_a_year(text, value)


def _takeovers_switch(text: str) -> bool:
    """SET APPROVE TAKEOVERS ON: the word TAKEOVERS may follow APPROVE or be left out."""
    words = text.split()
    return _switch(" ".join(words[1:]) if len(words) > 1 and words[0].lower() == "takeovers" else text)


def _offer_hours(text: str) -> float:
    """OFFERS ALL (every standby at once: 0), or the hours each standby in turn has to answer."""
    return 0.0 if text.strip().lower() in ("all", "0") else _hours(text)


_LENGTH = re.compile(r"(-?\d+(?:\.\d+)?|\.\d+)\s*(h|hours?|hrs?|m|mins?|minutes?)?", re.IGNORECASE)


def _length(text: str) -> float:
    """A phase's length in hours: "72", "36h", "1.5 hours", or in minutes: "90m", "30 minutes"."""
    m = _LENGTH.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"{text!r} is not a length: write hours (36) or minutes (90m)") from None
    value = float(m.group(1)) / (60 if (m.group(2) or "h")[0].lower() == "m" else 1)
    if value <= 0:
        raise ValueError("hours must be more than 0")
    return within_a_year(text, value)


def length_shown(hours: object) -> str:
    """A phase's length as SET writes it: whole hours as hours ("72"), else in minutes ("90m")."""
    if isinstance(hours, (int, float)) and not float(hours).is_integer() and round(hours * 60, 6).is_integer():
        return f"{round(hours * 60):d}m"
    return shown(hours)


def _whole(text: str) -> int:
    if not text.strip().isdecimal():
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _none_or(read: Callable[[str], Any]) -> Callable[[str], Any]:
    return lambda text: None if text.strip().lower() in ("none", "off", "no", "-") else read(text)


def _switch(text: str) -> bool:
    word = text.strip().lower()
    if word in ("on", "yes", "true", "1"):
        return True
    if word in ("off", "no", "false", "0"):
        return False
    raise ValueError(f"{text!r} is neither ON nor OFF")


def _choice(**spellings: str) -> Callable[[str], str]:
    def read(text: str) -> str:
        word = text.strip().lower().replace("-", " ")
        for value, words in spellings.items():
            if word in words.split("|"):
                return value.replace("_", " ")
        raise ValueError(f"{text!r} is not one of " + ", ".join(w.split("|")[0].upper() for w in spellings.values()))
    return read


def _reminders(text: str) -> tuple[float, ...]:
    if text.strip().lower() in ("none", "off"):
        return ()
    return tuple(_hours(part) for part in text.replace(",", " ").split())


def _observer_press(text: str) -> str:
    """njudge's SET OBSERVER NO PRESS, ANY PRESS, WHITE: the word PRESS after it is njudge's habit."""
    words = text.split()
    if len(words) > 1 and words[-1].lower() == "press":
        words.pop()
    return _choice(none="none|no|off", white="white", any="any|grey|gray|partial|all")(" ".join(words))


def _diaries(text: str) -> bool:
    word = text.strip().lower()
    if word in ("end", "on", "revealed", "reveal", "shown"):
        return True
    if word in ("never", "private", "off", "hidden"):    # (CREATE reads PRIVATE as its join password's word)
        return False
    raise ValueError(f"{text.strip()!r} is neither END nor NEVER")


def _clock(text: str) -> str:
    return parse_clock(text).strftime("%H:%M")


# njudge's weekdays: seven places, Sunday first, a letter for a day deadlines may fall on, "-" for one
# they may not ("-MTWTF-": Monday to Friday)
_NJUDGE_WEEK = re.compile(r"^[a-z-]{7}$", re.IGNORECASE)
_SUNDAY_FIRST = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")


def _days(text: str) -> tuple[str, ...]:
    if text.strip().lower() in ("all", "any", "every", "everyday"):
        return ()
    if _NJUDGE_WEEK.match(text.strip()) and all(m in (d, "-") for m, d in zip(text.strip().upper(), "SMTWTFS",
                                                                                   strict=True)):
        days = [day for day, mark in zip(_SUNDAY_FIRST, text.strip(), strict=True) if mark != "-"]
        if not days:
            raise ValueError(f"{text.strip()!r} allows no day of the week")
        return parse_days(days)
    return parse_days(text.replace(",", " ").split())


def _edition(text: str) -> str:
    try:
        return edition(text).name
    except KeyError:
        raise ValueError(f"{text.strip()!r} is not a rulebook the judge knows: 5TH, 2000 or 1982") from None


def _movement_only(text: str) -> bool:
    word = text.strip().lower()
    if word not in ("all", "movement"):
        raise ValueError(f"{text!r} is neither ALL nor MOVEMENT")
    return word == "movement"


def _zone(text: str) -> str:
    try:
        ZoneInfo(text.strip())
    except (ValueError, KeyError, OSError):   # ZoneInfoNotFoundError is a KeyError; OSError: a name too long
        raise ValueError(f"{text.strip()[:60]!r} is not a time zone; write its IANA name, such as Europe/Paris") \
            from None
    return text.strip()


def _percent(text: str) -> float:
    try:
        value = float(text.strip().rstrip("%"))
    except ValueError:        # (Python's own words, "could not convert string to float", are not a reply)
        raise ValueError(f"{text.strip()!r} is not a percentage: write a number from 0 to 100") from None
    if not 0 <= value <= 100:
        raise ValueError("a percentage is from 0 to 100")
    return value


def _game_or(read: Callable[[str], Any]) -> Callable[[str], Any]:
    """A phase's own value, or GAME (also NONE): the game's own setting again."""
    return lambda text: None if text.strip().lower() in ("game", "same", "default", "none", "off", "-") else read(text)


def _or_game(value: object) -> str:
    return "game's" if value is None else shown(value)


def _utc_shown(value: object) -> str:
    return "none" if value is None else str(value).replace("T", " ").replace(":00Z", " UTC")


def _absence_days(text: str) -> float:
    """MAXABSENCE's days: 0 (none) up to a year."""
    try:
        value = float(text.lower().removesuffix("days").removesuffix("d").strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a number of days") from None
    if value < 0:
        raise ValueError("days cannot be negative")
    return within_a_year(text, value * 24) / 24


COMMENT_LENGTH = 80      # one line of LIST game and SUMMARY


def _comment(text: str) -> str:
    # shown to anyone who lists the game: no control characters, and no invisible format characters
    # (a right-to-left override would make the rest of LIST's line read backwards)
    line = " ".join("".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf")).split())
    if len(line) > COMMENT_LENGTH:
        raise ValueError(f"a comment is one line of at most {COMMENT_LENGTH} characters; that one has {len(line)}")
    return line


def _grace_hours(text: str) -> float:
    try:
        value = float(text.lower().removesuffix("hours").removesuffix("h").strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a number of hours") from None
    if value < 0:
        raise ValueError("grace hours cannot be negative")
    return within_a_year(text, value)


def _two_words(name: str, value: str | None) -> tuple[str, str | None]:
    """njudge's per-phase words (SET MOVE CLOCK 20:00) and a grace date (SET GRACE Dec 12) as the
    setting they name and its value."""
    first, _, rest = (value or "").strip().partition(" ")
    both = f"{name} {first}".upper()
    if both in _TWO_WORDS:
        return both, rest
    if name.upper() == "GRACE" and first and not first.replace(".", "", 1).isdigit():
        return "GRACE UNTIL", value
    return name, value


# The grace date, an instant the games layer stores in UTC once read in the game's zone (master.set_game).
GRACE_UNTIL = "grace_until"
EARLIEST = "earliest"
DATES = frozenset({GRACE_UNTIL, EARLIEST})     # settings whose value is a date, read in the game's zone

# The rulebook is no field of Settings but the game's edition (judge.engine.rules), chosen with the rest.
EDITION = "edition"


@dataclass(frozen=True)
class Setting:
    words: tuple[str, ...]         # first is the name HELP uses
    field: str                     # judge.games.model.Settings
    read: Callable[[str], Any]
    means: str
    example: str                   # the value in `SET <name> <example>`
    implied: str | None = None     # the value of a name that says it all (SET NOABSENCE)
    show: Callable[[Any], str] = lambda value: shown(value)   # the value as SET writes it
    quiet_unset: bool = False      # SUMMARY leaves it out while unset (a phase's own clock: most have none)


# njudge's per-phase clocks (SET MOVE|RETREAT|ADJUST CLOCK|DAYS|GRACE): each phase kind may have its
# own time of day, weekdays and grace; unset, it follows the game's CLOCK, DAYS and GRACE.
_PHASES = (("MOVE", "MOVEMENT", "movement", "a movement"), ("RETREAT", "RETREATS", "retreat", "a retreat"),
           ("ADJUST", "ADJUSTMENT", "adjustment", "an adjustment"))
PHASE_CLOCKS: tuple[Setting, ...] = tuple(
    row for short, long, field, phase in _PHASES for row in (
        Setting((f"{short} CLOCK", f"{long} CLOCK"), f"{field}_clock", _game_or(_clock),
                f"{phase.split()[1]} deadlines at this time of day (GAME: the game's CLOCK)", "23:00", show=_or_game,
                quiet_unset=True),
        Setting((f"{short} DAYS", f"{long} DAYS"), f"{field}_days", _game_or(_days),
                f"the weekdays {phase} deadline may fall on (GAME: the game's DAYS)", "-MTWTF-", show=_or_game,
                quiet_unset=True),
        Setting((f"{short} GRACE", f"{long} GRACE"), f"{field}_grace", _game_or(_grace_hours),
                f"hours of grace after {phase} deadline (GAME: the game's GRACE)", "24", show=_or_game,
                quiet_unset=True)))

SETTINGS: tuple[Setting, ...] = (
    Setting(("MOVEMENT", "MOVE", "MOVES", "MOVE NEXT", "MOVEMENT NEXT"), "movement_hours", _length,
            "hours a movement phase lasts (or minutes: 90m)", "72", show=length_shown),
    Setting(("RETREAT", "RETREATS", "RETREAT NEXT"), "retreat_hours", _length,
            "hours a retreat phase lasts (or minutes: 30m)", "24", show=length_shown),
    Setting(("ADJUSTMENT", "ADJUST", "BUILDS", "ADJUST NEXT", "ADJUSTMENT NEXT", "BUILDS NEXT"), "adjustment_hours",
            _length,
            "hours an adjustment phase lasts (or minutes: 30m)", "24", show=length_shown),
    Setting(("GRACE",), "grace_hours", _grace_hours,
            "hours past a deadline before missing orders mean civil disorder", "12"),
    Setting(("REMINDERS", "REMINDER"), "reminder_hours", _reminders,
            "reminders this many hours before a deadline (NONE: no reminders)", "24 4"),
    Setting(("CLOCK",), "deadline_clock", _none_or(_clock),
            "deadlines at this time of day in the game's zone (NONE: a phase's length after it starts; AUTO:"
            " the hour awake for the most players, from their zones)", "20:00"),
    Setting(("DAYS",), "deadline_days", _days,
            "the weekdays a deadline may fall on (ALL: any; njudge's -MTWTF- too)", "mon tue wed thu fri"),
    Setting(("PRESS",), "press", _choice(white="white", grey="grey|gray", broadcast="broadcast|public",
                                         none="none|no|off"),
            "WHITE (signed), GREY (may be anonymous), BROADCAST (only to everyone) or NONE", "grey"),
    Setting(("PRESSPHASES",), "movement_press_only", _movement_only,
            "ALL, or MOVEMENT: no press in retreat and adjustment phases (as at a table)", "movement"),
    Setting(("NMR",), "nmr_policy", _choice(civil_disorder="cd|civil disorder|civildisorder", wait="wait"),
            "at the deadline a power without orders is in civil disorder (CD), or the game WAITs", "cd"),
    Setting(("MISSED", "MISSEDORDERS"), "missed_orders", _choice(hobby="hobby|judge|judges", book="book|rulebook|ftf"),
            "what a missed movement deadline costs: HOBBY (the units hold and still retreat, as on njudge"
            " and the web) or BOOK (the rulebooks: its dislodged units are disbanded)", "book"),
    Setting(("EXCUSES",), "excuses", _whole,
            "deadlines each player may miss in the game (0: none, the default): a deadline passed with no"
            " orders from a player with an excuse left moves on once by EXCUSELENGTH hours instead of being"
            " played; the player is told, the others that it moved (naming no one in an anonymous game);"
            " a master's PROCESS spends none", "2"),
    Setting(("EXCUSELENGTH", "EXCUSEHOURS"), "excuse_hours", _hours,
            "hours an excused miss moves the deadline on, from the end of its grace", "24"),
    Setting(("OFFERS", "OFFERHOURS"), "offer_hours", _offer_hours,
            "a power open for takeover is offered by mail to the standby list (STANDBY), the most"
            " reliable first, each having this many hours to take it before the next is asked (ALL:"
            " every standby at once, the first to JOIN takes it)", "24"),
    Setting(("APPROVE", "APPROVETAKEOVERS"), "approve_takeovers", _takeovers_switch,
            "a JOIN or TAKE of a power open for takeover waits for a master's APPROVE name (or REJECT"
            " name, the offer going on to the next standby) instead of taking it at once (TAKEOVERS ON or"
            " OFF)", "takeovers on"),
    Setting(("QUIET",), "quiet", _switch,
            "a replacement is not announced with the new player's name: the others are told only that the"
            " power has a player again (njudge's QUIET; ON or OFF)", "on"),
    Setting(("OBSERVERS", "OBSERVER", "OBSERVERPRESS"), "observer_press", _observer_press,
            "what press observers may send: NONE (only to the master, the default), WHITE (signed), ANY (as"
            " the players may); observers always read the broadcasts", "white"),
    Setting(("WATCHPRESS", "WATCHALLPRESS"), "observers_read_all", _switch,
            "observers read every press, private press too, as its readers see it (njudge's WATCH ALL"
            " PRESS; ON or OFF)", "on"),
    Setting(("FAKE", "FAKES", "FAKEPRESS"), "fake_press", _choice(off="off|no|none", on="on|yes|partial",
                                                                   broadcast="broadcast"),
            "OFF: press shows its true recipients; ON: a writer may show other ones (PRESS TO G FAKE"
            " BROADCAST, PRESS FAKE TO EF); BROADCAST: all press between players shows as a broadcast;"
            " the master always sees the truth", "on"),
    Setting(("LATEPRESS",), "late_press", _switch,
            "a power late with its orders (past the deadline, in grace) may still send press (ON, the"
            " default) or only to the master until its orders are in (OFF)", "off"),
    Setting(("MUSTORDER",), "must_order", _switch,
            "press only from a power whose orders for the phase are in (njudge's MUST ORDER; the master"
            " can always be written to; ON or OFF)", "on"),
    Setting(("DIARIES", "DIARY"), "diaries_revealed", _diaries,
            "players' diaries (DIARY RECORD) are shown to all at the END of the game, the default, or"
            " are NEVER shown", "never", show=lambda revealed: "end" if revealed else "never"),
    Setting(("ABANDON",), "abandon_after", _whole, "phases missed in a row before a power is abandoned", "3"),
    Setting(("MAXABSENCE",), "max_absence_days", _absence_days,
            "the longest absence a player may set, in days (0: none)", "7"),
    Setting(("NOABSENCE",), "max_absence_days", _absence_days,
            "players may not set absences (MAXABSENCE gives them back)", "", implied="0"),
    Setting(("PICTURES",), "pictures", _switch, "results mail carries a picture of the board (ON or OFF)", "off"),
    Setting(("FOG", "BLIND", "FOGOFWAR"), "fog", _switch,
            "fog of war: each power sees only what its units and centres see (ON or OFF, before the start)", "on"),
    Setting(("STANDIN", "SMARTCD", "SMART_CD"), "stand_in", _switch,
            "a power abandoned or resigned, and not taken over, is played by the judge's stand-in, which"
            " holds the line, rather than left holding (ON or OFF)", "on"),
    Setting(("GAMEZONE",), "time_zone", _zone, "the game's time zone, in which deadlines are shown", "Europe/Paris"),
    Setting(("LASTYEAR",), "last_year", _none_or(_whole), "the game ends after this year (NONE: no limit)", "1910"),
    Setting(("ANONYMOUS", "GUNBOAT"), "anonymous", _switch,
            "nobody's name or address in the players' mail until the game ends or REVEAL (ON or OFF)", "on"),
    Setting(("REVEAL",), "reveal_at_end", _switch,
            "an anonymous game shows everyone who played each power when it ends (ON, the default), or"
            " never (OFF: njudge's NO REVEAL); the command REVEAL shows them at once", "off"),
    Setting(("COMMENT",), "comment", _none_or(_comment),
            "a line about the game, shown by LIST game and SUMMARY (NONE: none; njudge's COMMENT)",
            "For njudge veterans", quiet_unset=True),
    Setting(("MANUALPROCESS",), "manual_process", _switch,
            "a phase is played only when a master sends PROCESS, never by the clock nor when every order is"
            " in (njudge's MANUAL PROCESS; ON or OFF)", "on"),
    Setting(("MANUALSTART",), "manual_start", _switch,
            "a full game waits for a master's START instead of starting at once (njudge's MANUAL START;"
            " ON or OFF, before the start)", "on"),
    Setting(("UNLISTED",), "unlisted", _switch, "leave the game out of LIST for those not in it (ON or OFF)", "on"),
    Setting(("NOLIST",), "unlisted", _switch, "the same as UNLISTED ON", "", implied="on"),
    Setting(("RELIABILITY",), "min_reliability", _none_or(_percent),
            "joining needs orders sent in this per cent of one's phases (NONE: anyone)", "80"),
    Setting(("VICTORY",), "victory_centres", _none_or(_whole), "supply centres for a win (NONE: the map's)", "18"),
    Setting(("DRAWRULE",), "draw_rule", _choice(all_survivors="all|all survivors|survivors", named="named"),
            "a draw is shared by ALL survivors, or by the powers the votes NAME", "named"),
    Setting(("ASSIGNMENT",), "assignment", _choice(random="random", preference="preference|preferences"),
            "powers given out at RANDOM or by PREFERENCE", "random"),
    Setting(("RULES", "RULE", "RULEBOOK", "EDITION"), EDITION, _edition,
            "the rulebook the game is judged by: 5TH, 2000 or 1982 (before the start)", "2000"),
    Setting(("PLAYERS",), "players", _choice(seven="seven|7", six="six|6", five="five|5", four="four|4",
                                             three="three|3", three_1982="three-1982", two="two|2"),
            "how many play: SEVEN to TWO (the rulebooks' games for fewer players)", "five"),
    *PHASE_CLOCKS,
    Setting(("GRACE UNTIL",), GRACE_UNTIL, _game_or(str),
            "missing orders are waited for until this date (in the game's zone: Dec 12 or 2026-12-12 18:00),"
            " whatever GRACE says; SET GRACE Dec 12 too (NONE: no such date)", "Dec 12", show=_utc_shown,
            quiet_unset=True),
    Setting(("START",), EARLIEST, _game_or(str),
            "no phase is played before this date (in the game's zone: Dec 5 or 2026-12-05 18:00), early or at"
            " a deadline, and none is due sooner: njudge's earliest processing (NONE: no such date)", "Dec 5",
            show=_utc_shown, quiet_unset=True),
)

# The one-word names the grammar knows (a test keeps them the same); the two-word ones are njudge's
# per-phase names, SET MOVE CLOCK 20:00 read as the MOVE setting with the value `CLOCK 20:00`.
BY_WORD = {w: s for s in SETTINGS for w in s.words if " " not in w}
_TWO_WORDS = {w: s for s in SETTINGS for w in s.words if " " in w}
HELP_SETTINGS = [(s.words[0], s.example, s.means) for s in SETTINGS]    # HELP SETTINGS' rows


def read_setting(name: str, value: str | None) -> tuple[Setting, Any]:
    """(the setting, its value read) or Refused saying what was wrong and how it is written."""
    name, value = _two_words(name, value)
    setting = BY_WORD.get(name.upper()) or _TWO_WORDS.get(name.upper())
    if setting is None:
        raise Refused(f"there is no game setting {name!r}", "HELP SETTINGS lists them")
    if setting.implied is not None:
        if value and value.strip():
            raise Refused(f"SET {setting.words[0]} takes no value", f"SET {setting.words[0]}")
        value = setting.implied
    if not value or not value.strip():
        raise Refused(f"SET {setting.words[0]} needs a value: {setting.means}",
                      f"SET {setting.words[0]} {setting.example}")
    try:
        return setting, setting.read(value.strip())
    except (ValueError, KeyError) as e:
        why = str(e) if isinstance(e, ValueError) else f"{value.strip()!r} is not a value it takes"
        raise Refused(f"SET {setting.words[0]}: {why}", f"SET {setting.words[0]} {setting.example}") from None


def shown(value: object) -> str:
    """A setting's value as SET writes it: 36, grey, on, none, 24 4."""
    if value is None or value == [] or value == ():
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (list, tuple)):
        return " ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
    return f"{value:g}" if isinstance(value, float) else str(value)
