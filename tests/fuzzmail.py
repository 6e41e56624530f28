"""A seeded generator of hostile whole mails, for tests/test_mail_fuzz.py.

Each mail is one of the shapes that once stopped or misled the judge (issue 12): UTF-8
addresses in From, Reply-To, REGISTER and SET ADDRESS; MIME nested hundreds deep; hundreds of
KB of HELP; tens of thousands of order lines; bad charsets and transfer encodings; broken
headers; automatic mail that must never be answered; replays. The same seed gives the same mails.
"""
from __future__ import annotations

import base64
import json
import random
from dataclasses import dataclass
from pathlib import Path

JUDGE = "judge@dip.test"
# Ways of writing a Content-Type that nests (RFC 2231 and 2047 spellings, mails inside mails).
NESTINGS = json.loads((Path(__file__).parent / "data" / "mail" / "shapes.json").read_text(encoding="utf-8"))["nestings"]


@dataclass(frozen=True)
class FuzzMail:
    kind: str
    raw: bytes
    mail_from: str          # envelope sender; '' is the null sender
    auto: bool              # a robot's mail: must never be answered
    message_id: str | None


NAMES = ["ann", "bob", "chloé", "dmitri", "émile", "farah", "günther", "hana", "ivan", "jürgen"]
UTF8_ADDRESSES = ["jöhn@exämple.org", "müller@bücher.de", "用户@例子.广告", "почта@пример.рф",
                  "chloé@example.fr", "δοκιμή@παράδειγμα.δοκιμή", "ñandú@ejemplo.es"]
ORDERS = ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR", "F LON - NTH", "A VIE H", "F TRI - ADR",
          "A BUD - SER", "F STP/SC - BOT", "A WAR - UKR", "F ANK - BLA", "A Xyz - Qqq", "build a par"]
COMMANDS = ["HELP", "LIST", "HELP orders", "SUMMARY alpha", "HISTORY alpha", "SIGNON Falpha wrong",
            "SET WAIT", "SET NODRAW", "RESIGN", "OBSERVE alpha pw", "PRESS TO ALL\nhello\nENDPRESS", "BECOME MASTER"]


