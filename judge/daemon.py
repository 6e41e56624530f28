"""`judge serve`: one asyncio loop running SMTP/LMTP intake, the optional IMAP intake, the
processing of archived mail, the outbox sender and the periodic tick.

Two hooks connect the mail edge to the games layer:
- `dispatch(message, verdict, context) -> str` turns one archived message into commands, orders
  and replies, and returns what it did in words. It runs at least once per message (again after a
  crash before its outcome was recorded), so it must be idempotent by `message.id`. It runs inside
  the mail's one transaction of the judge file (`context.db`, begun with the claim, committed with
  FULL sync together with the mark that the message is processed): what it writes there, its reply
  in the outbox included, is durable, and visible to the outbox's sender, only then. A dispatcher
  may offer `judge_connection(path)` (the connection to handle mail on, so its own writes to the
  judge file join that transaction), `after_commit(context)` (work for after the commit) and
  `prepare()` (start-up work that need not hold up taking mail, such as the sweep of the game files
  changed since the judge last ran: run on the processing worker after the banner, before the first
  mail and the first tick, while SMTP intake already spools mail). Without one,
  `record_without_dispatcher` records each message as processed and says so in the log.
- `tick(now)` runs every `tick_seconds` (deadlines, reminders), and at once after a mail when the
  tick has a `due(now)` that says a game is due (the mail's orders were the last it needed).
  Without one, no tick runs and the
  banner says the scheduler is not configured. It runs on the processing worker, after every stored
  mail that came in before `now` has been read (`Processor.tick`): an order acknowledged before a
  phase is played is in it, whatever the backlog or a restart. `now` is a whole second, as game
  times are kept, so a mail belongs to the phase played at `now` exactly when it came in before.
- `on_bounce(message, bounce, context) -> str`, optional: what the games side does about a bounce
  (the mail judge tells the masters of the games the failing address's player is in).
Bounces and loop rules are handled here, before dispatch, because they are mail matters.

Why the tick and not a scheduler library (APScheduler and the like): a deadline here is not a job
to fire at a time but a promise about order: every mail acknowledged before the deadline is read
before the phase is played, on the one worker that reads the archive, and after a restart the same.
The deadlines live in the game files (10,000 of them), where the games service finds what is due in
one indexed query of judge.sqlite; a job store of a library would be a second copy of them to keep
in step, and its threads would play phases beside the mail they must wait for.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import sqlite_utils

from .config import Config
from .mail.outbound import outbox
from .mail.intake.archive import Archive, StoredMessage
from .mail.intake.smtp_server import IntakeHandler, RateLimiter, start_server
from .mail.intake.spool import spool_dir
from .storage.datalock import hold
from .storage.db import durable, transaction

# What only the processing of mail uses (robot mail, bounces, quarantine: flufl.bounce, the
# templates' jinja) or IMAP intake (ssl) is imported there, after the banner: `judge serve` takes
# mail without waiting for it (bench/cli_start.py).
if TYPE_CHECKING:
    from .mail.screening.robot_mail import Bounce, Classification

log = logging.getLogger("judge.daemon")

# A loop that fails this many times in a row, none of them after a healthy while, is beyond
# retrying in-process: the daemon stops with status 1 and systemd (Restart=on-failure) starts it again.
RESTARTS_BEFORE_GIVING_UP = 10
HEALTHY_SECONDS = 300.0
# A mail whose orders were the last a game needed brings the tick forward, but no sooner than this after
# the last tick began: a game that stays due (held, or its phase failing) ticks at most this often. A
# whole second, as it was, held a phase back most of that second whenever another game's had just
# been played (bench/reply_latency.py: 0.9 s of the 1 s goal on a fast machine).
EARLY_TICK_GAP = 0.2


@dataclass(frozen=True)
class MailContext:
    """What a dispatcher may use: the configuration and the judge file, for `outgoing.send`."""
    config: Config
    db: sqlite_utils.Database


DispatchHook = Callable[[StoredMessage, "Classification", MailContext], str]
OnBounce = Callable[[StoredMessage, "Bounce", MailContext], str]
TickHook = Callable[[float], None]


def record_without_dispatcher(message: StoredMessage, verdict: Classification, context: MailContext) -> str:
    log.info("no dispatcher configured: message #%d from %s recorded as processed without reading it",
             message.id, message.mail_from or message.peer)
    return "recorded; no dispatcher configured"


class Processor:
    """Works through the archive in order: classify, handle bounces, dispatch the rest, record the outcome."""

    def __init__(self, config: Config, dispatch: DispatchHook, on_enqueued: Callable[[], object] = lambda: None,
                 on_bounce: OnBounce | None = None):
        self.config = config
        self.dispatch = dispatch
        self.on_bounce = on_bounce
        self.on_enqueued = on_enqueued
        # One connection to the judge file per mail: the dispatcher's (its games service's, on this
        # worker's thread) when it has one, so every write a mail makes joins the mail's transaction.
        # NORMAL: only that transaction's FULL commit (process_next) costs an fsync.
        shared = getattr(dispatch, "judge_connection", None)
        db = shared(config.db_path) if shared is not None else None
        self.archive = Archive(config.db_path, synchronous="NORMAL", db=db)
        # A dispatcher that writes the judge file on a connection of its own (it has one, but not
        # for this file) would wait for the mail's transaction to end: it gets the short ones instead.
        self.one_transaction = shared is None or db is not None
        outbox.prepare(self.archive.db)
        self.context = MailContext(config, self.archive.db)
        self.prepared = False

    def prepare(self) -> None:
        """The dispatcher's start-up work (its `prepare`), once, before any mail or tick is handled."""
        prepare = getattr(self.dispatch, "prepare", None)
        if prepare is not None and not self.prepared:
            prepare()
        self.prepared = True

    def close(self) -> None:
        close = getattr(self.dispatch, "close", None)     # on this worker's thread, which opened its files
        if close is not None:
            close()
        self.archive.close()

    def process_next(self) -> StoredMessage | None:
        """One mail, one transaction of the judge file: the claim, everything dispatching it writes
        there (tokens, password counts, what it did, its reply in the outbox) and the mark that it is
        processed commit together, with FULL sync. The outbox's sender reads its own connection, so
        it sees the reply only once that commit is on disk: nothing leaves before what records it is
        durable. A crash before the commit leaves the mail unclaimed and unrecorded, to be handled
        again; what it wrote in game files (committed first) is recognised then by its source."""
        message = None
        try:
            with durable(self.archive.db) if self.one_transaction else nullcontext():
                message = self.archive.claim_next()
                if message is None:
                    return None
                outcome = self.process(message)
                self.archive.mark_processed(message.id, outcome)
        except Exception as e:   # any fault: this message's, retried, then set aside
            if message is None:
                raise            # not a message's fault: the judge file itself (the loop's supervisor retries)
            self.failed(message, e)
            return message
        after = getattr(self.dispatch, "after_commit", None)
        if after is not None:
            after(self.context)  # what is not the mail's own (notices its orders released) goes out now
        self.on_enqueued()       # its reply goes out now, not at the outbox's next poll
        return message

    def failed(self, message: StoredMessage, error: Exception) -> None:
        """Called while handling `error`, after the mail's transaction was rolled back. A passing
        fault (a locked database) is tried again with a growing pause; a message that keeps failing
        is set aside, its sender told, the keeper alerted (in one durable transaction)."""
        limits = self.config.limits
        attempts = self.archive.attempts_of(message.id) + 1
        text = f"{type(error).__name__}: {error}"[:500]
        if attempts < limits.process_attempts:
            delay = limits.process_retry * 2 ** (attempts - 1)
            log.exception("processing message #%d failed (attempt %d of %d); trying again in %.0f s",
                          message.id, attempts, limits.process_attempts, delay)
            self.archive.retry_later(message.id, f"attempt {attempts} failed: {text}", delay)
            return
        log.exception("processing message #%d failed %d times; set aside", message.id, attempts)
        with durable(self.archive.db):
            try:
                with transaction(self.archive.db):      # a savepoint: the notes, or none of them
                    from .mail.outbound import quarantine
                    said = quarantine.set_aside(self.config, self.archive.db, message, attempts, text)
            except Exception:   # setting it aside matters more than the notes about it
                log.exception("message #%d: the notes about setting it aside could not be queued", message.id)
                said = "nobody could be told (see the log)"
            self.archive.mark_failed(message.id, f"set aside after {attempts} failed attempts: {text}; {said}")
        self.on_enqueued()

    def tick(self, tick: TickHook, now: float, stopping: Callable[[], bool] = lambda: False) -> bool:
        """Read the mail that came in before `now`, then run the tick at `now`. False: some of that
        mail could not be read yet (another worker holds it, or it waits for a retry), or the judge
        is stopping (`stopping()`: checked between two mails, so SIGTERM waits for the mail in hand
        only, whatever the backlog; the rest stays in the archive for the next start), so the tick
        is put off rather than play a phase without it."""
        while self.waiting_before(now):
            if stopping() or self.process_next() is None:
                return False
        tick(now)
        self.on_enqueued()       # the results the tick queued go out now
        return True

    def waiting_before(self, now: float) -> bool:
        return self.archive.db.execute(
            "SELECT 1 FROM inbound WHERE state IN ('new', 'claimed') AND received_at < ? LIMIT 1",
            [now]).fetchone() is not None

    def process(self, message: StoredMessage) -> str:
        from .mail.screening.own_addresses import OwnAddresses
        from .mail.screening.robot_mail import classify
        verdict = classify(message.raw, message.mail_from, OwnAddresses.configured(self.config))
        if verdict.bounce is not None:
            return self.handle_bounce(message, verdict)
        return self.dispatch(message, verdict, self.context)

    def handle_bounce(self, message: StoredMessage, verdict: Classification) -> str:
        bounce = verdict.bounce
        assert bounce is not None
        for address in bounce.failed:
            self.archive.record_bounce(address, bounce.diagnostic, message.id)
        if not bounce.failed:
            log.warning("bounce #%d names no failed address", message.id)
        told = self.tell_master(message, bounce.failed, bounce.diagnostic, bounce.original_message_id)
        games = self.on_bounce(message, bounce, self.context) if self.on_bounce is not None else ""
        return (f"bounce: marked failing {', '.join(bounce.failed) or '(no address found)'}; "
                + ("the master was told" if told else "no master_address configured to tell")
                + (f"; {games}" if games else ""))

    def tell_master(self, message: StoredMessage, failed: tuple[str, ...], diagnostic: str | None,
                    original_id: str | None) -> bool:
        if not self.config.master_address:
            log.warning("bounce #%d: no master_address configured, so nobody is told", message.id)
            return False
        from .mail.outbound import outgoing
        from .mail.words.reports import Reports
        rendered = Reports().render("keeper_bounce.j2", failed=list(failed), diagnostic=diagnostic,
                                    original_id=original_id, inbound_id=message.id)
        outgoing.send(self.archive.db, self.config, rendered, key=f"bounce-notice:{message.content_hash}",
                      to=[self.config.master_address])      # sent once the mail's transaction commits
        return True


