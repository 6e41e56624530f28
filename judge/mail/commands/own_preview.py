"""PREVIEW by a player: the current phase played on paper with the player's standing orders alone
(every other power gives none), told in words and drawn as a picture attached to the reply, to that
player only. Nothing is stored. Under fog of war both are cut to what the player's power sees,
as its results mail would be. The master's PREVIEW (every power's orders) is judge.mail.commands.master's."""
from __future__ import annotations

import dataclasses

from ...games import fog
from ...games.model import GameError
from ...pictures.atlas import has_layout
from ...pictures.games import game_title, phase_board
from ...pictures.render import render_png
from ..outbound.outgoing import Attachment
from ..screening.auth import Refused
from ..words.fog_mail import reader_powers, veil_of
from ..words.preview_words import preview_lines
from ..words.refusals import refusal_words
from .command_env import Env


def own_preview(env: Env, game: str, power: str) -> list[str]:
    if veil_of(env.service, game, env.service.status(game), env.session.account):
        # played on paper, the phase would show the units built hidden (judge.games.hidden_builds)
        raise Refused(f"{game} has builds hidden until this phase is played: nothing to preview",
                      f"PREVIEW {game} in the next phase")
    try:
        record = env.service.preview_for(game, power)
    except GameError as e:
        raise Refused(f"nothing to preview: {refusal_words(e)}", f"PREVIEW while {game} is under way") from None
    variant = env.service.variant(record.variant)
    after = record.after
    hidden: frozenset[str] = frozenset()
    sees = reader_powers(env.service, game, env.session.account)
    if sees is not None:            # fog of war: what the power would see, before the phase and after it
        cut = fog.Cut(variant, fog.phase_view(variant, record.position, record.after, {power}))
        after = cut.position(record.after)
        record = dataclasses.replace(record, position=cut.position(record.position),
                                     results=tuple(cut.result(r) for r in record.results))
        hidden = frozenset(variant.board.provinces) - cut.view.seen
    lines = preview_lines(variant, game, power, record.results[0], after, fog=sees is not None)
    if has_layout(record.variant):
        variant, position, outcomes, dislodged = phase_board(env.service, record)
        filename = f"{game}-{record.phase}-preview.png"
        env.files.append(Attachment(filename, "image", "png", render_png(
            variant, position, outcomes or None, dislodged=dislodged,
            title=game_title(game, variant, position) + " (preview)", hidden=hidden,
            counted=None if sees is None else frozenset({power}))))
        lines.append(f"the board with these orders: attached as {filename}")
    return lines
