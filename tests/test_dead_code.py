"""No dead code: every function, method and class defined under judge/ is named somewhere outside
its own body, in the code, the tests, the benches, the templates, the grammars or the packaging
(docs do not count: a function only the docs name is one nobody runs). A name used only inside
code that is itself dead is dead too. Names a framework calls are listed, with why, in
tests/data/lint/called_from_outside.txt.

The check is by name, so a dead method that shares its name with a live one goes unseen; what it
finds, though, is certainly dead."""
from __future__ import annotations

import ast
import re
import subprocess
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NOT_CODE = (".md", ".png", ".svg", ".gz", ".sqlite", ".eml", ".jsonl", ".pdf", ".jpg")


def framework_names() -> set[str]:
    lines = (ROOT / "tests" / "data" / "lint" / "called_from_outside.txt").read_text().splitlines()
    return {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}


def repository_texts() -> dict[str, str]:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    texts = {}
    for name in files:
        path = ROOT / name
        if name.endswith(NOT_CODE) or not path.is_file():
            continue
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return texts


def dead_definitions(texts: dict[str, str], outside: set[str]) -> list[str]:
    """file:line: name of each definition under judge/ named nowhere but in its own body or in
    other dead code."""
    everywhere = Counter(w for text in texts.values() for w in WORD.findall(text))
    defs = []   # (name, where, the words of its own source)
    for name, text in texts.items():
        if not (name.startswith("judge/") and name.endswith(".py")):
            continue
        lines = text.split("\n")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                    and not (node.name.startswith("__") and node.name.endswith("__")) and node.name not in outside:
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                own = Counter(WORD.findall("\n".join(lines[first - 1:node.end_lineno])))
                defs.append((node.name, f"{name}:{node.lineno}", own))
    dead: set[int] = set()
    while True:
        used = everywhere.copy()
        for i in dead:
            used.subtract(defs[i][2])
        more = {i for i, (n, _, own) in enumerate(defs) if i not in dead and used[n] - own[n] <= 0}
        if not more:
            return sorted(f"{defs[i][1]}: {defs[i][0]}" for i in dead)
        dead |= more


def test_every_definition_is_used():
    assert dead_definitions(repository_texts(), framework_names()) == []


def test_the_names_called_from_outside_are_defined():
    """The list does not outlive the code it excuses."""
    defined = {node.name for path in (ROOT / "judge").rglob("*.py") for node in ast.walk(ast.parse(path.read_text()))
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    assert framework_names() - defined == set()


def test_dead_code_is_found():
    """The check can fail: a function nobody calls, and one called only by it, are both found."""
    texts = {"judge/x.py": "def unused():\n    return helper()\n\n\ndef helper():\n    return 1\n",
             "judge/y.py": "def used():\n    return 2\n", "tests/test_y.py": "from judge.y import used\n"}
    assert dead_definitions(texts, set()) == ["judge/x.py:1: unused", "judge/x.py:5: helper"]
