"""The replies players found unclear (issue 14, item 9), each tried as a new user would, by mail."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine import load_variant, starting_position
from judge.engine.calendar import PhaseKind
from judge.language.parse import OrderReader
from mailjudge import MailJudge

DATA = Path(__file__).parent / "data" / "mail" / "replies"
REACH = json.loads((DATA / "reach.json").read_text())["cases"]
STANDARD = load_variant("standard")


def said(reply) -> str:
    return " ".join(reply.body.split())


@pytest.fixture
def judge(tmp_path):
    j = MailJudge(tmp_path)
    yield j
    j.close()


@pytest.mark.parametrize("case", REACH, ids=[c["line"] for c in REACH])
def test_a_destination_not_understood_suggests_only_places_the_unit_can_reach(case):
    reader = OrderReader(STANDARD)
    parsed = reader.parse(case["line"], PhaseKind.MOVEMENT, power="ENGLAND", position=starting_position(STANDARD))
    [error] = parsed.errors
    assert list(error.suggestions) == case["suggest"] and error.expected.endswith("can reach")
    assert not set(error.suggestions) & set(case["never"])


def test_the_reply_by_mail_suggests_edinburghs_neighbours(judge):
    judge.seven_players()
    r = said(judge.reply_to("england@dip.test", "SIGNON Ealpha england-pw\nF Edi - Nrt"))
    assert "expected: a place a fleet in Edinburgh can reach did you mean: North Sea or Norwegian Sea" in r
    assert "North Atlantic" not in r
