"""The judge's modules import one another without cycles, read from the source (the AST), not by importing.

Every import counts, a function's local import as much as a top-level one (a local import hides a
cycle, it does not remove it), and so do `importlib.import_module("judge.x")` and a registry's
"judge.x:attribute" string, which importlib loads later. Only imports under `if TYPE_CHECKING:` are
left out: they exist for annotations and never run.

Two levels are checked: modules (judge.games.processing -> judge.games.submissions) and the layers
they belong to (judge.mail, judge.daemon, judge.ops: the first two parts of a name).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

JUDGE = Path(__file__).resolve().parents[1] / "judge"


def modules(package: Path) -> dict[str, Path]:
    """Dotted name -> file, for every module of the package rooted at `package`."""
    found = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking_only(tree: ast.AST) -> set[int]:
    """ids of the import nodes inside `if TYPE_CHECKING:` blocks."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return skipped


def _named(name: str, known: dict[str, Path]) -> str | None:
    """The longest known module that `name` is or lies in
    (judge.mail.intake.archive.MIGRATIONS -> judge.mail.intake.archive)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    root = name.split(".")[0]
    registry = re.compile(rf"^({root}(?:\.\w+)*):\w+$")    # "judge.mail.intake.archive:MIGRATIONS"
    skipped = _type_checking_only(tree)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets: list[str] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from . import processing` names a module; `from .x import f` names something in x
            targets += [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith(("import_module", "__import__")):
            targets += [a.value for a in node.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and registry.match(node.value):
            targets.append(registry.match(node.value).group(1))
    found = {_named(t, known) for t in targets}
    return {t for t in found if t is not None and t != name}


def import_graph(package: Path) -> dict[str, set[str]]:
    known = modules(package)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def layer_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """judge.mail.commands.dispatch -> judge.games.service becomes judge.mail -> judge.games. The package's own
    __init__ (judge) and a parent importing its child are not layer edges."""
    def layer(name: str) -> str:
        return ".".join(name.split(".")[:2])
    out: dict[str, set[str]] = {}
    for name, targets in graph.items():
        out.setdefault(layer(name), set())
        for t in targets:
            if layer(t) != layer(name) and "." in layer(name) and "." in layer(t):
                out[layer(name)].add(layer(t))
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def described(graph: dict[str, set[str]], component: list[str]) -> str:
    return "; ".join(f"{a} -> {b}" for a in component for b in sorted(graph[a]) if b in component)


def test_no_module_imports_itself_back():
    graph = import_graph(JUDGE)
    assert len(graph) > 100      # the walk found the judge's modules, not an empty tree
    assert [described(graph, c) for c in cycles(graph)] == []


def test_no_layer_imports_itself_back():
    graph = layer_graph(import_graph(JUDGE))
    assert {"judge.mail", "judge.games", "judge.engine", "judge.daemon", "judge.ops"} <= set(graph)
    assert "judge.engine" in graph["judge.games"]       # the edges are there to be checked
    assert [described(graph, c) for c in cycles(graph)] == []


@pytest.mark.parametrize("b_source", [
    "from . import a\n",                                        # at the top
    "def later():\n    from .a import thing\n    return thing\n",   # hidden in a function
    "STEPS = {'x': 'pkg.a:STEPS'}\n",                            # hidden in a registry string
    "import importlib\nA = importlib.import_module('pkg.a')\n",     # loaded by name
], ids=["top-level", "local import", "registry string", "import_module"])
def test_a_cycle_is_found_however_it_is_written(tmp_path, b_source):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import later\nthing = 1\n")
    (package / "b.py").write_text(b_source)
    assert cycles(import_graph(package)) == [["pkg.a", "pkg.b"]]


def test_an_import_only_for_annotations_is_no_cycle(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import thing\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nthing = 1\n"
                                  "if TYPE_CHECKING:\n    from .a import thing as _\n")
    assert cycles(import_graph(package)) == []


# The mail layer's stages, in the order they may import one another: a stage imports only the stages
# before it (and itself). The modules directly in judge/mail/ (the serve hooks, the demo) come after all.
MAIL_STAGES = ["intake", "words", "screening", "outbound", "federation", "commands"]


def mail_stage(name: str) -> int | None:
    """The rank of the stage a judge.mail module belongs to; len(MAIL_STAGES) for judge/mail/*.py;
    None outside the mail layer."""
    parts = name.split(".")
    if parts[:2] != ["judge", "mail"] or len(parts) < 3:
        return None
    if parts[2] in MAIL_STAGES:
        return MAIL_STAGES.index(parts[2])
    return len(MAIL_STAGES)


def test_the_mail_layer_is_by_stage():
    stages = {p.name for p in (JUDGE / "mail").iterdir() if (p / "__init__.py").exists()}
    assert stages == set(MAIL_STAGES)
    top = sorted(p.stem for p in (JUDGE / "mail").glob("*.py") if p.stem != "__init__")
    assert top == ["demo", "serve_hooks"]      # everything else lives in the stage it serves


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import from a mail stage to a later one, as "a -> b"."""
    found = []
    for name, targets in graph.items():
        rank = mail_stage(name)
        for target in targets:
            other = mail_stage(target)
            if rank is not None and other is not None and other > rank:
                found.append(f"{name} -> {target}")
    return sorted(found)


def test_each_mail_stage_imports_only_earlier_ones():
    assert upward_imports(import_graph(JUDGE)) == []


def test_an_upward_mail_import_is_found():
    graph = {"judge.mail.intake.archive": {"judge.mail.commands.dispatch", "judge.storage.db"},
             "judge.mail.commands.dispatch": {"judge.mail.intake.archive"},
             "judge.mail.words.notices": {"judge.mail.serve_hooks"}}
    assert upward_imports(graph) == ["judge.mail.intake.archive -> judge.mail.commands.dispatch",
                                     "judge.mail.words.notices -> judge.mail.serve_hooks"]
