"""Fixtures shared by several test modules. A module that needs a different set-up overrides one by
the same name and may ask for this one inside it (`def judge(judge): ...`), as pytest allows.

Every fixture here is safe under pytest-xdist: its files live in the test's own tmp_path."""
from __future__ import annotations

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

    root = config.rootpath
    grouped = {path.relative_to(root).as_posix() for path in (root / "tests").glob("test_*.py")
               if "pytest.mark.xdist_group(" in path.read_text(encoding="utf-8")}

    class ModulesMarkedAsGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in grouped else nodeid

    return ModulesMarkedAsGroups(config, log)
