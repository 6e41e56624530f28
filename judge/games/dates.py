"""Dates as masters type them: ISO (`2026-12-05 23:30`) and njudge's forms (`Dec 5`, `5 Dec`,
`Sat Dec 5 2026 23:30`, `Dec 5 23:30`, `Saturday`, `11:30pm`, `tomorrow`), read in the game's zone.

Why the game's clock hour for a date alone: a master who writes `SET DEADLINE Dec 5` means "the
deadline of Dec 5", the hour every deadline of the game falls at, not the midnight that starts the
day (njudge reads it so too). A year left out is this year's, or next year's once this year's is
more than two months past: `Jan 3` written in December is next January, while `Dec 5` written on
Dec 6 is a slip, a day past, refused rather than moved a year on. Every message here is fit to
send to the master.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from .deadlines import WEEKDAYS
from .model import GameError, Refusal

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_TIME = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?(am|pm)?|(\d{2})(\d{2})(am|pm)?")
_ISO_FULL = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:?\d{2})?", re.IGNORECASE)
_ORDINAL = re.compile(r"(\d{1,2})(?:st|nd|rd|th)")
# a date without its year this many days past is a slip, refused as past (not read as next year's)
RECENT_DAYS = 60
_NOISE = {"at", "on", "the", "of", "by"}


@dataclass(frozen=True)
class When:
    """A date as read: the instant (UTC), and whether its time of day was the game's (not written)."""
    instant: datetime
    hour_implied: bool


def read_when(text: str, zone: str, usual: time, now: datetime) -> When:
    """`text` as an instant in `zone`; `usual` is the time of day a date alone means. Raises
    GameError (a code the mail layer words) for what cannot be read, or a date already past."""
    tz = ZoneInfo(zone)
    if _ISO_FULL.fullmatch(text.strip()):      # this judge's own spelling, an offset allowed
        try:
            given = datetime.fromisoformat(text.strip().upper().replace("Z", "+00:00").replace(" ", "T", 1))
        except ValueError:
            raise GameError(why=Refusal.NOT_A_DATE_TIME, text=text.strip()) from None
        _within_reach(given.year, now, text)
        instant = (given if given.tzinfo else given.replace(tzinfo=tz)).astimezone(timezone.utc)
        if instant <= now:
            raise GameError(why=Refusal.PAST, when=_shown(instant, tz), zone=zone)
        return When(instant, False)
    words = [w for w in re.split(r"[\s,]+", text.strip().lower()) if w]
    if not words:
        raise GameError(why=Refusal.NO_DATE)
    today = now.astimezone(tz).date()
    year = month = day = weekday = None
    at: time | None = None
    for word in words:
        if word in _NOISE:
            continue
        if (m := _ISO_DATE.fullmatch(word)) is not None:
            year, month, day = int(m[1]), int(m[2]), int(m[3])
        elif word[:3] in MONTHS and word.isalpha() and month is None:
            month = MONTHS.index(word[:3]) + 1
        elif word in ("today", "tomorrow") and day is None and month is None:
            on = today + timedelta(days=1 if word == "tomorrow" else 0)
            year, month, day = on.year, on.month, on.day
        elif word[:3] in WEEKDAYS and word.isalpha() and weekday is None:
            weekday = WEEKDAYS.index(word[:3])
        elif (m := _ORDINAL.fullmatch(word)) is not None and day is None:
            day = int(m[1])
        elif word.isdecimal() and len(word) == 4 and year is None and (month is not None or day is not None) \
                and at is None and today.year - 1 <= int(word) <= today.year + 10:
            year = int(word)
        elif word.isdecimal() and len(word) <= 2 and day is None:
            day = int(word)
        elif at is None and (found := _clock(word)) is not None:
            at = found
        else:
            raise GameError(why=Refusal.DATE_WORD, word=word, text=text.strip())
    if year is not None:
        _within_reach(year, now, text)
    hour_implied = at is None
    when_time = usual if at is None else at
    on = _day(text.strip(), today, year, month, day, weekday, when_time, tz, now)
    instant = datetime.combine(on, when_time).replace(tzinfo=tz).astimezone(timezone.utc)
    if instant <= now:
        raise GameError(why=Refusal.PAST, when=_shown(instant, tz), zone=zone)
    return When(instant, hour_implied)


def _within_reach(year: int, now: datetime, text: str) -> None:
    """A year a deadline may name: from last year to ten years ahead. Further, it is no game's deadline,
    and a year at the calendar's ends (9999, 0001) would overflow when moved to UTC or the game's zone."""
    if year > now.year + 10:
        raise GameError(why=Refusal.TOO_FAR_AHEAD, text=text.strip())
    if year < now.year - 1:
        raise GameError(why=Refusal.YEAR_PAST, text=text.strip())


def _day(text: str, today: date, year: int | None, month: int | None, day: int | None, weekday: int | None,
         at: time, tz: ZoneInfo, now: datetime) -> date:
    if day is None and month is None:
        if year is not None:
            raise GameError(why=Refusal.YEAR_NO_DAY, text=text)
        for ahead in range(8):   # a weekday (or a time alone): the next whose hour is still to come
            on = today + timedelta(days=ahead)
            if (weekday is None or on.weekday() == weekday) and _instant(on, at, tz) > now:
                return on
        raise GameError(why=Refusal.NO_DAY, text=text)     # (not reached: a week holds every weekday)
    if day is None or month is None:
        raise GameError(why=Refusal.DAY_AND_MONTH, text=text)
    on = _dated(year if year is not None else today.year, month, day)
    if year is None and (today - on).days > RECENT_DAYS:
        on = _dated(today.year + 1, month, day)     # long past this year: next year's (Jan 3 said in December)
    if weekday is not None and on.weekday() != weekday:
        raise GameError(why=Refusal.WRONG_WEEKDAY, date=f"{on:%b} {on.day} {on.year}",
                        weekday=WEEKDAYS[on.weekday()].title(), named=WEEKDAYS[weekday].title())
    return on


def _dated(year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise GameError(why=Refusal.NOT_A_DATE, month=MONTHS[month - 1].title(), day=day) from None


def _clock(word: str) -> time | None:
    m = _TIME.fullmatch(word)
    if m is None:
        return None
    hours, minutes, half = (m[1], m[2], m[3]) if m[1] is not None else (m[4], m[5], m[6])
    h, mi = int(hours), int(minutes or 0)
    if m[1] is not None and m[2] is None and half is None:
        return None              # a bare number is a day, not an hour
    if half is not None:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if half == "pm" else 0)
    if h > 23 or mi > 59:
        return None
    return time(h, mi)


def _instant(on: date, at: time, tz: ZoneInfo) -> datetime:
    return datetime.combine(on, at).replace(tzinfo=tz).astimezone(timezone.utc)


def _shown(instant: datetime, tz: ZoneInfo) -> str:
    local = instant.astimezone(tz)
    return f"{local:%a %b} {local.day} {local.year} {local:%H:%M}"