class Generator:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.n = 0
        self.sent: list[FuzzMail] = []

    def ascii_address(self) -> str:
        return f"{self.r.choice(['ann', 'bob', 'cy', 'dee', 'eve'])}{self.r.randrange(50)}@players.test"

    def headers(self, frm: str, *, subject: str = "orders", extra: list[str] | None = None,
                message_id: str | None = "") -> tuple[list[str], str | None]:
        self.n += 1
        mid = f"fuzz{self.n}.{self.r.randrange(10**9)}@players.test" if message_id == "" else message_id
        lines = [f"From: {frm}", f"To: {JUDGE}", f"Subject: {subject}", "Date: Mon, 2 Mar 2026 12:00:00 +0000"]
        if mid is not None:
            lines.append(f"Message-ID: <{mid}>")
        return lines + (extra or []), mid

    def build(self, kind: str, head: list[str], body: bytes | str, mail_from: str, mid: str | None,
              auto: bool = False, mime: list[str] | None = None) -> FuzzMail:
        if isinstance(body, str):
            body = body.encode("utf-8")
        top = "\r\n".join(head + (mime if mime is not None else
                                   ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8"]))
        raw = top.encode("utf-8") + b"\r\n\r\n" + body.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        mail = FuzzMail(kind, raw, mail_from, auto, mid)
        self.sent.append(mail)
        return mail

    # -- the shapes ---------------------------------------------------------------------------------
    def plain(self) -> FuzzMail:
        frm = self.ascii_address()
        lines = [self.r.choice(COMMANDS + ORDERS) for _ in range(self.r.randrange(1, 12))]
        head, mid = self.headers(frm)
        return self.build("plain", head, "\n".join(lines) + "\n", frm, mid)

    def utf8_from(self) -> FuzzMail:
        frm = self.r.choice(UTF8_ADDRESSES)
        head, mid = self.headers(f"{self.r.choice(NAMES).title()} <{frm}>", subject="ordres été")
        return self.build("utf8_from", head, "HELP\nLIST\n", frm, mid)

    def utf8_reply_to(self) -> FuzzMail:
        frm = self.ascii_address()
        head, mid = self.headers(frm, extra=[f"Reply-To: {self.r.choice(UTF8_ADDRESSES)}"])
        return self.build("utf8_reply_to", head, "HELP\n", frm, mid)

    def utf8_register(self) -> FuzzMail:
        frm = self.r.choice(UTF8_ADDRESSES)
        name = f"{self.r.choice(NAMES)}{self.r.randrange(1000)}"
        head, mid = self.headers(frm)
        return self.build("utf8_register", head, f"REGISTER {name} pw{self.r.randrange(99)}\n", frm, mid)

    def utf8_set_address(self) -> FuzzMail:
        frm = self.ascii_address()
        name = f"u{self.n}x{self.r.randrange(10**6)}"
        body = f"REGISTER {name} secret{self.n}\nSET ADDRESS {self.r.choice(UTF8_ADDRESSES)}\nLIST\n"
        head, mid = self.headers(frm)
        return self.build("utf8_set_address", head, body, frm, mid)

    def deep_mime(self) -> FuzzMail:
        depth = self.r.choice([2, 5, 29, 31, 100, 500, 900, 1000, 1200])
        frm = self.ascii_address()
        head, mid = self.headers(frm)
        parts = [f'Content-Type: multipart/mixed; boundary="d{i}"\r\n\r\n--d{i}\r\n' for i in range(1, depth)]
        body = "".join(parts) + "Content-Type: text/plain\r\n\r\nHELP\r\n" + "".join(
            f"--d{i}--\r\n" for i in reversed(range(1, depth)))
        return self.build("deep_mime", head, "--d0\r\n" + body + "--d0--\r\n", frm, mid,
                          mime=["MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="d0"'])

    def deep_mime_spelled(self, spelling: str | None = None, depth: int | None = None) -> FuzzMail:
        """Nested as deep_mime, each level's header in one of shapes.json's spellings, with CRLF, LF or
        lone CR line ends (the boundary lines are the ones the email parser reads from it)."""
        spelling = spelling or self.r.choice(sorted(NESTINGS))
        depth = depth or self.r.choice([2, 5, 29, 31, 100, 1000])
        eol = self.r.choice(["\r\n", "\n", "\r"])
        frm = self.ascii_address()
        head, mid = self.headers(frm)
        opening, closing = [], []
        for level in range(depth):
            header = NESTINGS[spelling].replace("{b}", f"d{level}")
            opening.append(f"Content-Type: {header}{eol}{eol}")
            boundary = _parsers_boundary(header)
            if boundary is not None:
                opening.append(f"--{boundary}{eol}")
                closing.append(f"--{boundary}--{eol}")
        text = "\r\n".join(head) + "\r\nMIME-Version: 1.0\r\n" + "".join(opening) + \
            f"Content-Type: text/plain{eol}{eol}HELP{eol}" + "".join(reversed(closing))
        mail = FuzzMail("deep_mime_spelled", text.replace("\r\n", eol).encode(), frm, False, mid)
        self.sent.append(mail)
        return mail

    def own_address(self) -> FuzzMail:
        """The judge's own address (or a subaddress of it) as envelope sender, From, Sender or Reply-To:
        its own mail come back or a forgery, never to be answered."""
        own = self.r.choice([JUDGE, "JUDGE@dip.test", f"judge+alpha.t{self.r.randrange(999)}@dip.test",
                             "judge+beta@dip.test"])
        frm = self.ascii_address()
        where = self.r.choice(["envelope", "From", "Sender", "Reply-To"])
        head, mid = self.headers(own if where == "From" else frm,
                                 extra=[f"{where}: {own}"] if where in ("Sender", "Reply-To") else [])
        return self.build("own_address", head, "HELP\nLIST\n", own if where == "envelope" else frm, mid, auto=True)

    def many_parts(self) -> FuzzMail:
        count = self.r.choice([3, 50, 499, 501, 3000])
        frm = self.ascii_address()
        head, mid = self.headers(frm)
        body = "".join(f"--p\r\nContent-Type: text/plain\r\n\r\nHELP {i}\r\n" for i in range(count)) + "--p--\r\n"
        return self.build("many_parts", head, body, frm, mid,
                          mime=["MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="p"'])

    def huge_help(self) -> FuzzMail:
        frm = self.r.choice([self.ascii_address(), "victim@forged.test"])
        head, mid = self.headers(frm)
        return self.build("huge_help", head, "HELP\n" * self.r.choice([2000, 50_000, 120_000]), frm, mid)

    def many_orders(self) -> FuzzMail:
        frm = self.ascii_address()
        head, mid = self.headers(frm)
        lines = self.r.choice([1_000, 20_000, 80_000])
        body = "SIGNON Falpha pw\n" + "".join(self.r.choice(ORDERS) + "\n" for _ in range(lines))
        return self.build("many_orders", head, body, frm, mid)

    def bad_charset(self) -> FuzzMail:
        frm = self.ascii_address()
        head, mid = self.headers(frm, subject="=?x-unknown?q?caf=E9?= =?utf-8?b?!!!?=")
        charset = self.r.choice(["x-unknown", "utf-7", "utf-8", "iso-2022-jp", "ebcdic", "", "utf-16"])
        body = self.r.choice([b"HELP\n\xff\xfe\xc3(\n", "HÉLP\nA Pàr - Bür\n".encode("latin-1"),
                              b"+ZeVnLIqe-\nHELP\n", bytes(self.r.randrange(256) for _ in range(300))])
        enc = self.r.choice(["8bit", "base64", "quoted-printable", "x-uuencode", "7bit"])
        if enc == "base64" and self.r.random() < 0.5:
            body = base64.b64encode(body)[:-3] + b"!!"       # broken base64
        return self.build("bad_charset", head, body, frm, mid, mime=[
            "MIME-Version: 1.0", f"Content-Type: text/plain; charset={charset}", f"Content-Transfer-Encoding: {enc}"])

    def broken_headers(self) -> FuzzMail:
        frm = self.ascii_address()
        variant = self.r.randrange(7)
        head, mid = self.headers(frm)
        if variant == 0:
            head = [h for h in head if not h.startswith("From:")]
        elif variant == 1:
            head.append("This line has no colon at all")
        elif variant == 2:
            head.append("X-Long: " + "a" * 20_000)
        elif variant == 3:
            head.append("From: second@players.test")
            head.append("Reply-To: <<<>>>@@@")
        elif variant == 4:
            head.append("Content-Type: multipart/mixed")          # no boundary at all
        elif variant == 5:
            head.append("Subject: =?utf-8?q?\x00nul?=")
        else:
            head.append("From: " + "=?utf-8?b?" + base64.b64encode("Jöhn".encode()).decode() + "?= <>")
        return self.build("broken_headers", head, "HELP\n", frm, mid, mime=[])

    def auto(self) -> FuzzMail:
        frm = self.ascii_address()
        choice = self.r.randrange(7)
        extra, mail_from = [], frm
        if choice == 0:
            extra = ["Auto-Submitted: auto-replied"]
        elif choice == 1:
            extra = ["Auto-Submitted: auto-generated"]
        elif choice == 2:
            extra = ["Precedence: bulk"]
        elif choice == 3:
            extra = ["List-Id: <dip.lists.players.test>"]
        elif choice == 4:
            mail_from = ""
        elif choice == 5:
            extra = ["X-Autoreply: yes"]
        else:
            frm = mail_from = "mailer-daemon@players.test"
        head, mid = self.headers(frm, subject="Out of office", extra=extra)
        return self.build("auto", head, "I am away until Monday.\nHELP\n", mail_from, mid, auto=True)

    def suppress(self) -> FuzzMail:
        frm = self.ascii_address()
        head, mid = self.headers(frm, extra=["X-Auto-Response-Suppress: All"])
        return self.build("suppress", head, "HELP\n", frm, mid)

    def replay(self) -> FuzzMail:
        earlier = [m for m in self.sent if m.kind not in ("replay",)]
        if not earlier:
            return self.plain()
        old = self.r.choice(earlier)
        raw = old.raw if self.r.random() < 0.5 else b"X-Replayed: 1\r\n" + old.raw
        mail = FuzzMail("replay", raw, old.mail_from, old.auto, old.message_id)
        self.sent.append(mail)
        return mail

    def garbage(self) -> FuzzMail:
        frm = self.ascii_address()
        raw = bytes(self.r.randrange(256) for _ in range(self.r.randrange(0, 2000)))
        mail = FuzzMail("garbage", raw, frm, False, None)
        self.sent.append(mail)
        return mail

    # -- the mix ------------------------------------------------------------------------------------
    WEIGHTS = {"plain": 20, "utf8_from": 8, "utf8_reply_to": 8, "utf8_register": 6, "utf8_set_address": 6,
               "deep_mime": 5, "deep_mime_spelled": 5, "many_parts": 3, "huge_help": 1, "many_orders": 1,
               "bad_charset": 10, "own_address": 5,
               "broken_headers": 10, "auto": 10, "suppress": 4, "replay": 5, "garbage": 3}

    def next(self) -> FuzzMail:
        kinds = list(self.WEIGHTS)
        kind = self.r.choices(kinds, weights=[self.WEIGHTS[k] for k in kinds])[0]
        return getattr(self, kind)()


def _parsers_boundary(header: str) -> str | None:
    """The boundary the email parser reads from a Content-Type header (None: it does not nest by one)."""
    from email import policy
    from email.message import Message
    msg = Message(policy=policy.default)
    msg.set_raw(*policy.default.header_source_parse([f"Content-Type: {header}\r\n"]))
    return msg.get_boundary() if msg.get_content_maintype() == "multipart" else None
