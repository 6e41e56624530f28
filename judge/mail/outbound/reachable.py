"""SET ADDRESS (and I AM ALSO) to an address the relay cannot carry is refused before it is taken: the
judge would otherwise accept the address and then fail every mail it writes there."""
from __future__ import annotations

from collections.abc import Iterable

import sqlite_utils

from ...config import RelayConfig
from ...language import CommandItem
from ...language.commands import AddAddress, SetAddress
from .outbox import address_refusal
from .reply_budget import Item


def refuse_unreachable(items: Iterable[Item], db: sqlite_utils.Database,
                       relay: RelayConfig) -> tuple[list[Item], list[dict[str, object]]]:
    """SET ADDRESS to an address this judge's relay cannot carry (an internationalised address and
    no SMTPUTF8) is refused with words, not accepted and then failed at every mail. Returns the
    items to carry out and the reply's error entries for the ones refused."""
    kept: list[Item] = []
    refused: list[dict[str, object]] = []
    for item in items:
        if isinstance(item, CommandItem) and isinstance(item.command, (SetAddress, AddAddress)):
            wanted = (item.command.address, *(item.command.also if isinstance(item.command, SetAddress) else ()))
            problem = next((p for a in wanted if (p := address_refusal(db, relay, a)) is not None), None)
            if problem is not None:
                refused.append({"kind": "error", "line": item.line, "text": item.text, "problem": problem,
                                "expected": "SET ADDRESS you@example.org", "suggestions": []})
                continue
        kept.append(item)
    return kept, refused
