"""A short digest of one power's standing orders for one phase, so a player can check that the
orders the judge played are the ones it confirmed.

The confirmation of every mail of orders ends with the digest of the power's orders standing
then; the results mail lists, for each power, the digest of the orders the phase was played
with. Equal digests: the same orders. Anyone changing the stored orders between the two (the
judge's keeper included) changes the digest in the results, and the player holds the old one.

What is hashed is plain text, so a player can recompute it (HELP says how): the game's name,
the phase code and the power id, then each order in the judge's short notation (as
`judge.engine.notation.order_text` writes it, e.g. `A PAR - BUR`), sorted, one a line, each
line ending in a newline; the digest is the first 10 hex digits of that text's SHA-256.
The game, phase and power are in it so that a digest cannot be replayed for another phase.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable

from ..engine.notation import order_text
from ..engine.orders import Order

DIGITS = 10


def digest_text(game: str, phase: str, power: str, orders: Iterable[Order]) -> str:
    """The text that is hashed: see the module's docstring."""
    lines = [game, phase, power.upper(), *sorted(order_text(o) for o in orders)]
    return "".join(line + "\n" for line in lines)


def orders_digest(game: str, phase: str, power: str, orders: Iterable[Order]) -> str:
    return hashlib.sha256(digest_text(game, phase, power, orders).encode("utf-8")).hexdigest()[:DIGITS]
