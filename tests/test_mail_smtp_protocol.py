"""judge.mail.intake.smtp_protocol reads MAIL FROM and RCPT TO addresses as aiosmtpd's own `_getaddr` does:
on crafted arguments (tests/data/mail/smtp_addresses.json, with what aiosmtpd gives for each), on
seeded random ones compared with the installed aiosmtpd, with a local-part limit, and through a
real SMTP session."""
from __future__ import annotations

import json
import random
import smtplib
import sqlite3
import string
from pathlib import Path

import pytest
from aiosmtpd.smtp import SMTP

from judge.mail.intake.smtp_protocol import JudgeLMTP, JudgeSMTP

from servers.running import IntakeServer

CASES = json.loads((Path(__file__).parent / "data" / "mail" / "smtp_addresses.json").read_text())["cases"]


def session(kind: type, limit: int = 0):
    made = kind.__new__(kind)       # (no loop or handler needed to read an address)
    made.local_part_limit = limit
    return made


def aiosmtpd_reads(arg: str, limit: int = 0) -> tuple[str | None, str | None]:
    """aiosmtpd's own reading; its parser's stray exceptions (IndexError on "a@", AttributeError on some
    defects: aiosmtpd answered those "500 Error") count as an address that cannot be read."""
    try:
        return SMTP._getaddr(session(SMTP, limit), arg)
    except (LookupError, AttributeError):
        return None, None


@pytest.mark.parametrize("case", CASES, ids=[c["arg"] for c in CASES])
def test_each_crafted_address_reads_as_aiosmtpd_reads_it(case):
    expected = (case["address"], case["rest"])
    assert aiosmtpd_reads(case["arg"]) == expected      # (the data still says what aiosmtpd does)
    assert JudgeSMTP._getaddr(session(JudgeSMTP), case["arg"]) == expected
    assert JudgeLMTP._getaddr(session(JudgeLMTP), case["arg"]) == expected


@pytest.mark.parametrize("seed", range(4))
def test_generated_addresses_read_as_aiosmtpd_reads_them(seed):
    rng = random.Random(seed)
    atext = string.ascii_letters + string.digits + "!#$%&'*+/=?^_`{|}~-."
    anything = atext + "@<>()\" \t[]\\,;:é\x00"
    for _ in range(5000):
        if rng.random() < 0.6:
            local = "".join(rng.choice(atext + "\"( é") for _ in range(rng.randrange(0, 9)))
            domain = "".join(rng.choice(atext + "[]( ") for _ in range(rng.randrange(0, 9)))
            rest = rng.choice(["", " SIZE=10", "  X=1 Y", "(c) X", " (c)", "\tY", "x", " ", " <", ">", " ()",
                               " \t(x) y"])
            arg = rng.choice(["", "", " "]) + f"<{local}@{domain}>{rest}"
        else:
            arg = "".join(rng.choice(anything) for _ in range(rng.randrange(0, 16)))
        limit = rng.choice([0, 0, 3])
        assert JudgeSMTP._getaddr(session(JudgeSMTP, limit), arg) == aiosmtpd_reads(arg, limit), arg


def test_a_judge_session_takes_mail_from_a_real_client(tmp_path):
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server, smtplib.SMTP("127.0.0.1", server.port) as smtp:
        assert smtp.sendmail("England.Player+orders@example.org", ["judge@localhost"],
                             b"Subject: x\r\nMessage-ID: <s1@example.org>\r\n\r\nhelp\r\n") == {}
        code, _ = smtp.docmd("MAIL FROM:<a@example..org>")
        assert code == 553                  # (aiosmtpd's answer to an address it cannot read)
        assert server.drain().count == 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT mail_from, rcpt_tos FROM inbound").fetchall() == [
            ("England.Player+orders@example.org", '["judge@localhost"]')]
