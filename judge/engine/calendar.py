"""Phases and the calendar that orders them.

A variant names its seasons (Spring and Fall, or the twelve months) and says after
which of them the adjustments come. Phase codes follow the usual convention:
season code, year, and M, R or A (`S1901M`, `F1901R`, `W1901A`, `JUL1914M`).
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import final

from .quick_init import quick_init


class PhaseKind(enum.Enum):
    # identity hash, computed in C (see judge.engine.geography.Terrain)
    __hash__ = object.__hash__

    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"

    @property
    def full_name(self) -> str:
        return {"M": "Movement", "R": "Retreat", "A": "Adjustment"}[self.value]


@final
@dataclass(frozen=True, slots=True)
class Phase:
    year: int
    season: int  # index into the calendar's seasons
    kind: PhaseKind = PhaseKind.MOVEMENT

    # written out, for mypyc to make native (judge.engine.quick_init): every phase played makes the next
    def __init__(self, year: int, season: int, kind: PhaseKind = PhaseKind.MOVEMENT) -> None:
        self.year = year  # type: ignore[misc]
        self.season = season  # type: ignore[misc]
        self.kind = kind  # type: ignore[misc]

    # equal by value and chronological order, each comparison written out: functools.total_ordering
    # would make the class a plain Python one to mypyc, and a native class's comparisons are those
    # written here (the dataclass's own __eq__ would not be reached beside them)
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phase) and self.year == other.year and self.season == other.season \
            and self.kind is other.kind

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.year, self.season, self.kind))

    def _when(self) -> tuple[int, int, int]:
        return self.year, self.season, "MRA".index(self.kind.value)

    def __lt__(self, other: Phase) -> bool:
        return self._when() < other._when()

    def __le__(self, other: Phase) -> bool:
        return self._when() <= other._when()

    def __gt__(self, other: Phase) -> bool:
        return self._when() > other._when()

    def __ge__(self, other: Phase) -> bool:
        return self._when() >= other._when()


quick_init(Phase)


@dataclass(frozen=True)
class Season:
    name: str
    code: str
    adjustments: bool = False


@dataclass(frozen=True)
class Calendar:
    seasons: tuple[Season, ...]
    start_year: int
    start_season: int = 0
    # Standard play calls the adjustment phase "Winter"; a variant may name it after its season.
    adjustment_name: str | None = None
    adjustment_code: str | None = None
    # A game may open with another kind of phase: 1898 and Chaos open with Winter builds.
    start_kind: PhaseKind = PhaseKind.MOVEMENT
    # Years a turn of the calendar spans (Hundred: five), and adjustments only in years divisible
    # by `adjustment_every` (Hundred: ten), as DPjudge's FLOW NEWYEAR:n and IFYEARDIV:n say.
    year_step: int = 1
    adjustment_every: int = 1
    # Years named by era, counting down to the era's turn and then up (Classical: DPjudge's FLOW
    # NEWYEAR:-1 from 273 B.C.). The year kept is the astronomical one (1 BC is 0, 2 BC is -1), so
    # phases still order by year; `eras` is (before, after), each with its name and phase-code
    # letter, and replaces the one season's own name and code.
    eras: tuple[Season, Season] | None = None

    @property
    def first_phase(self) -> Phase:
        return Phase(self.start_year, self.start_season, self.start_kind)

    def adjusts(self, phase: Phase) -> bool:
        """Whether an adjustment phase follows this season's retreats in this year."""
        return self.seasons[phase.season].adjustments and self._counted(phase.year) % self.adjustment_every == 0

    def _counted(self, year: int) -> int:
        """The number DPjudge's FLOW counts a year by: with eras, down through the turn (273 BC is
        273, AD 1 is 0), so adjustments every second year stay every second year across it."""
        return year if self.eras is None else 1 - year

    def year_name(self, year: int) -> str:
        """A year as players write it: 1901, or with eras 273 BC, 1 AD."""
        if self.eras is None:
            return str(year)
        before, after = self.eras
        return f"{1 - year} {before.name}" if year < 1 else f"{year} {after.name}"

    def _year_code(self, phase: Phase) -> str:
        """The season letters and year of a phase code: S1901, or with eras B273 (273 BC), A1."""
        if self.eras is None:
            return f"{self.seasons[phase.season].code}{phase.year}"
        before, after = self.eras
        return f"{before.code}{1 - phase.year}" if phase.year < 1 else f"{after.code}{phase.year}"

    def season(self, phase: Phase) -> Season:
        return self.seasons[phase.season]

    def next_phase(self, phase: Phase) -> Phase:
        """The phase after `phase`, counting every phase (skipping is the caller's choice)."""
        if phase.kind is PhaseKind.MOVEMENT:
            return Phase(phase.year, phase.season, PhaseKind.RETREAT)
        if phase.kind is PhaseKind.RETREAT and self.adjusts(phase):
            return Phase(phase.year, phase.season, PhaseKind.ADJUSTMENT)
        season = phase.season + 1
        year = phase.year
        if season == len(self.seasons):
            season, year = 0, year + self.year_step
        return Phase(year, season, PhaseKind.MOVEMENT)

    def code(self, phase: Phase) -> str:
        if phase.kind is PhaseKind.ADJUSTMENT and self.adjustment_code:
            return f"{self.adjustment_code}{phase.year}A"
        return f"{self._year_code(phase)}{phase.kind.value}"

    def name(self, phase: Phase) -> str:
        season = self.seasons[phase.season]
        if self.eras is not None:
            return f"{self.year_name(phase.year)} {phase.kind.full_name}"
        if phase.kind is PhaseKind.ADJUSTMENT and self.adjustment_name:
            return f"{self.adjustment_name} {phase.year} {phase.kind.full_name}"
        return f"{season.name} {phase.year} {phase.kind.full_name}"

    def parse(self, text: str) -> Phase:
        """Read a phase code such as `S1901M` or `W1901A` (any case)."""
        m = re.fullmatch(r"\s*([A-Za-z]+)\s*(\d{1,4})\s*([MRAmra])\s*", text)
        if not m:
            raise ValueError(f"not a phase code: {text!r} (expected e.g. S1901M, F1901R, W1901A)")
        code, year, kind = m.group(1).upper(), int(m.group(2)), PhaseKind(m.group(3).upper())
        if self.eras is not None:
            return self._parse_era(code, year, kind, text)
        if kind is PhaseKind.ADJUSTMENT and self.adjustment_code and code == self.adjustment_code.upper():
            last = [i for i, s in enumerate(self.seasons) if s.adjustments]
            return Phase(year, last[-1], kind)
        for i, s in enumerate(self.seasons):
            if s.code.upper() == code:
                if kind is PhaseKind.ADJUSTMENT and not s.adjustments:
                    raise ValueError(f"there is no adjustment phase after {s.name}")
                return Phase(year, i, kind)
        raise ValueError(f"unknown season {code!r} in phase code {text!r}")

    def _parse_era(self, code: str, year: int, kind: PhaseKind, text: str) -> Phase:
        """B273M (273 BC movement), A1A: a calendar of eras has one season; the letter is the era's."""
        before, after = self.eras or (None, None)
        if before is None or after is None or code not in (before.code.upper(), after.code.upper()) or year < 1:
            raise ValueError(f"not a phase code of this calendar: {text!r}")
        if kind is PhaseKind.ADJUSTMENT and not self.seasons[0].adjustments:
            raise ValueError("there is no adjustment phase in this calendar")
        return Phase(1 - year if code == before.code.upper() else year, 0, kind)
