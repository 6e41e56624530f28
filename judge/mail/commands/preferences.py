"""A ranked list of the powers one would play, as njudge's players write it: `SET PREFERENCE E[FG]R`
(letters run together, a bracket for powers of equal rank), or `JOIN game password E F G`, or names
(`England, France Germany`). The game gives out seats by the smallest total rank (judge.games.assignment);
powers left off the list rank after every listed one."""
from __future__ import annotations

import re

from ...engine.variant import Variant
from ...language import commands as c
from ..screening.auth import Refused, authenticate, power_name, power_by_letter, resolve_power
from .command_env import Env

USAGE = "SET PREFERENCE E[FG]R (best first; a bracket: equal rank), after JOIN game password"


def read_preferences(variant: Variant, text: str) -> list[str | list[str]]:
    """The powers (ids) best first, a list for a bracket; ValueError in the player's words."""
    ranked: list[str | list[str]] = []
    group: list[str] | None = None
    seen: set[str] = set()
    for token in re.findall(r"[\[\]()]|[^\s,;\[\]()>]+", text):
        if token in "[(":
            if group is not None:
                raise ValueError("a bracket inside a bracket: write E[FG]R")
            group = []
        elif token in "])":
            if group is None:
                raise ValueError(f"'{token}' closes no bracket: write E[FG]R")
            ranked.append(group[0] if len(group) == 1 else group)
            group = None
        else:
            for power in _powers(variant, token):
                if power in seen:
                    raise ValueError(f"{variant.power(power).name} is named twice")
                seen.add(power)
                (ranked if group is None else group).append(power)
    if group is not None:
        raise ValueError("a bracket is not closed: write E[FG]R")
    return [g for g in ranked if g]


def _powers(variant: Variant, word: str) -> list[str]:
    power = resolve_power(variant, word)
    if power is not None:
        return [power]
    if "/" in word:
        return [word]       # a seat of several powers in a game for fewer players (`England/France`): the game reads it
    letters = [power_by_letter(variant, ch) for ch in word] if word.isalpha() else []
    if letters and all(letters):
        return [p for p in letters if p is not None]
    raise ValueError(f"'{word}' is not a power's name or letter in this game")


def set_preference(env: Env, cmd: c.SetPreference) -> list[str]:
    game = env.session.game
    account = authenticate(env.service, env.session, None, "JOIN game password, then " + USAGE)
    if not game:
        raise Refused("preferences are for a game you have joined: JOIN it first in this mail", USAGE)
    ranked = ranking(env, game, cmd.ranking)
    env.service.set_preferences(game, account, ranked)
    return [f"your preferences in {game}: {said(env, game, ranked)}"]


def ranking(env: Env, game: str, text: str) -> list[str | list[str]]:
    try:
        return read_preferences(env.service.variant(env.service.status(game).variant), text)
    except ValueError as e:
        raise Refused(str(e), USAGE) from None


def said(env: Env, game: str, ranked: list[str | list[str]]) -> str:
    """"England, then France or Germany, then Russia"."""
    return ", then ".join(power_name(env.service, game, g) if isinstance(g, str) else
                          " or ".join(power_name(env.service, game, p) for p in g) for g in ranked)
