"""SET ADDRESS to an address the relay cannot carry is refused before it is taken: the judge would
otherwise accept the address and then fail every mail it writes there."""
from __future__ import annotations

from ...language import CommandItem
from ...language.commands import SetAddress
from .outbox import address_refusal


def refuse_unreachable(items: list, db, relay) -> tuple[list, list[dict]]:
    """SET ADDRESS to an address this judge's relay cannot carry (an internationalised address and
    no SMTPUTF8) is refused with words, not accepted and then failed at every mail. Returns the
    items to carry out and the reply's error entries for the ones refused."""
    kept, refused = [], []
    for item in items:
        problem = None
        if isinstance(item, CommandItem) and isinstance(item.command, SetAddress):
            problem = address_refusal(db, relay, item.command.address)
        if problem is None:
            kept.append(item)
        else:
            refused.append({"kind": "error", "line": item.line, "text": item.text, "problem": problem,
                            "expected": "SET ADDRESS you@example.org", "suggestions": []})
    return kept, refused
