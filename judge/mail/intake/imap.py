"""IMAP intake (imapclient): fetch unseen mail with BODY.PEEK[], store it, and only then set \\Seen.

A crash between the fetch and the store leaves the message unseen, so it is fetched again; a crash
between the store and \\Seen fetches it again too, and the archive records that copy as a
redelivery. IDLE is used when the server offers it, polling otherwise. Lost connections are
re-opened with a growing pause. It runs in its own thread because imapclient blocks. A message too
large, of absurd shape (judge.mail.intake.shape_gate) or that the archive cannot read is never retried in a
loop: it is flagged (\\Flagged \\Seen) and left in the folder for the keeper, with a log line.
"""
from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import suppress

from imapclient import IMAPClient  # type: ignore[import-untyped]  # (imapclient ships no type hints)
from imapclient.exceptions import IMAPClientError  # type: ignore[import-untyped]  # (nor here)

from ...config import ImapConfig, LimitsConfig
from .archive import StoredMessage
from .shape_gate import refusal

log = logging.getLogger("judge.imap")

# store(raw, mail_from=..., rcpt_tos=..., via=..., peer=...) -> StoredMessage; Archive.store fits.
Store = Callable[..., StoredMessage]


class ImapIntake:
    def __init__(self, config: ImapConfig, store: Store, *, size_limit: int,
                 on_stored: Callable[[StoredMessage], None] | None = None, stop: threading.Event | None = None,
                 limits: LimitsConfig | None = None):
        self.config = config
        self.limits = limits or LimitsConfig()
        self.store = store
        self.size_limit = size_limit
        self.on_stored = on_stored
        self.stop = stop or threading.Event()
        self.client: IMAPClient | None = None
        self._server_idles = False
        self.connections = 0           # how many times a session was opened (reconnects show here)
        # Set while an IDLE is established. Dovecot announces at once only the mail that lands after
        # that; mail landing between our NOOP and the IDLE waits for its periodic check (30 s or
        # more), so a test delivers only once this is set.
        self.idling = threading.Event()

    # -- one session ---------------------------------------------------------------------------
    def connect(self) -> IMAPClient:
        c = self.config
        client = IMAPClient(c.host, port=c.port, ssl=c.ssl, timeout=60)
        client.login(c.user, c.password)
        client.select_folder(c.folder)
        # Asked once here, on the intake's own thread: the property below is read from other
        # threads too, and a second command on the same socket would interleave with IDLE.
        self._server_idles = client.has_capability("IDLE")
        self.client = client
        self.connections += 1
        log.info("imap: connected to %s:%d as %s, folder %s (%s)", c.host, c.port, c.user, c.folder,
                 "IDLE" if self.idles else "polling")
        return client

    @property
    def idles(self) -> bool:
        return bool(self.config.use_idle and self.client is not None and self._server_idles)

    def disconnect(self, *, polite: bool = True) -> None:
        """LOGOUT on a healthy session; after an error just close the socket (LOGOUT could wait for a timeout)."""
        client, self.client = self.client, None
        if client is None:
            return
        try:
            if polite:
                client.logout()
                return
        except Exception:
            pass               # nothing is lost by not saying goodbye
        with suppress(Exception):
            client.shutdown()

    def fetch_unseen(self) -> list[StoredMessage]:
        """Store every unseen message, each marked \\Seen right after its own commit."""
        client = self.client
        assert client is not None
        client.noop()       # mail delivered outside this session shows in SEARCH only after a NOOP
        stored = []
        for uid in client.search(["UNSEEN"]):
            if self.stop.is_set():
                break
            size = client.fetch([uid], ["RFC822.SIZE"]).get(uid, {}).get(b"RFC822.SIZE", 0)
            if size > self.size_limit:
                # Not taken: flagged for the judge's keeper to look at, and not fetched again.
                log.warning("imap: UID %d is %d bytes, over the %d limit; flagged and left in %s",
                            uid, size, self.size_limit, self.config.folder)
                client.add_flags([uid], [b"\\Flagged", b"\\Seen"])
                continue
            data = client.fetch([uid], ["BODY.PEEK[]"]).get(uid)
            if not data or b"BODY[]" not in data:
                continue       # expunged meanwhile
            raw = bytes(data[b"BODY[]"])
            absurd = refusal(raw, self.limits)
            if absurd is not None:
                log.warning("imap: UID %d refused: %s; flagged and left in %s", uid, absurd, self.config.folder)
                client.add_flags([uid], [b"\\Flagged", b"\\Seen"])
                continue
            try:
                message = self.store(raw, mail_from=None, rcpt_tos=[self.config.user],
                                     via="imap", peer=f"{self.config.host}:{self.config.port} uid {uid}")
            except (sqlite3.Error, OSError, MemoryError):
                raise           # the disk or the database: not seen, so fetched again after the pause
            except Exception:   # the content itself: the same bytes would fail again at every fetch
                log.exception("imap: UID %d cannot be read; flagged and left in %s", uid, self.config.folder)
                client.add_flags([uid], [b"\\Flagged", b"\\Seen"])
                continue
            client.add_flags([uid], [b"\\Seen"])
            stored.append(message)
            if self.on_stored is not None:
                self.on_stored(message)
        return stored

    def wait_for_mail(self) -> None:
        """Return when new mail may be there, the stop event is set, or the IDLE/poll period ends."""
        client = self.client
        assert client is not None
        if not self.idles:
            self.stop.wait(self.config.poll_seconds)
            return
        # Mail that arrived since our SEARCH is not announced once IDLE starts (dovecot only finds
        # it at its next periodic check), so ask just before idling.
        if any(len(r) >= 2 and r[1] in (b"EXISTS", b"RECENT") for r in client.noop()[1]):
            return
        _untagged(client).clear()
        client.idle()
        # A server may announce it between the NOOP and "+ idling"; imaplib keeps that EXISTS
        # aside, where idle_check() would never report it.
        if any(_untagged(client).get(kind) for kind in ("EXISTS", "RECENT")):
            client.idle_done()
            return
        # No `finally: idle_done()`: when the session has failed there is no DONE to send.
        deadline = time.monotonic() + self.config.idle_seconds
        self.idling.set()
        try:
            while not self.stop.is_set() and time.monotonic() < deadline:
                # Short checks so a stop request is noticed within a second.
                responses = client.idle_check(timeout=1.0)
                bye = next((r for r in responses if r and r[0] == b"BYE"), None)
                if bye is not None:
                    words = b" ".join(x for x in bye[1:] if isinstance(x, bytes)).decode("utf-8", "replace")
                    raise ConnectionError(f"the server closed the session: {words}")
                if any(len(r) >= 2 and r[1] in (b"EXISTS", b"RECENT") for r in responses):
                    break
        finally:
            self.idling.clear()
        client.idle_done()

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> None:
        pause = 1.0
        while not self.stop.is_set():
            try:
                if self.client is None:
                    self.connect()
                self.fetch_unseen()
                pause = 1.0            # a working session resets the reconnect pause
                self.wait_for_mail()
            except (IMAPClientError, OSError, EOFError) as e:
                log.warning("imap: %s; reconnecting in %.0f s", e or type(e).__name__, pause)
                self.disconnect(polite=False)
                self.stop.wait(pause)
                pause = min(pause * 2, 60.0)
            except Exception:
                # A failed store (for example the disk is full): nothing was marked seen; try again later.
                log.exception("imap: intake failed; retrying in %.0f s", pause)
                self.disconnect(polite=False)
                self.stop.wait(pause)
                pause = min(pause * 2, 60.0)
        self.disconnect()

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.run, name="judge-imap", daemon=True)
        thread.start()
        return thread


def _untagged(client: IMAPClient) -> dict[str, list[bytes]]:
    """imaplib's store of untagged responses not yet consumed (imapclient has no public view of it)."""
    return getattr(getattr(client, "_imap", None), "untagged_responses", {})
