"""One mail's way through the dispatcher, as a chain of named steps (Mailman's runners and rules).

Each step takes the dispatcher and the mail in hand (`InMail`), may add to it what it learnt, and
either lets the mail go on (returns None) or ends its handling (returns a `Stop` with the outcome the
archive records). The raw mail is parsed once, by `InMail.mail`, and every step reads that one
parse. `STEPS` is the order; `tests/test_mail_steps.py` holds each step to its job.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.message import Message
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import sqlite_utils

from ...language import clean_body, parse_message
from ...language.message import Message as ReadBody
from ...language.mailbody import attachments
from ..federation import account_sync, shards
from ..intake.archive import StoredMessage, clear_failing
from ..outbound.reachable import refuse_unreachable
from ..outbound.reply_budget import bounded_commands, first_lines, not_read_entry
from ..screening.addresses import reply_address
from ..screening.auth import Session, start_session
from ..screening.dispatch_store import StepLog, finished
from ..screening.own_addresses import OwnAddresses
from ..screening.password_guard import Source
from ..screening.replays import first_copy
from ..screening.robot_mail import Classification, classify
from ..screening.secrets_mask import mask_line
from ..screening.tokens import ReplyTokens, envelope_recipients

if TYPE_CHECKING:
    from .dispatch import Dispatch


class Stop(NamedTuple):
    """The mail's handling ends here with `outcome`. `record`: the dispatcher records the mail finished
    (and scrubs its passwords, `passwords`); False only when it was recorded before."""
    outcome: str
    passwords: frozenset[str] = frozenset()
    record: bool = True


@dataclass
class InMail:
    """The mail in hand and what the steps have learnt of it so far."""
    message: StoredMessage
    verdict: Classification
    db: sqlite_utils.Database
    shard: shards.ShardMail | None = None         # a mail from another host of this judge
    sender: str = ""                              # who the reply goes to
    tokens: ReplyTokens | None = None
    delivered: list[str] = field(default_factory=list)    # the envelope recipients: secret addresses
    session: Session | None = None
    parsed: ReadBody | None = None              # the body read into commands and orders
    lines_unread: int = 0

    @cached_property
    def mail(self) -> Message:
        """The one parse of the raw mail (made anew only when a forwarded mail is unwrapped)."""
        return self.message.parsed()


Step = Callable[["Dispatch", InMail], Stop | None]


def repeat_if_finished(dispatch: Dispatch, mail: InMail) -> Stop | None:
    """Handled (and scrubbed) before a crash kept the daemon from recording it: the same outcome."""
    done = finished(mail.db, mail.message.id)
    return Stop(done, record=False) if done is not None else None


def take_from_another_host(dispatch: Dispatch, mail: InMail) -> Stop | None:
    """A signed mail from another host: account changes are applied; a forwarded mail is unwrapped and
    read from here on as its original, from its own sender."""
    if shards.KIND.encode() not in mail.message.raw:
        return None
    mail.shard = shards.read(mail.mail, dispatch.config)
    if mail.shard is None:
        return None
    if mail.shard.kind == "accounts":
        return Stop(account_sync.apply(dispatch.service, mail.shard))
    mail.message = shards.forwarded_message(mail.message, mail.shard)
    mail.verdict = classify(mail.message.raw, mail.message.mail_from, OwnAddresses.configured(dispatch.config))
    del mail.mail          # the original's parse, not the wrapper's
    return None


def leave_robots_unanswered(dispatch: Dispatch, mail: InMail) -> Stop | None:
    """Bounces, auto-replies, lists: never read, never answered (judge.mail.screening.robot_mail)."""
    if mail.verdict.reply_allowed:
        return None
    return Stop(f"not read and not answered: {mail.verdict.reason}")


def find_sender(dispatch: Dispatch, mail: InMail) -> Stop | None:
    """Whom to answer; a mail from an address is proof it works again (a past bounce is forgotten)."""
    mail.sender = reply_address(mail.mail, mail.message.mail_from)
    if not mail.sender:
        return Stop("not answered: no address to answer")
    clear_failing(mail.db, mail.sender)
    return None


def skip_a_copy_applied_before(dispatch: Dispatch, mail: InMail) -> Stop | None:
    """A copy of a mail applied before, whatever headers it gained, is not applied again."""
    mail.tokens = ReplyTokens(mail.db, dispatch.config.address)
    mail.delivered = envelope_recipients(mail.message.rcpt_tos, mail.message.via, mail.mail)
    earlier = first_copy(mail.db, mail.message.id, mail.mail, mail.sender, mail.delivered)
    if earlier is None:
        return None
    return Stop(dispatch.repeated(mail.message, mail.mail, mail.sender, earlier, mail.db))


def sign_on(dispatch: Dispatch, mail: InMail) -> Stop | None:
    """Who is writing: the account the secret reply address names, or none yet (a password in the
    body signs on later, through the one password guard)."""
    assert mail.tokens is not None
    source = Source.of(mail.sender, mail.message.mail_from, mail.message.via, mail.message.peer)
    token = mail.tokens.find(mail.delivered)
    mail.session = start_session(dispatch.service, mail.sender, token, source,
                                 token is None and mail.tokens.stale(mail.delivered))
    return None


def read_the_body(dispatch: Dispatch, mail: InMail) -> Stop | None:
    """The body as the sender typed it, up to `limits.lines_read` lines, read into commands and
    orders with the board of the signed-on game in hand."""
    assert mail.session is not None
    # A body in a broken charset (UTF-7 with stray bytes) can decode to lone surrogates, which no
    # reply could then be encoded with: they become U+FFFD, as any other undecodable byte.
    text = clean_body(mail.mail).encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    text, mail.lines_unread = first_lines(text, dispatch.config.limits.lines_read)
    mail.parsed = parse_message(text, dispatch.order_context(mail.session), commands=dispatch.commands)
    return None


def forward_to_the_games_host(dispatch: Dispatch, mail: InMail) -> Stop | None:
    """A mail about a game another host of this judge holds goes there whole (one hop)."""
    assert mail.parsed is not None
    elsewhere = shards.game_elsewhere(dispatch.config, dispatch.service, mail.parsed.items, mail.delivered,
                                      forwarded=mail.shard is not None)
    if elsewhere is None:
        return None
    return Stop(shards.forward(mail.db, dispatch.config, mail.message, mail.sender, elsewhere),
                frozenset(shards.passwords_in(mail.parsed.items)))


def carry_out_and_answer(dispatch: Dispatch, mail: InMail) -> Stop | None:
    """Each command and order in the order written (within `limits.commands_run`), then one reply."""
    assert mail.parsed is not None and mail.session is not None and mail.tokens is not None
    limits = dispatch.config.limits
    items, commands_dropped = bounded_commands(mail.parsed.items, limits.commands_run)
    items, unreachable = refuse_unreachable(items, mail.db, dispatch.config.relay)
    outcome = dispatch.handle(mail.message.id, items, mail.session, StepLog(mail.db),
                              received=datetime.fromtimestamp(mail.message.received_at, timezone.utc))
    outcome.entries[:0] = unreachable
    unread = not_read_entry(limits, mail.lines_unread, commands_dropped)
    if unread is not None:
        outcome.entries.insert(0, unread)     # first: a long reply may be cut at its end
    outcome.ignored = [mask_line(i.text) for i in mail.parsed.ignored]
    outcome.attachments = attachments(mail.mail)
    queued = dispatch.answer(mail.message, mail.mail, mail.session, outcome, mail.tokens, mail.db)
    dispatch.share_accounts(mail.db, mail.session)
    done = sum(1 for e in outcome.entries if e["kind"] == "command" or e.get("power"))
    errors = sum(1 for e in outcome.entries if e["kind"] == "error") + sum(
        len(e["errors"]) for e in outcome.entries if e["kind"] == "orders")
    passwords = frozenset(mail.session.passwords)
    if outcome.silent:
        return Stop(f"{done} item(s) done, {errors} error(s); not answered: {outcome.silent}", passwords)
    return Stop(f"answered {', '.join(mail.session.recipients())}: {done} item(s) done, {errors} error(s)"
                + ("" if queued else " (reply already queued)"), passwords)


STEPS: tuple[Step, ...] = (
    repeat_if_finished,
    take_from_another_host,
    leave_robots_unanswered,
    find_sender,
    skip_a_copy_applied_before,
    sign_on,
    read_the_body,
    forward_to_the_games_host,
    carry_out_and_answer,
)
