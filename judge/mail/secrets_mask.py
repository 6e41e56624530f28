"""Passwords never appear in the judge's mail: lines are echoed with them masked.

Two guards: the password's place in each command that takes one (even when the command could
not be read, so its parts are not known), and every password seen in the message, wherever
it appears as a word in what the judge is about to send.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

MASK = "********"

# (first words, index of the first word that is a secret, how many words are secret: None = the rest)
_SECRET_PLACES = [
    (("signon",), 2, None), (("sign", "on"), 3, None), (("login",), 2, None),
    (("join",), 2, 1), (("create",), 2, 1), (("observe",), 2, 1), (("watch",), 2, 1),
    (("register",), 2, 1), (("become", "master"), 2, 1),
    (("set", "password"), 2, 1), (("set", "pass"), 2, 1), (("set", "pw"), 2, 1),
]


def mask_line(line: str) -> str:
    words = line.split()
    lower = [w.lower() for w in words]
    for head, start, count in _SECRET_PLACES:
        if tuple(lower[:len(head)]) == head and len(words) > start:
            end = len(words) if count is None else start + count
            return " ".join(words[:start] + [MASK] * (min(end, len(words)) - start) + words[end:])
    return line


def mask_words(text: str, secrets: Iterable[str]) -> str:
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = re.sub(rf"(?<!\S){re.escape(secret)}(?!\S)", MASK, text)
    return text
