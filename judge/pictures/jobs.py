"""A picture to paint as plain data: what the game said, read once, and nothing else.

    job = PhaseJob(game, record, hidden, counted)   # the phase as played (judge.games.answers.PhaseRecord)
    png = job()                                     # here, or in a painter process (judge.pictures.pool)

A job holds no service, atlas or open file, so it pickles small and may be painted in another
process; there it decodes the position and outcomes and paints with that process's own atlas,
loaded once per variant (`atlas_for`) and kept with everything the atlas caches (the board's pixel
classes, where each name stands, every label drawn once).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..engine import load_variant
from ..engine.notation import position_from_json
from ..engine.position import Position
from ..engine.variant import Variant
from ..games.answers import PhaseRecord
from ..games.resultcodec import dislodged_from_json, outcomes_from_json, own_result
from .atlas import Atlas, load_atlas
from .chart import centre_chart_png
from .render import render_png, render_svg, title_of

_atlases: dict[str, Atlas] = {}      # this process's: variant id -> its read-only map geometry
_variants: dict[str, Variant] = {}   # this process's: variant id -> the variant (read-only)


def variant_named(variant_id: str) -> Variant:
    """A packaged variant, read once in this process."""
    variant = _variants.get(variant_id)
    if variant is None:
        variant = _variants[variant_id] = load_variant(variant_id)
    return variant


def atlas_for(variant: Variant) -> Atlas:
    """The variant's atlas, loaded on its first picture in this process and kept (it is read-only)."""
    atlas = _atlases.get(variant.id)
    if atlas is None:
        atlas = _atlases[variant.id] = load_atlas(variant)
    return atlas


def board_of(variant: Variant, record: PhaseRecord):
    """(position before the phase, outcomes, dislodged) of a phase record."""
    position: Position = position_from_json(variant, record.position)
    own = own_result(record.results, record.phase)
    if own is None:
        return position, (), ()
    return position, outcomes_from_json(own), dislodged_from_json(variant, own)


def game_title(game: str, variant: Variant, position: Position) -> str:
    return f"{game}: {title_of(variant, position)}"


@dataclass(frozen=True)
class PhaseJob:
    """The board of one played phase: `record` already cut to what its readers saw (fog of war),
    `hidden` the provinces they did not see, `counted` the powers the legend counts (None: all)."""
    game: str
    record: PhaseRecord
    hidden: frozenset[str] = frozenset()
    counted: frozenset[str] | None = None
    svg: bool = False

    def __call__(self) -> bytes | str:
        variant = variant_named(self.record.variant)
        position, outcomes, dislodged = board_of(variant, self.record)
        draw = render_svg if self.svg else render_png
        return draw(variant, position, outcomes or None, atlas=atlas_for(variant), dislodged=dislodged,
                    title=game_title(self.game, variant, position), hidden=self.hidden, counted=self.counted)


@dataclass(frozen=True)
class ChartJob:
    """The end-of-game chart: each power's centres (`counts`: year -> power -> centres)."""
    variant: str
    counts: Mapping[int, Mapping[str, int]]

    def __call__(self) -> bytes:
        return centre_chart_png(variant_named(self.variant), self.counts)
