"""njudge's `PHASE Fall 1901 Movement` by mail: the order lines after it are for that later phase, kept
until it opens (judge.games.later_orders) and confirmed as such; naming the phase now played, they are
that phase's orders as any."""
from __future__ import annotations

from ...language import commands as c
from ...language.later_phase import EXAMPLE, read_phase
from ..screening.auth import Refused
from .command_env import Env


def phase(env: Env, cmd: c.Phase) -> list[str]:
    game = env.session.game
    if not game:
        raise Refused("orders for a later phase need a game: sign on first", f"SIGNON Fgame password, then {EXAMPLE}")
    variant, now, status = env.service.phase_of(game)
    if now is None or status not in ("active", "paused"):
        raise Refused(f"{game} is not under way: orders are kept only for a later phase of a game being played", "")
    calendar = env.service.variant(variant).calendar
    try:
        named = read_phase(calendar, cmd.when)
    except ValueError as e:
        raise Refused(str(e), EXAMPLE) from None
    current = calendar.parse(now)
    if named == current:
        return [f"the orders after this line are for {calendar.name(named)}, the phase now played"]
    if named < current:
        raise Refused(f"{calendar.name(named)} is past: the game is at {calendar.name(current)}, and the orders"
                      " after this line are not used", "the orders again, without the PHASE line")
    return [f"the orders after this line are kept for {calendar.name(named)}, used when that phase opens"
            " (each is checked against the board then, not now)"]
