"""judge/mail/intake/shape_gate.py measures a mail's shape on its raw bytes before any parser: the cases of
tests/data/mail/shapes.json (plain mails take a shortcut that must not miss a multipart or a
message/* part, whatever the letter case or spelling), and the bounds that make intake refuse a
mail. Each way of nesting in `nestings` is built as the email parser reads it (the boundary
lines are written from the email package's own reading of the header) and checked against the
parser: at 3 deep the gate measures what the parser builds, at 1,000 the gate refuses (and, shown
once, the parser fails)."""
import json
import random
from email import message_from_bytes, policy
from email.message import Message
from pathlib import Path

import pytest

from judge.config import LimitsConfig
from judge.mail.intake.shape_gate import Shape, measure, read_content_type, refusal

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "shapes.json").read_text(encoding="utf-8"))
CASES, NESTINGS = DATA["cases"], DATA["nestings"]
EOLS = {"CRLF": "\r\n", "LF": "\n", "CR": "\r"}


def raw_of(case) -> bytes:
    return case.get("eol", "\r\n").join(case["lines"]).encode()


def parsed_shape(raw: bytes) -> tuple[int, int]:
    """The deepest nesting of multiparts and the count of message/* parts, as the parser built them."""
    def walk(msg) -> tuple[int, int]:
        inner = [walk(p) for p in msg.get_payload()] if msg.is_multipart() else []
        depth = max((d for d, _ in inner), default=0) + (msg.get_content_maintype() == "multipart")
        return depth, sum(m for _, m in inner) + (msg.get_content_maintype() == "message")
    return walk(message_from_bytes(raw, policy=policy.default))


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_shape_of_each_mail(case):
    raw = raw_of(case)
    assert measure(raw) == Shape(**case["shape"])
    depth, message_parts = parsed_shape(raw)
    assert (case["shape"]["depth"], case["shape"]["message_parts"]) == (depth, message_parts)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_mail_past_a_bound_is_refused_and_one_within_them_is_not(case):
    raw = raw_of(case)
    shape = Shape(**case["shape"])
    assert refusal(raw, LimitsConfig()) is None
    assert refusal(raw, LimitsConfig(mail_lines=shape.lines - 1)).startswith(f"the message has {shape.lines} lines")
    if shape.depth:
        assert "nested" in refusal(raw, LimitsConfig(mime_depth=shape.depth - 1))
        assert "MIME parts" in refusal(raw, LimitsConfig(mime_parts=shape.parts - 1))


def the_parsers_boundary(header: str) -> str | None:
    msg = Message(policy=policy.default)
    msg.set_raw(*policy.default.header_source_parse([f"Content-Type: {header}\r\n"]))
    return msg.get_boundary() if msg.get_content_maintype() == "multipart" else None


def nested(header: str, depth: int, eol: str) -> bytes:
    """A mail nested `depth` deep, each level's Content-Type written as `header` (its {b} the level's
    boundary); the boundary lines are what the email parser reads from each header."""
    head, tail = [], []
    for level in range(depth):
        spelled = header.replace("{b}", f"d{level}")
        head.append(f"Content-Type: {spelled}{eol}{eol}")
        boundary = the_parsers_boundary(spelled)
        if boundary is not None:
            head.append(f"--{boundary}{eol}")
            tail.append(f"--{boundary}--{eol}")
    text = "".join(head) + f"Content-Type: text/plain{eol}{eol}HELP{eol}" + "".join(reversed(tail))
    return f"From: ann@players.test{eol}Subject: deep{eol}".encode() + text.replace("\r\n", eol).encode()


@pytest.mark.parametrize("eol", EOLS.values(), ids=EOLS.keys())
@pytest.mark.parametrize("header", NESTINGS.values(), ids=NESTINGS.keys())
def test_every_spelling_of_nesting_is_measured_as_the_parser_nests(header, eol):
    shallow = nested(header, 3, eol)
    shape = measure(shallow)
    assert (shape.depth, shape.message_parts) == parsed_shape(shallow)
    assert max(shape.depth, shape.message_parts) == 3
    assert refusal(shallow, LimitsConfig()) is None
    past = nested(header, LimitsConfig().mime_depth + 1, eol)
    assert refusal(past, LimitsConfig()) is not None
    assert refusal(nested(header, 1000, eol), LimitsConfig()) is not None


def test_a_mail_nested_a_thousand_deep_is_past_what_the_email_parser_can_read():
    """Why the gate refuses before any parser: at 1,000 deep the email package fails. Shown once, on
    the first spelling (each parse takes a second or more; the spellings' agreement with the parser is
    shown at 3 deep above)."""
    with pytest.raises(RecursionError):
        message_from_bytes(nested(next(iter(NESTINGS.values())), 1000, "\r\n"), policy=policy.default)


PIECES = DATA["header_pieces"]


def test_the_quick_reading_of_a_header_is_the_email_packages():
    """Headers made of the pieces in shapes.json: the gate's regular expression for the everyday
    shape, and the email package for the rest, give the parser's main type and boundary."""
    r = random.Random(7)
    for _ in range(3000):
        value = " " + r.choice(PIECES["types"])
        for _ in range(r.randrange(4)):
            value += r.choice(PIECES["separators"]) + r.choice(PIECES["names"]) + r.choice(["=", "= ", " ="]) + \
                r.choice(PIECES["values"])
        msg = Message(policy=policy.default)
        msg.set_raw(*policy.default.header_source_parse([f"Content-Type:{value}\r\n"]))
        assert read_content_type(value) == (msg.get_content_maintype(), msg.get_boundary()), value


def test_a_mail_with_more_content_type_headers_than_parts_allowed_is_refused_on_the_count():
    limits = LimitsConfig()
    raw = b"Subject: x\r\n\r\n" + b"".join(b"Content-Type: x/y; n=\"%d\"\r\n" % i for i in range(50_000))
    assert refusal(raw, limits) == (f"50000 Content-Type headers; the judge takes at most "
                                    f"{limits.mime_parts + limits.mime_depth + 1}")
