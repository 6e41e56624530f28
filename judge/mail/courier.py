"""The courier: the games' pending notices (results, reminders, press, ...) into the outbox.

    courier = Courier(service, config)
    courier.run(db)        # db: a connection to judge.sqlite owned by the calling thread

Each notice is rendered once (judge.mail.notices.render_notice) and queued per recipient with a
Message-ID stable per (notice, account), then the notices are marked queued. A crash between the
two queues nothing twice: the next run queues the same Message-IDs, which the outbox ignores.
A notice for an account goes to that account's address; a public notice (recipient None) goes
to every player, the master and every observer who did not get a personal copy of the same news.
Every mail carries the recipient's secret reply address (judge.mail.tokens) as Reply-To.
A notice that cannot be rendered or queued is tried again with a growing pause, then set aside
(no longer pending) and the judge's keeper alerted (judge.mail.notice_failures).
A results mail carries a picture of the board with the phase's orders, and the game-end mail a
chart of the centres by year (PNG attachments after the text), unless the game's `pictures`
setting is off. Each picture is drawn once per run however many recipients get it.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from email.message import EmailMessage

from ..config import Config
from ..games.service import GameService, Notice
from ..pictures import Atlas, SharedPicture, attach_png, end_of_game_chart, load_atlas, picture_of_phase
from ..pictures.atlas import has_layout
from . import outbox
from .loops import build_message
from .notice_failures import NoticeFailures
from .reports import Rendered, Reports
from .tokens import ReplyTokens

log = logging.getLogger("judge.courier")

RenderNotice = Callable[[Reports, GameService, Notice], Rendered]
Picture = SharedPicture  # (file name, PNG), encoded once for every recipient


def _default_render() -> RenderNotice:
    from .notices import render_notice   # the notice templates' module (branch mail-reports)
    return render_notice


class Courier:
    def __init__(self, service: GameService, config: Config, reports: Reports | None = None,
                 render: RenderNotice | None = None, clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.clock = clock             # for the pause before a failed notice is tried again
        self.config = config
        self.reports = reports or Reports()
        self.render = render or _default_render()
        self._atlases: dict[str, Atlas] = {}   # variant id -> its read-only map geometry, loaded on first use
        # The dispatcher (after a mail) and the tick both run the courier: one run at a time, so two
        # runs never render and queue the same pending notice at once.
        self._one_at_a_time = threading.Lock()

    def run(self, db) -> int:
        """Queue every pending notice of every game. Returns how many mails were queued now."""
        with self._one_at_a_time:
            return self._run(db)

    def _run(self, db) -> int:
        outbox.prepare(db)
        tokens = ReplyTokens(db, self.config.address)
        queued = 0
        pictures: dict[tuple, Picture | None] = {}
        failures = NoticeFailures(db, self.config, self.clock)
        for game in self.service.games_with_notices():
            done = []
            for notice in self.service.pending_notices(game):
                if not failures.due(game, notice.id):
                    continue       # failed lately: its next try is later
                try:
                    queued += self.deliver(db, tokens, game, notice, pictures)
                except Exception as e:   # noqa: BLE001 - one notice that cannot be rendered must not stop the rest
                    log.exception("notice %s of %s could not be queued", notice.id, game)
                    if failures.failed(game, notice, e):
                        done.append(notice.id)     # set aside: no longer pending, the keeper was told
                    continue
                done.append(notice.id)
            if done:
                self.service.mark_notices_queued(game, done)
        return queued

    def deliver(self, db, tokens: ReplyTokens, game: str, notice: Notice,
                pictures: dict[tuple, Picture | None] | None = None) -> int:
        rendered = self.render(self.reports, self.service, notice)
        picture = self.picture(game, notice, {} if pictures is None else pictures)
        accounts = [notice.recipient] if notice.recipient else self.service.public_audience(game, notice)
        queued = 0
        for account in accounts:
            try:
                to = list(self.service.accounts.get(account).addresses)
            except KeyError:
                log.warning("notice %s: no account %r", notice.id, account)
                continue
            if not to:
                continue
            mail = notice_mail(self.config, notice, rendered, to, tokens.address_for(account, game), account)
            raw = picture.mail_bytes(mail) if picture is not None else bytes(mail)   # the picture encoded once
            queued += outbox.enqueue(db, mail["Message-ID"], to, raw, envelope_from=self.config.address)
        return queued


    def picture(self, game: str, notice: Notice, drawn: dict[tuple, Picture | None]) -> Picture | None:
        """The board after a results notice's phase, or the centre chart for the game's end; drawn once
        per run. A picture that cannot be drawn is logged and the mail goes without it."""
        if notice.kind not in ("results", "game_end"):
            return None
        key = (game, notice.kind, notice.payload.get("phase"))
        if key not in drawn:
            try:
                drawn[key] = self._draw(game, notice)
            except Exception:   # noqa: BLE001 - the report matters more than its picture
                log.exception("no picture for notice %s", notice.id)
                drawn[key] = None
        return drawn[key]

    def _draw(self, game: str, notice: Notice) -> Picture | None:
        status = self.service.status(game)
        if not status["settings"].get("pictures", True):
            return None
        if notice.kind == "game_end":
            return SharedPicture(f"{game}-centres.png", end_of_game_chart(self.service, game))
        variant = self.service.variant(status["variant"])
        if variant.id not in self._atlases and not has_layout(variant.id):
            log.info("no picture for %s: the %s variant has no layout.json yet", game, variant.id)
            return None
        if variant.id not in self._atlases:
            self._atlases[variant.id] = load_atlas(variant)
        phase = notice.payload["phase"]
        png = picture_of_phase(self.service, game, phase, atlas=self._atlases[variant.id])
        return SharedPicture(f"{game}-{phase}.png", png) if png else None


def notice_mail(config: Config, notice: Notice, rendered: Rendered, to: list[str], reply_to: str,
                account: str, picture: Picture | None = None) -> EmailMessage:
    """The one place a notice becomes a mail: the text, then the picture if there is one."""
    mail = build_message(key=f"notice:{notice.id}:{account}", sender=config.address, to=to,
                         subject=rendered.subject, body=rendered.body, domain=config.domain)
    mail["Reply-To"] = reply_to
    if picture is not None:
        attach_png(mail, picture[1], picture[0])
    return mail
