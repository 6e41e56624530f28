"""The text a mail's sender typed, from its MIME structure (before any clean-up).

Which parts are the body: in a multipart/alternative the text/plain part (else the
HTML one, else whatever alternative gives text); in other multiparts every inline
text part in order (Apple Mail splits a body around a pasted image); in
multipart/signed and multipart/related the first part. A part with a file name or
`Content-Disposition: attachment`, and a forwarded message/rfc822, is a file the
sender attached, not what they typed: it is not read (`attachments` names them).
A format=flowed part (RFC 3676, Thunderbird and others) has its soft line breaks
joined again, so an order wrapped by the client is one line. Charsets: the declared
one; "iso-8859-1" and "us-ascii" are read as windows-1252, as browsers do, because
clients send smart quotes under those labels.
"""
from __future__ import annotations

import codecs
import email.message
import re
from html.parser import HTMLParser

# WHATWG: these labels mean windows-1252 in practice.
_AS_CP1252 = {"us-ascii", "ascii", "iso-8859-1", "latin-1", "latin1", "iso_8859-1", "l1", "cp819", "ansi_x3.4-1968"}


def decode_bytes(payload: bytes, charset: str | None) -> str:
    """Bytes in the declared charset; an unknown or wrong label still gives readable text."""
    label = (charset or "").strip().strip('"').lower()
    if not label or label in _AS_CP1252:
        try:
            return payload.decode("utf-8")  # undeclared or mislabelled UTF-8 is common
        except UnicodeDecodeError:
            return payload.decode("cp1252", errors="replace")
    try:
        codecs.lookup(label)
    except LookupError:
        return decode_bytes(payload, None)
    return payload.decode(label, errors="replace")


def unflow(text: str, delsp: bool = False) -> str:
    """Join the soft line breaks of a format=flowed body (RFC 3676, section 4)."""
    out: list[str] = []
    pending: tuple[int, str] | None = None  # (quote depth, text so far) of a line that flows on
    for physical in text.split("\n"):
        raw = physical.rstrip("\r")
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if pending is not None and pending[0] == depth:
            line = pending[1] + line
        elif pending is not None:
            out.append(">" * pending[0] + (" " if pending[0] else "") + pending[1])
        pending = None
        if line.endswith(" ") and line != "-- ":
            pending = (depth, line[:-1] if delsp else line)
            continue
        out.append(">" * depth + (" " if depth else "") + line)
    if pending is not None:
        out.append(">" * pending[0] + (" " if pending[0] else "") + pending[1])
    return "\n".join(out)


def _is_attachment(part: email.message.Message) -> bool:
    return (part.get_content_disposition() == "attachment" or part.get_filename() is not None
            or part.get_content_type() == "message/rfc822")


def _param(part: email.message.Message, name: str) -> str:
    """A Content-Type parameter in lower case ("" when absent, or given in RFC 2231's parts)."""
    value = part.get_param(name)
    return value.lower() if isinstance(value, str) else ""


def part_text(part: email.message.Message) -> str:
    """A single text part decoded (and unflowed when it says format=flowed)."""
    payload = part.get_payload(decode=True)
    text = decode_bytes(payload if isinstance(payload, bytes) else b"", part.get_content_charset())
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_type() == "text/plain" and _param(part, "format") == "flowed":
        text = unflow(text, _param(part, "delsp") == "yes")
    if part.get_content_type() == "text/html":
        text = html_to_text(text)
    return text


def _text_of(part: email.message.Message) -> str | None:
    ctype = part.get_content_type()
    if not part.is_multipart():
        return part_text(part) if ctype in ("text/plain", "text/html") else None
    children = [c for c in part.get_payload() if isinstance(c, email.message.Message) and not _is_attachment(c)]
    if ctype == "multipart/alternative":
        return _best_alternative(children)
    if ctype in ("multipart/signed", "multipart/related", "multipart/encrypted"):
        children = children[:1]
    elif any(c.get_content_type() == "text/plain" for c in children):
        # text/html beside text/plain in a mixed part is the same words again, not more of them
        children = [c for c in children if c.get_content_type() != "text/html"]
    texts = [t for t in (_text_of(c) for c in children) if t is not None]
    return "\n".join(texts) if texts else None


def _best_alternative(children: list[email.message.Message]) -> str | None:
    """The text/plain alternative; the others (HTML) when it is missing or blank, which is a
    client's bug rather than an empty mail."""
    plain = [c for c in children if c.get_content_type() == "text/plain"]
    fallback = None
    for child in plain + [c for c in children if c not in plain]:
        text = _text_of(child)
        if text is not None and text.strip():
            return text
        fallback = fallback if fallback is not None else text
    return fallback


