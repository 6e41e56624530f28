"""The courier: the games' pending notices (results, reminders, press, ...) into the outbox.

    courier = Courier(service, config)
    courier.run(db)        # db: a connection to judge.sqlite owned by the calling thread

Each notice is rendered once (judge.mail.notices.render_notice) and queued per recipient with a
Message-ID stable per (notice, account), then the notices are marked queued. A crash between the
two queues nothing twice: the next run queues the same Message-IDs, which the outbox ignores.
A notice for an account goes to that account's address; a public notice (recipient None) goes
to every player, the master and every observer who did not get a personal copy of the same news.
Every mail carries the recipient's secret reply address (judge.mail.tokens) as Reply-To.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from email.message import EmailMessage

from ..config import Config
from ..games.service import GameService, Notice
from . import outbox
from .loops import build_message
from .reports import Rendered, Reports
from .tokens import ReplyTokens

log = logging.getLogger("judge.courier")

RenderNotice = Callable[[Reports, GameService, Notice], Rendered]


def _default_render() -> RenderNotice:
    from .notices import render_notice   # the notice templates' module (branch mail-reports)
    return render_notice


class Courier:
    def __init__(self, service: GameService, config: Config, reports: Reports | None = None,
                 render: RenderNotice | None = None) -> None:
        self.service = service
        self.config = config
        self.reports = reports or Reports()
        self.render = render or _default_render()

    def run(self, db) -> int:
        """Queue every pending notice of every game. Returns how many mails were queued now."""
        outbox.prepare(db)
        tokens = ReplyTokens(db, self.config.address)
        queued = 0
        for game in self.service.games_with_notices():
            done = []
            for notice in self.service.pending_notices(game):
                try:
                    queued += self.deliver(db, tokens, game, notice)
                except Exception:   # noqa: BLE001 - one notice that cannot be rendered must not stop the rest
                    log.exception("notice %s could not be queued; it stays pending", notice.id)
                    continue
                done.append(notice.id)
            if done:
                self.service.mark_notices_queued(game, done)
        return queued

    def deliver(self, db, tokens: ReplyTokens, game: str, notice: Notice) -> int:
        rendered = self.render(self.reports, self.service, notice)
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
            queued += outbox.enqueue(db, mail["Message-ID"], to, bytes(mail), envelope_from=self.config.address)
        return queued


def notice_mail(config: Config, notice: Notice, rendered: Rendered, to: list[str], reply_to: str,
                account: str) -> EmailMessage:
    """The one place a notice becomes a mail (a turn's map, as an attachment, would be added here)."""
    mail = build_message(key=f"notice:{notice.id}:{account}", sender=config.address, to=to,
                         subject=rendered.subject, body=rendered.body, domain=config.domain)
    mail["Reply-To"] = reply_to
    return mail
