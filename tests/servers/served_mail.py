"""Mail to and from a real `judge serve` in a test: one mail sent over SMTP, and the mails it queued
in its outbox found by recipient and subject or by the mail they answer."""
from __future__ import annotations

import smtplib
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from mailjudge import mail
from servers.net import wait_until
from servers.serve import rows


def send(port: int, frm: str, body: str) -> str:
    """One mail from `frm` to the judge over SMTP; its Message-ID (without brackets)."""
    raw = mail(frm, body)
    with smtplib.SMTP("127.0.0.1", port) as smtp:
        smtp.sendmail(frm, ["judge@dip.test"], raw)
    return raw.split(b"Message-ID: <", 1)[1].split(b">", 1)[0].decode()


def _outbox(tmp_path: Path) -> Path:
    return tmp_path / "var" / "judge.sqlite"


def queued(tmp_path: Path, address: str, subject: str) -> EmailMessage:
    """The one mail with this subject queued for this address, once it is."""
    def found() -> list[EmailMessage]:
        return [m for m in (message_from_bytes(r[0], policy=policy.default) for r in rows(
            _outbox(tmp_path), "SELECT raw FROM outbox_mail WHERE recipients LIKE ?", [f'%"{address}"%']))
            if str(m["Subject"]) == subject]
    got = wait_until(found, what=f"{subject!r} for {address}")
    assert len(got) == 1
    return got[0]


def answer_to(tmp_path: Path, message_id: str) -> EmailMessage:
    """The judge's answer to the mail with this Message-ID, once it is queued."""
    found = wait_until(lambda: rows(_outbox(tmp_path),
                                    "SELECT raw FROM outbox_mail WHERE instr(raw, CAST(? AS BLOB)) > 0",
                                    [f"In-Reply-To: <{message_id}>"]), what="the answer")
    return message_from_bytes(found[0][0], policy=policy.default)


def text(message: EmailMessage) -> str:
    """The plain text of a mail, its whitespace folded to single spaces."""
    return " ".join(message.get_body(("plain",)).get_content().split())