def body_text(message: email.message.Message) -> str:
    """What the sender typed: see the module doc. A single-part text mail is its own body, whatever
    its headers say about files."""
    return _text_of(message) or ""


def attachments(message: email.message.Message) -> list[str]:
    """Names of the attached files the judge does not read ("orders.txt", "map.png", a forwarded mail)."""
    if not message.is_multipart():
        return []
    names: list[str] = []
    for part in message.get_payload():
        if not isinstance(part, email.message.Message):
            continue
        if _is_attachment(part):
            names.append(part.get_filename() or _forwarded_name(part) or part.get_content_type())
        elif part.is_multipart():
            names.extend(attachments(part))
    return names


def _forwarded_name(part: email.message.Message) -> str | None:
    inner = part.get_payload() if part.get_content_type() == "message/rfc822" else None
    if isinstance(inner, list) and inner and isinstance(inner[0], email.message.Message) and inner[0].get("Subject"):
        return f"forwarded mail: {inner[0].get('Subject')}"
    return None


class _HtmlText(HTMLParser):
    """HTML to lines; text inside a quote (a blockquote, or a client's quote container)
    starts with "> " so the plain-text rules drop it."""
    BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table",
              "hr", "ul", "ol", "dl", "dt", "dd", "section", "article", "header", "footer"}
    CELLS = {"td", "th"}
    VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source", "embed"}
    SKIP = {"style", "script", "head", "title"}
    # Where clients put the mail being answered: Gmail (and K-9), Yahoo, Proton, Thunderbird. Outlook's
    # reply headers are not marked: as text they are a From:/Sent:/To: block, which ends what is read.
    QUOTE_MARKS = {"gmail_quote", "yahoo_quoted", "protonmail_quote", "moz-cite-prefix", "gmail_attr",
                   "mail-quote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, quotes, skips) of open elements

    def _quoted(self) -> bool:
        return any(q for _, q, _ in self.stack)

    def _at_line_start(self) -> bool:
        last = next((p for p in reversed(self.parts) if p), "\n")
        return last.endswith("\n")

    def _break(self, tag: str) -> None:
        """A line ends at <br> always (<div><br></div> is the blank line the writer typed), at the edge
        of a block only if one has not just ended: a mail client writes each line the writer typed as
        a block of its own (<div>A Par H</div><div>A Mar H</div>), and the reply numbers the lines as
        the writer saw them, not the block edges."""
        if tag == "br" or not self._at_line_start():
            self.parts.append("\n")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        marks = {w.lower() for k, v in attrs if k in ("class", "id") and v for w in v.split()}
        quotes = tag == "blockquote" or bool(marks & self.QUOTE_MARKS)
        if tag in self.BREAKS:
            self._break(tag)
        elif tag in self.CELLS:
            self.parts.append(" ")
        if tag not in self.VOID:
            self.stack.append((tag, quotes, tag in self.SKIP))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BREAKS:
            self._break(tag)

    def handle_endtag(self, tag: str) -> None:
        if any(t == tag for t, _, _ in self.stack):
            while self.stack and self.stack.pop()[0] != tag:
                pass
        if tag in self.BREAKS:
            self._break(tag)
        elif tag in self.CELLS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if any(s for _, _, s in self.stack):
            return
        pre = any(t == "pre" for t, _, _ in self.stack)
        if not pre and not data.strip() and self._at_line_start():
            return   # the white space between blocks in the markup: no line, and no text on one
        lines = data.split("\n") if pre else [re.sub(r"[ \t\r\n]+", " ", data)]
        mark = "> " if self._quoted() else ""
        self.parts.append("\n".join(mark + line for line in lines))


def html_to_text(markup: str) -> str:
    try:
        parts = _html_parts(markup)
    except AssertionError:
        # html.parser gives up with a bare assert on a malformed declaration ("<![" or "<!" followed by
        # no name, an unknown marked-section keyword): read again with every "<!" as text
        parts = _html_parts(markup.replace("<!", "&lt;!"))
    lines = "".join(parts).split("\n")
    text = "\n".join(_one_quote_mark(re.sub(r" {2,}", " ", line).strip()) for line in lines)
    # The break a first <p> or <div> opens with is no line the writer saw: without it the reply's
    # "line 1" is the first line on the writer's screen.
    return text.lstrip("\n")


def _html_parts(markup: str) -> list[str]:
    parser = _HtmlText()
    parser.feed(markup)
    parser.close()
    return parser.parts


def _one_quote_mark(line: str) -> str:
    """'> A > B' (several quoted chunks on one line) to '> A B'."""
    return "> " + line.replace("> ", "").strip() if line.startswith("> ") else line
