"""The phase njudge's `PHASE` line names, as its players write it: `Fall 1901 Movement`, `F1901M`,
`Spring 1902 Retreats`, `Winter 1901 Builds`, `1901 Fall Movement` (any case, any order of the three
parts). The season by its name or code in the variant's calendar, the kind by its word or letter."""
from __future__ import annotations

import re

from ..engine.calendar import Calendar, Phase, PhaseKind

_KINDS = {
    "m": PhaseKind.MOVEMENT, "move": PhaseKind.MOVEMENT, "moves": PhaseKind.MOVEMENT, "movement": PhaseKind.MOVEMENT,
    "r": PhaseKind.RETREAT, "retreat": PhaseKind.RETREAT, "retreats": PhaseKind.RETREAT,
    "a": PhaseKind.ADJUSTMENT, "b": PhaseKind.ADJUSTMENT, "adjust": PhaseKind.ADJUSTMENT,
    "adjustment": PhaseKind.ADJUSTMENT, "adjustments": PhaseKind.ADJUSTMENT, "build": PhaseKind.ADJUSTMENT,
    "builds": PhaseKind.ADJUSTMENT,
}
EXAMPLE = "PHASE Fall 1901 Movement (or PHASE F1901M)"


def read_phase(calendar: Calendar, text: str) -> Phase:
    """The phase `text` names; ValueError (in the player's words) when it names none of this calendar's."""
    compact = "".join(text.split())
    try:
        return calendar.parse(compact)
    except ValueError:
        pass
    words = [w.lower().strip(".") for w in re.split(r"[\s,]+", text) if w.strip(".")]
    seasons = {s.name.lower(): i for i, s in enumerate(calendar.seasons)} | \
        {s.code.lower(): i for i, s in enumerate(calendar.seasons)}
    last = [i for i, s in enumerate(calendar.seasons) if s.adjustments][-1:]
    winter = {n.lower() for n in (calendar.adjustment_name, calendar.adjustment_code) if n} if last else set()
    years = [int(w) for w in words if w.isdecimal()]    # (isdigit() takes '²', which int() refuses)
    kinds = [_KINDS[w] for w in words if w in _KINDS]
    named = [seasons[w] for w in words if w in seasons] + [last[0] for w in words if w in winter]
    if any(w in winter for w in words):
        kinds = kinds or [PhaseKind.ADJUSTMENT]
    eras = {e.name.lower(): i for i, e in enumerate(calendar.eras or ())}   # 273 BC, 1 AD (Classical)
    said = [eras[w.replace(".", "")] for w in words if w.replace(".", "") in eras]     # BC, B.C.
    if eras:
        named = named or [0]    # a calendar of eras has one season: the year and its era name the turn
    unread = [w for w in words if not (w.isdecimal() or w in _KINDS or w in seasons or w in winter
                                     or w.replace(".", "") in eras)]
    if unread or len(years) != 1 or len(set(named)) != 1 or len(set(kinds)) > 1 or len(said) != bool(eras):
        raise ValueError(f"'{text}' names no phase of this game: the season, the year and the kind, as in {EXAMPLE}")
    year = 1 - years[0] if said == [0] else years[0]      # the astronomical year: 1 BC is 0
    phase = Phase(year, named[0], kinds[0] if kinds else PhaseKind.MOVEMENT)
    if phase.kind is PhaseKind.ADJUSTMENT and not calendar.adjusts(phase):
        season_and_year = calendar.name(Phase(phase.year, phase.season)).rsplit(" ", 1)[0]   # Spring 1901, 273 BC
        raise ValueError(f"there is no adjustment phase after {season_and_year}")
    try:        # a year beyond what the calendar's phase codes hold (F99999M): a phase no game reaches
        calendar.parse(calendar.code(phase))
    except ValueError:
        raise ValueError(f"'{text}' names a year beyond this game's calendar") from None
    return phase
