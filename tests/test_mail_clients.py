"""Real mail from real clients: each raw message in tests/data/mail/clients/ must read as
the commands and orders its sender typed, and nothing else (see the README there).

Each message goes the way the judge takes it: bytes parsed as the archive parses them,
`clean_body`, then `parse_message` with the standard map in the phase the manifest
names. Quoted orders from an earlier mail must not be read; greetings and sign-offs
are ignored lines, never errors. Where a message also carries an HTML alternative,
that alternative alone must give the same commands and orders.
"""
from __future__ import annotations

import json
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.engine.calendar import PhaseKind
from judge.engine.notation import order_text
from judge.language import (CommandItem, CommandReader, OrderBlock, OrderContext, OrderReader, clean_body,
                            clean_text, parse_message)
from judge.language.clean import attachments
from judge.language.mailbody import part_text

CLIENTS = Path(__file__).parent / "data" / "mail" / "clients"
MANIFEST = json.loads((CLIENTS / "expected.json").read_text(encoding="utf-8"))
READER = OrderReader(load_variant("standard"))
COMMANDS = CommandReader()


def read_mail(name: str):
    return message_from_bytes((CLIENTS / name).read_bytes(), policy=policy.default)


def reading(text: str, expect: dict) -> dict:
    phase = PhaseKind[expect.get("phase", "movement").upper()]
    message = parse_message(text, lambda signon: OrderContext(READER, phase, "FRANCE"), commands=COMMANDS)
    return {
        "commands": [i.text for i in message.items if isinstance(i, CommandItem)],
        "orders": [order_text(o.order) for i in message.items if isinstance(i, OrderBlock) for o in i.parse.orders],
        "errors": [e.text for e in message.errors],
        "ignored": [i.text for i in message.ignored],
    }


def test_the_corpus_has_every_message_in_its_manifest():
    files = {p.name for p in CLIENTS.glob("*.eml")}
    assert len(files) >= 25
    assert files == set(MANIFEST)


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_client_mail_reads_as_its_sender_meant(name):
    expect = MANIFEST[name]
    mail = read_mail(name)
    got = reading(clean_body(mail), expect)
    wanted = {key: expect.get(key, []) for key in ("commands", "orders", "errors", "ignored")}
    assert got == wanted
    assert attachments(mail) == expect.get("attachments", [])


def _html_alternatives(mail):
    for part in mail.walk():
        if part.get_content_type() == "multipart/alternative":
            kinds = [p.get_content_type() for p in part.iter_parts()]
            if "text/plain" in kinds and "text/html" in kinds:
                yield next(p for p in part.iter_parts() if p.get_content_type() == "text/html")


WITH_HTML = sorted(n for n in MANIFEST if any(True for _ in _html_alternatives(read_mail(n))))


def test_enough_messages_carry_an_html_alternative():
    assert len(WITH_HTML) >= 10


@pytest.mark.parametrize("name", WITH_HTML)
def test_html_alternative_gives_the_same_orders(name):
    expect = MANIFEST[name]
    html = next(_html_alternatives(read_mail(name)))
    got = reading(clean_text(part_text(html)), expect)
    assert (got["commands"], got["orders"]) == (expect.get("commands", []), expect["orders"])
