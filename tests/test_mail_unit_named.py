"""The unit named in an order is the unit that is there (issue 23, item 2), by mail through the real
dispatcher: the cases of tests/data/mail/unit_named.json, and what a game keeps and publishes of an
order that named the wrong coast (the results mail, the history, EXPORT)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine.notation import order_text
from judge.games.ordercodec import order_from_json
from judge.mail.outbound.courier import Courier
from mailjudge import MailJudge

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "unit_named.json").read_text(encoding="utf-8"))
CASES = DATA["cases"]


def words(text: str) -> str:
    return " ".join(text.split())  # the reply wraps long notes within 77 columns


def signon(power: str) -> str:
    return f"SIGNON {power[0]}alpha {power.lower()}-pw"


def play(j: MailJudge, phases: list[dict[str, list[str]]]) -> None:
    """Each phase's orders sent by mail, then played by the master's PROCESS by mail."""
    for orders in phases:
        for power, lines in orders.items():
            reply = j.reply_to(f"{power.lower()}@dip.test", "\n".join([signon(power), *lines]))
            assert "ERROR" not in reply.body, reply.body
        phase = j.service.status("alpha").phase
        done = words(j.reply_to("gm@dip.test", f"SIGNON Malpha gm-secret\nPROCESS {phase}").body)
        assert f"alpha {phase}: processed" in done, done


def stored(j: MailJudge, power: str, line: str) -> list[str]:
    """The orders the game keeps for what was written as `line`, in canonical notation."""
    return [order_text(order_from_json(o["read"])) for o in j.service.confirmation("alpha", power).orders
            if o["written"] == line]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['line']}@{c['setup']}" for c in CASES])
def test_an_order_names_the_unit_that_is_there(playing, case):
    j = playing
    play(j, DATA["setups"][case["setup"]])
    power, line = case["power"], case["line"]
    reply = j.reply_to(f"{power.lower()}@dip.test", f"{signon(power)}\n{line}")
    said = words(reply.body)
    if "error" in case:
        assert f"ERROR on line 2: {line} {case['error']}" in said, reply.body
        shown = [s.strip() for s in reply.body.splitlines() if s.strip().startswith("did you mean:")]
        assert shown == ["did you mean: " + " or ".join(case["suggestions"])], reply.body
        assert stored(j, power, line) == []
        return
    assert "ERROR" not in said, reply.body
    assert stored(j, power, line) == [case["read"]]
    if case["note"]:
        assert f"note: {words(case['note'])}" in said or words(case["note"]) in said, reply.body
    else:
        assert "note:" not in said, reply.body


def test_the_true_unit_is_what_the_results_the_history_and_export_show(playing):
    """`F StP(nc) - Bot` with Russia's fleet on the south coast: every player's results, the game's
    history and its EXPORT give the fleet on the south coast, as the board (and its picture) has it."""
    j = playing
    j.dispatch.courier = Courier(j.service, j.config)    # notices go out after each mail

    def answer(frm: str, body: str):
        [reply] = [s for s in j.send(frm, body) if s.to == [frm] and s.subject.startswith("Re:")]
        return reply

    assert "PICTURES of alpha: off" in answer("gm@dip.test", "SIGNON Malpha gm-secret\nSET PICTURES OFF").text
    answer("russia@dip.test", f"{signon('RUSSIA')}\nF StP(nc) - Gulf of Bothnia")
    before = j.last_outbox_row()
    answer("gm@dip.test", "SIGNON Malpha gm-secret\nPROCESS S1901M")
    results = [s for s in j.outbox(after=before) if "Spring 1901 Movement results" in s.subject]
    assert {to for s in results for to in s.to} >= {"england@dip.test", "russia@dip.test"}
    for sent in results:
        assert "Fleet St Petersburg (south coast) -> Gulf of Bothnia" in sent.text, sent.body
        assert "north coast" not in sent.text, sent.body
    [spring] = [h for h in j.service.history("alpha") if h.phase == "S1901M"]
    russian = [o["order"] for r in spring.results for o in r["outcomes"] if o["power"] == "RUSSIA"]
    assert "F STP/SC - BOT" in russian and not any("STP/NC" in o for o in russian), spring.results
    reply = answer("gm@dip.test", "SIGNON Malpha gm-secret\nEXPORT alpha")
    [record] = [json.loads(p.get_content()) for p in reply.mail.iter_attachments()]
    assert "F STP/SC - BOT" in record["phases"][0]["orders"]["RUSSIA"], record["phases"][0]
    assert "STP/NC" not in json.dumps(record)
