"""Deadlines on a daily grid: a fixed time of day in the game's zone, on allowed weekdays.

Why a grid: seven players in seven zones plan their week around the deadline; a deadline that
drifts with each processing (processed at 18:07, next one at 18:07 two days on, then 19:30 ...)
walks through everybody's night sooner or later. With a clock set (njudge's `clock`, DPjudge's
`TIMING AT`), a phase's deadline is the first grid instant at least its length (less a little
slack) after it starts, so a phase played at 18:00:40 for a 18:00 deadline is due at 18:00 the day
after, not the day after that; and a retreat or adjustment phase played early, at any hour, lands
the next deadline back on the grid. Local times are read in the game's zone, so a deadline stays
at 18:00 across a change of daylight-saving time (its UTC hour moves instead).

`auto_clock` chooses the hour for `SET CLOCK AUTO`: the deadline hour that falls in waking hours
for the most seated players, from their registered zones.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WAKING = (time(8, 0), time(22, 0))   # a deadline between these local times finds its player awake


def parse_clock(text: str) -> time:
    """`18:00`, `1800` or `18` -> 18:00 (the settings' one spelling is `HH:MM`)."""
    digits = text.strip().replace(":", "").replace(".", "")
    if not digits.isdecimal() or len(digits) not in (1, 2, 3, 4):
        raise ValueError(f"{text!r} is not a time of day such as 18:00")
    hours, minutes = (int(digits), 0) if len(digits) <= 2 else (int(digits[:-2]), int(digits[-2:]))
    if hours > 23 or minutes > 59:
        raise ValueError(f"{text!r} is not a time of day such as 18:00")
    return time(hours, minutes)


def parse_days(names: Iterable[str]) -> tuple[str, ...]:
    """Weekday names (`mon`, `Tuesday`, ...) in week order, each once; empty means every day."""
    out = set()
    for name in names:
        key = str(name).strip().lower()[:3]
        if key not in WEEKDAYS:
            raise ValueError(f"{name!r} is not a day of the week (mon, tue, wed, thu, fri, sat, sun)")
        out.add(key)
    return tuple(d for d in WEEKDAYS if d in out)


def slack(hours: float) -> timedelta:
    """How much earlier than its full length a phase may fall due to meet the grid: a quarter of
    it, at most six hours (a 24-hour retreat played at 18:00:40 is still due at 18:00 next day)."""
    return timedelta(hours=min(hours / 4, 6.0))


def on_grid(earliest: datetime, clock: time | None, days: tuple[str, ...], zone: str) -> datetime:
    """The first instant at or after `earliest` that is `clock` local time on an allowed day
    (`clock` None: `earliest` itself on an allowed day, else the same time of the next one)."""
    tz = ZoneInfo(zone)
    local = earliest.astimezone(tz)
    for offset in range(8):
        day: date = local.date() + timedelta(days=offset)
        if days and WEEKDAYS[day.weekday()] not in days:
            continue
        if clock is None:
            return earliest if offset == 0 else _instant(day, local.time().replace(tzinfo=None), tz)
        candidate = _instant(day, clock, tz)
        if candidate >= earliest:
            return candidate
    raise ValueError("no allowed day in the week")   # parse_days never leaves the week empty


def _instant(day: date, at: time, tz: ZoneInfo) -> datetime:
    """`day` at local time `at`; a time skipped by a clock change is read as the same wall-clock
    time before the change (02:30 on a spring-forward night is 03:30 after it)."""
    naive = datetime.combine(day, at)
    aware = naive.replace(tzinfo=tz)
    return aware.astimezone(timezone.utc)


@dataclass(frozen=True)
class AutoClock:
    clock: time                       # in the game's zone
    suits: tuple[str, ...]            # players for whom it falls in waking hours
    not_suited: tuple[str, ...]


def auto_clock(game_zone: str, player_zones: dict[str, str], on: date) -> AutoClock:
    """The whole hour (game's zone) that falls in waking hours for the most players on `on`; ties
    go to the latest hour of the game's own evening or earlier, as players send orders after work."""
    tz = ZoneInfo(game_zone)
    best: AutoClock | None = None
    for hour in (*range(18, 24), *range(17, -1, -1)):       # evening first, then back through the day
        instant = _instant(on, time(hour), tz)
        suits = tuple(sorted(p for p, z in player_zones.items() if _awake(instant, z)))
        if best is None or len(suits) > len(best.suits):
            best = AutoClock(time(hour), suits, tuple(sorted(set(player_zones) - set(suits))))
    assert best is not None
    return best


def _awake(instant: datetime, zone: str) -> bool:
    local = instant.astimezone(ZoneInfo(zone)).time()
    return WAKING[0] <= local <= WAKING[1]
