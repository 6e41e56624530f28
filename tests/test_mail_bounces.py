"""Real delivery failure reports (tests/data/mail/bounces/, flufl.bounce's corpus): the judge reads
the addresses that failed in each, by SMTP (envelope sender <>) and from a mailbox, as expected.json
says; and the detectors it borrows agree with what that file holds for every report that came by SMTP."""
from __future__ import annotations

import json
from email import message_from_bytes
from pathlib import Path

import pytest
from flufl.bounce import all_failures

from judge.mail.screening.robot_mail import UTF8_HEADERS, classify, find_bounce

HERE = Path(__file__).parent / "data" / "mail" / "bounces"
CASES = json.loads((HERE / "expected.json").read_text())["cases"]


def failed(name: str, mail_from: str | None) -> list[str] | None:
    bounce = find_bounce(message_from_bytes((HERE / name).read_bytes(), policy=UTF8_HEADERS), mail_from)
    return None if bounce is None else sorted(a.lower() for a in bounce.failed)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_report_names_the_addresses_that_failed(name):
    assert failed(name, "") == CASES[name]["null_sender"]
    assert failed(name, None) == CASES[name]["mailbox"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_report_is_ever_answered(name):
    assert classify((HERE / name).read_bytes(), "").reply_allowed is False


def test_by_smtp_the_reading_is_the_detectors():
    differ = []
    for name, case in CASES.items():
        try:
            permanent = all_failures(message_from_bytes((HERE / name).read_bytes()))[1]
        except Exception:            # one detector raises on one report: the judge reads that as none found
            permanent = set()
        theirs = sorted((a.decode() if isinstance(a, bytes) else a).lower() for a in permanent)
        if case["null_sender"] is not None and case["null_sender"] != theirs:
            differ.append(name)
    assert differ == []


def test_the_corpus_is_real_work():
    named = [n for n, c in CASES.items() if c["null_sender"]]
    assert len(CASES) >= 117 and len(named) >= 100


def test_a_hostile_report_yields_only_plain_addresses():
    raw = (b"From: MAILER-DAEMON@evil.test\r\nSubject: Undeliverable\r\nContent-Type: text/plain\r\n\r\n"
           b"The following addresses had permanent fatal errors\r\n"
           b"<victim@example.org>\r\n" + b"".join(b"<u%d@example.org>\r\n" % n for n in range(500)) +
           b"\r\n   -----Transcript of session follows -----\r\n550 unknown\r\n")
    bounce = find_bounce(message_from_bytes(raw, policy=UTF8_HEADERS), "")
    assert bounce is not None and len(bounce.failed) <= 20
    assert all("@" in a and "\r" not in a and " " not in a for a in bounce.failed)
