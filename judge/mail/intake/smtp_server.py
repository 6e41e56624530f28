"""SMTP and LMTP intake (aiosmtpd): store the raw message, then answer 250.

The answer to DATA is sent only after the archive's commit returned, so a 250 means the message is
on disk. If the store fails the client hears 451 and keeps the message to try again. SIZE is
advertised and enforced by aiosmtpd (a MAIL FROM with too large a SIZE= and too much DATA both get
552). Each sender may have `rate_limit` messages accepted per `rate_window` seconds; beyond that,
MAIL FROM is answered 450 so a well-behaved client retries later. A mail of absurd shape (judge.mail.intake.shape_gate:
nested too deep, too many parts or lines) is refused for good with 554, never stored, so a sender's
server gives up and tells its user instead of retrying for ever; so is a mail the archive cannot
read (a fault in its content, not in the disk): only a storage failure is answered 451.

Group commit: messages whose DATA ends while a commit is under way wait for it, then are stored
together in the next one (one fdatasync for all of them); each client hears its 250 only after the
commit that holds its message (`GroupCommit`). That commit is an append to intake's spool
(judge.mail.intake.spool, a log of its own), not to judge.sqlite, whose write lock a mail's dispatch holds
for its whole handling. Each commit wakes the processor (`on_committed`), which moves the spool into
the archive (`drain`, on a thread of intake's that holds a connection to judge.sqlite:
judge.mail.intake.spool_drain) when it has no mail left in the archive, and before each tick: as a mail
queue's manager takes in what the SMTP server queued, when it is ready for more. So a burst costs
intake no judge.sqlite commits.
"""
from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from aiosmtpd.smtp import SMTP, Envelope, Session

from ...config import LimitsConfig
from . import spool_drain, xforward
from .archive import Archive, Arrival
from .shape_gate import refusal
from .smtp_protocol import JudgeLMTP, JudgeSMTP
from .spool import Spool, Spooled, spool_dir
from .spool_drain import Moved, SpoolReader

log = logging.getLogger("judge.intake")


class RateLimiter:
    """A sliding window of acceptance times per sender. Old senders are forgotten as their windows pass."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic):
        self.limit, self.window, self.clock = limit, window, clock
        self._times: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        now = self.clock()
        times = self._times.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._times[key]
        return times

    def allows(self, key: str) -> bool:
        return len(self._recent(key)) < self.limit

    def record(self, key: str) -> None:
        self._recent(key)
        self._times.setdefault(key, deque()).append(self.clock())
        if len(self._times) > 10_000:      # a flood of distinct senders: drop the ones whose windows passed
            for stale in [k for k, t in self._times.items() if t[-1] <= self.clock() - self.window]:
                del self._times[stale]


def sender_key(mail_from: str, peer: object) -> str:
    """The null sender (bounces) is limited per client address instead."""
    address = (mail_from or "").strip("<> ").lower()
    if address:
        return address
    host = peer[0] if isinstance(peer, tuple) and peer else str(peer)
    return f"<> from {host}"


@dataclass
class CommitStats:
    """What the group commit has done (for benchmarks and the curious): seconds from hand-over to the
    answers, and of those, seconds in the spool's store (the rest is handing over between threads);
    `inline`: commits run on the event loop's thread."""
    commits: int = 0
    messages: int = 0
    committing: float = 0.0
    storing: float = 0.0
    inline: int = 0


