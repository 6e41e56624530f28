"""Anonymous (gunboat) games: who plays which power is kept out of every mail but the masters'.

While a game has the `anonymous` setting and is not over, a notice rendered for anyone but one
of its masters has every other player's account name replaced before its template sees it: in
the game's status (the seats, the results' "France (ann)") and anywhere in the notice's payload
(a replacement's new player, an absent player, Italy's new player). The reader's own name is
left, as are the masters'. The game's end shows everyone (unless the master set REVEAL OFF,
njudge's NO REVEAL: then never), as does the master's REVEAL, which clears the setting.
Addresses never appear in notices: each mail goes to its one reader.

    status = masked_status(status, recipient)      # before any template reads it
    payload = masked_payload(payload, hidden, recipient)
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...games.answers import GameState

HIDDEN = "anonymous"                               # a player in the seats table and results
WORDS = {"account": "a player", "previous": "another player"}   # a sentence's subject


def hides_players(status: GameState, reader: str | None) -> bool:
    """Whether `reader` (an account, or None: the public copy) may not see who plays what."""
    over = status.status == "finished" and status.settings.get("reveal_at_end", True)   # (NO REVEAL: never)
    return bool(status.settings.get("anonymous")) and not over and reader not in status.masters


def hidden_accounts(status: GameState, reader: str | None) -> set[str]:
    """The accounts to keep from `reader`: every player's and signed-up player's but its own."""
    if not hides_players(status, reader):
        return set()
    players = {info.account for info in status.powers.values() if info.account}
    return (players | set(status.signups)) - {reader} - set(status.masters)


def masked_status(status: GameState, hidden: set[str]) -> GameState:
    if not hidden:
        return status
    powers = {p: replace(info, account=HIDDEN if info.account in hidden else info.account)
              for p, info in status.powers.items()}
    return replace(status, powers=powers, signups=tuple(HIDDEN if a in hidden else a for a in status.signups))


def masked_payload(value: Any, hidden: set[str], key: str | None = None) -> Any:
    """The payload with every hidden account replaced, however deep."""
    if not hidden or key == "game":
        return value
    if isinstance(value, dict):
        return {k: masked_payload(v, hidden, k) for k, v in value.items()}
    if isinstance(value, list):
        return [masked_payload(v, hidden, key) for v in value]
    if isinstance(value, str) and value in hidden:
        return WORDS.get(key or "", HIDDEN)
    return value
