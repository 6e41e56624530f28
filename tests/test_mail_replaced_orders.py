"""An order that replaces one stored from an earlier mail says so in the reply, through the real
dispatcher (the cases of tests/data/mail/replaced_orders.json); a fleet ordered built in an inland
centre is told it has no coast, also when an army stands there."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "replaced_orders.json").read_text(encoding="utf-8"))
SIGNON = "SIGNON Falpha france-pw"


def notes(body: str) -> list[str]:
    """Each "note:" of the reply, its wrapped lines joined."""
    found: list[str] = []
    for line in body.splitlines():
        text = line.strip()
        if text.startswith("note: "):
            found.append(text.removeprefix("note: "))
        elif found and line.startswith("            ") and text:
            found[-1] += " " + text     # a note wrapped onto the next line
    return found


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["name"] for c in DATA["cases"]])
def test_an_order_replacing_an_earlier_mails_says_so(playing, case):
    first = playing.reply_to("france@dip.test", "\n".join([SIGNON, *case["earlier"]]))
    assert "ERROR" not in first.body, first.body
    reply = playing.reply_to("france@dip.test", "\n".join([SIGNON, *case["later"]]))
    assert "ERROR" not in reply.body, reply.body
    assert notes(reply.body.split("===")[0]) == case["notes"], reply.body


def test_a_fleet_ordered_built_inland_is_told_it_has_no_coast(playing):
    j = playing
    for orders in (["F Kie - Den"], []):     # Germany takes Denmark in 1901; its army stays in Munich
        if orders:
            j.reply_to("germany@dip.test", "\n".join(["SIGNON Galpha germany-pw", *orders]))
        phase = j.service.status("alpha").phase
        j.reply_to("gm@dip.test", f"SIGNON Malpha gm-secret\nPROCESS {phase}")
    assert j.service.status("alpha").phase == "W1901A"
    body = " ".join(j.reply_to("germany@dip.test", "SIGNON Galpha germany-pw\nbuild F Mun").body.split())
    assert "a fleet cannot be built in Munich: it has no coast" in body, body
    assert "occupied" not in body, body
