"""Who a press is for, from the words after PRESS [GREY] TO, as players of njudge and DPjudge write
them: power names, abbreviations or letters (`TO France Germany`, `TO F G`, `TO Fra, Ger`), letters run
together (`TO EFG`), everyone (`TO ALL`), everyone but some (`TO ALL BUT G`, `TO ALL EXCEPT E F`), and
the master (`TO M`, `TO MASTER`). A word that names none of these refuses the whole press: a press is
never sent to more powers than the writer named, and never to everyone on a guess.

A run of letters that is also the start of a power's name (`GER`, `FRA`) is read as the name: the
reading that sends to fewer powers, and the reply names who got it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...engine.variant import Variant
from ..screening.auth import power_by_letter, resolve_power

EVERYONE = frozenset({"all", "everyone", "everybody"})
BUT = frozenset({"but", "except", "minus", "without", "not"})
MASTER = frozenset({"m", "master", "gm"})


@dataclass(frozen=True)
class Recipients:
    powers: tuple[str, ...] | None       # power ids (and "MASTER"), in the order written; None: everyone
    excluded: tuple[str, ...] = ()       # for ALL BUT: the powers left out, as the reply names them


class UnreadableRecipient(ValueError):
    """A word that names no power; `word` as written."""

    def __init__(self, word: str, why: str) -> None:
        super().__init__(why)
        self.word = word


def read_recipients(variant: Variant, words: tuple[str, ...], in_game: tuple[str, ...], sender: str) -> Recipients:
    """`in_game`: the game's powers (ids); `sender`: the writer's power id, or "MASTER"."""
    tokens = [t for w in words for t in re.split(r"[,;+&/]+", w) if t]
    if not tokens:
        raise UnreadableRecipient("", "no power is named")
    if tokens[0].lower() in EVERYONE:
        rest = tokens[1:]
        if not rest:
            return Recipients(None)
        if rest[0].lower() not in BUT or len(rest) == 1:
            raise UnreadableRecipient(" ".join(rest), "after ALL only BUT and the powers left out may follow")
        left_out = _powers(variant, rest[1:])
        powers = tuple(p for p in in_game if p not in left_out and p != sender)
        if "MASTER" not in left_out and sender != "MASTER":
            powers += ("MASTER",)
        if not [p for p in powers if p != "MASTER"]:
            raise UnreadableRecipient(" ".join(rest[1:]), "that leaves out every power")
        return Recipients(powers, tuple(p for p in left_out if p != "MASTER"))
    return Recipients(_powers(variant, tokens))


def _powers(variant: Variant, tokens: list[str]) -> tuple[str, ...]:
    found: list[str] = []
    for token in tokens:
        for power in _one_word(variant, token):
            if power not in found:
                found.append(power)
    return tuple(found)


def _one_word(variant: Variant, token: str) -> list[str]:
    word = token.strip().strip(".:")
    if word.lower() in MASTER:
        return ["MASTER"]
    power = resolve_power(variant, word)
    if power is not None:
        return [power]
    letters = [power_by_letter(variant, ch) for ch in word] if word.isalpha() and len(word) > 1 else []
    if letters and all(letters) and len(set(letters)) == len(letters):
        return [p for p in letters if p is not None]
    raise UnreadableRecipient(token, "it is not a power's name, abbreviation or letter")
