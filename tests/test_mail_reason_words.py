"""The words for the engine's reason codes: every code has them, and a result stored before the
codes (a sentence in `detail`) reads as it did, beside the same outcome stored with its code."""
from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.engine.outcomes import Reason, Why
from judge.mail.words.outcome_words import explain
from judge.mail.words.reason_words import _TAIL, REASONS, WORDS, because

V = load_variant("standard")
CASES = json.loads((Path(__file__).parent / "data" / "reason_words" / "outcomes.json").read_text())["cases"]


def test_every_code_and_every_reason_has_words():
    assert set(WORDS) == set(Why) and set(REASONS) == set(Reason)


@pytest.mark.parametrize("why", list(Why), ids=lambda w: w.value)
def test_each_code_reads_as_a_sentence_with_the_places_named(why):
    # as many provinces as its words name (then coasts for a list of them), each given by its id
    fields = [f for _, f, spec, _ in string.Formatter().parse(WORDS[why]) if f is not None]
    specs = [spec for _, f, spec, _ in string.Formatter().parse(WORDS[why]) if f is not None and f.isdigit()]
    sample = {"province": "stp", "quoted": "xyz", "power": "RUSSIA", "unit": "F stp/sc", "coast": "sc",
              "kind": "F", "units": "2", "": "build"}
    args = tuple(sample[spec] for spec in specs)
    rest = {"coasts": ("nc", "sc"), "places": ("mos", "lvn"), "centres": ("mos", "war"), "either": ("mos", "war")}
    tail = [spec for _, f, spec, _ in string.Formatter().parse(WORDS[why]) if f == "rest"]
    if tail:
        assert len(args) == _TAIL[why]
        args += rest["places" if tail[0].startswith("your ") else tail[0]]   # {rest:your home centre}: places
    text = because(V, why, args)
    assert text and "{" not in text and "stp" not in text
    if "0" in fields and specs[0] == "province":
        assert "St Petersburg" in text


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_a_result_stored_before_the_codes_reads_as_it_did_and_as_the_new_one(case):
    old = case["old"]
    new = {k: v for k, v in old.items() if k != "detail"} | case["new"]
    assert explain(V, old, {}) == case.get("old_words", case["words"])
    assert explain(V, new, {}) == case["words"]
