"""The one path of the judge's outbound mail: a rendered template becomes a message and is queued.

    send(db, config, Rendered(subject, body), key="reply:12:ab", to=["ann@example.org"])

Every mail the judge writes (replies, results and other notices, alerts to masters and the
keeper, bounce notices) goes through `send`: built by `compose.build_message` (RFC 3834 headers, a
Message-ID stable per `key`, threading headers for a reply) and queued by `outbox.queue` under that
Message-ID, read from the message built rather than parsed back out of its bytes. A part many
mails share (a phase's picture) is stored once for them all (`shared`). `send_copies` sends one text
to several recipients (a notice's copies): the mail is built once and each further copy is its bytes
with its own To, Message-ID and Reply-To lines, the bytes building it would give (where a header
is not the plain one-line text that makes this sure, that copy is built whole). Given a game's
`Models`, a notice's first copy is made from the bytes of another notice of that game (the courier's
nine notices of a phase: each reader's own text) with its own Subject and text put in, where both
texts are encoded alike by the email package's own choice (7bit, quoted-printable or base64) and
written out in ASCII lines; a game's first mail with a picture is made so from the last game's, with
its own picture's boundary and Date put in.
"""
from __future__ import annotations

import binascii
import functools
import re
import time
from datetime import datetime, timezone
from email.utils import format_datetime
from collections.abc import Sequence
from dataclasses import dataclass
# set_content's own choice of encoding, and the encoding (private: not in typeshed's stubs)
from email.contentmanager import _encode_text  # type: ignore[attr-defined]
from email import quoprimime
from email.message import EmailMessage, Message

import sqlite_utils

from ...config import Config
from . import outbox
from .compose import build_message, stable_message_id
from .plain_headers import SMTP
from ..words.reports import Rendered
from .shared_part import SharedPart

@dataclass(frozen=True)
class Attachment:
    """A file the reply carries after its text."""
    filename: str
    maintype: str
    subtype: str
    data: bytes


def message(config: Config, rendered: Rendered, *, key: str, to: Sequence[str],
            in_reply_to: Message | None = None, reply_to: str | None = None,
            files: Sequence[Attachment] = (), date: float | None = None) -> EmailMessage:
    """The message `send` queues, for a caller that must look at it first. `files`: a reply's own
    attachments (MAP's picture, EXPORT's record), after the text."""
    mail = build_message(key=key, sender=config.address, to=list(to), subject=rendered.subject, body=rendered.body,
                         domain=config.domain, in_reply_to=in_reply_to, date=date)
    if reply_to:
        mail["Reply-To"] = reply_to
    for file in files:
        mail.add_attachment(file.data, maintype=file.maintype, subtype=file.subtype, filename=file.filename)
    return mail


def send(db: sqlite_utils.Database, config: Config, rendered: Rendered, *, key: str, to: Sequence[str],
         in_reply_to: Message | None = None, reply_to: str | None = None, shared: SharedPart | None = None,
         files: Sequence[Attachment] = ()) -> bool:
    """Build and queue one mail. True if queued now, False if the same key was queued before."""
    mail = message(config, rendered, key=key, to=to, in_reply_to=in_reply_to, reply_to=reply_to, files=files)
    return outbox.queue(db, mail, to, envelope_from=config.address, shared=shared)


@dataclass(frozen=True)
class Copy:
    """One recipient's copy of a mail: its key (its Message-ID), its addresses, its Reply-To."""
    key: str
    to: tuple[str, ...]
    reply_to: str | None = None


@dataclass(frozen=True)
class Model:
    """A mail built whole, whose bytes another text's mail may be made from: its copy, text and Date."""
    copy: Copy
    rendered: Rendered
    raw: bytes
    part: SharedPart | None
    date: float

    @functools.cached_property
    def body(self) -> tuple[str, bytes] | None:
        """Its text as written in it (`_written_body`), worked out once for the game's other notices."""
        return _written_body(self.rendered.body)


class LastPictured:
    """The last mail built whole with a picture in one courier's runs (one judge: its From and its
    Message-IDs' domain): the next game's first mail with a picture is made from it (`Models.like`).
    A model is frozen, so a mail of another thread may be made from it too."""

    def __init__(self) -> None:
        self.model: Model | None = None


