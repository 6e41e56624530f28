"""What a mail command's handler gets (`Env`) and how it is listed (`Handler`); see judge.mail.commands."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..games.service import GameService
from .auth import Session
from .reports import Reports


@dataclass
class Env:
    service: GameService
    session: Session
    reports: Reports
    source: str        # "mail:<inbound id>:<item>": makes a repeated dispatch do nothing twice
    files: list[Attachment] = field(default_factory=list)   # the reply's attachments (MAP, EXPORT)


@dataclass(frozen=True)
class Attachment:
    """A file the reply carries after its text."""
    filename: str
    maintype: str
    subtype: str
    data: bytes


@dataclass(frozen=True)
class Handler:
    run: Callable[[Env, object], list[str]]
    once: bool = False
