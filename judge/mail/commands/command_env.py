"""What a mail command's handler gets (`Env`) and how it is listed (`Handler`); see judge.mail.commands.handlers."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ...config import Config
from ...games.service import GameService
from ..screening.auth import Session
from ..outbound.outgoing import Attachment
from ..words.reports import Reports


@dataclass
class Env:
    service: GameService
    session: Session
    reports: Reports
    source: str        # "mail:<inbound id>:<item>": makes a repeated dispatch do nothing twice
    files: list[Attachment] = field(default_factory=list)   # the reply's attachments (MAP, EXPORT)
    domain: str = "judge.invalid"      # the judge's mail domain (Config.domain): names its calendar events
    config: Config | None = None       # for a mail of its own beside the reply (the code I AM ALSO sends)


C = TypeVar("C")      # the command a handler takes


@dataclass(frozen=True)
class Handler(Generic[C]):
    run: Callable[[Env, C], list[str]]
    once: bool = False
