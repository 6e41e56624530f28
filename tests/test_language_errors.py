"""Malformed order lines: each gives its line, its text, the problem, what was expected
and suggestions; and no text at all makes the parser raise anything else."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from judge.engine import load_variant
from judge.engine.calendar import PhaseKind
from judge.language import OrderReader, OrderSyntaxError, parse_orders

DATA = Path(__file__).parent / "data" / "language"
READER = OrderReader(load_variant("standard"))
ROWS = [tuple(line.split("\t")) for line in (DATA / "malformed.tsv").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")]


def test_enough_malformed_lines():
    assert len(ROWS) >= 150


@pytest.mark.parametrize("phase,text,problem,suggestion", ROWS, ids=[r[1] for r in ROWS])
def test_malformed_line(phase, text, problem, suggestion):
    good_first_line = {"M": "A Mun H", "R": "A Mun D", "A": "waive"}[phase]
    result = READER.parse(good_first_line + "\n" + text, PhaseKind(phase))
    (error,) = result.errors
    assert error.line == 2 and error.text == text.strip()
    assert problem.lower() in error.problem.lower(), str(error)
    if suggestion:
        assert any(suggestion in s for s in error.suggestions) or suggestion in error.expected, str(error)
    assert error.expected or error.suggestions


ORDERISH = st.lists(st.sampled_from(
    ["A", "F", "a/f", "Par", "Bur", "Mid-Atlantic", "Ocean", "St", "Pete", "-", "->", "=>", "S", "C", "H", "via",
     "convoy", "(nc)", "/sc", "north", "coast", "build", "waive", "remove", "disband", "Nor", "England:", ";", ",",
     "\u2013", "\u00a0", "(", ")", "/", "R", "to", "Russian", "\n", "Burgandy", "x"]), max_size=12).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=80), ORDERISH), st.sampled_from(list(PhaseKind)))
def test_arbitrary_text_raises_only_the_parser_error(text, phase):
    try:
        result = parse_orders(text, READER, phase)
    except OrderSyntaxError:
        return
    for e in result.errors:
        assert e.line >= 1 and e.problem