class Models:
    """One game's mails built whole in a courier run, by the part they carry (a results picture or
    none), all dated alike: a later notice's mail is made from one of them (`send_copies`). Given the
    courier's `last` (`LastPictured`), the first mail with a picture is made from the last game's, its
    own picture's boundary and its Date put in (`_moved`), where that is sure: building it whole was a
    third of queueing a game's results."""

    def __init__(self, date: float | None = None, last: LastPictured | None = None) -> None:
        self.date = time.time() if date is None else date
        self._built: dict[str | None, Model] = {}
        self._last = last

    def like(self, shared: SharedPart | None, from_last: bool = False) -> Model | None:
        """The model for mails carrying `shared`; `from_last`: one made from the last game's mail with
        a picture where there is none of this game's yet."""
        found = self._built.get(None if shared is None else shared.id)
        last = self._last.model if self._last is not None else None
        if found is None and shared is not None and from_last and last is not None:
            found = _moved(last, shared, self.date)
        return found      # (kept as the game's own only once a mail is made from it: `send_copies`)

    def keep(self, shared: SharedPart | None, model: Model) -> None:
        self._built.setdefault(None if shared is None else shared.id, model)
        if model.part is not None and self._last is not None:
            self._last.model = model


def _moved(model: Model, shared: SharedPart, date: float) -> Model | None:
    """A model with a picture made over for another picture and Date: its bytes with the other
    picture's boundary (of the same length) and Date line in, or None where that is not sure (each
    found exactly where building it puts them)."""
    if model.part is None:
        return None
    old, new = model.part.boundary.encode(), shared.boundary.encode()
    raw = model.raw
    if len(old) != len(new) or raw.count(old) != 2 or new in raw:
        return None       # (the multipart header's and the text's delimiter: no other)
    was, now = _date_line(model.date), _date_line(date)
    if was is None or now is None or raw.count(was) != 1 or raw.find(was) > raw.find(b"\r\n\r\n"):
        return None
    return Model(model.copy, model.rendered, raw.replace(old, new).replace(was, now), shared, date)


def _date_line(date: float) -> bytes | None:
    """The Date line as `message` writes it for this time (None if not plainly on one line)."""
    text = format_datetime(datetime.fromtimestamp(date, timezone.utc))
    return f"\r\nDate: {text}\r\n".encode("ascii") if SMTP.stores_as_is("Date", text) else None


def send_copies(db: sqlite_utils.Database, config: Config, rendered: Rendered, copies: Sequence[Copy], *,
                shared: SharedPart | None = None, files: Sequence[Attachment] = (),
                models: Models | None = None) -> int:
    """Queue one text's copies in the caller's transaction (the courier's per game), each under its own
    key, in one statement. Returns how many were queued now (a key queued before is a no-op).
    `models`: the game's mails built so far (the courier's), for the first copy to be made from."""
    date = models.date if models is not None else time.time()    # one Date for all the copies: one mail
    first: tuple[Copy, bytes, SharedPart | None] | None = None
    rows: list[outbox.Stored] = []
    model = models.like(shared, from_last=True) if models is not None and not files else None
    for copy in copies:
        if first is not None:
            raw = _spliced(config, first[:2], copy)
        elif model is not None:
            raw = _rewritten(config, model, copy, rendered)
            if raw is not None:
                first = (copy, raw, model.part)
                if models is not None:       # (always: a model comes from them)
                    models.keep(shared, model)       # (the last game's made over: now this one's)
        else:
            raw = None
        if raw is None:
            mail = message(config, rendered, key=copy.key, to=copy.to, reply_to=copy.reply_to, files=files,
                           date=date)
            _, raw, part = outbox.stored(mail, shared)
            first = first or (copy, raw, part)
            if models is not None and not files and (part is not None or shared is None):
                models.keep(shared, Model(copy, rendered, raw, part, date))     # (not a part attached into it)
        else:
            part = first[2] if first is not None else None
        rows.append(outbox.Stored(stable_message_id(copy.key, config.domain), copy.to, raw, part))
    return outbox.queue_stored(db, rows, envelope_from=config.address)


def _header_lines(config: Config, copy: Copy, subject: str | None = None) -> tuple[bytes, ...] | None:
    """The copy's own header lines as the plain policy writes them, or None if one would not be
    written plainly on one line (then the copy is built whole). `subject`: its Subject line too."""
    return _lines_of(config.address, config.domain, copy, subject)


