"""Fixtures shared by several test modules. A module that needs a different set-up overrides one by
the same name and may ask for this one inside it (`def judge(judge): ...`), as pytest allows.

Every fixture here is safe under pytest-xdist: its files live in the test's own tmp_path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.games import accounts
from mailjudge import MailJudge

# scrypt at the judge's cost (16 MiB, ~0.1 s a hash) took a third of the in-process mail tests' time:
# every account made and every SIGNON checked pays it. In this process the tests hash at a small
# cost; the hashes are still scrypt and carry their cost, so checking them is unchanged. A `judge
# serve` the tests start runs as shipped (test_security checks that it stores the shipped cost).
TEST_SCRYPT_N = 2 ** 8


@pytest.fixture(autouse=True, scope="session")
def cheap_password_hashes():
    shipped, accounts._N = accounts._N, TEST_SCRYPT_N
    yield
    accounts._N = shipped


@pytest.fixture
def judge(tmp_path):
    """A mail judge in-process over files in tmp_path, on a manual clock (tests/mailjudge.py)."""
    j = MailJudge(tmp_path)
    yield j
    j.close()


@pytest.fixture
def playing(judge):
    """The judge with a master and seven registered players, each in the power they asked for, in alpha."""
    judge.seven_players()
    return judge


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """--dist loadgroup as bin/test asks, done here: pytest-xdist 3.8 marks a grouped test by
    rewriting `item._nodeid`, which pytest 9 no longer reads, so its groups were silently spread over
    every worker. A test module that says `pytest.mark.xdist_group` (its module fixture is costly:
    every worker running some of its tests would build it again) runs whole on one worker; every
    other test is dealt out on its own, as with --dist load."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    grouped = grouped_modules(config.rootpath)
    # dealt out in the order the workers collected them (pytest_collection_modifyitems: slowest
    # first), not re-sorted by xdist by how many tests a unit holds
    config.option.loadscopereorder = False

    class ModulesMarkedAsGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in grouped else nodeid

    return ModulesMarkedAsGroups(config, log)


def grouped_modules(root: Path) -> set[str]:
    """The test modules marked xdist_group, by their path from the root (as a nodeid begins)."""
    return {path.relative_to(root).as_posix() for path in (root / "tests").glob("test_*.py")
            if "pytest.mark.xdist_group(" in path.read_text(encoding="utf-8")}


DURATIONS = Path(__file__).parent / "data" / "test_durations.json"


def pytest_collection_modifyitems(config, items):
    """On a pytest-xdist worker: the slowest tests first (tests/data/test_durations.json), a grouped
    module by its tests' seconds added up, so no long test is left to start when the rest is done and
    the workers end together. Every worker sorts the same way (xdist checks that the collections
    match); the others keep the files' order, and so does a run on one process."""
    if not hasattr(config, "workerinput"):
        return
    seconds = json.loads(DURATIONS.read_text(encoding="utf-8"))["seconds"]
    grouped = grouped_modules(config.rootpath)
    module_seconds: dict[str, float] = {}
    for nodeid, took in seconds.items():
        module_seconds[nodeid.split("::", 1)[0]] = module_seconds.get(nodeid.split("::", 1)[0], 0.0) + took

    def cost(item) -> float:
        module = item.nodeid.split("::", 1)[0]
        return module_seconds.get(module, 0.0) if module in grouped else seconds.get(item.nodeid, 0.0)

    items.sort(key=lambda item: -cost(item))      # stable: a module's tests stay in their order
