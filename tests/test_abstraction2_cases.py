"""DATC-style cases for Abstraction II's A/F and frozen-region rules (tests/data/abstraction2_cases.json).

Each case quotes the rule sentence it tests and explains the expected result in its description.
A case gives a position (phase, units, centres), orders per power in canonical notation, the result
expected for each order, the units after the phase and the units dislodged; optionally a retreat
phase that follows, in the same shape.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judge.engine import adjudicate, load_variant, notation

VARIANT = load_variant("abstraction2")
CASES = json.loads((Path(__file__).parent / "data" / "abstraction2_cases.json").read_text(encoding="utf-8"))["cases"]


def _units(position) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for u in position.units:
        out.setdefault(u.power, set()).add(notation.unit_text(u.kind, u.location))
    return out


def _play(position, step: dict):
    orders = {p: [notation.parse_order(VARIANT, t) for t in ts] for p, ts in step.get("orders", {}).items()}
    result = adjudicate(VARIANT, position, orders)
    for power, texts in step.get("orders", {}).items():
        for text in texts:
            want = step["results"][text]
            got = [o for o in result.outcomes if o.power == power and o.order == notation.parse_order(VARIANT, text)]
            assert got, f"no outcome for {power} {text}"
            assert got[0].succeeded == (want == "succeeds"), \
                f"{power} {text}: expected {want}, got {got[0].reason.value}: {got[0].why} {got[0].args}"
    assert _units(result.position) == {p: set(us) for p, us in step["after"].items() if us}
    dislodged = {}
    for d in result.dislodged:
        dislodged.setdefault(d.unit.power, set()).add(notation.unit_text(d.unit.kind, d.unit.location))
    assert dislodged == {p: set(us) for p, us in step.get("dislodged", {}).items()}
    return result


# The variant's rules as published (tests/data/rulebooks/abstraction2_rules.txt, a copy of the text in
# the project's shared library); this file's cases cover sections 3 (A/F) and 5 (frozen regions).
RULES_TEXT = (Path(__file__).parent / "data" / "rulebooks" / "abstraction2_rules.txt").read_text(encoding="utf-8")
COVERED_SECTIONS = ("3", "5")
# Sentences of those sections that need no case of their own, and why.
NO_CASE_NEEDED = {
    "In order to avoid circular reasoning, there is an exception to the general rule that disembarkations are "
    "simultaneous with other movement.": "announces the exception; the next sentence states it (case AF.17)",
}


def _flat(text: str) -> str:
    return " ".join(text.split())


def rule_sections(text: str) -> dict[str, str]:
    """Section number -> its text with whitespace flattened ("3" -> "A/F Rules Move Sequence. ...")."""
    found = re.finditer(r"^(\d)\.(.*?)(?=^\d\.|^Additional|\Z)", text, re.S | re.M)
    return {m.group(1): _flat(m.group(2)) for m in found}


def sentences(text: str) -> list[str]:
    """Sentences, leaving out headings ("Fast Ferry.", "A/F Rules Move Sequence." as one)."""
    parts = re.split(r"(?<=\.)\s+(?=[A-Z])|(?<=\))(?=[A-Z])", text)     # ')If': a space lost in the text
    return [p for p in parts if p and not re.fullmatch(r"(?:[A-Z][\w/]*\s?){1,4}\.", p.strip()) and len(p.split()) > 3]


def quoted(rule: str) -> tuple[str, list[str]]:
    """A case's "rule": its section and the pieces of the rules' text it quotes. "..." elides,
    [brackets] are the case's own note, "(assumption)" marks a rule the text leaves open."""
    section, _, body = re.sub(r"\[[^\]]*\]", "", rule).partition(". ")
    if "(assumption)" in body:
        return section, []
    return section, [_flat(piece).strip(" .,") for piece in body.split("...") if _flat(piece).strip(" .,")]


def uncovered(sections: dict[str, str], cases: list[dict]) -> list[str]:
    """The sentences of the covered sections that no case quotes (a quote may span sentences, and a
    sentence may be quoted in part)."""
    pieces = {section: [] for section in sections}
    for case in cases:
        section, quotes = quoted(case["rule"])
        pieces.setdefault(section, []).extend(p.strip(" .,") for q in quotes for p in sentences(q) + [q])
    return [s for section in COVERED_SECTIONS for s in sentences(sections[section])
            if s not in NO_CASE_NEEDED and not any(p in s or s.strip(" .") in p for p in pieces[section] if p)]


def test_every_case_quotes_the_published_rules():
    sections = rule_sections(RULES_TEXT)
    assert set(COVERED_SECTIONS) <= set(sections)
    assert len({c["name"] for c in CASES}) == len(CASES)
    assert all(len(c["description"]) > 40 for c in CASES)
    misquoted = [(c["name"], q) for c in CASES for section, quotes in [quoted(c["rule"])]
                 for q in quotes if q not in sections.get(section, "")]
    assert misquoted == []


def test_every_rule_sentence_has_a_case():
    sections = rule_sections(RULES_TEXT)
    assert len(sentences(sections["3"])) > 20 and len(sentences(sections["5"])) >= 4
    assert uncovered(sections, CASES) == []
    assert all(s in RULES_TEXT.replace("\n", " ") for s in NO_CASE_NEEDED)   # the exemptions are real sentences


def test_a_rule_sentence_without_a_case_is_found():
    sections = rule_sections(RULES_TEXT)
    added = "Fleets in Iceland may not build in June."
    sections["5"] += " " + added
    assert uncovered(sections, CASES) == [added]
    archangel = "Russia may build either fleets or armies in Archangel in March."
    without = [c for c in CASES if not c["rule"].startswith("5. " + archangel)]
    assert len(without) < len(CASES) and uncovered(rule_sections(RULES_TEXT), without) == [archangel]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_abstraction2_case(case):
    position = notation.position_from_json(VARIANT, {"phase": case["phase"], "units": case["units"],
                                                     "centres": case.get("centres", {})})
    result = _play(position, case)
    if "retreat" in case:
        _play(result.position, case["retreat"])
