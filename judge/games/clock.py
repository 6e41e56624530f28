"""Time for games: clocks, deadlines, reminders, absences and times shown in people's own zones.

The engine has no clock and neither has the rest of this package: every function takes
`now`. The service gets a clock injected (`SystemClock` in production, `ManualClock` in
tests, which advance time without sleeping). Times are stored as UTC ISO strings with a
fixed width (`2026-01-02T03:04:05Z`), so text order is time order and an index can use it.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from . import deadlines
from .model import Settings

UTC = timezone.utc


class SystemClock:
    def __call__(self) -> datetime:
        return datetime.now(UTC).replace(microsecond=0)


class ManualClock:
    """A clock tests move by hand."""

    def __init__(self, start: datetime | str) -> None:
        self.now = parse_time(start) if isinstance(start, str) else start.astimezone(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def set(self, when: datetime | str) -> datetime:
        self.now = parse_time(when) if isinstance(when, str) else when.astimezone(UTC)
        return self.now


def iso(when: datetime) -> str:
    if when.tzinfo is None:
        raise ValueError("naive datetime: the judge only handles times with a zone")
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text: str, zone: str = "UTC") -> datetime:
    """An ISO time; without an offset it is read in `zone`."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace(" ", "T", 1))
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not a date and time such as 2026-12-01 18:00") from None
    if not 1 < value.year < 9999:   # the calendar's ends overflow when moved to UTC or shown in a zone
        raise ValueError(f"{text.strip()!r} is not a date and time such as 2026-12-01 18:00")
    if value.tzinfo is None:
        value = value.replace(tzinfo=ZoneInfo(zone))
    return value.astimezone(UTC).replace(microsecond=0)


def shown(when: datetime | str, zones: Iterable[str]) -> dict[str, str]:
    """The same instant written in each zone, e.g. for the game's zone and the player's own."""
    instant = parse_time(when) if isinstance(when, str) else when
    return {zone: _in_zone(instant, zone) for zone in dict.fromkeys(zones)}


@functools.lru_cache(maxsize=4096)
def _in_zone(instant: datetime, zone: str) -> str:
    """One instant written in one zone, written once: a phase played shows its next deadline to every
    reader of every notice, most of them in the same zone or two."""
    local = instant.astimezone(ZoneInfo(zone))
    return local.strftime("%a %d %b %Y %H:%M ") + (local.tzname() or zone)


@dataclass(frozen=True)
class Absence:
    starts: datetime
    ends: datetime


def deadline_for(settings: Settings, kind: str, start: datetime, absences: Sequence[Absence] = ()) -> datetime:
    """When a phase of this kind that starts now is due: its length later, on the game's daily grid
    if it has one (judge.games.deadlines), moved past the absences it falls in (and back onto the
    grid after them)."""
    hours = settings.phase_hours(kind)
    deadline = start + timedelta(hours=hours)
    if settings.clock_for(kind) is not None:
        deadline -= deadlines.slack(hours)
    deadline = fit(settings, kind, deadline)
    for _ in range(50):             # absences and the grid may push each other a few times
        moved = move_past_absences(settings, deadline, absences)
        if moved == deadline:
            break
        deadline = fit(settings, kind, moved)
    return deadline


def fit(settings: Settings, kind: str, earliest: datetime) -> datetime:
    """The first instant from `earliest` on the grid of this phase kind (its clock and weekdays)."""
    hour, days = settings.clock_for(kind), settings.days_for(kind)
    if hour is None and not days:
        return earliest
    clock = deadlines.parse_clock(hour) if hour else None
    return deadlines.on_grid(earliest, clock, days, settings.time_zone)


def move_past_absences(settings: Settings, deadline: datetime, absences: Sequence[Absence]) -> datetime:
    """A deadline inside an absence moves to just after it (repeatedly: absences may chain)."""
    extra = timedelta(hours=settings.after_absence_hours)
    moved = True
    while moved:
        moved = False
        for a in absences:
            if a.starts <= deadline < a.ends + extra:
                deadline = a.ends + extra
                moved = True
    return deadline


def processing_time(settings: Settings, deadline: datetime, kind: str) -> datetime:
    """Orders missing at the deadline are waited for through the grace period of this phase kind
    (or until the master's grace date, if later), then the phase is played."""
    after = deadline + timedelta(hours=settings.grace_for(kind))
    until = parse_time(settings.grace_until) if settings.grace_until else None
    return max(after, until) if until is not None and until > deadline else after


def reminder_times(settings: Settings, deadline: datetime, started: datetime) -> list[tuple[float, datetime]]:
    """(hours before, when) for each reminder that falls after the phase started, earliest first."""
    out = []
    for hours in sorted(set(settings.reminder_hours), reverse=True):
        when = deadline - timedelta(hours=hours)
        if when > started:
            out.append((hours, when))
    return out
