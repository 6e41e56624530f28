"""From a mail to the lines a player meant: the body clean-up before parsing.

`clean_body` takes what the sender typed (judge.language.mailbody: the text/plain
part, or text made from an HTML-only mail, in the declared charset, soft breaks of
format=flowed joined); `clean_text` then drops what the player did not write for the
judge. Dropped lines become blank lines, so the line numbers in error reports still
match the mail the player sent. What is dropped, by the shape of the mail:

- quoted lines (`>`, `|>`, initials as in `DJ>`);
- attribution lines: "On ... wrote:", "Am ... schrieb ...:", "Le ... a écrit :" (also
  wrapped over two lines), and any line ending in ':' right before a quote (mutt's
  "* Ann <ann@x> [date]:"). A dated attribution followed by text that is not quoted
  (Yahoo) starts the old mail: nothing after it is read;
- a signature: from `-- ` to the end, or to a quote below it (K-9 and others put the
  signature above the quote when the player writes below the quote);
- everything after an "Original Message" or "Forwarded message" line, a line of
  underscores (Outlook), a Notes or Zoho "-----X wrote: -----" line, or a block of
  reply headers (From:/Sent:/To:/Subject: in a dozen languages) as clients put above
  the mail they answer or forward: a forwarded mail is not the sender's orders;
- the armour of an inline PGP signature (the signed text is kept).
"""
from __future__ import annotations

import email.message
import re

from .mailbody import attachments, body_text, html_to_text

__all__ = ["attachments", "body_text", "clean_body", "clean_text", "html_to_text", "normalise_chars"]

# Characters mail clients substitute for the plain ones players meant.
_TRANSLATE = str.maketrans(
    {
        "\u00a0": " ",
        "\u2007": " ",
        "\u202f": " ",
        "\u2009": " ",
        "\u200a": " ",
        "\u2002": " ",
        "\u2003": " ",
        "\t": " ",
        "\u2028": "\n",
        "\u2029": "\n",
        "\u200b": "",
        "\ufeff": "",
        "\u00ad": "",
        "\u200e": "",
        "\u200f": "",
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\ufe58": "-",
        "\ufe63": "-",
        "\uff0d": "-",
        "\u2e3a": "-",
        "\u2e3b": "-",
        "\u2043": "-",
        "\uff1e": ">",
        "\uff1a": ":",
        "\u2192": "->",
        "\u21d2": "=>",
        "\u27f6": "->",
        "\u2794": "->",
        "\u279c": "->",
        "\u27a1": "->",
        "\u21e8": "->",
        "\u2b95": "->",
    }
)

# How clients in many languages say "wrote": most end the line with it ("On <date>, <who> wrote:"),
# some put the writer after it ("Am <date> schrieb <who>:"), some write no verb at all (Russian,
# Japanese Gmail: "<date>, <who>:"), which the "ends in ':' right before a quote" rule covers.
_VERB_LAST = (r"wrote|writes|a\s+[ée]crit|escribi[óo]|ha\s+scritto|escreveu|napisa[łl](\(a\))?|napsal(\(a\))?"
              r"|kirjoitti|a\s+scris|yazd[ıi]")
_VERB_FIRST = "schrieb|schreef|skrev|írta"
_WROTE = re.compile(rf"^.*\b({_VERB_LAST})\s*:\s*$|^.*(写道|寫道)\s*:\s*$|^.*\b({_VERB_FIRST})\b.*:\s*$",
                    re.IGNORECASE)
_ATTRIBUTION_START = re.compile(r"^\s*(on|am|le|el|il|op|em|den|w dniu|dne)\s.+", re.IGNORECASE)
_CUT_TITLES = ("original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht|message d'origine"
               "|message transféré|message original|mensaje original|mensaje reenviado|messaggio originale"
               "|messaggio inoltrato|oorspronkelijk bericht|doorgestuurd bericht|mensagem original"
               "|mensagem encaminhada|ursprungligt meddelande|vidarebefordrat meddelande|wiadomość oryginalna")
_CUT = re.compile(
    rf"^\s*(-{{2,}}\s*({_CUT_TITLES})\s*-{{2,}}"
    r"|begin forwarded message:|début du message réexpédié|anfang der weitergeleiteten nachricht:"
    r"|inizio messaggio inoltrato:|mensaje reenviado:"
    r"|_{10,}\s*$|-{3,}.*\bwrote:?\s*-{3,}\s*$)",
    re.IGNORECASE)
# Reply and forward headers: English, German, French, Spanish, Italian, Dutch, Portuguese, Scandinavian,
# Polish, Czech, Turkish, Russian, Japanese and Chinese clients.
_FROM_WORDS = "from|von|de|da|van|fra|från|od|kimden|от|差出人|发件人|寄件者"
_HEADER_WORDS = (_FROM_WORDS + "|sent|date|to|cc|subject|gesendet|datum|an|betreff|envoyé|à|objet|envoi|date d'envoi"
                 "|enviado|enviado el|fecha|para|asunto|inviato|data|a|oggetto|verzonden|aan|onderwerp|assunto"
                 "|sendt|skickat|till|til|emne|ämne|wysłano|do|temat|odesláno|komu|předmět|gönderildi|kime|konu"
                 "|отправлено|кому|тема|дата|копия|送信日時|宛先|件名|发送时间|收件人|主题|寄件日期|收件者|主旨")