class GroupCommit:
    """Stores intake's messages in the spool, a group at a time. Those that arrive while a commit runs
    are stored together in the next one; each caller's `store` returns once its own message is
    committed. Used from the event loop's thread only (no lock needed for the queue).

    Where a commit runs: on the event loop's own thread while the spool's commits are quick (an append
    and an fdatasync: about 0.1 ms on a quiet disk, less than handing the batch to a thread and its
    answers back costs), on a thread of its own once they are slow (a busy disk: milliseconds, which
    the loop would spend blocked, reading no client). The moving average of the commits' time decides,
    with some slack either way (INLINE_UP_TO, INLINE_AGAIN_BELOW). But when no other client is in the
    middle of a message (every one that began one is in this commit), the loop has nothing to read
    meanwhile, and the commit runs on it up to a moving average of INLINE_WHEN_IDLE_UP_TO: handing it
    to the thread and its answers back costs two thread wake-ups, and beside busy processes each
    waits for a core (bench/intake.py --hog, 4 connections: 1.4-4 ms of hand-over a commit beside
    a commit of 1.4-5 ms in the spool).

    When no commit runs, one starts at once with whatever has arrived. Only when other clients are in
    the middle of sending a message (MAIL FROM given, DATA not ended) does it wait for them, and then
    no longer than a commit has lately taken (LINGER at most): on a fast disk that is a fraction of a
    millisecond, and on a slow one a client saves a whole commit by joining this one. A lone client
    never waits."""

    BATCH = 256
    LINGER = 0.002      # the longest a commit waits for messages already on their way
    RECENT = 0.2        # a MAIL FROM older than this without its DATA is not waited for
    INLINE_UP_TO = 0.001        # commits slower than this (moving average) go to the thread ...
    INLINE_AGAIN_BELOW = 0.0004     # ... and come back to the loop once they are quicker than this
    INLINE_WHEN_IDLE_UP_TO = 0.010  # ... unless no other client is sending a message (see above)
    RETIRE_AFTER = 600.0    # a segment wholly drained is left for a new one once its first record is this old

    def __init__(self, archive_path: str | Path, *, synchronous: str = "FULL", spool: str | Path | None = None,
                 on_committed: Callable[[], None] | None = None):
        """`on_committed`: called on the event loop's thread after the answers of each commit that stored
        something (the daemon wakes its processor). `spool`: the spool's directory (judge.mail.intake.spool),
        by default spool/ beside `archive_path`. Two threads: slow commits to the spool on one
        (`_executor`), drains into the archive on the other (`drainer`, which owns the archive's
        connection)."""
        directory = Path(spool if spool is not None else spool_dir(archive_path)).resolve()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-intake")
        self.drainer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-archive")
        self.spool = Spool(directory, sync=synchronous.upper() != "OFF")
        self.reader = SpoolReader(directory, writing=lambda: self.spool.synced)
        # The archive's connection is opened inside the thread that will use it.
        self.archive: Archive = self.drainer.submit(Archive, archive_path, synchronous=synchronous).result()
        self.on_committed = on_committed
        self.undrained = True       # the spool may hold records: set by the commits, read by the processor
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: list[tuple[Arrival, asyncio.Future[Spooled]]] = []
        self._in_flight = 0         # messages being committed, not yet answered: 0 when no commit runs
        self._expected: dict[int, float] = {}     # sessions between MAIL FROM and the end of DATA: when
        self._wait: asyncio.TimerHandle | None = None   # a free thread waits for them, until this fires
        self._began = 0.0           # when the commit in flight was handed over
        self._commit_time = 0.0     # how long commits take lately, from hand-over to answers (moving average)
        self._inline = True
        self.stats = CommitStats()

    def expect(self, session: object) -> None:
        """A client has begun a message (MAIL FROM): its DATA may be worth a moment's wait."""
        now = time.monotonic()
        self._expected[id(session)] = now
        if len(self._expected) > 1000:      # many clients that never finish their messages: forget the old
            self._forget_older_than(now - self.RECENT)

    def _forget_older_than(self, moment: float) -> None:
        for key in [k for k, t in self._expected.items() if t < moment]:
            del self._expected[key]

    def waiting(self) -> int:
        """Messages received and not yet committed (being stored, or queued for the next commit)."""
        return len(self._pending) + self._in_flight

    def close(self) -> None:
        """Close the spool (after any commit on its thread), then drain it whole (a clean stop leaves it
        empty), then close the archive. Not on the event loop's thread."""
        self._executor.submit(self.spool.close).result()
        self._executor.shutdown(wait=True)

        def drain_and_close() -> None:
            try:
                self.drain()
            except Exception:   # the records stay spooled: the next start drains them
                log.exception("intake: could not drain the spool at close; the next start will")
            self.archive.close()
        self.drainer.submit(drain_and_close).result()
        self.drainer.shutdown(wait=True)

    def settle(self) -> None:
        """Returns once every commit begun before the call has ended (not on the loop's thread nor the
        commits'): a commit on the loop's thread has, once the loop runs a callback of ours."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            ran = threading.Event()
            try:
                loop.call_soon_threadsafe(ran.set)
            except RuntimeError:    # closed meanwhile: no commit runs there any more
                pass
            else:
                while not ran.wait(0.5) and not loop.is_closed():
                    pass
        self._executor.submit(lambda: None).result()

    def drain(self) -> Moved:
        """On the drainer's thread only: move the spooled records into the archive and delete the segments
        read whole (judge.mail.intake.spool_drain). Waits for judge.sqlite's lock."""
        self.undrained = False      # before reading the spool: a commit that ends from now on sets it again
        try:
            moved = spool_drain.move(self.archive.db, self.reader)
        except BaseException:
            self.undrained = True
            raise
        if moved.more:              # a backlog: the processor drains again when it has handled this part
            self.undrained = True
        writing, loop, age = self.spool.synced, self._loop, self.spool.age()
        # (the age read here first: a young segment, the usual case, costs the loop no wake-up)
        if writing is not None and loop is not None and age is not None and age >= self.RETIRE_AFTER \
                and self.reader.has_read(writing):
            with suppress(RuntimeError):    # the loop is closed: the server stopped
                loop.call_soon_threadsafe(self._retire_drained, writing)
        for copy, first in moved.redeliveries:
            log.info("intake: #%d is a redelivery of #%d", copy, first)
        return moved

    def _retire_drained(self, writing: tuple[int, int]) -> None:
        """On the loop's thread, after a drain that read everything written: the spool moves on from its
        segment once that is RETIRE_AFTER old (judge.mail.intake.spool.Spool.retire_drained), between two
        commits, and the processor is woken to drain again, which deletes it."""
        if self._in_flight:
            return      # (a commit runs: a later drain tries again)
        if self._inline:
            self._retired(self._retire(writing))
        else:
            loop = asyncio.get_running_loop()
            done = self._executor.submit(self._retire, writing)
            done.add_done_callback(lambda f: loop.call_soon_threadsafe(self._retired, f.result()))

    def _retire(self, writing: tuple[int, int]) -> bool:
        try:
            return self.spool.retire_drained(*writing, older_than=self.RETIRE_AFTER)
        except OSError:     # (no new segment could be made, say on a full disk: the next drain tries again)
            log.warning("intake: could not move the spool on to a new segment", exc_info=True)
            return False

    def _retired(self, rolled: bool) -> None:
        if rolled:
            self.undrained = True
            if self.on_committed is not None:
                self.on_committed()

    async def store(self, arrival: Arrival, session: object = None) -> Spooled:
        self._expected.pop(id(session), None)
        loop = self._loop = asyncio.get_running_loop()
        done: asyncio.Future[Spooled] = loop.create_future()
        self._pending.append((arrival, done))
        if not self._in_flight:
            self._commit_now_or_soon()
        return await done

    def _commit_now_or_soon(self) -> None:
        """No commit runs and messages wait: commit them, unless clients are sending more."""
        if self._expected and len(self._pending) < self.BATCH:
            if self._wait is None:
                self._wait = asyncio.get_running_loop().call_later(
                    min(self.LINGER, self._commit_time), self._waited)
            return
        self._hand_over()

    def _waited(self) -> None:
        """The wait is over: commit what has come. Clients that began a message long ago and never ended
        it (gone, or stalled) are forgotten here, where they cost a wait, not at each message."""
        self._wait = None
        self._forget_older_than(time.monotonic() - self.RECENT)
        if self._pending and not self._in_flight:
            self._hand_over()

    def _hand_over(self) -> None:
        """Commit everything waiting (up to BATCH) at once, here or on the thread. On the loop's thread."""
        if self._wait is not None:
            self._wait.cancel()
            self._wait = None
        batch, self._pending = self._pending[:self.BATCH], self._pending[self.BATCH:]
        self._in_flight = len(batch)
        self._began = time.monotonic()
        if self._inline or (not self._expected and self._commit_time < self.INLINE_WHEN_IDLE_UP_TO):
            self.stats.inline += 1
            self._committed(batch, self._commit(batch))
        else:
            self._executor.submit(self._commit_on_thread, asyncio.get_running_loop(), batch)

    def _commit(self, batch: list[tuple[Arrival, asyncio.Future[Spooled]]]) -> list[Spooled | BaseException]:
        """Spool the batch (on whichever thread): each message's outcome."""
        start = time.monotonic()
        try:
            outcomes: list[Spooled | BaseException] = list(self.spool.add_many([a for a, _ in batch]))
        except BaseException as e:  # never leave the callers waiting: not stored, so "try again later" (451)
            outcomes = [e if isinstance(e, (OSError, MemoryError))
                        else OSError(f"the spool's commit was interrupted: {e!r}") for _ in batch]
        # After the commit (a drain that began before it may have missed it), and before the processor is
        # woken (`on_committed`, called once the loop has these outcomes): it then finds the flag set.
        self.undrained = True
        self.stats.storing += time.monotonic() - start      # (one float: safe beside the loop's reads)
        return outcomes

    def _commit_on_thread(self, loop: asyncio.AbstractEventLoop,
                          batch: list[tuple[Arrival, asyncio.Future[Spooled]]]) -> None:
        """On the commits' thread: spool the batch, and hand the outcomes back to the loop in one call."""
        outcomes = self._commit(batch)
        with suppress(RuntimeError):    # the loop is closed: the server stopped, nobody waits for these answers
            loop.call_soon_threadsafe(self._committed, batch, outcomes)

    def _committed(self, batch: list[tuple[Arrival, asyncio.Future[Spooled]]],
                   outcomes: list[Spooled | BaseException]) -> None:
        """On the loop's thread: answer each message of the commit, then start the next one."""
        for (_, done), outcome in zip(batch, outcomes, strict=True):
            if done.done():     # its client went away: nobody waits for the answer
                continue
            if isinstance(outcome, BaseException):
                done.set_exception(outcome)
            else:
                done.set_result(outcome)
        self._in_flight = 0
        took = time.monotonic() - self._began
        self._commit_time = 0.8 * self._commit_time + 0.2 * took
        if self._inline and self._commit_time > self.INLINE_UP_TO:
            self._inline = False
            log.info("intake: the spool's commits take %.1f ms; run on a thread of their own",
                     self._commit_time * 1000)
        elif not self._inline and self._commit_time < self.INLINE_AGAIN_BELOW:
            self._inline = True
        self.stats.commits += 1
        self.stats.messages += len(batch)
        self.stats.committing += took
        if self.on_committed is not None and any(isinstance(o, Spooled) for o in outcomes):
            self.on_committed()
        if self._pending:
            self._commit_now_or_soon()


