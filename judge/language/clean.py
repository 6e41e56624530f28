"""From a mail to the lines a player meant: the body clean-up before parsing.

`clean_body` takes the text/plain part (or text made from an HTML-only mail) in the
charset the mail declares; `clean_text` then drops what the player did not write
for the judge: quoted lines, "On ... wrote:" lines, forwarded or "Original Message"
blocks and the signature after `-- `. Dropped lines become blank lines, so the line
numbers in error reports still match the mail the player sent.
"""
from __future__ import annotations

import email.message
import html
import re
from html.parser import HTMLParser

# Characters mail clients substitute for the plain ones players meant.
_TRANSLATE = str.maketrans({
    "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u2009": " ", "\u200a": " ", "\u2002": " ", "\u2003": " ",
    "\t": " ", "\u200b": "", "\ufeff": "", "\u00ad": "",
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\u2192": "->", "\u21d2": "=>", "\u27f6": "->", "\u2794": "->", "\u279c": "->",
})

_WROTE = re.compile(r"^\s*(on\b.*|.*\bam\b.*|.*\ble\b.*)\bwrote\s*:\s*$|^\s*.*\b(wrote|schrieb|a écrit)\s*:\s*$",
                    re.IGNORECASE)
_ON_START = re.compile(r"^\s*on\s.+", re.IGNORECASE)
_BLOCK_END = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|weitergeleitete nachricht)\s*-{2,}"
    r"|begin forwarded message:|_{10,}\s*$|from:\s.+\bsent:\s)",
    re.IGNORECASE)


def normalise_chars(text: str) -> str:
    """Smart quotes and dashes, odd spaces and tabs to their plain forms."""
    if text.isascii() and "\t" not in text:
        return text  # the tab is the table's one ASCII character: nothing to change
    return text.translate(_TRANSLATE)


def clean_text(text: str) -> str:
    """The player's own lines of a plain-text body (see the module doc)."""
    lines = normalise_chars(text.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        if line.rstrip() == "--" or _BLOCK_END.match(line):
            break  # signature, or a forwarded / original message: nothing after it is ours
        stripped = line.strip()
        if stripped.startswith(">") or stripped.startswith("|>"):
            out.append("")
            continue
        if _WROTE.match(line):
            out.append("")
            continue
        # "On Mon, 3 Feb 2025, Ann <ann@x> \n wrote:" wrapped over two lines.
        if (_ON_START.match(line) and i + 1 < len(lines)
                and re.match(r"^\s*\S*.*wrote\s*:\s*$", lines[i + 1], re.IGNORECASE)
                and len(lines[i + 1].split()) <= 4):
            out.append("")
            continue
        if out and out[-1] == "" and re.match(r"^\s*\S*.*wrote\s*:\s*$", line, re.IGNORECASE) \
                and i > 0 and _ON_START.match(lines[i - 1]):
            out.append("")
            continue
        out.append(line.rstrip())
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


class _HtmlText(HTMLParser):
    _BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "pre", "blockquote", "table"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.quote = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script", "head"):
            self.skip += 1
        if tag == "blockquote":
            self.quote += 1
        if tag in self._BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("style", "script", "head"):
            self.skip = max(0, self.skip - 1)
        if tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        if tag in self._BREAKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if self.skip:
            return
        text = re.sub(r"[ \t\r\n]+", " ", data)
        if self.quote:  # quoted replies in HTML mail are blockquotes: mark them like plain-text quotes
            text = "> " + text
        self.parts.append(text)


def html_to_text(markup: str) -> str:
    parser = _HtmlText()
    parser.feed(markup)
    parser.close()
    text = "".join(parser.parts)
    return "\n".join(line.strip() for line in html.unescape(text).split("\n"))


def _decoded(part: email.message.Message) -> str:
    try:
        content = part.get_content()  # type: ignore[attr-defined]
        if isinstance(content, str):
            return content
    except (LookupError, AttributeError, UnicodeError, KeyError):
        pass
    payload = part.get_payload(decode=True) or b""
    if isinstance(payload, str):
        return payload
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know: keep what can be read
        return payload.decode("utf-8", errors="replace")


def body_text(message: email.message.Message) -> str:
    """The text/plain part, else text made from the text/html part."""
    plain = html_part = None
    parts = message.walk() if message.is_multipart() else [message]
    for part in parts:
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain = part
        elif ctype == "text/html" and html_part is None:
            html_part = part
    if plain is not None:
        return _decoded(plain)
    if html_part is not None:
        return html_to_text(_decoded(html_part))
    return ""


def clean_body(message: email.message.Message) -> str:
    """The lines the player wrote for the judge, from a whole mail."""
    return clean_text(body_text(message))
