"""judge/mail/outbound/plain_headers.py: the judge's own mail, its plain headers stored as they are,
is byte for byte what email.policy.SMTP writes; what is not plain takes the standard path."""
import json
import random
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.mail.outbound import plain_headers
from judge.mail.outbound.compose import build_message

CASES = json.loads((Path(__file__).parent / "data" / "mail" / "plain_headers.json").read_text())["cases"]


def written(pol, name, value):
    mail = EmailMessage(policy=pol)
    mail[name] = value
    return bytes(mail).split(b"\r\n\r\n")[0]


@pytest.mark.parametrize("name, value", CASES, ids=[f"{n}:{v}" for n, v in CASES])
def test_a_header_is_written_as_the_standard_path_writes_it(name, value):
    assert written(plain_headers.SMTP, name, value) == written(policy.SMTP, name, value)
    assert written(plain_headers.SMTPUTF8, name, value) == written(policy.SMTPUTF8, name, value)


def test_the_plain_path_is_taken_for_the_judges_own_headers():
    """Else the module saves nothing: the stored value is the text itself, not a parsed header."""
    mail = build_message(key="notice:1:ann", sender="judge@example.org", to=["ann@example.org"],
                         subject="alpha: Spring 1901 results", body="text\n", domain="example.org")
    assert all(type(value) is str for _, value in mail.raw_items())
    assert mail["To"].addresses[0].addr_spec == "ann@example.org"     # read back: parsed as before


def test_random_values_are_written_as_the_standard_path_writes_them():
    """Values made of the characters that matter to the email package's parsers, seeded."""
    rng = random.Random(27)
    alphabet = ["a", "Z", "0", " ", "  ", ".", "@", "<", ">", "=?", "?=", '"', "(", ")", ",", ";", ":", "\\",
                "+", "-", "é", "\t", "ann@example.org", "Diplomacy judge "]
    for _ in range(400):
        name = rng.choice(["From", "To", "Reply-To", "Subject", "Message-ID", "Auto-Submitted", "Date"])
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        try:
            expected = written(policy.SMTP, name, value)
        except Exception as refused:       # the standard path refuses it: so must the plain one
            with pytest.raises(type(refused)):
                written(plain_headers.SMTP, name, value)
            continue
        assert written(plain_headers.SMTP, name, value) == expected, (name, value)


@pytest.mark.parametrize("subject, to", [("alpha: Spring 1901 results", ["ann@example.org", "bob@example.org"]),
                                         ("Björn's game: résultats", ["ann@example.org"]),
                                         ("alpha: results", ["änn@exämple.org"])])
def test_a_whole_mail_is_the_same_bytes(subject, to):
    body = "Zoë's army holds.\n" * 3
    mail = build_message(key="notice:1:ann", sender="judge@example.org", to=to, subject=subject, body=body,
                         domain="example.org", date=1_790_000_000)
    standard = EmailMessage(policy=policy.SMTPUTF8 if mail.policy.utf8 else policy.SMTP)
    for name, value in mail.raw_items():
        if not name.lower().startswith(("content-", "mime-")):      # those set_content writes, last
            standard[name] = value
    standard.set_content(body)
    assert bytes(mail) == bytes(standard)
