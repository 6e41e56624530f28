"""Pictures of games: the board of a played phase, for the results mail and `judge map --data`."""
from __future__ import annotations

import logging
from dataclasses import replace
from email.message import EmailMessage

from ..engine.notation import position_from_json
from ..games import fog, hidden_builds
from ..games.answers import PhaseRecord
from ..games.service import GameService
from .atlas import has_layout
from .jobs import ChartJob, PhaseJob, board_of
from .jobs import game_title as game_title     # (the commands that attach a picture take it from here)

log = logging.getLogger("judge.pictures")


def phase_board(service: GameService, record: PhaseRecord):
    """(variant, position before the phase, outcomes, dislodged) of a `GameService.phase_record`."""
    variant = service.variant(record.variant)
    return (variant, *board_of(variant, record))


def picture_of_phase(service: GameService, game: str, phase: str, *,
                     powers: frozenset[str] | None = None, svg: bool = False) -> bytes | str | None:
    """The picture for a game's results notice of `phase` (the position before it, its orders and
    their outcomes); None when the game turned pictures off. `powers`: fog of war, the board as
    those powers saw the phase (judge.games.fog; None: all of it). `svg`: SVG text, not a PNG."""
    paint = phase_painter(service, game, phase, powers=powers, svg=svg)
    return paint() if paint is not None else None


def phase_painter(service: GameService, game: str, phase: str, *, powers: frozenset[str] | None = None,
                  svg: bool = False) -> PhaseJob | None:
    """`picture_of_phase` in two steps: the game read now, and the painting it returns, which reads
    nothing (a plain-data job: it may run on another thread or in a painter process); None when the
    game turned pictures off or its variant has no layout yet."""
    record = service.phase_record(game, phase)
    if not record.settings.get("pictures", True):
        return None
    if not has_layout(record.variant):
        log.warning("no picture for %s %s: the %s variant has no layout.json", game, phase, record.variant)
        return None
    record = veiled_record(service, game, record)
    if powers is None:
        return PhaseJob(game, record, svg=svg)
    cut, hidden = fogged_record(service, game, record, powers)
    return PhaseJob(game, cut, hidden, frozenset(powers), svg=svg)


def veiled_record(service: GameService, game: str, record: PhaseRecord) -> PhaseRecord:
    """The record without the hidden builds not yet revealed: the board shows them to nobody, as
    DPjudge's map (judge.games.hidden_builds); their own power reads them in its mail."""
    variant = service.variant(record.variant)
    if not any(m.hidden for m in variant.build_marks):
        return record
    units = hidden_builds.unrevealed(variant, hidden_builds.played(service.history(game)))
    veil = hidden_builds.veil_for(variant, service.status(game), units, None)
    if not veil:
        return record
    return replace(record, position=veil.position(record.position),
                   results=tuple(veil.result(r) for r in record.results))


def fogged_record(service: GameService, game: str, record: PhaseRecord,
                  powers: frozenset[str]) -> tuple[PhaseRecord, frozenset[str]]:
    """A `phase_record` cut to what `powers` saw of it, and the provinces they did not see."""
    variant = service.variant(record.variant)
    rows = [r for r in service.history(game) if not r.rolled_back or r.seq == record.seq]
    later = [r for r in rows if r.seq > record.seq and not r.rolled_back]
    view = fog.phase_view(variant, record.position, later[0].position if later else None, powers)
    cut = fog.Cut(variant, view)
    cut_record = replace(record, position=cut.position(record.position),
                         results=tuple(cut.result(r) for r in record.results))
    return cut_record, frozenset(variant.board.provinces) - view.seen


def centre_counts_by_year(service: GameService, game: str) -> dict[int, dict[str, int]]:
    """Each power's supply centres at the end of each year played (the last phase recorded in it:
    ownership changes after the year's last movement phase, so that phase's successors hold it)."""
    variant = service.variant(service.status(game).variant)
    counts: dict[int, dict[str, int]] = {}
    for row in service.history(game):
        if row.rolled_back:
            continue
        position = position_from_json(variant, service.phase_record(game, row.phase).position)
        counts[position.phase.year] = {p: len(position.centres_of(p)) for p in variant.power_ids}
    return counts


def end_of_game_chart(service: GameService, game: str) -> bytes:
    """The chart for the end-of-game report: each power's centres by year."""
    return end_of_game_painter(service, game)()


def end_of_game_painter(service: GameService, game: str) -> ChartJob:
    """`end_of_game_chart` in two steps, as `phase_painter`."""
    return ChartJob(service.status(game).variant, centre_counts_by_year(service, game))


def attach_png(message: EmailMessage, png: bytes, name: str) -> EmailMessage:
    """Add the picture after the text: a plain message becomes multipart/mixed, text first."""
    message.add_attachment(png, maintype="image", subtype="png", filename=name)
    return message
