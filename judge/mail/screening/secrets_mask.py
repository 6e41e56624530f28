"""Passwords never appear in the judge's mail: lines are echoed with them masked.

Two guards: the password's place in each command that takes one (even when the command could
not be read, so its parts are not known), and every password seen in the message, wherever
it appears as a word in what the judge is about to send.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from typing import TypeVar, cast

from ..intake.reading_policy import READING

MASK = "********"
Part = TypeVar("Part", bound=Message)

# (first words, index of the first word that is a secret, how many words are secret: None = the rest)
_SECRET_PLACES = [
    (("signon",), 2, None), (("sign", "on"), 3, None), (("login",), 2, None),
    (("join",), 2, 1), (("create",), 2, 1), (("observe",), 2, 1), (("watch",), 2, 1),
    (("register",), 2, 1), (("become", "master"), 2, 1),
    (("set", "password"), 2, 1), (("set", "pass"), 2, 1), (("set", "pw"), 2, 1),
]


def mask_line(line: str) -> str:
    words = line.split()
    lower = [w.lower() for w in words]
    for head, start, count in _SECRET_PLACES:
        if tuple(lower[:len(head)]) == head and len(words) > start:
            end = len(words) if count is None else start + count
            return " ".join(words[:start] + [MASK] * (min(end, len(words)) - start) + words[end:])
    return line


def mask_words(text: str, secrets: Iterable[str]) -> str:
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = re.sub(rf"(?<!\S){re.escape(secret)}(?!\S)", MASK, text)
    return text


# -- the archive's raw copy ---------------------------------------------------------------------
# Once a mail is handled its stored raw copy loses its passwords (judge.mail.commands.dispatch calls this):
# a backup or a look at judge.sqlite must not show them. Each text part is decoded, masked line by
# line (the password places) and word by word (every password seen, also inside HTML), and encoded
# again; the Subject too. A mail the email package cannot write again is masked byte by byte.
_QUOTE = re.compile(r"^([\s>|]*)(.*)$")


def _mask_text(text: str, secrets: Iterable[str]) -> str:
    lines = []
    for line in text.split("\n"):
        quoted = _QUOTE.match(line)
        assert quoted is not None       # (the pattern matches every line)
        lead, rest = quoted.groups()
        masked = mask_line(rest.rstrip("\r"))
        lines.append(line if masked == rest.rstrip("\r") else lead + masked + ("\r" if rest.endswith("\r") else ""))
    text = "\n".join(lines)
    for secret in _variants(secrets):
        text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])", MASK, text)
    return text


def _variants(secrets: Iterable[str]) -> list[str]:
    import html
    found = {s for s in secrets if s and s != MASK}
    found |= {html.escape(s) for s in found}
    return sorted(found, key=len, reverse=True)


def scrub_raw(raw: bytes, secrets: Iterable[str], read: Message | None = None) -> bytes:
    """The raw mail with every password masked; the same bytes when there was none. `read`: the
    dispatcher's own parse of `raw`, looked at (never changed) to see whether anything is to be
    masked, so that an order mail with no password is not parsed a second time for nothing."""
    secrets = list(secrets)
    try:
        if read is not None and not _would_mask(read, secrets):
            out = raw
        else:
            mail = cast(EmailMessage, message_from_bytes(raw, policy=READING))    # a parse of its own, to change
            changed = False
            for part in _text_parts(mail):
                text = part.get_content()
                masked = _mask_text(text, secrets)
                if masked != text:
                    part.set_content(masked, subtype=part.get_content_subtype(), charset="utf-8",
                                     cte="quoted-printable")
                    changed = True
            subject = str(mail.get("Subject", "") or "")
            if subject and _mask_text(subject, secrets) != subject:
                mail.replace_header("Subject", _mask_text(subject, secrets))
                changed = True
            out = mail.as_bytes(policy=policy.SMTP) if changed else raw
    except Exception:   # a mail too odd to write again still loses its passwords
        out = raw
    for secret in _variants(secrets):    # what decoding did not reach (or could not be written again)
        out = re.sub(rb"(?<![A-Za-z0-9])" + re.escape(secret.encode("utf-8", "surrogatepass")) + rb"(?![A-Za-z0-9])",
                     MASK.encode(), out)
    return out


def _text_parts(mail: Part) -> Iterator[Part]:
    return (part for part in mail.walk() if part.get_content_maintype() == "text" and not part.is_multipart())


def _would_mask(mail: Message, secrets: list[str]) -> bool:
    """Whether scrubbing would change a text part or the Subject (any doubt: True, the full path decides)."""
    for part in _text_parts(mail):
        get_content = getattr(part, "get_content", None)
        if get_content is None:
            return True
        text = get_content()
        if _mask_text(text, secrets) != text:
            return True
    subject = str(mail.get("Subject", "") or "")
    return bool(subject) and _mask_text(subject, secrets) != subject
