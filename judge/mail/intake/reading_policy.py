"""The email policy an arrived mail is read with: policy.default, the same objects and answers, at a
fraction of its cost on the dispatcher's path.

Why: policy.default parses a header anew each time it is asked for (`mail.get("Content-Type")`,
and the email package itself asks for Content-Type a dozen times while parsing and walking one
mail), and for each such parse the standard header registry makes a new class. Under a backlog that
was a third of the CPU an order mail cost (bench/backlog.py under cProfile). Here the classes are
made once per kind of header, and a header value already read (most are: "text/plain;
charset=utf-8", the same From and To again) is answered from a bounded cache. A header object is
never changed once made (its parse and defects are read-only), so sharing one is safe; a long value
(hostile or odd) is parsed as before and not kept.
"""
from __future__ import annotations

from email.headerregistry import BaseHeader, HeaderRegistry
from email.policy import EmailPolicy
from functools import lru_cache
from typing import Any

CACHED_UP_TO = 998         # characters of a header value (RFC 5322's line) worth keeping parsed
CACHED_HEADERS = 4096      # values kept: a few mails' worth per player in a busy hour


class _OneClassEach(HeaderRegistry):
    """The standard registry, with each header kind's class made once rather than at every parse."""

    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[type, type] = {}

    def __getitem__(self, name: str) -> type:
        kind = self.registry.get(name.lower(), self.default_class)
        made = self._classes.get(kind)
        if made is None:
            made = self._classes[kind] = super().__getitem__(name)
        return made


class _Reading(EmailPolicy):
    def header_fetch_parse(self, name: str, value: Any) -> Any:
        if hasattr(value, "name") or len(value) > CACHED_UP_TO:
            return super().header_fetch_parse(name, value)
        return _parsed(name, value)


READING = _Reading(header_factory=_OneClassEach())


@lru_cache(maxsize=CACHED_HEADERS)
def _parsed(name: str, value: str) -> BaseHeader:
    header: BaseHeader = EmailPolicy.header_fetch_parse(READING, name, value)
    return header
