"""Several judges behind one mail server: mail between the hosts, signed with a shared secret.

Each host is a whole judge owning some games; the mail server routes `judge+<game>@` and the secret
reply addresses `judge+<game>.<token>@` (judge.mail.screening.tokens) to the game's host, and everything else
to the home host (deploy/README.md, "Past one machine"). What the mail server cannot route is mail
to the home address that names a game the home host does not have (`SIGNON Fspring26 ...` sent to
`judge@`): the home host forwards it whole, through its outbox, to `judge+<game>@`, which the mail
server routes to the game's host. The other kind of mail between hosts is an account's new state
(judge.mail.federation.account_sync).

Both travel as a mail of the judge's own (`Auto-Submitted`, so no judge ever answers one) marked
`X-Judge-Shard: forward|accounts`, with two attachments, a JSON description and (forward) the
original message's bytes, base64 so no mail server on the way changes them, and
`X-Judge-Shard-Signature`, an HMAC-SHA256 over the kind and both attachments with `[shard] secret`.
A receiving host trusts such a mail only if the signature is right; otherwise the header is ignored,
logged, and the mail handled as ordinary mail from its From (whose body, attachments only, says
nothing). A forwarded mail is never forwarded again (at most one hop), so a routing mistake can
make a mail come back to the home host, never loop.
"""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage, Message
from email.utils import formatdate
from typing import TYPE_CHECKING, Any

import sqlite_utils

from ...config import Config
from ...games.answers import NoSuchGame
from ...games.store import check_game_name
from ..outbound import outbox
from ..intake.archive import StoredMessage
from ..intake.message_keys import content_hash, message_id_of
from ..outbound.compose import stable_message_id
from ..outbound.reply_budget import Item
from ...storage.db import transaction

if TYPE_CHECKING:       # types only: `judge serve`'s start-up (ops.upgrade) reads the schemas without the games layer
    from ...games.service import GameService

log = logging.getLogger("judge.shards")

KIND = "X-Judge-Shard"                  # 'forward' or 'accounts'
SIGNATURE = "X-Judge-Shard-Signature"
KINDS = ("forward", "accounts")
Meta = dict[str, Any]       # a shard mail's description: a JSON object, from another host (its fields checked as read)
_META, _ORIGINAL = "meta.json", "original.eml"


@dataclass(frozen=True)
class ShardMail:
    """A mail from another host of this judge, its signature checked."""
    kind: str
    meta: Meta
    original: bytes


def signature(secret: str, kind: str, meta: bytes, original: bytes) -> str:
    """Each part with its length first, so no two different messages sign alike."""
    mac = hmac.new(secret.encode("utf-8"), digestmod=hashlib.sha256)
    for part in (kind.encode("ascii"), meta, original):
        mac.update(len(part).to_bytes(8, "big"))
        mac.update(part)
    return mac.hexdigest()


def wrap(config: Config, kind: str, meta: Meta, original: bytes, *, key: str, to: str) -> EmailMessage:
    """A signed mail from this host to another (`key`: what makes its Message-ID, so queueing it
    again after a crash queues nothing new)."""
    body = json.dumps(meta, sort_keys=True).encode("utf-8")
    mail = EmailMessage(policy=policy.SMTP)
    mail["From"] = config.address
    mail["To"] = to
    mail["Subject"] = f"judge {kind} from {config.shard.name}"
    mail["Date"] = formatdate(usegmt=True)
    mail["Message-ID"] = f"<{stable_message_id(key, config.domain)}>"
    mail["Auto-Submitted"] = "auto-generated"
    mail[KIND] = kind
    mail[SIGNATURE] = signature(config.shard.secret, kind, body, original)
    mail.set_content(f"A {kind} mail between the hosts of one Diplomacy judge; not for people.\n")
    mail.add_attachment(body, maintype="application", subtype="json", filename=_META)
    if original:
        mail.add_attachment(original, maintype="application", subtype="octet-stream", filename=_ORIGINAL)
    return mail


def read(mail: Message, config: Config) -> ShardMail | None:
    """The shard mail this is, if it says it is one and its signature is right; else None (and a
    mail that says it is one without the right signature is logged)."""
    kind = str(mail.get(KIND, "") or "").strip().lower()
    if not kind:
        return None
    why = _untrusted(mail, kind, config)
    if isinstance(why, str):
        log.warning("a mail marked %s: %s (From %s); handled as ordinary mail", KIND, why, mail.get("From"))
        return None
    return why


