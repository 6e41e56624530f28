"""A game's next deadline as an iCalendar file (RFC 5545), for the player's calendar.

    deadline_file(reports, service, "alpha", sequence_at(now), stamp=now) -> Attachment | None

One event per game, the game's next deadline: its UID names the game, so each new file (the start
mail, a moved deadline, a resumption, CALENDAR game) updates the event a calendar already holds
rather than adding another. `sequence` must grow with every new version
(RFC 5545 3.8.7.4): callers give the seconds since 2020 of the moment the file speaks for. The time
is in UTC (no VTIMEZONE for a calendar to get wrong); the game's zone is named in the words, which
are templates/calendar_event.j2's.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import icalendar

from ...games.clock import parse_time, shown
from ...games.service import GameService
from ..words.reports import Reports
from .outgoing import Attachment

EPOCH = datetime(2020, 1, 1, tzinfo=timezone.utc)
LENGTH = timedelta(minutes=15)      # a calendar wants an end: a short reminder-sized event


def sequence_at(moment: datetime) -> int:
    """A SEQUENCE that grows with time: seconds since 2020 (within RFC 5545's integer until 2088)."""
    return max(0, int((moment - EPOCH).total_seconds()))


def deadline_file(reports: Reports, service: GameService, game: str, domain: str, *, phase: str,
                  deadline_utc: str, stamp: datetime) -> Attachment:
    """The .ics of a game's deadline for `phase` (a code), as at `stamp`: the moment the file speaks
    for (a notice's time, or now), which also gives its SEQUENCE."""
    status = service.status(game)
    variant = service.variant(status.variant)
    zone = status.settings["time_zone"]
    phase_name = variant.calendar.name(variant.calendar.parse(phase))
    words = reports.render("calendar_event.j2", game=game, phase_name=phase_name, zone=zone,
                           shown=shown(deadline_utc, [zone])[zone])
    data = deadline_ics(game=game, title=words.subject, description=words.body, utc=parse_time(deadline_utc),
                        zone=zone, domain=domain, sequence=sequence_at(stamp), stamp=stamp)
    return Attachment(f"{game}-deadline.ics", "text", "calendar", data)


def deadline_ics(*, game: str, title: str, description: str, utc: datetime, zone: str, domain: str,
                 sequence: int, stamp: datetime) -> bytes:
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Diplomacy judge//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("method", "PUBLISH")
    event = icalendar.Event()
    event.add("uid", f"deadline.{game}@{domain}")
    event.add("sequence", sequence)
    event.add("dtstamp", stamp.astimezone(timezone.utc))
    event.add("dtstart", utc.astimezone(timezone.utc))
    event.add("dtend", utc.astimezone(timezone.utc) + LENGTH)
    event.add("summary", title)
    event.add("description", description.strip())
    event.add("x-judge-time-zone", zone)      # the game's zone, for a program reading the file
    event.add("transp", "TRANSPARENT")
    cal.add_component(event)
    return bytes(cal.to_ical())