@dataclass(frozen=True)
class Listening:
    host: str
    port: int


def banner(config: Config, listening: Listening, *, dispatch: DispatchHook, tick: TickHook | None,
           outbound: str) -> str:
    c = config
    protocol = "LMTP" if c.smtp.lmtp else "SMTP"
    lines = [
        "judge serve: the Diplomacy judge is running.",
        f"  {protocol:<9} {listening.host}:{listening.port}  (mail to {c.address}; at most {c.smtp.size_limit} bytes;"
        f" {c.smtp.rate_limit} messages per sender per {c.smtp.rate_window:.0f} s)",
        f"  data      {c.data_dir.resolve()}  (archive and outbox in {c.db_path.name}; SMTP mail"
        f" spooled in {spool_dir(c.db_path).name}/ before its 250)",
        "  IMAP      " + (f"{c.imap.user}@{c.imap.host}:{c.imap.port} {c.imap.folder}" if c.imap.enabled
                             else "not configured"),
        f"  outbound  {outbound}",
        "  dispatch  " + ("not configured: mail is archived and recorded only" if dispatch is record_without_dispatcher
                          else getattr(dispatch, "__qualname__", repr(dispatch))),
        f"  scheduler {'not configured' if tick is None else getattr(tick, '__qualname__', repr(tick))}",
        f"Try: swaks --server {listening.host}:{listening.port}{' --protocol LMTP' if c.smtp.lmtp else ''}"
        f" --from you@example.org --to {c.address}"
        " --header 'Subject: hello' --body 'help'",
        "Stop with Ctrl-C or SIGTERM.",
    ]
    return "\n".join(lines)


