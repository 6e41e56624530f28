"""Phase lengths set by mail in hours or in minutes, and said back as set: the cases of
tests/data/mail/phase_lengths.json, through the real dispatcher."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "phase_lengths.json").read_text(encoding="utf-8"))


@pytest.fixture
def judge(judge):
    judge.service.create_account("gm", "gm@dip.test", "gm-secret")
    judge.service.create_game("alpha", master="gm")
    return judge


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["set"] for c in DATA["cases"]])
def test_a_phase_length_in_hours_or_minutes(judge, case):
    before = judge.service.status("alpha").settings
    text = " ".join(judge.reply_to("gm@dip.test", f"SIGNON Malpha gm-secret\n{case['set']}").body.split())
    settings = judge.service.status("alpha").settings
    if "refused" in case:
        assert case["refused"] in text, text
        assert settings == before
        return
    assert case["said"] in text, text
    assert settings[case["field"]] == pytest.approx(case["hours"])
    summary = " ".join(judge.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nSUMMARY alpha").body.split())
    word = case["said"].split(" of ")[0]
    shown = case["said"].split(": ")[1].split(" ")[0]
    assert f"{word} {shown};" in summary, summary
