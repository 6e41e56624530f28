"""A safety net for players, by mail (issue 26): misorder warnings in the confirmation (the orders
still stand), and the digest of the standing orders that the results mail must repeat.

The warnings: one case of each kind from tests/data/player/misorders.json, checked against the
pure function (judge.engine.misorders) and in the reply; and not one warning on the Spring 1901
openings players play (tests/data/player/openings.tsv)."""
from __future__ import annotations

import json
import itertools
from pathlib import Path

import pytest

from judge.engine.misorders import warnings
from judge.games.digests import orders_digest

DATA = Path(__file__).parent / "data" / "player"
CASES = json.loads((DATA / "misorders.json").read_text())["cases"]
OPENINGS = [line.split("\t") for line in (DATA / "openings.tsv").read_text().splitlines()
            if line and not line.startswith("#")]


def signon(power: str) -> str:
    return f"signon {power[0]}alpha {power.lower()}-pw\n"


def standing_orders(body: str) -> list[str]:
    lines = body.splitlines()
    after = lines[lines.index("Orders standing now:") + 1:]
    return [line for line in itertools.takewhile(lambda line: line.startswith("  "), after)
            if not line.startswith("    ")]


def play_before(judge, before: dict[str, list[str]]) -> None:
    """Orders sent by mail, then the phase played by the master (nothing, if there are none)."""
    if not before:
        return
    for power, orders in before.items():
        judge.reply_to(f"{power.lower()}@dip.test", signon(power) + "\n".join(orders))
    judge.service.process("alpha")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_each_kind_of_misorder_is_warned_of_and_the_orders_stand(playing, case):
    play_before(playing, case.get("before", {}))
    power = case["power"]
    r = playing.reply_to(f"{power.lower()}@dip.test", signon(power) + "\n".join(case["orders"]))
    summary = " ".join(r.body.split("===", 2)[2].split())
    assert case["says"] in summary
    assert ("Warnings (your orders stand as given" in r.body) is case.get("warned", True)
    assert len(standing_orders(r.body)) == len(case["orders"])    # every order stands
    # the same warning from the pure function, on the typed orders the judge stored
    service = playing.service
    status = service.status("alpha")
    variant = service.variant(status.variant)
    with service._read("alpha") as gf:
        row = gf.current()
        found = warnings(variant, row.position, power, gf.orders(row.seq)[power])
    assert [(w.kind.value, list(w.args)) for w in found] == [(case["kind"], case["args"])]


def test_no_warning_on_the_openings_players_play(playing):
    by_power: dict[str, int] = {}
    for power, name, orders in OPENINGS:
        lines = [o.strip() for o in orders.split(";")]
        r = playing.reply_to(f"{power.lower()}@dip.test", signon(power) + "\n".join(lines))
        assert "ERROR" not in r.body and "cannot be carried out" not in r.body, (name, r.body)
        assert "Warnings" not in r.body, (power, name, r.body)
        by_power[power] = by_power.get(power, 0) + len(lines)
    assert sum(by_power.values()) >= 300 and len(by_power) == 7
