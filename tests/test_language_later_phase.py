"""The phase a PHASE line names, as njudge's players write it (tests/data/language/later_phase.json)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine.variant import load_variant
from judge.language.later_phase import read_phase

CASES = json.loads((Path(__file__).parent / "data" / "language" / "later_phase.json").read_text())["cases"]
CALENDAR = load_variant("standard").calendar


@pytest.mark.parametrize("case", CASES, ids=[c["words"] for c in CASES])
def test_the_phase_named_is_read_or_refused_in_the_players_words(case):
    if "error" in case:
        with pytest.raises(ValueError, match=case["error"]):
            read_phase(CALENDAR, case["words"])
    else:
        assert CALENDAR.code(read_phase(CALENDAR, case["words"])) == case["code"]