class Daemon:
    def __init__(self, config: Config, *, dispatch: DispatchHook = record_without_dispatcher,
                 tick: TickHook | None = None, on_bounce: OnBounce | None = None,
                 clock: Callable[[], float] = time.time):
        self.config = config
        self.dispatch = dispatch
        self.on_bounce = on_bounce
        self.tick = tick
        self.clock = clock
        self.stopping = asyncio.Event()
        self.listening: Listening | None = None
        self.failed = False              # a task gave up: serve() exits non-zero
        self._loop: asyncio.AbstractEventLoop | None = None

    def request_stop(self) -> None:
        """Safe from any thread or a signal handler."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.stopping.set)

    async def run(self, on_ready: Callable[[str], None] = print) -> None:
        """Until stopped. Raises DataDirLocked when another judge has the data directory, and
        sets `failed` when a task gave up (the exit status is then non-zero, for systemd)."""
        lock = hold(self.config.data_dir)
        try:
            await self._run(on_ready)
        finally:
            lock.release()

    async def _run(self, on_ready: Callable[[str], None]) -> None:
        config = self.config
        loop = self._loop = asyncio.get_running_loop()
        config.data_dir.mkdir(parents=True, exist_ok=True)
        inbound_wake, outbound_wake = asyncio.Event(), asyncio.Event()

        def wake_processor(_message: StoredMessage | None = None) -> None:
            loop.call_soon_threadsafe(inbound_wake.set)

        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-process")
        made: list[Processor] = []      # the processor, made on the worker once the judge takes mail

        async def processor_ready() -> Processor:
            """The processor, made (and the claims of a stop released) the first time the processing
            loop starts, after the banner: a dispatcher built when first asked for (`judge serve`'s,
            with the games layer and the mail stack) does not hold up taking mail."""
            if not made:
                made.append(await loop.run_in_executor(worker, partial(
                    Processor, config, self.dispatch, lambda: loop.call_soon_threadsafe(outbound_wake.set),
                    self.on_bounce)))
                released = await loop.run_in_executor(worker, made[0].archive.release_claims)
                if released:
                    log.warning("%d message(s) claimed before a stop are processed again", released)
            return made[0]

        sending = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-outbox")
        sender = await loop.run_in_executor(sending, partial(
            outbox.Sender, config.db_path, config.relay, config.outbox, config.outbox_dir, clock=self.clock,
            on_failed=keeper_told(config)))

        handler = IntakeHandler(config.db_path, rate=RateLimiter(config.smtp.rate_limit, config.smtp.rate_window),
                                lmtp=config.smtp.lmtp, limits=config.limits, relays=config.smtp.relays,
                                on_committed=inbound_wake.set)     # (an idle processor drains at once)

        async def drain_spool(always: bool = False) -> bool:
            """Intake's spool into the archive (on intake's thread, which owns the spool): what a
            crash left spooled, and what intake could not drain while a mail held judge.sqlite.
            `always`: even when intake says it drained (a commit may be under way on its thread).
            Whether it drained."""
            if always:      # a commit under way now holds mail received before now: waited for, then drained
                await loop.run_in_executor(None, handler.settle)
            if always or handler.undrained:
                await loop.run_in_executor(handler.executor, handler.drain)
                return True
            return False

        await drain_spool()         # before serving: mail acknowledged before a crash is handled first
        server = await start_server(handler, config.smtp.host, config.smtp.port, size_limit=config.smtp.size_limit)
        host, port = server.sockets[0].getsockname()[:2]
        self.listening = Listening(host, port)

        imap_stop = threading.Event()
        imap_thread = None
        imap_archive = None
        if config.imap.enabled:
            imap_archive = Archive(config.db_path)
            from .mail.intake.imap import ImapIntake
            imap_thread = ImapIntake(config.imap, imap_archive.store, size_limit=config.smtp.size_limit,
                                     on_stored=wake_processor, stop=imap_stop, limits=config.limits).start()

        async def reclaim() -> None:
            # Only this worker claims: whatever is claimed was dropped by the loop that just failed.
            if made:
                await loop.run_in_executor(worker, made[0].archive.release_claims)

        # the tick runs inside the processing loop, between two mails (see Processor.tick)
        tasks = [self._supervised("process", lambda: self._process_loop(worker, processor_ready, inbound_wake,
                                                                            drain_spool),
                                  reclaim),
                 self._supervised("outbox", lambda: self._outbox_loop(sending, sender, outbound_wake))]
        on_ready(banner(config, self.listening, dispatch=self.dispatch, tick=self.tick,
                        outbound=sender.destination))
        try:
            stop_wait = asyncio.create_task(self.stopping.wait())
            done, _ = await asyncio.wait([stop_wait, *tasks], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task is not stop_wait and (task.exception() is not None or not self.stopping.is_set()):
                    self.failed = True
                    log.critical("%s gave up; the judge stops (exit status 1) to be restarted", task.get_name(),
                                 exc_info=task.exception())
        finally:
            # Stop taking mail first; then let the workers finish what they hold.
            server.close()
            await server.wait_closed()
            imap_stop.set()
            self.stopping.set()
            inbound_wake.set()
            outbound_wake.set()
            for task in tasks:
                with suppress(Exception):   # logged above when it happened
                    await task
            if imap_thread is not None:
                await loop.run_in_executor(None, imap_thread.join, 60)
                if imap_thread.is_alive():     # still storing or logging out: its archive stays open
                    log.warning("imap: the intake thread did not stop within 60 s")
                elif imap_archive is not None:
                    imap_archive.close()
            await loop.run_in_executor(None, handler.close)
            if made:
                await loop.run_in_executor(worker, made[0].close)
            await loop.run_in_executor(sending, sender.close)
            worker.shutdown()
            sending.shutdown()

    def _supervised(self, name: str, loop_body: Callable[[], Awaitable[None]],
                    on_restart: Callable[[], Awaitable[None]] | None = None) -> asyncio.Task[None]:
        """Run one of the daemon's loops; when it raises, log it and start it again after a growing
        pause. Only RESTARTS_BEFORE_GIVING_UP failures in a row (none lasting a healthy while) end it."""
        async def supervise() -> None:
            loop = asyncio.get_running_loop()
            failures, pause = 0, 1.0
            while not self.stopping.is_set():
                started = loop.time()
                try:
                    await loop_body()
                    return
                except Exception:   # whatever it was, the judge keeps running
                    if loop.time() - started > HEALTHY_SECONDS:
                        failures, pause = 0, 1.0
                    failures += 1
                    if failures >= RESTARTS_BEFORE_GIVING_UP:
                        raise
                    log.exception("%s failed (%d in a row); restarting it in %.0f s", name, failures, pause)
                await _wait(self.stopping, pause)
                pause = min(pause * 2, 60.0)
                if on_restart is not None and not self.stopping.is_set():
                    try:
                        await on_restart()
                    except Exception:   # the next round fails and counts instead
                        log.exception("%s: preparing the restart failed", name)
        return asyncio.create_task(supervise(), name=name)

    async def _process_loop(self, worker: ThreadPoolExecutor, processor_ready: Callable[[], Awaitable[Processor]],
                            wake: asyncio.Event,
                            drain_spool: Callable[..., Awaitable[bool]]) -> None:
        """Mail in arrival order, and the tick between two mails when it is due (so a steady stream
        of mail never holds a deadline back), all on the one worker: see `Processor.tick`. When the
        archive has no mail waiting, intake's spool is drained if intake could not (judge.sqlite was busy)."""
        loop = asyncio.get_running_loop()
        # first the dispatcher's start-up work (SMTP intake takes and spools mail meanwhile); a failure
        # here restarts this loop, as any other would, and it is tried again before any mail is read
        processor = await processor_ready()
        await loop.run_in_executor(worker, processor.prepare)
        next_tick = last_tick = self.clock()       # (last_tick: when the last tick began, on the clock)
        while not self.stopping.is_set():
            wake.clear()
            if self.tick is not None and self.clock() >= next_tick:
                last_tick = self.clock()
                now = float(int(last_tick))
                # everything acknowledged before `now` is in the archive before the tick looks
                await drain_spool(always=True)
                try:
                    ticked = await loop.run_in_executor(worker, processor.tick, self.tick, now, self.stopping.is_set)
                except Exception:
                    log.exception("tick failed; trying again next time")
                    ticked = True
                # a tick put off (mail from before `now` not readable yet) is tried again within a second
                next_tick = self.clock() + (self.config.tick_seconds if ticked else min(1.0, self.config.tick_seconds))
                continue
            message = await loop.run_in_executor(worker, processor.process_next)
            # intake could not drain (judge.sqlite was busy, e.g. with the mail just handled); not before
            # every claim: under a stream of mail that would wait on the drainer each time
            if message is None and await drain_spool():
                message = await loop.run_in_executor(worker, processor.process_next)
            due = getattr(self.tick, "due", None)
            if message is not None and due is not None and next_tick > self.clock() \
                    and await loop.run_in_executor(worker, due, self.clock()):
                # its orders were the last a game needed: the phase is played now, not at the next tick
                # (no sooner than EARLY_TICK_GAP after the last tick, should a game stay due)
                next_tick = min(next_tick, max(self.clock(), last_tick + EARLY_TICK_GAP))
            if message is None:
                # Woken by intake; the timeout also picks up mail stored by another process.
                await _wait(wake, 5.0 if self.tick is None else max(0.0, min(5.0, next_tick - self.clock())))

    async def _outbox_loop(self, sending: ThreadPoolExecutor, sender: outbox.Sender, wake: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        while not self.stopping.is_set():
            wake.clear()
            attempts = await loop.run_in_executor(sending, partial(sender.deliver_due, stopping=self.stopping.is_set))
            if not attempts:
                await _wait(wake, self.config.outbox.poll_seconds)


def keeper_told(config: Config) -> Callable[..., None]:
    """The outbox sender's `on_failed`: judge.mail.outbound.failed_mail's, imported when a mail
    first fails for good (its words need jinja, which the start need not wait for)."""
    told: list[Callable[..., None]] = []

    def on_failed(*args: Any) -> None:
        if not told:
            from .mail.outbound import failed_mail
            told.append(failed_mail.keeper_told(config))
        told[0](*args)
    return on_failed


async def _wait(event: asyncio.Event, timeout: float) -> None:
    with suppress(asyncio.TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)


def serve(config: Config, *, dispatch: DispatchHook = record_without_dispatcher, tick: TickHook | None = None,
          on_bounce: OnBounce | None = None) -> int:
    """Run until SIGTERM or SIGINT, then stop cleanly. Returns the exit status."""
    daemon = Daemon(config, dispatch=dispatch, tick=tick, on_bounce=on_bounce)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, daemon.stopping.set)
        await daemon.run(on_ready=lambda text: print(text, flush=True))

    try:
        asyncio.run(main())
    except OSError as e:          # another judge has the data directory, the port is taken, ...
        log.debug("judge serve could not run", exc_info=True)
        print(f"judge serve: {e}", file=sys.stderr, flush=True)
        return 1
    except Exception:   # a fatal error: logged, and a non-zero status for systemd
        log.critical("judge serve stopped on a fatal error", exc_info=True)
        print("judge serve: stopped on a fatal error (see the log).", file=sys.stderr, flush=True)
        return 1
    if daemon.failed:
        print("judge serve: stopped because a part of it kept failing (see the log).", file=sys.stderr, flush=True)
        return 1
    print("judge serve: stopped.", flush=True)
    return 0
