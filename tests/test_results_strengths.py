"""Strengths in the results mail: "beaten 2 to 1 by", "bounced 1 to 1 with", "dislodged 2 to 1 by",
played by the engine from the positions and orders of tests/data/results/strengths.json and told by
the results report's words (judge.engine.strengths, judge.mail.words.results_report); on the
standard board, and on Loeb9's weak straits and 1900's Cape, where a move has less than a unit's
strength ("beaten 1 to 0.5 by")."""
import json
from pathlib import Path

import pytest

from judge.engine import adjudicate, load_variant
from judge.engine.notation import parse_order, position_from_json
from judge.games.resultcodec import result_to_json
from judge.mail.words.results_report import phase_section

STANDARD = load_variant("standard")
CASES = json.loads((Path(__file__).parent / "data" / "results" / "strengths.json").read_text())["cases"]


def played(case: dict, fog: bool = False) -> dict[str, str]:
    """Each power's rows of the results, order and outcome, on one line."""
    variant = load_variant(case.get("variant", "standard"))
    position = position_from_json(variant, {"variant": variant.id, "phase": case.get("phase", "S1901M"),
                                            "units": case["units"], "centres": {}})
    orders = {p: [parse_order(variant, o) for o in lines] for p, lines in case["orders"].items()}
    result = result_to_json(variant, adjudicate(variant, position, orders))
    section = phase_section(variant, result, {}, fog=fog)
    return {pw["id"]: " ".join(" ".join(f"{order} {outcome}" for order, outcome in pw["rows"]).split())
            for pw in section["powers"]}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_results_tell_the_strengths(case):
    rows = played(case)
    for power, phrase in case["says"].items():
        assert phrase in rows[power], (phrase, rows[power])


def test_under_fog_no_strengths_are_told():
    case = next(c for c in CASES if c["name"] == "a supported move beats an unsupported one")
    rows = played(case, fog=True)
    assert "Army Munich -> Burgundy bounced with the French army from Paris" in rows["GERMANY"]
    assert " to " not in rows["GERMANY"].replace(" -> ", " ")
