"""Which power a SIGNON names: its letter, or the start of its name.

njudge's `SIGNON Fgame` runs a power's one-letter initial into the game's name. One letter cannot
tell Chaos's 34 powers apart (five start with B), so a power may also be named by any start of its
name that no other power's name shares: `SIGNON Bergame` is Berlin, `SIGNON Bgame` names nobody.
Only the judge, which knows its games, can tell where the power ends and the game begins; the
shortest start that names a power of an existing game wins, so `SIGNON Fgame` reads as it always did.
"""
from __future__ import annotations

import re

from ...engine.variant import Variant
from ...games.answers import NoSuchGame
from ...games.service import GameService
from ...games.store import check_game_name

MASTER_LETTER = "M"
LONGEST_SIGN = 24   # letters of a power's name a sign-on may spell out: bounds the splits tried


def name_letters(name: str) -> str:
    """A name as a sign-on spells it: letters and digits only, lower case ("St Petersburg": stpetersburg)."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def powers_signed(variant: Variant, who: str) -> tuple[str, ...]:
    """The powers `who` may mean: the one whose letter it is; else each whose name or id starts so
    (but M alone is the master's: Empire's Mexico is Me)."""
    key = who.lower()
    by_letter = tuple(p.id for p in variant.powers if p.letter.lower() == key)
    if by_letter or key == MASTER_LETTER.lower():
        return by_letter
    return tuple(p.id for p in variant.powers
                 if name_letters(p.name).startswith(key) or p.id.lower().startswith(key))


def power_signed(variant: Variant, who: str) -> str | None:
    found = powers_signed(variant, who)
    return found[0] if len(found) == 1 else None


def shortest_sign(variant: Variant, power: str) -> str:
    """The fewest letters of the power's name that name it alone (its letter when that does)."""
    p = variant.power(power)
    if power_signed(variant, p.letter) == power:
        return p.letter
    letters = name_letters(p.name)
    for n in range(1, len(letters) + 1):
        if power_signed(variant, letters[:n]) == power:
            return p.name[:1] + letters[1:n]
    return p.id


def read_signon(service: GameService, word: str) -> tuple[str, str]:
    """SIGNON's word as (power's letters, game): the shortest start that names one power of an
    existing game (or is M, its master); where none does, the first reading with a game that
    exists, else the first character and the rest, so the refusal says what is wrong with it."""
    first_game: tuple[str, str] | None = None
    for n in range(1, min(len(word) - 1, LONGEST_SIGN) + 1):
        who, game = word[:n], word[n:]
        try:
            status = service.status(check_game_name(game))
        except (ValueError, NoSuchGame):
            continue
        if who.upper() == MASTER_LETTER or power_signed(service.variant(status.variant), who):
            return who, game
        first_game = first_game or (who, game)
    return first_game or (word[:1], word[1:])