def _untrusted(mail: Message, kind: str, config: Config) -> ShardMail | str:
    if not config.shard.enabled:
        return "this judge has no [shard] secret"
    if kind not in KINDS:
        return f"unknown kind {kind!r}"
    parts = ({part.get_filename(): part for part in mail.iter_attachments()}
             if isinstance(mail, EmailMessage) and mail.is_multipart() else {})  # (policy.default's: EmailMessage)
    try:
        meta = parts[_META].get_content() if _META in parts else None
        original = parts[_ORIGINAL].get_content() if _ORIGINAL in parts else b""
    except (LookupError, ValueError):
        return "its attachments cannot be read"
    if not isinstance(meta, bytes) or not isinstance(original, bytes):
        return "no description attached"
    if kind == "forward" and not original:
        return "no original attached"
    given = str(mail.get(SIGNATURE, "") or "").strip()
    if not hmac.compare_digest(given.encode("ascii", "replace"),
                               signature(config.shard.secret, kind, meta, original).encode("ascii")):
        return "a wrong or missing signature"
    try:
        described = json.loads(meta)
    except ValueError:
        return "a description that is not JSON"
    if not isinstance(described, dict):
        return "a description that is not a JSON object"
    return ShardMail(kind, described, original)


# -- forwarding ------------------------------------------------------------------------------------

def forwarded_message(stored: StoredMessage, shard: ShardMail) -> StoredMessage:
    """The original of a trusted forward, as if it had come to this host: its bytes, its sender's
    envelope and where it first arrived. It keeps the wrapper's place in the archive."""
    meta = shard.meta
    return dataclasses.replace(
        stored, raw=shard.original, mail_from=meta.get("mail_from"),
        rcpt_tos=tuple(str(a) for a in meta.get("rcpt_tos") or ()), via=str(meta.get("via") or stored.via),
        peer=meta.get("peer"), message_id=message_id_of(shard.original), content_hash=content_hash(shard.original),
        received_at=float(meta.get("received_at") or stored.received_at))


def game_elsewhere(config: Config, service: GameService, items: Iterable[Item], delivered: list[str], *,
                   forwarded: bool) -> str | None:
    """The game, named in this mail to the home address, that this host does not have: the mail is
    for the host that does. None when sharding is off, the mail came to any other address (a game's
    or a reply address, which the mail server routed here), or was forwarded already (one hop)."""
    if not config.shard.enabled or forwarded:
        return None
    home = config.address.lower()
    if not any(str(a).strip().strip("<>").lower() == home for a in delivered):
        return None
    from ...language import CommandItem     # here: the grammars are built at import (not at start-up)
    from ...language.commands import Create
    for item in items:
        command = getattr(item, "command", None) if isinstance(item, CommandItem) else None
        game = getattr(command, "game", None)
        if not game or isinstance(command, Create):   # a game is created where its CREATE arrives
            continue
        try:
            name = check_game_name(game)
        except ValueError:      # not a game name: answered here
            continue
        try:
            service.phase_of(name)
        except NoSuchGame:
            return name
    return None


def passwords_in(items: Iterable[Item]) -> set[str]:
    """The passwords a forwarded mail holds: its copy in this host's archive loses them, as a mail
    handled here does (judge.mail.screening.secrets_mask)."""
    from ...language import CommandItem     # here: the grammars are built at import (not at start-up)
    from ...language.commands import Register
    found = set()
    for item in items:
        command = getattr(item, "command", None) if isinstance(item, CommandItem) else None
        if isinstance(command, Register) and len(command.details) >= 2:
            found.add(command.details[1])
        found.update(v for v in (getattr(command, "password", None), getattr(command, "join_password", None)) if v)
    return found


def forward(db: sqlite_utils.Database, config: Config, message: StoredMessage, sender: str, game: str) -> str:
    """Queue the whole mail, signed, to the game's address, which the mail server routes to its host.
    The envelope sender stays the player's: the receiving host's intake limits count it as theirs."""
    local, _, domain = config.address.rpartition("@")
    to = f"{local}+{game}@{domain}"
    meta = {"sender": sender, "mail_from": message.mail_from, "rcpt_tos": list(message.rcpt_tos),
            "via": message.via, "peer": message.peer, "received_at": message.received_at,
            "game": game, "from_host": config.shard.name}
    mail = wrap(config, "forward", meta, message.raw, key=f"shard-forward:{message.id}:{message.content_hash}", to=to)
    with transaction(db):
        outbox.queue(db, mail, [to], envelope_from=message.mail_from or config.address,
                     forget_when_sent=True)     # it may hold the player's password
        # Not applied here: should the mail server bring it back (no route for the game), it is
        # answered here, not taken for a copy of itself (judge.mail.screening.replays).
        db.conn.execute("DELETE FROM applied_messages WHERE inbound_id = ?", [message.id])
    return f"forwarded to {to}: {game} is not on this host"
