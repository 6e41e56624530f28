"""judge/mail/screening/robot_mail.py: never answer robots, recognise bounces, mark and thread the judge's own mail."""
from email import message_from_bytes, policy

import pytest

from judge.mail.outbound.compose import build_message, stable_message_id
from judge.mail.screening.robot_mail import classify

PLAIN = b"From: Russia <russia@example.org>\r\nTo: judge@localhost\r\nSubject: orders\r\n" \
        b"Message-ID: <r1@example.org>\r\n\r\nA Mos-Ukr\r\n"


def with_header(header: bytes) -> bytes:
    return header + b"\r\n" + PLAIN


def test_a_player_gets_an_answer():
    verdict = classify(PLAIN, "russia@example.org")
    assert verdict.reply_allowed and verdict.bounce is None


@pytest.mark.parametrize("raw, mail_from, reason", [
    (with_header(b"Auto-Submitted: auto-replied"), "russia@example.org", "Auto-Submitted"),
    (with_header(b"Auto-Submitted: Auto-Generated; owner-email=x@y"), "russia@example.org", "Auto-Submitted"),
    (with_header(b"Precedence: bulk"), "russia@example.org", "Precedence"),
    (with_header(b"Precedence: LIST"), "russia@example.org", "Precedence"),
    (with_header(b"Precedence: junk"), "russia@example.org", "Precedence"),
    (with_header(b"List-Id: Diplomacy players <dip.lists.example.org>"), "russia@example.org", "List-Id"),
    (with_header(b"List-Unsubscribe: <mailto:leave@lists.example.org>"), "russia@example.org", "List-Unsubscribe"),
    (with_header(b"X-Autoreply: yes"), "russia@example.org", "X-Autoreply"),
    (PLAIN, "", "null envelope sender"),
    (PLAIN, "<>", "null envelope sender"),
    (PLAIN.replace(b"russia@example.org>", b"MAILER-DAEMON@example.org>"), "x@example.org", "mail system"),
    (PLAIN, "owner-diplomacy@lists.example.org", "mail system"),
    (PLAIN, "diplomacy-request@lists.example.org", "mail system"),
])
def test_robots_never_get_an_answer(raw, mail_from, reason):
    verdict = classify(raw, mail_from)
    assert not verdict.reply_allowed and reason in verdict.reason


def test_auto_submitted_no_is_a_person():
    assert classify(with_header(b"Auto-Submitted: no"), "russia@example.org").reply_allowed


# A delivery status notification as Postfix writes one (RFC 3464), for a report the judge sent.
DSN = b"""\
Return-Path: <>\r
From: MAILER-DAEMON@mx.example.net (Mail Delivery System)\r
To: judge@localhost\r
Subject: Undelivered Mail Returned to Sender\r
Auto-Submitted: auto-replied\r
MIME-Version: 1.0\r
Content-Type: multipart/report; report-type=delivery-status; boundary="B1"\r
Message-ID: <20290101.1@mx.example.net>\r
\r
--B1\r
Content-Type: text/plain; charset=us-ascii\r
\r
I'm sorry to have to inform you that your message could not be delivered.\r
\r
--B1\r
Content-Type: message/delivery-status\r
\r
Reporting-MTA: dns; mx.example.net\r
Arrival-Date: Mon, 1 Jan 2029 10:00:00 +0000\r
\r
Final-Recipient: rfc822; austria@example.net\r
Original-Recipient: rfc822;austria@example.net\r
Action: failed\r
Status: 5.1.1\r
Diagnostic-Code: smtp; 550 5.1.1 <austria@example.net>: Recipient address rejected\r
\r
Final-Recipient: rfc822; germany@example.net\r
Action: delayed\r
Status: 4.4.1\r
\r
--B1\r
Content-Type: text/rfc822-headers\r
\r
From: Diplomacy judge <judge@localhost>\r
To: austria@example.net, germany@example.net\r
Subject: Spring 1901 results\r
Message-ID: <judge.abc@localhost>\r
\r
--B1--\r
"""


def test_a_dsn_names_the_failed_address_and_the_judges_message():
    verdict = classify(DSN, "")
    assert not verdict.reply_allowed
    bounce = verdict.bounce
    assert bounce.failed == ("austria@example.net",)          # 'delayed' is not a failure
    assert "Recipient address rejected" in bounce.diagnostic
    assert bounce.original_message_id == "judge.abc@localhost"


def test_a_dsn_with_the_whole_message_returned():
    raw = DSN.replace(b"Content-Type: text/rfc822-headers", b"Content-Type: message/rfc822")
    assert classify(raw, "").bounce.original_message_id == "judge.abc@localhost"


def test_an_old_style_bounce_in_plain_text():
    raw = (b"From: Mail Delivery System <Mailer-Daemon@mx.example.net>\r\nTo: judge@localhost\r\n"
           b"Subject: Mail delivery failed: returning message to sender\r\n"
           b"X-Failed-Recipients: italy@example.net\r\n\r\n"
           b"This message was created automatically by mail delivery software.\r\n\r\n"
           b"  italy@example.net\r\n    mailbox is full\r\n\r\n------ This is a copy of the message\r\n\r\n"
           b"Message-ID: <judge.def@localhost>\r\nTo: italy@example.net\r\nSubject: results\r\n\r\nbody\r\n")
    bounce = classify(raw, "").bounce
    assert bounce.failed == ("italy@example.net",)
    assert bounce.original_message_id == "judge.def@localhost"


def test_a_postmaster_writing_in_person_is_not_a_bounce():
    raw = b"From: postmaster@example.org\r\nSubject: your judge\r\n\r\nPlease slow down.\r\n"
    verdict = classify(raw, "postmaster@example.org")
    assert verdict.bounce is None and not verdict.reply_allowed


def test_the_judges_reply_is_marked_and_threaded():
    original = message_from_bytes(
        PLAIN.replace(b"Message-ID:", b"References: <r0@example.org>\r\nMessage-ID:"), policy=policy.compat32)
    reply = build_message(key="confirm:game1:r1", sender="judge@localhost", to=["russia@example.org"],
                          subject="Re: orders", body="Orders received:\nA MOS - UKR\n", domain="localhost",
                          in_reply_to=original)
    assert reply["Auto-Submitted"] == "auto-replied"
    assert reply["In-Reply-To"] == "<r1@example.org>"
    assert reply["References"] == "<r0@example.org> <r1@example.org>"
    assert reply["Message-ID"] == f"<{stable_message_id('confirm:game1:r1', 'localhost')}>"
    again = build_message(key="confirm:game1:r1", sender="judge@localhost", to=["russia@example.org"],
                          subject="Re: orders", body="Orders received:\nA MOS - UKR\n", domain="localhost",
                          in_reply_to=original)
    assert again["Message-ID"] == reply["Message-ID"]          # same key, same id: duplicates are visible
    # The judge's own mail is itself never answered by an RFC 3834 robot, nor by the judge.
    assert not classify(bytes(reply), "judge@localhost").reply_allowed


def test_a_report_not_in_reply_is_auto_generated():
    report = build_message(key="report:game1:S1901M:FRANCE", sender="judge@localhost", to=["f@example.org"],
                           subject="Spring 1901 results", body="...", domain="localhost")
    assert report["Auto-Submitted"] == "auto-generated"
    assert report["In-Reply-To"] is None and report["References"] is None
    assert stable_message_id("a", "x") != stable_message_id("b", "x")
