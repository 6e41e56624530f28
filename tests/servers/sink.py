"""An SMTP sink (aiosmtpd) standing in for the outbound relay. It can refuse the first N messages."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

from aiosmtpd.controller import Controller

from .net import free_port


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    raw: bytes


@dataclass
class SinkHandler:
    refuse_next: int = 0                       # answer DATA with `refusal` this many times
    refusal: str = "451 4.3.0 Try again later"
    refuse_rcpt: dict[str, str] = field(default_factory=dict)   # address -> RCPT answer
    received: list[Received] = field(default_factory=list)
    attempts: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse_rcpt:
            return self.refuse_rcpt[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.attempts += 1
            if self.refuse_next > 0:
                self.refuse_next -= 1
                return self.refusal
            self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos),
                                          bytes(envelope.original_content)))
        return "250 OK queued"


class Sink:
    def __init__(self, handler: SinkHandler | None = None):
        self.handler = handler or SinkHandler()
        self.port = free_port()
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)

    def __enter__(self) -> "Sink":
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()

    @property
    def received(self) -> list[Received]:
        return self.handler.received
