"""The status block at the end of a reply names what the power still owes before it is in, and says
it is in exactly when nothing is owed (tests/data/owed_orders.json), through the in-process mail
judge: the two statements never contradict each other."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.engine.notation import position_from_json, position_to_json

CASES = json.loads((Path(__file__).parent / "data" / "owed_orders.json").read_text())["cases"]
STANDARD = load_variant("standard")
NAMES = {"AUSTRIA": "Austria", "ENGLAND": "England", "FRANCE": "France", "GERMANY": "Germany",
         "ITALY": "Italy", "RUSSIA": "Russia", "TURKEY": "Turkey"}


def put_position(judge, given: dict) -> None:
    """The game's current phase set to the case's position, written into its game file."""
    full = {"variant": "standard", "phase": given["phase"],
            "units": {p: given["units"].get(p, []) for p in NAMES},
            "centres": {p: given["centres"].get(p, []) for p in NAMES},
            **({"dislodged": given["dislodged"]} if "dislodged" in given else {})}
    position = position_to_json(STANDARD, position_from_json(STANDARD, full))
    judge.service.close_games()
    with sqlite3.connect(judge.config.data_dir / "games" / "alpha.sqlite") as conn:
        conn.execute("UPDATE phases SET phase = ?, position = ? WHERE seq = (SELECT max(seq) FROM phases)",
                     [given["phase"], json.dumps(position)])
    judge.service.sync_index()      # the mail layer reads the phase's kind from the index


def owed_items(text: str, power: str) -> list[str] | None:
    """The items of "Still owed:" in the reply's status block (its lines joined); None: it says the power is in."""
    if f"{power} is in:" in text:
        assert "is not in yet" not in text
        return None
    assert f"{power} is not in yet" in text
    block = text.split("Still owed:", 1)[1].split(" You are ", 1)[0]
    return [item.strip() for item in block.split(" - ") if item.strip()]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_reply_names_what_is_owed(playing, case):
    if case["position"]:
        put_position(playing, case["position"])
    reply = None
    for power, lines in case["orders"].items():
        body = "\n".join([f"SIGNON {power[0]}alpha {power.lower()}-pw", *lines])
        reply = playing.reply_to(f"{power.lower()}@dip.test", body)
    assert list(case["orders"])[-1] == case["power"]
    owed = owed_items(reply.text, NAMES[case["power"]])
    if case["owed"]:
        assert owed == case["owed"], reply.body
    else:
        assert owed is None, reply.body
