"""The optional compiled engine is used only when its build is exactly for these sources and loads.

Each case of tests/data/engine_compiled_builds.json makes a build directory (files of the right names,
whose contents cannot load) that the loader must refuse. One case goes the whole way in a fresh
process (JUDGE_COMPILED_ENGINE pointing at it): the pure modules are imported and a phase is played.
That a real build is the one used (and JUDGE_PURE_ENGINE=1 still keeps the pure modules) is checked by
`bin/compile-engine` itself as it finishes, where the build is made (minutes: not run here).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.engine import compiled

ROOT = Path(__file__).resolve().parents[1]
CASES = json.loads((Path(__file__).parent / "data" / "engine_compiled_builds.json").read_text(encoding="utf-8"))
PROBE = """
import json
from judge.engine import compiled, board, load_variant, starting_position, process_phase, FIFTH
v = load_variant("standard")
turn = process_phase(v, starting_position(v), {"FRANCE": []}, FIFTH)
print(json.dumps([compiled.ACTIVE, board.__file__, len(turn.next.units)]))
"""
PURE_BOARD = str(ROOT / "judge" / "engine" / "board.py")


def make_build(root: Path, build: str) -> Path:
    """The directory `compiled.install` would look in, holding what `build` says."""
    key = compiled.key()
    names = [f"{compiled.PACKAGE}.{n}" for n in compiled.modules()] + [compiled.SHARED]
    if build == "missing_one":
        names.remove(f"{compiled.PACKAGE}.board")
    made = root / ("0" * 32 if build == "other_key" else key)
    for dotted in names:
        path = compiled.extension(made, dotted)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"not an extension module")
    return root / key


def probe(env_changes: dict[str, str | None]) -> list:
    env = {k: v for k, v in os.environ.items() if k not in ("JUDGE_COMPILED_ENGINE", "JUDGE_PURE_ENGINE")}
    env.update({k: v for k, v in env_changes.items() if v is not None})
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_a_build_not_exactly_for_these_sources_is_refused(case, tmp_path):
    looked_in = make_build(tmp_path, case["build"])
    assert compiled.finder_for(looked_in) is None


def test_a_refused_build_leaves_the_pure_engine_playing(tmp_path):
    make_build(tmp_path, "unloadable")
    assert probe({"JUDGE_COMPILED_ENGINE": str(tmp_path)}) == [False, PURE_BOARD, 22]