class IntakeHandler:
    """The aiosmtpd handler. The spool is written by GroupCommit alone, the archive used on its drainer."""

    def __init__(self, archive_path: str | Path, *, rate: RateLimiter, lmtp: bool = False,
                 synchronous: str = "FULL",
                 limits: LimitsConfig | None = None, spool: str | Path | None = None,
                 on_committed: Callable[[], None] | None = None, relays: str = "127.0.0.1, ::1"):
        """`on_committed`: see GroupCommit's (called on the event loop's thread). `spool`: the spool's
        directory, by default spool/ beside `archive_path`. `relays`: the addresses of the mail servers
        in front of the judge, whose XFORWARD is believed (judge.mail.intake.xforward)."""
        self.relays = xforward.relay_networks(relays)
        self.rate = rate
        self.limits = limits or LimitsConfig()
        self.lmtp = lmtp
        self._store = GroupCommit(archive_path, synchronous=synchronous, spool=spool, on_committed=on_committed)
        self._archive: Archive = self._store.archive

    @property
    def undrained(self) -> bool:
        """The spool may hold records the archive has not got (the processor then drains before claiming)."""
        return self._store.undrained

    def drain(self) -> Moved:
        """Into the archive whatever is spooled, waiting for judge.sqlite's lock. On the drainer's
        thread: `loop.run_in_executor(handler.executor, handler.drain)`."""
        return self._store.drain()

    def settle(self) -> None:
        """Returns once every commit to the spool begun before the call has ended (then a drain sees
        every message acknowledged so far). Not on the commits' own thread."""
        self._store.settle()

    @property
    def executor(self) -> ThreadPoolExecutor:
        """The drainer's thread, where `drain` runs."""
        return self._store.drainer

    def close(self) -> None:
        self._store.close()

    async def handle_EHLO(self, server: SMTP, session: Session, envelope: Envelope, hostname: str,
                          responses: list[str]) -> list[str]:
        """aiosmtpd's answer, with XFORWARD offered to a trusted relay (and to nobody else)."""
        session.host_name = hostname
        if isinstance(session.peer, tuple) and xforward.is_relay(str(session.peer[0]), self.relays):
            return [*responses[:-1], xforward.EHLO_LINE, responses[-1]]
        return responses

    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          mail_options: list[str]) -> str:
        key = sender_key(address, session.peer)
        if not self.rate.allows(key):
            log.warning("intake: rate limit for %s reached; answered 450", key)
            return (f"450 4.7.1 Too many messages from {key}: at most {self.rate.limit} "
                    f"in {self.rate.window:.0f} seconds; try again later")
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        self._store.expect(session)
        return "250 2.1.0 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content
        if raw is None:
            raw = envelope.content if isinstance(envelope.content, bytes) else (envelope.content or "").encode()
        via = "lmtp" if self.lmtp else "smtp"
        peer = xforward.stored_peer(session.peer, getattr(envelope, "xforward", {}), self.relays)
        absurd = refusal(bytes(raw), self.limits)
        if absurd is not None:
            log.warning("intake: refused a message from %s for good (554): %s", envelope.mail_from, absurd)
            return self._answer(envelope, f"554 5.6.0 Refused: {absurd}")
        try:
            stored = await self._store.store(Arrival(bytes(raw), envelope.mail_from or "",
                                                     tuple(envelope.rcpt_tos), via, peer), session)
        except (sqlite3.Error, OSError, MemoryError):
            log.exception("intake: could not store a message from %s; answered 451", envelope.mail_from)
            return self._answer(envelope, "451 4.3.0 Could not store the message; please try again later")
        except Exception:      # the same bytes would fail the same way: a retry would loop for ever
            log.exception("intake: a message from %s cannot be read; refused for good (554)", envelope.mail_from)
            return self._answer(envelope, "554 5.6.0 Refused: the judge cannot read this message's structure")
        self.rate.record(sender_key(envelope.mail_from or "", session.peer))
        log.info("intake: spooled #%d from %s (%d bytes)", stored.id, envelope.mail_from, len(raw))
        return self._answer(envelope, f"250 2.0.0 OK stored as #{stored.id}")

    def _answer(self, envelope: Envelope, line: str) -> str:
        """LMTP answers DATA once per recipient (RFC 2033); SMTP once."""
        if self.lmtp:
            return "\r\n".join([line] * max(1, len(envelope.rcpt_tos)))
        return line


def protocol_factory(handler: IntakeHandler, *, size_limit: int, hostname: str | None = None,
                     ident: str = "Diplomacy judge") -> Callable[[], SMTP]:
    """What `loop.create_server` needs: a new SMTP or LMTP session object per connection (aiosmtpd's, with
    plain addresses read cheaply: judge.mail.intake.smtp_protocol)."""
    kind = JudgeLMTP if handler.lmtp else JudgeSMTP
    return lambda: kind(handler, data_size_limit=size_limit, enable_SMTPUTF8=True, decode_data=False,
                        hostname=hostname, ident=ident)


async def start_server(handler: IntakeHandler, host: str, port: int, *, size_limit: int,
                       hostname: str | None = None) -> asyncio.Server:
    loop = asyncio.get_running_loop()
    return await loop.create_server(protocol_factory(handler, size_limit=size_limit, hostname=hostname),
                                    host=host, port=port)