# a game's model copy is spliced from once for each of its notices: its lines worked out once
@functools.lru_cache(maxsize=64)
def _lines_of(sender: str, domain: str, copy: Copy, subject: str | None) -> tuple[bytes, ...] | None:
    values = [("To", ", ".join(copy.to)), ("Message-ID", f"<{stable_message_id(copy.key, domain)}>")]
    if subject is not None:
        values.append(("Subject", subject))
    if copy.reply_to:
        values.append(("Reply-To", copy.reply_to))
    if not all(address.isascii() for address in (sender, *copy.to)) or \
            not all(SMTP.stores_as_is(name, value) for name, value in values):
        return None
    return tuple(f"{name}: {value}\r\n".encode("ascii") for name, value in values)


def _spliced(config: Config, first: tuple[Copy, bytes], copy: Copy, subjects: tuple[str, str] | None = None,
             ) -> bytes | None:
    """The first copy's bytes with this copy's own header lines, or None if that cannot be sure.
    `subjects`: (the first copy's, this copy's), for a copy of another text."""
    model, raw = first
    old = _header_lines(config, model, subjects[0] if subjects else None)
    new = _header_lines(config, copy, subjects[1] if subjects else None)
    if old is None or new is None or len(old) != len(new):
        return None
    end = raw.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = b"\r\n" + raw[:end + 2]          # each line between CRLFs, the first one too
    for was, now in zip(old, new, strict=True):
        if head.count(b"\r\n" + was) != 1:
            return None
        head = head.replace(b"\r\n" + was, b"\r\n" + now)
    return head[2:] + raw[end + 2:]


def _rewritten(config: Config, model: Model, copy: Copy, rendered: Rendered) -> bytes | None:
    """The copy of another text (`rendered`) made from a model's bytes: its own header lines and
    Subject, and its text in place of the model's; None where that cannot be sure (then built whole)."""
    old, new = model.body, _written_body(rendered.body)
    if old is None or new is None or old[0] != new[0]:      # (its Content-Transfer-Encoding line differs)
        return None
    if model.part is not None and model.part.boundary.encode() in new[1]:    # (as SharedPart.head refuses)
        return None
    raw = _spliced(config, (model.copy, model.raw), copy, (model.rendered.subject, rendered.subject))
    if raw is None:
        return None
    tail = b"" if model.part is None else b"\r\n"      # the text ends the mail, or the head before the part
    at = len(raw) - len(tail) - len(old[1])
    if raw[at - 4:at] != b"\r\n\r\n" or raw[at:len(raw) - len(tail)] != old[1]:
        return None
    return raw[:at] + new[1] + tail


def _written_body(text: str) -> tuple[str, bytes] | None:
    """(its Content-Transfer-Encoding, the bytes) of a text body as `message` builds and the generator
    writes it: set_content's own choice and encoding (7bit, quoted-printable or base64: ASCII, written
    out line by line with CRLF); None for 8bit, which the generator may write otherwise.
    Quoted-printable is worked out a line at a time (`_qp_line`), as the email package's encoder does
    it (no line's encoding depends on another's), each line once for the run: a phase's copies share
    most of their lines (their tables and news), and the package's own encoder, in Python, was a tenth
    of the courier's time in a deadline rush (its results mails' first line is longer than 78)."""
    lines = text.encode("utf-8").splitlines()
    if max(map(len, lines), default=0) <= _LONGEST:
        body = b"\r\n".join(lines) + b"\r\n"
        return ("7bit", body) if body.isascii() else None        # (else 8bit, as SMTP's cte_type is)
    encoded = [_qp_line(line) for line in lines]
    sniffed = b"\r\n".join(lines[:10]) + b"\r\n"      # the package's choice: QP unless base64 is shorter
    # (the package's sniff has LF line ends, its soft breaks too: one byte less for each CRLF here)
    if sum(len(e) - e.count(b"\r\n") + 1 for e in encoded[:10]) > len(binascii.b2a_base64(sniffed)):
        cte, payload = _encode_text(text, "utf-8", None, SMTP)     # (base64: a text mostly not Latin)
        return (cte, _LINE_END.sub("\r\n", payload).encode("ascii")) if payload.isascii() else None
    return "quoted-printable", b"\r\n".join(encoded) + b"\r\n"


_LINE_END = re.compile(r"\r\n|\r|\n")
_LONGEST = SMTP.max_line_length or 78      # the policy's longest line: 7bit up to it, QP lines wrapped at it


@functools.lru_cache(maxsize=4096)
def _qp_line(line: bytes) -> bytes:
    """One line of a text (its UTF-8 bytes, no line end) as quoted-printable, its soft breaks CRLF."""
    return quoprimime.body_encode(line.decode("latin-1"), _LONGEST, eol="\r\n").encode("ascii")
