"""Body clean-up: the text/plain part (or text from HTML), in the declared charset,
without quotes, "wrote:" lines, forwarded blocks or signatures."""
from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage

from judge.engine import load_variant
from judge.engine.calendar import PhaseKind
from judge.language import OrderReader, clean_body, clean_text

READER = OrderReader(load_variant("standard"))


def test_quotes_wrote_lines_and_signature_dropped_line_numbers_kept():
    text = ("SIGNON Fgame pw\r\nA Par\u2013Bur\r\n\r\nOn Mon, 3 Feb 2025, Ann <ann@example.org> wrote:\r\n"
            "> A Mun - Bur\r\n>> F Kie H\r\nF Bre\u00a0-\tMid\r\n-- \r\nFrance, ruler of the waves\r\nA Mar H\r\n")
    assert clean_text(text) == "SIGNON Fgame pw\nA Par-Bur\n\n\n\n\nF Bre - Mid"


def test_wrapped_on_wrote_line():
    text = "A Par H\nOn Mon, 3 Feb 2025 at 10:00, Ann Example\n<ann@example.org> wrote:\n> old"
    assert clean_text(text).strip() == "A Par H"


def test_forwarded_and_original_message_blocks():
    assert clean_text("A Par H\n-----Original Message-----\nFrom: x\nA Mun H").strip() == "A Par H"
    assert clean_text("A Par H\n---------- Forwarded message ---------\nA Mun H").strip() == "A Par H"
    assert clean_text("A Par H\nBegin forwarded message:\nA Mun H").strip() == "A Par H"


def test_smart_quotes_and_dashes_and_trailing_punctuation_still_read():
    text = clean_text("A Par \u2014 Bur.\nF Bre \u2192 Mid!\n\u201cA Mar H\u201d")
    result = READER.parse(text, PhaseKind.MOVEMENT)
    assert len(result.orders) == 3 and not result.errors


def test_text_plain_part_of_multipart_in_latin1():
    msg = EmailMessage()
    msg["Subject"] = "orders"
    msg.set_content("A Par - Bur\nF Bre - Mid  \u00e0 bient\u00f4t", charset="iso-8859-1")
    msg.add_alternative("<p>ignored html</p>", subtype="html")
    raw = msg.as_bytes()
    assert b"iso-8859-1" in raw
    parsed = message_from_bytes(raw, policy=policy.default)
    assert clean_body(parsed) == "A Par - Bur\nF Bre - Mid  \u00e0 bient\u00f4t"


def test_html_only_mail():
    msg = EmailMessage()
    msg.set_content("<html><head><style>p{}</style></head><body><p>A Par&nbsp;-&nbsp;Bur</p>"
                    "<div>F Bre - Mid<br>A Mar H</div><blockquote>A Mun H</blockquote></body></html>",
                    subtype="html")
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    lines = [line for line in clean_body(parsed).split("\n") if line.strip()]
    assert lines == ["A Par - Bur", "F Bre - Mid", "A Mar H"]


def test_unknown_charset_does_not_stop_the_mail():
    raw = (b"Content-Type: text/plain; charset=x-unknown-charset\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
           b"A Par - Bur\r\n")
    parsed = message_from_bytes(raw, policy=policy.default)
    assert clean_body(parsed) == "A Par - Bur"


def test_attachment_is_not_the_body():
    msg = EmailMessage()
    msg.set_content("A Par H")
    msg.add_attachment(b"A Mun H", maintype="text", subtype="plain", filename="old.txt")
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert clean_body(parsed) == "A Par H"
