"""Words are compared by code, never by rendered text: no comparison in judge/ has for an operand
what a words function returns (a function of judge/mail/words/ or judge/language/render.py that
returns a str, or an entry of a table of words), and no template compares what a helper that makes
words returns (`player` gives an account's name, an id, and is not one of them).
A sentence a player reads may be reworded at any time; the decisions made on it must not change
with it. (Stored data from before the codes is compared as the data it is: a named constant.)"""
from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORDS_MODULES = [*sorted((ROOT / "judge" / "mail" / "words").glob("*.py")), ROOT / "judge" / "language" / "render.py"]
WORD_TABLES = {"REASONS", "WORDS", "_DONE", "_FAILED"}
# The notices' helpers that make words (judge.mail.words.notices.notice_context)
WORD_HELPERS = "when|left|power|adjective|place|phase_name|names|units_of|fail"
# `helper(...) ==` or `== helper(...)` in a Jinja expression
TEMPLATE_COMPARISON = re.compile(rf"\b(?:{WORD_HELPERS})\([^(){{}}]*\)\s*[!=]=|[!=]=\s*(?:{WORD_HELPERS})\(")


@cache     # (parsing the words modules is most of each test's cost: done once for all of judge/'s files)
def word_functions() -> frozenset[str]:
    names = set()
    for path in WORDS_MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None \
                    and ast.unparse(node.returns).strip("'\"") == "str":
                names.add(node.name)
    return frozenset(names)


def rendered(node: ast.expr, functions: frozenset[str]) -> bool:
    if isinstance(node, ast.Call):
        f = node.func
        return (f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "") in functions
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id in WORD_TABLES
    return False


def comparisons_of_words(source: str, functions: frozenset[str]) -> list[int]:
    """Lines of `source` comparing (==, !=, in, not in) a words function's result or a table's words."""
    return [node.lineno for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Compare)
            and any(isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops)
            and any(rendered(x, functions) for x in [node.left, *node.comparators])]


@pytest.mark.parametrize("path", sorted((ROOT / "judge").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_code_compares_rendered_words(path):
    assert comparisons_of_words(path.read_text(), word_functions()) == []


@pytest.mark.parametrize("path", sorted((ROOT / "templates").glob("*.j2")), ids=lambda p: p.name)
def test_no_template_compares_the_words_a_helper_makes(path):
    found = [line for line in path.read_text().splitlines() if TEMPLATE_COMPARISON.search(line)]
    assert found == []


def test_the_checks_can_fail():
    """What the two checks above look for is found where it is."""
    functions = word_functions()
    assert {"because", "detail_words", "duration", "describe"} <= functions
    assert comparisons_of_words("ok = detail != because(v, Why.OWN_UNIT)\n", functions) == [1]
    assert comparisons_of_words("ok = text == REASONS[reason]\n", functions) == [1]
    assert comparisons_of_words("ok = why is Why.OWN_UNIT and code == 'own_unit'\n", functions) == []
    assert TEMPLATE_COMPARISON.search('{% if left(times) == "passed" %}')
    assert TEMPLATE_COMPARISON.search('{% if "Spring" == phase_name(p.phase) %}')
    assert not TEMPLATE_COMPARISON.search('{% if p.reason == "absence" or recipient == player(p.power) %}')