_HEADER = re.compile(rf"^\s*\*?({_HEADER_WORDS})\s*\*?\s*:", re.IGNORECASE)
_FROM_HEADER = re.compile(rf"^\s*\*?({_FROM_WORDS})\s*\*?\s*:\s*\S", re.IGNORECASE)
# "> ", "|> " and supercite's initials ("DJ> ", The Bat! and Gnus).
_QUOTE = re.compile(r"^\s*(>|\|>|[^\W\d_]{2,4}>(\s|$))")
_PGP_BEGIN = "-----BEGIN PGP SIGNED MESSAGE-----"
_PGP_SIGNATURE = "-----BEGIN PGP SIGNATURE-----"


def normalise_chars(text: str) -> str:
    """Smart quotes and dashes, odd spaces and tabs to their plain forms."""
    if text.isascii() and "\t" not in text:
        return text  # the tab is the table's one ASCII character: nothing to change
    return text.translate(_TRANSLATE)


def clean_text(text: str) -> str:
    """The player's own lines of a plain-text body (see the module doc)."""
    lines = _without_pgp_armour(normalise_chars(text.replace("\r\n", "\n").replace("\r", "\n")).split("\n"))
    out: list[str] = []
    in_signature = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _CUT.match(line) or _header_block_at(lines, i):
            break  # the mail being answered or forwarded: nothing after it is ours
        if line.rstrip() == "--":
            in_signature = True
        elif in_signature and _quote_starts_at(lines, i):
            in_signature = False  # a quote below the signature: a bottom-poster's words may follow it
        if in_signature or _QUOTE.match(line):
            out.append("")
        elif (span := _attribution_at(lines, i)):
            if not _quote_follows(lines, i + span):
                break  # the old mail follows unquoted (Yahoo): not ours
            out.extend([""] * span)
            i += span
            continue
        else:
            out.append(line.rstrip())
        i += 1
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


def _attribution_at(lines: list[str], i: int) -> int:
    """How many lines (0, 1 or 2) of an attribution start at line i."""
    line = lines[i].strip()
    if not line:
        return 0
    if line.endswith(":") and _quote_follows(lines, i + 1):
        return 1
    if _dated_attribution(line):
        return 1
    if _ATTRIBUTION_START.match(line) and i + 1 < len(lines) and len(lines[i + 1].split()) <= 4:
        joined = line + " " + lines[i + 1].strip()
        if _dated_attribution(joined) or (joined.endswith(">:") and "@" in joined):
            return 2
    return 0


def _dated_attribution(line: str) -> bool:
    """"On 2 Mar 2026, Ann <ann@x> wrote:": a "wrote:" line that names a date or an address, so
    not a player's "here is what I wrote:" (that one counts only right before a quote)."""
    return bool(_WROTE.match(line)) and bool(re.search(r"\d|@", line))


def _quote_starts_at(lines: list[str], i: int) -> bool:
    """Line i is quoted, or is an attribution right above a quote."""
    if _QUOTE.match(lines[i]):
        return True
    span = _attribution_at(lines, i)
    return bool(span) and _quote_follows(lines, i + span)


def _quote_follows(lines: list[str], i: int) -> bool:
    """The next line with text (if any) is quoted."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i < len(lines) and bool(_QUOTE.match(lines[i]))


def _header_block_at(lines: list[str], i: int) -> bool:
    """Reply or forward headers ("From: ... / Sent: ... / To: ... / Subject: ...") start at line i.
    A header's value may wrap onto one line of its own ("From: Judge" / "<judge@x>")."""
    if not _HEADER.match(lines[i]):
        return False
    run, gap = [], 0
    for line in lines[i:i + 10]:
        if _HEADER.match(line):
            run.append(line)
            gap = 0
        elif line.strip() and gap == 0:
            gap = 1
        else:
            break
    return len(run) >= 2 and any(_FROM_HEADER.match(h) for h in run)


def _without_pgp_armour(lines: list[str]) -> list[str]:
    """An inline-signed text (RFC 4880 7): its own lines, with the armour blanked and the rest cut."""
    if not any(line.strip() == _PGP_BEGIN for line in lines):
        return lines
    out: list[str] = []
    in_header = False
    for line in lines:
        if line.strip() == _PGP_BEGIN:
            in_header = True
            out.append("")
        elif in_header:
            in_header = bool(line.strip())
            out.append("")
        elif line.strip() == _PGP_SIGNATURE:
            break
        else:
            out.append(line[2:] if line.startswith("- ") else line)  # dash-escaped lines
    return out


def clean_body(message: email.message.Message) -> str:
    """The lines the player wrote for the judge, from a whole mail."""
    return clean_text(body_text(message))
