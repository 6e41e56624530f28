"""A ranked power preference list, as njudge's players give it (`SET PREFERENCE E[FG]R`, `JOIN game
password E F G`): read (tests/data/mail/preferences.json, one test per row), stored with the signup,
and used when the game starts: the seats go by the smallest total rank, equal ranks counting alike."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine.variant import load_variant
from judge.mail.commands.preferences import read_preferences
from mailjudge import POWERS, MailJudge

CASES = json.loads((Path(__file__).parent / "data" / "mail" / "preferences.json").read_text())["cases"]
STANDARD = load_variant("standard")


@pytest.mark.parametrize("case", CASES, ids=[c["words"] for c in CASES])
def test_a_ranked_list_is_read_as_njudge_writes_it(case):
    if "error" in case:
        with pytest.raises(ValueError, match=case["error"].replace("[", r"\[")):
            read_preferences(STANDARD, case["words"])
    else:
        assert read_preferences(STANDARD, case["words"]) == case["ranked"]


@pytest.fixture
def forming(tmp_path):
    j = MailJudge(tmp_path)
    j.service.create_account("gm", "gm@dip.test", "gm-pw")
    j.service.create_game("beta", master="gm", settings={"pictures": False})
    for p in POWERS:
        j.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
    yield j
    j.close()


def said(sent) -> str:
    return " ".join(sent.body.split())


def test_preferences_by_mail_decide_the_seats(forming):
    r = said(forming.reply_to("england@dip.test", "JOIN beta england-pw E F G"))
    assert "your preferences: England, then France, then Germany" in r
    r = said(forming.reply_to("france@dip.test", "JOIN beta france-pw\nSET PREFERENCE E[FG]R"))
    assert "your preferences in beta: England, then France or Germany, then Russia" in r
    r = said(forming.reply_to("germany@dip.test", "JOIN beta germany-pw\nSET PREFERENCE E[FG"))
    assert "a bracket is not closed" in r and "column" not in r
    r = said(forming.reply_to("italy@dip.test", "SET PREFERENCE IT"))
    assert "JOIN game password, then SET PREFERENCE" in r
    forming.reply_to("france@dip.test", "SIGNON ?beta france-pw\nSET PREFERENCE [GF]E")
    forming.reply_to("germany@dip.test", "SIGNON ?beta germany-pw\nSET PREFERENCE G")
    for p in ("austria", "italy", "russia", "turkey"):
        forming.reply_to(f"{p}@dip.test", f"JOIN beta {p}-pw {p[0].upper()}")
    powers = {info.account: p for p, info in forming.service.status("beta").powers.items()}
    # the one assignment where everyone has a first choice: France's F and G rank alike, Germany took G
    assert powers == {p.lower(): p for p in POWERS}
