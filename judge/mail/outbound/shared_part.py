"""An attachment many mails share (a phase's picture): encoded once, stored once, spliced at sending.

A results mail goes to every player, the master and the observers with the same picture. Its MIME
part is encoded once (`part`), each recipient's mail is stored as its text with an empty slot for
the part (`head`: the mail up to its last delimiter), and the outbox keeps the part once, by
`id`, with the delimiters around it: the whole mail is the two joined (`head + part`, in SQL the
view `outbox_mail`). The mail's multipart/mixed boundary is taken from the part's digest, so the
same picture always has the same boundary.
"""
from __future__ import annotations

import base64
import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage, MIMEPart


class SharedPart:
    def __init__(self, name: str, data: bytes, maintype: str = "image", subtype: str = "png") -> None:
        self.name, self.data, self.maintype, self.subtype = name, data, maintype, subtype

    @functools.cached_property
    def id(self) -> str:
        """Names the part in the outbox: the same bytes under the same name are the same part."""
        digest = hashlib.sha256(self.data)
        digest.update(b"\0" + self.name.encode("utf-8") + b"\0" + f"{self.maintype}/{self.subtype}".encode())
        return digest.hexdigest()[:32]

    @property
    def boundary(self) -> str:
        return "=_part_" + self.id

    @functools.cached_property
    def part(self) -> bytes:
        """The MIME part as it goes into a stored mail's slot: its delimiter line, the part (CRLF line
        ends, as the judge's mail has), and the mail's closing delimiter."""
        lines = base64.encodebytes(self.data).replace(b"\n", b"\r\n")
        return (b"--" + self.boundary.encode() + b"\r\n" + _headers(self.name, self.maintype, self.subtype)
                + lines + b"\r\n" + self._closing)

    @property
    def _closing(self) -> bytes:
        return b"--" + self.boundary.encode() + b"--\r\n"

    def head(self, message: EmailMessage) -> bytes | None:
        """The message as multipart/mixed with its text, up to where this part goes (the part then
        closes it): the mail is `head + part`. None when it cannot be made so (already multipart, its
        text happens to hold the boundary, or not the judge's CRLF mail): then the part goes into the
        message itself (`attach`)."""
        if message.is_multipart() or self.boundary in message.get_payload():
            return None
        message.make_mixed()
        message.set_boundary(self.boundary)
        raw = bytes(message)
        if not raw.endswith(b"\r\n" + self._closing) or raw.count(b"\n") != raw.count(b"\r\n"):
            return None
        return raw[:-len(self._closing)]

    def attach(self, message: EmailMessage) -> EmailMessage:
        """The slow, ordinary way: the part encoded into this one message."""
        message.add_attachment(self.data, maintype=self.maintype, subtype=self.subtype, filename=self.name)
        return message

    def mail_bytes(self, message: EmailMessage) -> bytes:
        """The whole mail with the part in it, as `attach` would make it."""
        head = self.head(message)
        return bytes(self.attach(message)) if head is None else head + self.part


@functools.lru_cache(maxsize=256)
def _headers(name: str, maintype: str, subtype: str) -> bytes:
    """The part's header lines and the blank line after them (CRLF), as the email package writes them
    for the attachment: the base64 lines that follow are `base64.encodebytes`'s, which are the email
    package's own (76 characters, 57 bytes a line). The package wrote a picture's 1,600 lines one
    Python call at a time: 5 ms of a painter's 25 a picture in a deadline rush (issue 27)."""
    part = MIMEPart()
    part.set_content(b"", maintype=maintype, subtype=subtype, disposition="attachment", filename=name)
    return bytes(part).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


class SharedPicture(SharedPart):
    """(file name, PNG) of one phase, for every recipient's mail: its MIME part is encoded once and
    stored once in the outbox (judge.mail.outbound.shared_part); encoding a 70 KB picture and writing it out
    again cost about 25 ms a recipient."""

    def __init__(self, name: str, png: bytes) -> None:
        super().__init__(name, png, "image", "png")


@dataclass(frozen=True)
class PaintedPart:
    """A picture's painting (a judge.pictures.jobs job) and its file name, as a job itself: run in a
    painter process, it gives the SharedPicture with its MIME part already encoded there, not in the
    courier (base64 and its lines: about 5 % of the courier's time in a rush)."""
    name: str
    paint: Callable[[], bytes]

    def __call__(self) -> SharedPicture:
        picture = SharedPicture(self.name, self.paint())
        picture.part         # noqa: B018 (the cached encoding travels back with it)
        picture.id           # noqa: B018
        return picture
