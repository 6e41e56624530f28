"""What a mail command's handler gets (`Env`) and how it is listed (`Handler`); see judge.mail.commands."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..games.service import GameService
from .auth import Session
from .reports import Reports


@dataclass
class Env:
    service: GameService
    session: Session
    reports: Reports
    source: str        # "mail:<inbound id>:<item>": makes a repeated dispatch do nothing twice


@dataclass(frozen=True)
class Handler:
    run: Callable[[Env, object], list[str]]
    once: bool = False
