"""Body clean-up: the text/plain part (or text from HTML), in the declared charset,
without quotes, "wrote:" lines, forwarded blocks or signatures."""
from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from hypothesis import given, settings, strategies as st

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


def test_format_flowed_soft_breaks_are_joined_per_quote_depth():
    from judge.language.mailbody import unflow
    text = "A Par - \nBur; F Bre - Mid\n> quoted \n> more\n-- \nsig"
    assert unflow(text) == "A Par - Bur; F Bre - Mid\n> quoted more\n-- \nsig"
    assert unflow("A Par -\u0020\nBur", delsp=True) == "A Par -Bur"
    assert unflow(" >stuffed") == ">stuffed"


def test_wrote_line_without_date_or_address_ends_nothing_unless_a_quote_follows():
    assert clean_text("Here is what I wrote:\nA Par - Bur") == "Here is what I wrote:\nA Par - Bur"
    assert clean_text("A Par H\nJudge wrote:\n> A Mun H").strip() == "A Par H"
    # With a date it is an attribution, and unquoted text after it is the old mail (Yahoo).
    assert clean_text("A Par H\n  On Mon, 2 Mar 2026 at 11:00, Judge wrote:\n  A Mun H").strip() == "A Par H"


def test_reply_header_block_ends_the_body_in_any_language():
    for headers in ("From: Judge <j@x>\nSent: Monday\nTo: a@x\nSubject: s",
                    "Von: Judge <j@x>\nGesendet: Montag\nAn: a@x\nBetreff: s",
                    "De : Judge <j@x>\nEnvoyé : lundi\nÀ : a@x\nObjet : s",
                    "*From:* Judge <j@x>\n*Date:* Mon\n*Subject:* s",
                    "От: Judge\nОтправлено: четверг, 26 июня 2014 г. 15:05\nКому: Alex",
                    "Od: Judge <j@x>\nWysłano: poniedziałek\nDo: a@x\nTemat: s",
                    "差出人: Judge <j@x>\n送信日時: 2026年3月2日 11:00\n宛先: a@x\n件名: s"):
        assert clean_text(f"A Par H\n\n{headers}\n\nA Mun H").strip() == "A Par H"
    assert clean_text("From: the front\nA Par H") == "From: the front\nA Par H"  # one line is no header block


def test_blank_plain_alternative_falls_back_to_html():
    msg = EmailMessage()
    msg.set_content("\n")
    msg.add_alternative("<div>A Par - Bur</div>", subtype="html")
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert clean_body(parsed).strip() == "A Par - Bur"


def test_html_table_cells_and_pre_lines():
    from judge.language.clean import html_to_text
    text = html_to_text("<table><tr><td>A</td><td>Par</td><td>-</td><td>Bur</td></tr></table>"
                        "<pre>F Bre H\nA Mar H</pre>")
    assert [line for line in text.split("\n") if line] == ["A Par - Bur", "F Bre H", "A Mar H"]


def test_cp1252_bytes_under_a_latin1_label_and_unknown_labels():
    from judge.language.mailbody import decode_bytes
    assert decode_bytes(b"A Par \x96 Bur \x93ok\x94", "iso-8859-1") == "A Par \u2013 Bur \u201cok\u201d"
    assert decode_bytes("\u00e9".encode(), None) == "\u00e9"
    assert decode_bytes(b"A Par", "x-no-such-charset") == "A Par"


def test_attachments_are_named_not_read():
    from judge.language.clean import attachments
    msg = EmailMessage()
    msg.set_content("A Par H")
    msg.add_attachment(b"\x89PNG", maintype="image", subtype="png", filename="map.png")
    msg.add_attachment("A Mun H", filename="orders.txt")
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert clean_body(parsed) == "A Par H" and attachments(parsed) == ["map.png", "orders.txt"]


ATTRIBUTIONS = [
    "On Mon, Mar 2, 2026 at 11:00 AM Diplomacy Judge <judge@example.org> wrote:",
    "Am Mo., 2. März 2026 um 11:00 Uhr schrieb Diplomacy Judge <judge@example.org>:",
    "Le lun. 2 mars 2026 à 11:00, Diplomacy Judge <judge@example.org> a écrit :",
    "El lun, 2 mar 2026 a las 11:00, Diplomacy Judge (<judge@example.org>) escribió:",
    "Il giorno lun 2 mar 2026 alle ore 11:00 Diplomacy Judge <judge@example.org> ha scritto:",
    "Op ma 2 mrt 2026 om 11:00 schreef Diplomacy Judge <judge@example.org>:",
    "Em seg., 2 de mar. de 2026 às 11:00, Diplomacy Judge <judge@example.org> escreveu:",
    "Den mån 2 mars 2026 kl 11:00 skrev Diplomacy Judge <judge@example.org>:",
    "pon., 2 mar 2026 o 11:00 Diplomacy Judge <judge@example.org> napisał(a):",
    "ma 2.3.2026 klo 11.00 Diplomacy Judge (judge@example.org) kirjoitti:",
    "Diplomacy Judge <judge@example.org> 于2026年3月2日周一 11:00写道：",
]


