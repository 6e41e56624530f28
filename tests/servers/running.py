"""The judge's own servers run in a background thread with their own asyncio loop, for in-process tests."""
from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from judge.config import Config
from judge.daemon import Daemon
from judge.mail.intake.smtp_server import IntakeHandler, RateLimiter, start_server


class IntakeServer:
    """Just the SMTP/LMTP intake over an archive file: what the intake tests talk to."""

    def __init__(self, db_path: Path, *, size_limit: int = 1_048_576, rate_limit: int = 1000,
                 rate_window: float = 600.0, lmtp: bool = False, clock=None, on_committed=None):
        rate = RateLimiter(rate_limit, rate_window, **({"clock": clock} if clock else {}))
        self.handler = IntakeHandler(db_path, rate=rate, lmtp=lmtp, on_committed=on_committed)
        self.size_limit = size_limit
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server = None
        self.port = 0

    def __enter__(self) -> "IntakeServer":
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(
            start_server(self.handler, "127.0.0.1", 0, size_limit=self.size_limit), self.loop).result(300)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    def drain(self):
        """Intake's spool into the archive, as `judge serve`'s processor has it done: once the commits under
        way have ended, on intake's drainer thread. What it moved (judge.mail.intake.spool_drain.Moved)."""
        self.handler.settle()
        return self.handler.executor.submit(self.handler.drain).result(120)

    def __exit__(self, *exc) -> None:
        async def close():
            self.server.close()
            await self.server.wait_closed()
        asyncio.run_coroutine_threadsafe(close(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.close()
        self.handler.close()


class DaemonThread:
    """The whole `judge serve` daemon, in-process, so a test can look at its files while it runs."""

    def __init__(self, config: Config, **hooks):
        self.daemon = Daemon(config, **hooks)
        self.ready = threading.Event()
        self.banner = ""
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        def on_ready(text: str) -> None:
            self.banner = text
            self.ready.set()
        try:
            asyncio.run(self.daemon.run(on_ready=on_ready))
        except BaseException as e:       # reported to the test by __enter__/__exit__
            self.error = e
            self.ready.set()

    @property
    def port(self) -> int:
        return self.daemon.listening.port

    def __enter__(self) -> "DaemonThread":
        self.thread.start()
        # Generous: on a loaded machine (pytest-xdist, other jobs) start-up can take long. Going on
        # without the banner would read `listening` before the daemon thread has set it.
        if not self.ready.wait(300):
            self.daemon.request_stop()
            raise TimeoutError("the daemon did not get ready in 300 s")
        if self.error:
            raise self.error
        return self

    def __exit__(self, *exc) -> None:
        self.daemon.request_stop()
        self.thread.join(60)
        assert not self.thread.is_alive(), "the daemon did not stop"
        if self.error:
            raise self.error
