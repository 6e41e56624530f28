"""Press addressed as njudge and DPjudge players address it goes to exactly those powers
(tests/data/mail/press_recipients.json, one test per row), and a press whose recipients cannot be read
is refused, never sent to everyone; by mail, `PRESS TO ALL BUT G` reaches every power but Germany."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine.variant import load_variant
from judge.mail.commands.press_recipients import UnreadableRecipient, read_recipients
from test_mail_master_power import answer, playing, to  # noqa: F401 - the fixture, used by name

CASES = json.loads((Path(__file__).parent / "data" / "mail" / "press_recipients.json").read_text())["cases"]
STANDARD = load_variant("standard")
IN_GAME = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@pytest.mark.parametrize("case", CASES, ids=[c["words"] or "(none)" for c in CASES])
def test_recipients_are_read_as_written(case):
    words = tuple(case["words"].split())
    if "error" in case:
        with pytest.raises(UnreadableRecipient) as refused:
            read_recipients(STANDARD, words, IN_GAME, "FRANCE")
        assert refused.value.word == case["error"]
        return
    chosen = read_recipients(STANDARD, words, IN_GAME, "FRANCE")
    assert (None if chosen.powers is None else list(chosen.powers)) == case["to"]
    assert list(chosen.excluded) == case.get("not", [])


def test_all_but_a_power_by_mail_leaves_it_out(playing):  # noqa: F811 - the fixture
    sent = playing.send("france@dip.test",
                        "SIGNON Falpha france-pw\nPRESS TO ALL BUT G\nNot a word to the Kaiser.\nENDPRESS")
    reply = " ".join(to(sent, "france@dip.test")[0].body.split())
    assert "press sent to Austria, England, Italy, Russia, Turkey, the master (not Germany)" in reply
    assert [s for s in to(sent, "germany@dip.test") if "Kaiser" in s.body] == []
    for power in ("austria", "england", "italy", "russia", "turkey"):
        assert any("Not a word to the Kaiser." in s.body for s in to(sent, f"{power}@dip.test")), power


def test_unreadable_recipients_send_nothing(playing):  # noqa: F811 - the fixture
    sent = playing.send("france@dip.test",
                        "SIGNON Falpha france-pw\nPRESS TO ALL BUT Gremlins\nSecret.\nENDPRESS")
    reply = " ".join(to(sent, "france@dip.test")[0].body.split())
    assert "'Gremlins' is not a power in alpha" in reply and "the press was not sent" in reply
    assert [s for s in sent if "Secret." in s.body] == []


def test_letters_run_together_and_all_but_two_by_mail_reach_exactly_those(playing):  # noqa: F811 - the fixture
    sent = playing.send("france@dip.test", "SIGNON Falpha france-pw\nPRESS TO EG\nNorth Sea plans.\nENDPRESS\n"
                        "PRESS TO ALL BUT E F\nWest is busy.\nENDPRESS")
    got = {p: [s.text for s in to(sent, f"{p}@dip.test")] for p in
           ("austria", "england", "germany", "italy", "russia", "turkey")}
    for power, mails in got.items():
        assert any("North Sea plans." in m for m in mails) == (power in ("england", "germany")), power
        assert any("West is busy." in m for m in mails) == (power != "england"), power
