"""Phases and the calendar that orders them.

A variant names its seasons (Spring and Fall, or the twelve months) and says after
which of them the adjustments come. Phase codes follow the usual convention:
season code, year, and M, R or A (`S1901M`, `F1901R`, `W1901A`, `JUL1914M`).
"""
from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass


class PhaseKind(enum.Enum):
    # identity hash, computed in C (see judge.engine.geography.Terrain)
    __hash__ = object.__hash__

    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"

    @property
    def full_name(self) -> str:
        return {"M": "Movement", "R": "Retreat", "A": "Adjustment"}[self.value]


@functools.total_ordering
@dataclass(frozen=True)
class Phase:
    year: int
    season: int  # index into the calendar's seasons
    kind: PhaseKind = PhaseKind.MOVEMENT

    def __lt__(self, other: Phase) -> bool:  # chronological order
        order = "MRA"
        return (self.year, self.season, order.index(self.kind.value)) < (
            other.year, other.season, order.index(other.kind.value))


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

    @property
    def first_phase(self) -> Phase:
        return Phase(self.start_year, self.start_season, self.start_kind)

    def adjusts(self, phase: Phase) -> bool:
        """Whether an adjustment phase follows this season's retreats in this year."""
        return self.seasons[phase.season].adjustments and phase.year % self.adjustment_every == 0

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
        season = self.seasons[phase.season]
        if phase.kind is PhaseKind.ADJUSTMENT and self.adjustment_code:
            return f"{self.adjustment_code}{phase.year}A"
        return f"{season.code}{phase.year}{phase.kind.value}"

    def name(self, phase: Phase) -> str:
        season = self.seasons[phase.season]
        if phase.kind is PhaseKind.ADJUSTMENT and self.adjustment_name:
            return f"{self.adjustment_name} {phase.year} {phase.kind.full_name}"
        return f"{season.name} {phase.year} {phase.kind.full_name}"

    def parse(self, text: str) -> Phase:
        """Read a phase code such as `S1901M` or `W1901A` (any case)."""
        m = re.fullmatch(r"\s*([A-Za-z]+)\s*(\d{1,4})\s*([MRAmra])\s*", text)
        if not m:
            raise ValueError(f"not a phase code: {text!r} (expected e.g. S1901M, F1901R, W1901A)")
        code, year, kind = m.group(1).upper(), int(m.group(2)), PhaseKind(m.group(3).upper())
        if kind is PhaseKind.ADJUSTMENT and self.adjustment_code and code == self.adjustment_code.upper():
            last = [i for i, s in enumerate(self.seasons) if s.adjustments]
            return Phase(year, last[-1], kind)
        for i, s in enumerate(self.seasons):
            if s.code.upper() == code:
                if kind is PhaseKind.ADJUSTMENT and not s.adjustments:
                    raise ValueError(f"there is no adjustment phase after {s.name}")
                return Phase(year, i, kind)
        raise ValueError(f"unknown season {code!r} in phase code {text!r}")
