"""The courier: the games' pending notices (results, reminders, press, ...) into the outbox.

    courier = Courier(service, config)
    courier.run(db)        # db: a connection to judge.sqlite owned by the calling thread

Each notice is rendered once (judge.mail.words.notices.render_notice) and queued per recipient with a
Message-ID stable per (notice, account), then the notices are marked queued. Its mail is built once and
each further copy made from its bytes (judge.mail.outbound.outgoing.send_copies); who gets it is read
before the judge file's write lock is taken, as reading a game file may write its index row there. A crash between the
two queues nothing twice: the next run queues the same Message-IDs, which the outbox ignores.
A notice for an account goes to that account's address; a public notice (recipient None) goes
to every player, the master and every observer who did not get a personal copy of the same news.
Every mail carries the recipient's secret reply address (judge.mail.screening.tokens) as Reply-To.
A notice that cannot be rendered or queued is tried again with a growing pause, then set aside
(no longer pending) and the judge's keeper alerted (judge.mail.outbound.notice_failures).
A results mail carries a picture of the board with the phase's orders, and the game-end mail a
chart of the centres by year (PNG attachments after the text), unless the game's `pictures`
setting is off. Each picture is drawn once per run however many recipients get it, and stored
once in the outbox for all of them (judge.mail.outbound.shared_part); in a deadline rush (a run of
POOL_FROM games or more) they are painted in processes of their own (judge.pictures.pool), the mail
going without its picture only if painting it fails. A game's notices are rendered first, then
queued with a few other games' (QUEUED_TOGETHER) in one transaction of the judge file, then marked
queued in each game without a sync of their own (a lost mark queues nothing twice: see above). A
notice that sets or moves a deadline (the start, a moved deadline, a resumption) carries it as an
.ics file for the player's calendar.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from typing import Protocol, TypeVar, cast

import sqlite_utils

from ...config import Config
from ...games.accounts import Account, Accounts
from ...games.answers import GameState, Notice, NoticeKind, PhaseRecord
from ...games.service import GameService
from ...games.trouble import GameDamaged
from ...pictures import end_of_game_painter, phase_painter
from ...pictures.atlas import has_layout
from ...pictures.pool import PaintPool
from ...games.clock import parse_time
from . import outbox, outgoing
from .deadline_calendar import deadline_file
from ..words.fog_mail import picture_powers
from .notice_failures import NoticeFailures
from ..words.reports import Rendered, Reports
from .shared_part import PaintedPart, SharedPicture
from ..screening.tokens import ReplyTokens
from ...storage.checkpoints import checkpoints_aside
from ...storage.db import durable, synchronous

log = logging.getLogger("judge.courier")

RenderNotice = Callable[[Reports, GameService, Notice], Rendered]
Picture = SharedPicture  # (file name, PNG), encoded once for every recipient
PictureKey = tuple[str, str, object, frozenset[str] | None]    # (game, kind, phase, the powers it shows)
Paint = tuple[str, Callable[[], bytes]]         # (file name, the painting: a picklable judge.pictures.jobs job)
Painting = tuple[str, Future[SharedPicture]]          # (file name, the picture being painted)
Drawn = dict[PictureKey, Picture | Painting | None]       # the run's pictures, drawn or being drawn
Answer = TypeVar("Answer")
# the notices that set or move a deadline: they carry it as an .ics file for the player's calendar (a
# results mail does not: it keeps to its text and picture; CALENDAR game sends the next phase's)
CALENDAR_KINDS = frozenset({NoticeKind.GAME_START, NoticeKind.DEADLINE_MOVED, NoticeKind.EXCUSED,
                            NoticeKind.RESUMED})
Reader = tuple[str, tuple[str, ...]]                 # (account, its addresses): one who gets a notice
# a notice rendered, with its readers and calendar file, to be queued
Ready = tuple[Notice, Rendered, Picture | None, list[Reader], list[outgoing.Attachment]]
Failed = tuple[Notice, Exception]                    # a notice that could not be, and why
Rendering = tuple[str, list[Ready], list[Failed]]    # a game's notices rendered, and those that failed
# what a notice without readers is queued as (to nobody): rendering it would be a ninth of a rush's
UNREAD = Rendered("", "")
READ_AHEAD = 4           # games read (and their pictures started) before the one being queued
# games whose notices are queued in one transaction of the judge file (one sync for them all): in a
# rush each game's own FULL commit was a sync a game; a few games' mails wait for the others meanwhile
QUEUED_TOGETHER = 16
# A run with this many games to tell paints in processes of its own, one per core but its own (a rush);
# a smaller one on a thread beside the courier, as starting the processes would cost more than it saves.
POOL_FROM = 8


class Painter(Protocol):
    def submit(self, fn: Callable[[], SharedPicture], /) -> Future[SharedPicture]: ...


def _default_render() -> RenderNotice:
    from ..words.notices import render_notice   # the notice templates' module (branch mail-reports)
    return render_notice


class Courier:
    def __init__(self, service: GameService, config: Config, reports: Reports | None = None,
                 render: RenderNotice | None = None, clock: Callable[[], float] = time.time,
                 pool_from: int = POOL_FROM) -> None:
        self.service = service
        self.clock = clock             # for the pause before a failed notice is tried again
        self.config = config
        self.reports = reports or Reports()
        self.render = render or _default_render()
        # the results mail's first line names the judge (templates/notice_results.j2)
        self.reports.env.globals["judge_id"] = config.address
        self.pool_from = pool_from     # games with notices in one run from which it paints in processes
        self._laid_out: set[str] = set()     # the variants found to have a layout (pictures can be drawn)
        self._last_pictured = outgoing.LastPictured()     # a game's first pictured mail made from the last's
        # The dispatcher (after a mail) and the tick both run the courier: one run at a time, so two
        # runs never render and queue the same pending notice at once.
        self._one_at_a_time = threading.Lock()

    def run(self, db: sqlite_utils.Database, first: Iterable[str] | None = None, rush: int = 0) -> int:
        """Queue every pending notice of every game. Returns how many mails were queued now.

        Games are read a few ahead of the one being written out, and their pictures painted
        meanwhile, so the text of one game's mail is made while the next one's board is drawn: on
        a thread of their own, or, in a run of `pool_from` games or more (a deadline rush), in
        processes of their own, one per core but its own (judge.pictures.pool).
        `first`: games to queue before the others, in their order, named as they come: the tick's
        games, each named once its phase is played (GameService.play_due), so that a game's picture
        is painted and its mail queued while the next games are played; `rush`: how many it will
        name (for the choice of painters). The games with notices it does not name are looked up
        once it is done, and queued after.
        One courier at a time: the processing worker and the outbox both call it."""
        with self._one_at_a_time:
            return self._run(db, first, rush)

    def _run(self, db: sqlite_utils.Database, first: Iterable[str] | None, rush: int) -> int:
        outbox.prepare(db)
        tokens = ReplyTokens(db, self.config.address)
        queued = 0
        pictures: Drawn = {}
        failures = NoticeFailures(db, self.config, self.clock)
        waiting = self.service.games_with_notices()      # (what `first` adds is counted in `rush`)
        games = iter(waiting) if first is None else _first_then_the_rest(first, self.service.games_with_notices)
        accounts = RunAccounts(self.service.accounts)      # each reader's account read once this run
        window: deque[tuple[str, GameService, list[Notice]]] = deque()

        def read_ahead() -> None:
            while True:
                game = next(games, None)
                if game is None:
                    return
                # the game read once for all its notices (OneRead answers as the service it wraps)
                reading = cast(GameService, OneRead(self.service, accounts))
                try:
                    notices = [n for n in self.service.pending_notices(game) if failures.due(game, n.id)]
                except GameDamaged:     # recorded as such, and told (trouble_mail): the other games go on
                    continue
                break
            for notice in notices:               # (a notice that failed lately is tried later)
                self.start_picture(game, notice, pictures, reading, painter)
            window.append((game, reading, notices))

        many = len(waiting) + rush >= self.pool_from
        # a rush: pictures painted in processes, judge.sqlite's checkpoints made on a thread of their own
        with (PaintPool() if many else ThreadPoolExecutor(max_workers=1, thread_name_prefix="courier-pictures")
              ) as painter, (checkpoints_aside([db, self.service.judge]) if many else nullcontext()):
            for _ in range(READ_AHEAD):
                read_ahead()
            rendered: list[Rendering] = []
            while window:
                game, reading, notices = window.popleft()
                read_ahead()
                rendered.append(self._render_game(game, reading, notices, pictures))
                if len(rendered) >= QUEUED_TOGETHER or not window:
                    queued += self._queue_games(db, tokens, failures, rendered)
                    for key in [k for k in pictures if k[0] in {r[0] for r in rendered}]:
                        del pictures[key]        # its mails are queued: the picture is in the outbox
                    rendered = []
        return queued

    def _render_game(self, game: str, reading: GameService, notices: list[Notice], pictures: Drawn) -> Rendering:
        """A game's notices rendered, drawn and their readers found, before the judge file's write lock
        is taken (reading a game file may write its index row there)."""
        ready: list[Ready] = []
        failed: list[Failed] = []
        for notice in notices:
            try:
                readers = self.readers(game, notice, reading)
                if not readers:     # (the public copy of a game nobody watches): queued to nobody, unread
                    ready.append((notice, UNREAD, None, readers, []))
                    continue
                ready.append((notice, self.render(self.reports, reading, notice),
                              self.picture(game, notice, pictures, reading), readers, self.calendar(game, notice)))
            except Exception as e:   # one notice that cannot be rendered must not stop the rest
                log.exception("notice %s of %s could not be rendered", notice.id, game)
                failed.append((notice, e))
        return game, ready, failed

    def _queue_games(self, db: sqlite_utils.Database, tokens: ReplyTokens, failures: NoticeFailures,
                     games: list[Rendering]) -> int:
        """Several games' rendered notices into the outbox in one transaction of the judge file (one
        sync, not one per game), then each game's notices marked queued. The marks come after that
        commit, and need no sync of their own: a mark lost to a power cut only queues its notice again
        under the same Message-ID, which the outbox ignores (its row is kept when it is sent)."""
        queued = 0
        done: dict[str, list[str]] = {}
        # a phase played within a rush is on disk before any mail tells of it (GameService.syncing_aside)
        self.service.synced([game for game, ready, _ in games if ready])
        if any(ready for _, ready, _ in games):
            with synchronous(db, "FULL"):    # durable before the sender sees it (judge.mail.outbound.outbox)
                queued = self._queue_ready(db, tokens, games, done)
        for game, ready, failed in games:
            marks = done.get(game, [])
            _tell_news(game, [r[0] for r in ready if r[0].id in marks])
            for notice, error in failed:
                if failures.failed(game, notice, error):
                    marks.append(notice.id)     # set aside: no longer pending, the keeper was told
            if marks:
                self.service.mark_notices_queued(game, marks, durable=False)
        return queued

    def _queue_ready(self, db: sqlite_utils.Database, tokens: ReplyTokens, games: list[Rendering],
                     done: dict[str, list[str]]) -> int:
        """Each notice under a savepoint, so that one failing leaves the others queued (and is added to
        its game's failed ones); the notices queued are added to `done`, by game."""
        queued = 0
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            for game, ready, failed in games:
                # each notice's mail made from another's bytes where that is sure
                models = outgoing.Models(last=self._last_pictured)
                for notice, rendered, picture, readers, files in ready:
                    db.conn.execute("SAVEPOINT notice")
                    try:      # (a reader's first reply token is made in this transaction, not committed alone)
                        copies = self._copies(tokens, game, notice, readers)
                        queued += outgoing.send_copies(db, self.config, rendered, copies, shared=picture,
                                                       files=files, models=models)
                    except Exception as e:   # as above: this notice's failure only
                        db.conn.execute("ROLLBACK TO notice")
                        log.exception("notice %s of %s could not be queued", notice.id, game)
                        failed.append((notice, e))
                    else:
                        done.setdefault(game, []).append(notice.id)
                    db.conn.execute("RELEASE notice")
            db.conn.execute("COMMIT")
        except BaseException:
            db.conn.execute("ROLLBACK")
            raise
        return queued

    def deliver(self, db: sqlite_utils.Database, tokens: ReplyTokens, game: str, notice: Notice,
                pictures: Drawn | None = None) -> int:
        """Render one notice and queue it for each of its recipients. Returns how many were queued now."""
        rendered = self.render(self.reports, self.service, notice)
        picture = self.picture(game, notice, {} if pictures is None else pictures)
        readers, files = self.readers(game, notice), self.calendar(game, notice)
        with durable(db):    # on disk before the sender sees it, as the outbox's own queueing is
            return outgoing.send_copies(db, self.config, rendered, self._copies(tokens, game, notice, readers),
                                        shared=picture, files=files)

    def readers(self, game: str, notice: Notice, service: GameService | None = None) -> list[Reader]:
        """Who gets the notice, with their addresses: read before the judge file's write lock is taken
        (reading a game file may write its index row there, and would wait on that lock)."""
        service = service or self.service
        accounts = [notice.recipient] if notice.recipient else service.public_audience(game, notice)
        readers = []
        for account in accounts:
            try:
                to = tuple(service.accounts.get(account).addresses)
            except KeyError:
                log.warning("notice %s: no account %r", notice.id, account)
                continue
            if to:
                readers.append((account, to))
        return readers

    @staticmethod
    def _copies(tokens: ReplyTokens, game: str, notice: Notice, readers: list[Reader]) -> list[outgoing.Copy]:
        """Each reader's copy: its Message-ID key (stable per notice and account) and secret Reply-To."""
        return [outgoing.Copy(f"notice:{notice.id}:{account}", to, tokens.address_for(account, game))
                for account, to in readers]

    def calendar(self, game: str, notice: Notice) -> list[outgoing.Attachment]:
        """The game's next deadline as an .ics file (judge.mail.outbound.deadline_calendar), on the
        mails that set or move it: the start, a moved deadline, a resumption."""
        deadline = notice.payload.get("deadline")
        if notice.kind not in CALENDAR_KINDS or not isinstance(deadline, dict) or not deadline.get("utc"):
            return []
        phase = notice.payload.get("phase")
        if not phase:
            return []
        try:
            return [deadline_file(self.reports, self.service, game, self.config.domain, phase=phase,
                                  deadline_utc=deadline["utc"], stamp=parse_time(notice.created_at))]
        except Exception:   # the news matters more than its calendar file
            log.exception("no calendar file for notice %s", notice.id)
            return []

    def picture(self, game: str, notice: Notice, drawn: Drawn, service: GameService | None = None) -> Picture | None:
        """The board after a results notice's phase, or the centre chart for the game's end; drawn once
        per run. A picture that cannot be drawn is logged and the mail goes without it. `service`: the
        game as already read (OneRead), so that finding the picture reads nothing again."""
        key = self.start_picture(game, notice, drawn, service)
        if key is None:
            return None
        drawing = drawn[key]
        if isinstance(drawing, tuple):
            _, painting = drawing
            try:
                drawing = drawn[key] = painting.result()
            except Exception:   # the report matters more than its picture
                log.exception("no picture for notice %s", notice.id)
                drawing = drawn[key] = None
        return drawing

    def start_picture(self, game: str, notice: Notice, drawn: Drawn, service: GameService | None = None,
                      painter: Painter | None = None) -> PictureKey | None:
        """Read what the notice's picture shows and start painting it (on `painter`, else now).
        Returns the picture's key in `drawn`, None for a notice without a picture."""
        if notice.kind not in (NoticeKind.RESULTS, NoticeKind.GAME_END):
            return None
        service = service or self.service
        # fog of war: a results picture per view (the master's and the board's whole one is shared)
        powers = picture_powers(service, game, notice) if notice.kind is NoticeKind.RESULTS else None
        key: PictureKey = (game, notice.kind, notice.payload.get("phase"), powers)
        if key not in drawn:
            try:
                paint = self._painter(game, notice, service, powers)
                if paint is None:
                    drawn[key] = None
                else:
                    name, job = paint
                    drawn[key] = (name, painter.submit(PaintedPart(name, job))) if painter else PaintedPart(name, job)()
            except Exception:   # the report matters more than its picture
                log.exception("no picture for notice %s", notice.id)
                drawn[key] = None
        return key

    def _painter(self, game: str, notice: Notice, service: GameService,
                 powers: frozenset[str] | None = None) -> Paint | None:
        """What the picture shows, read now: its file name and the job that paints it, which reads
        nothing (plain data: it may be painted in another process)."""
        status = service.status(game)
        if not status.settings.get("pictures", True):
            return None
        if notice.kind is NoticeKind.GAME_END:
            return f"{game}-centres.png", end_of_game_painter(service, game)
        if status.variant not in self._laid_out:
            if not has_layout(status.variant):
                log.info("no picture for %s: the %s variant has no layout.json yet", game, status.variant)
                return None
            self._laid_out.add(status.variant)
        phase = notice.payload["phase"]
        job = phase_painter(service, game, phase, powers=powers)
        if job is None:
            return None
        return f"{game}-{phase}.png", cast(Callable[[], bytes], job)     # (not svg: PNG bytes)


def _first_then_the_rest(first: Iterable[str], with_notices: Callable[[], list[str]]) -> Iterator[str]:
    """The games of `first`, each once, then the games with notices it did not name (asked for only
    when `first` is done: its games may have added some)."""
    named: set[str] = set()
    for game in first:
        if game not in named:
            named.add(game)
            yield game
    yield from (game for game in with_notices() if game not in named)


class RunAccounts:
    """The accounts as one courier run reads them: each account (its addresses, its time zone) read
    once for the run, not once a notice (a results phase has nine notices, and a keeper's players
    play several games: 40 statements a game in a deadline rush). Nothing changes an account during
    a run: mail that would is handled on the same worker, before or after it."""

    def __init__(self, accounts: Accounts) -> None:
        self._accounts = accounts
        self._read: dict[str, Account] = {}

    def __getattr__(self, name: str) -> object:
        return getattr(self._accounts, name)

    def get(self, name: str) -> Account:
        account = self._read.get(name)
        if account is None:
            account = self._read[name] = self._accounts.get(name)     # (no such account: KeyError, not kept)
        return account

    def zone_of(self, name: str | None) -> str | None:
        if not name:
            return None
        try:
            return self.get(name).time_zone
        except KeyError:
            return None


class OneRead:
    """The games service as the courier reads one game for its notices: the game's status and phase
    records read once for all of them (each read opens the game file; a results phase has a notice
    for every player, the master and the public). Nothing writes the game meanwhile: the courier
    marks the notices queued only afterwards. The answers are shared, so they are only read.
    `accounts`: the run's (RunAccounts), else the service's own."""

    def __init__(self, service: GameService, accounts: RunAccounts | None = None) -> None:
        self._service = service
        self.accounts = accounts or service.accounts
        self._memo: dict[tuple[object, ...], object] = {}     # the answers are frozen: sharing them is safe

    def __getattr__(self, name: str) -> object:
        return getattr(self._service, name)

    def status(self, name: str, *, viewer: str | None = None) -> GameState:
        return self._once(("status", name, viewer), lambda: self._service.status(name, viewer=viewer))

    def phase_record(self, name: str, phase: str | None = None) -> PhaseRecord:
        return self._once(("phase_record", name, phase), lambda: self._service.phase_record(name, phase))

    def _once(self, key: tuple[object, ...], read: Callable[[], Answer]) -> Answer:
        if key not in self._memo:
            self._memo[key] = read()
        return cast(Answer, self._memo[key])     # the key names the call, so the kind of answer


news = logging.getLogger("judge.news")
_NEWS = {NoticeKind.GAME_START: "started", NoticeKind.RESULTS: "played", NoticeKind.GAME_END: "ended"}


def _tell_news(game: str, queued: list[Notice]) -> None:
    """One log line when a game starts, plays a phase or ends (its notices are one per reader)."""
    told: set[tuple[str, str]] = set()
    for notice in queued:
        what = _NEWS.get(notice.kind) if isinstance(notice.kind, NoticeKind) else None
        payload = notice.payload if isinstance(notice.payload, dict) else {}
        phase = str(payload.get("phase_name") or payload.get("phase") or "") if what == "played" else ""
        if what is not None and (what, phase) not in told:
            told.add((what, phase))
            news.info("game %s %s%s", game, what, f" {phase}" if phase else "")
