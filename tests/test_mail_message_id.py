"""Intake reads each message's Message-ID from its header block with two regular expressions where the
block is plain, and with Python's email parser otherwise (judge.mail.intake.message_keys.message_id_of). Whatever
the path, the answer must be the parser's: for every crafted case of tests/data/mail/message_ids.json
and every real client's mail of tests/data/mail/clients/."""
import json
from email import policy
from email.parser import BytesHeaderParser
from pathlib import Path

import pytest

from judge.mail.intake.message_keys import message_id_of

DATA = Path(__file__).parent / "data" / "mail"
CRAFTED = json.loads((DATA / "message_ids.json").read_text(encoding="utf-8"))["cases"]
CLIENTS = sorted((DATA / "clients").glob("*.eml"))


def parsers_reading(raw: bytes) -> str | None:
    """The email package's answer, as intake has always computed it: the header block alone, compat32."""
    end = raw.find(b"\r\n\r\n")
    if end < 0:
        end = raw.find(b"\n\n")
    head = raw if end < 0 else raw[:end + 2]
    value = BytesHeaderParser(policy=policy.compat32).parsebytes(head).get("Message-ID")
    if value is None:
        return None
    return str(value).strip().strip("<>").strip() or None


CASES = [pytest.param(text.encode("latin-1"), id=name) for name, text in CRAFTED.items()] + \
        [pytest.param(path.read_bytes(), id=path.name) for path in CLIENTS]


@pytest.mark.parametrize("raw", CASES)
def test_the_message_id_is_the_email_parsers(raw):
    assert message_id_of(raw) == parsers_reading(raw)