@pytest.mark.parametrize("attribution", ATTRIBUTIONS)
def test_attribution_in_many_languages(attribution):
    quoted = f"A Par H\n\n{attribution}\n\n> A Mun H\n"
    assert clean_text(quoted).strip() == "A Par H"
    unquoted = f"A Par H\n\n{attribution}\n\nA Mun H\n"  # the old mail not marked (Yahoo's way)
    assert clean_text(unquoted).strip() == "A Par H"


@pytest.mark.parametrize("line", ["-----Mensaje original-----", "---------- Messaggio inoltrato ---------",
                                  "-----Oorspronkelijk bericht-----", "-------- Message transféré --------",
                                  "Begin forwarded message:", "________________________________"])
def test_original_and_forwarded_markers_in_many_languages(line):
    assert clean_text(f"A Par H\n{line}\nA Mun H").strip() == "A Par H"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([b"text/plain; charset=utf-8; format=flowed; delsp=yes", b"text/html; charset=x-bogus",
                        b"multipart/alternative; boundary=b", b"multipart/mixed", b"text/plain; charset=utf-16",
                        b"message/rfc822", b"multipart/mixed; boundary=\"\""]),
       st.sampled_from([b"7bit", b"base64", b"quoted-printable", b"8bit"]), st.binary(max_size=300))
def test_any_mail_gives_text_and_never_raises(ctype, encoding, body):
    from judge.language.clean import attachments
    raw = b"Content-Type: " + ctype + b"\r\nContent-Transfer-Encoding: " + encoding + b"\r\n\r\n" + body
    mail = message_from_bytes(raw, policy=policy.default)
    assert isinstance(clean_body(mail), str) and isinstance(attachments(mail), list)


@pytest.mark.parametrize("markup, text", [
    ("<p>A Par H</p><![\x00", "A Par H\n<![\x00"),       # html.parser: "expected name token" (an assert)
    ("<p>A Par H</p><![A[x]]>", "A Par H\n<![A[x]]>"),    # "unknown status keyword 'A' in marked section"
    ("<p>A Par-Bur</p><![if gte mso 9]>x<![endif]>", "A Par-Bur\nx"),   # Outlook's, read as ever
])
def test_html_with_a_malformed_declaration_still_gives_its_text(markup, text):
    from judge.language.clean import html_to_text
    assert html_to_text(markup) == text


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/ab =\"'&;#!-divpbrtable[]\x00\n")), max_size=200))
def test_any_html_gives_text(markup):
    from judge.language.clean import html_to_text
    assert isinstance(html_to_text(markup), str)


def test_a_single_part_text_mail_is_the_body_even_with_a_file_name():
    raw = (b"Content-Type: text/plain; name=orders.txt\r\nContent-Disposition: inline; filename=orders.txt\r\n"
           b"\r\nA Par H\r\n")
    assert clean_body(message_from_bytes(raw, policy=policy.default)) == "A Par H"


def test_reply_headers_with_a_wrapped_value():
    text = "A Par H\n\nFrom: Diplomacy Judge\n<judge@example.org>\nSent: Monday\nTo: ann@x\nSubject: s\n\nA Mun H"
    assert clean_text(text).strip() == "A Par H"


def test_a_mail_forwarded_as_an_attachment_is_named_not_read():
    from judge.language.clean import attachments
    inner = EmailMessage()
    inner["Subject"] = "my old orders"
    inner.set_content("A Mun H")
    msg = EmailMessage()
    msg.set_content("A Par H")
    msg.add_attachment(inner)
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert clean_body(parsed) == "A Par H"
    assert attachments(parsed) == ["forwarded mail: my old orders"]


def test_html_beside_plain_in_a_mixed_part_is_not_read_twice():
    raw = (b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nA Par H\r\n"
           b"--b\r\nContent-Type: text/html\r\n\r\n<p>A Par H</p>\r\n--b--\r\n")
    assert clean_body(message_from_bytes(raw, policy=policy.default)) == "A Par H"


CHILD_TYPES = [b"text/plain; charset=utf-8", b"text/html", b"image/png; name=x.png", b"message/rfc822",
               b"multipart/alternative; boundary=c", b"text/plain; format=flowed; charset=koi8-r",
               b"application/pgp-signature"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(CHILD_TYPES), st.sampled_from([b"inline", b"attachment", b""]),
                          st.binary(max_size=80)), max_size=4),
       st.sampled_from([b"mixed", b"alternative", b"related", b"signed"]))
def test_any_multipart_mail_gives_text_and_never_raises(children, subtype):
    from judge.language.clean import attachments
    raw = b"Content-Type: multipart/" + subtype + b"; boundary=b\r\n\r\n"
    for ctype, disposition, payload in children:
        raw += b"--b\r\nContent-Type: " + ctype + b"\r\n"
        if disposition:
            raw += b"Content-Disposition: " + disposition + b"\r\n"
        raw += b"\r\n" + payload + b"\r\n"
    mail = message_from_bytes(raw + b"--b--\r\n", policy=policy.default)
    assert isinstance(clean_body(mail), str) and isinstance(attachments(mail), list)


def test_bottom_posted_below_a_signature_placed_above_the_quote():
    text = ("-- \nSent from my Android device with K-9 Mail.\n\nOn March 2, 2026 11:00:00 AM UTC, Judge <j@x> wrote:\n"
            ">A Mun H\n\nA Par H\n")
    assert clean_text(text).strip() == "A Par H"
    assert clean_text("A Par H\n-- \nAnn\nA Mun H is my motto").strip() == "A Par H"
