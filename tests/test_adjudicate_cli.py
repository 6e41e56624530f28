"""`judge adjudicate`, run as a real subprocess, JSON in and out."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import judge

OPENING = {
    "variant": "standard", "phase": "F1901M",
    "units": {"FRANCE": ["A BUR", "F MAO"], "GERMANY": ["A MUN", "A RUH"], "ENGLAND": ["F NTH"]},
    "centres": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["BER", "KIE", "MUN"], "ENGLAND": ["LON"]},
    "orders": {"GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR"],
               "FRANCE": ["A BUR H", "F MAO - SPA/NC"], "ENGLAND": ["F NTH - BEL", "nonsense here"]},
}


def _run(*args, stdin: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "judge.cli", "adjudicate", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout


def test_a_fall_move_dislodges_then_retreat_then_adjustments_chain():
    code, out = _run(stdin=json.dumps(OPENING))
    response = json.loads(out)
    assert code == 0
    germany = {r["order"]: r for r in response["results"]["GERMANY"]}
    assert germany["A RUH - BUR"]["result"] == "succeeds"
    france = {r["order"]: r for r in response["results"]["FRANCE"]}
    assert france["A BUR H"]["result"] == "fails" and france["A BUR H"]["dislodged_from"] == "RUH"
    assert response["errors"]["ENGLAND"][0]["line"] == 2
    nxt = response["next"]
    assert nxt["phase"] == "F1901R"
    retreats = nxt["dislodged"]["FRANCE"][0]
    assert retreats["unit"] == "A BUR" and "RUH" not in retreats["retreats"] and "PAR" in retreats["retreats"]

    # feed `next` back with retreat orders: the adjustment phase follows, with new owners
    nxt["orders"] = {"FRANCE": ["A BUR R PIC"]}
    code, out = _run(stdin=json.dumps(nxt))
    response = json.loads(out)
    assert response["results"]["FRANCE"][0]["result"] == "succeeds"
    after = response["next"]
    assert after["phase"] == "W1901A"
    assert "SPA" in after["centres"]["FRANCE"] and "BEL" in after["centres"]["ENGLAND"]

    after["orders"] = {"FRANCE": ["BUILD A PAR", "BUILD F PAR"], "ENGLAND": ["BUILD F LON"]}
    code, out = _run(stdin=json.dumps(after))
    response = json.loads(out)
    assert response["next"]["phase"] == "S1902M"
    assert "A PAR" in response["next"]["units"]["FRANCE"]


def test_jsonl_answers_one_line_per_request_and_reports_bad_input():
    lines = json.dumps({"phase": "S1901M", "units": {"ITALY": ["A VEN"]}, "orders": {"ITALY": ["A VEN - TRI"]}}) \
        + "\n{not json\n" + json.dumps({"phase": "S1901M", "units": {"ITALY": ["F VEN/NC"]}}) + "\n"
    code, out = _run("--jsonl", stdin=lines)
    answers = [json.loads(x) for x in out.splitlines()]
    assert len(answers) == 3
    assert answers[0]["results"]["ITALY"][0]["result"] == "succeeds"
    assert "error" in answers[1] and "error" in answers[2]
    assert code == 1


def test_rules_edition_can_be_chosen():
    request = {"phase": "S1901M", "rules": "1982", "units": {"ITALY": ["A VEN"]}}
    code, out = _run(stdin=json.dumps(request))
    assert json.loads(out)["rules"] == "1982"


def test_lines_in_other_notations_are_read_by_the_players_parser_and_listed(tmp_path):
    from judge.adjudicate_cli import adjudicate_request
    from judge.engine import load_variant
    from judge.language import OrderReader
    variant = load_variant("standard")
    request = {"phase": "W1901A", "units": {"FRANCE": ["A PAR"], "RUSSIA": ["A MOS"]},
               "centres": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "RUSSIA": ["STP", "MOS"]},
               "orders": {"FRANCE": ["F BRE B", "Build army Marseilles", "A SPA B"], "RUSSIA": ["F STP/NC B"]}}
    response = adjudicate_request(request, lambda name: (variant, OrderReader(variant)))
    france = {r["order"]: r for r in response["results"]["FRANCE"]}
    assert france["BUILD F BRE"]["result"] == france["BUILD A MAR"]["result"] == "succeeds"
    assert france["BUILD A SPA"]["result"] == "fails"         # read, but Spain is no home centre
    assert [r["order"] for r in response["results"]["RUSSIA"]] == ["BUILD F STP/NC"]
    assert [n["read_as"] for n in response["read"]["FRANCE"]] == ["BUILD F BRE", "BUILD A MAR", "BUILD A SPA"]
    assert "errors" not in response


def test_orders_are_read_with_the_requests_board_and_bare_units_adjust():
    """The 1982 rulebook's Italian and English orders, and the 2000 rulebook's builds and removal as printed."""
    spring = {"rules": "1982", "phase": "S1902M",
              "units": {"ITALY": ["F NAP", "F TUN", "A VEN"], "ENGLAND": ["A NWY", "F NTH", "F BAR"],
                        "RUSSIA": ["A STP"]},
              "orders": {"ITALY": "F Nap.—Tyr.\nF Tun.—W Med.",
                         "ENGLAND": ["A Nor.—St. P.", "F Bar. S Nor. St. P.", "F Stands"]}}
    code, out = _run(stdin=json.dumps(spring))
    response = json.loads(out)
    assert code == 0  # a line not read is reported in "errors"; the others still count
    read = {r["text"]: r for r in response["read"]["ITALY"] + response["read"]["ENGLAND"]}
    assert read["F Nap.-Tyr"]["read_as"] == "F NAP - TYS"
    assert read["F Nap.-Tyr"]["notes"] == ["read 'F Nap.-Tyr' as Fleet Naples -> Tyrrhenian Sea: a fleet cannot enter "
                                           "Tyrolia"]
    assert read["F Tun.-W Med"]["read_as"] == "F TUN - WES"
    assert read["A Nor.-St. P"]["read_as"] == "A NWY - STP"
    assert read["F Bar. S Nor. St. P"]["read_as"] == "F BAR S NWY - STP"
    assert "could be Fleet Barents Sea holds or Fleet North Sea holds" in response["errors"]["ENGLAND"][0]["error"]

    winter = {"rules": "2000", "phase": "W1902A",
              "units": {"RUSSIA": ["A GAL", "A MOS", "A UKR", "A SEV", "F SWE"], "GERMANY": ["A MUN"]},
              "centres": {"RUSSIA": ["MOS", "SEV", "WAR", "SWE"], "GERMANY": ["BER", "KIE", "MUN"]},
              "orders": {"RUSSIA": ["A Gal."], "GERMANY": ["F Kiel.", "A Ber"]}}
    code, out = _run(stdin=json.dumps(winter))
    response = json.loads(out)
    assert code == 0
    assert [r["order"] for r in response["results"]["RUSSIA"]] == ["A GAL D"]
    germany = {r["order"]: r["result"] for r in response["results"]["GERMANY"]}
    assert germany == {"BUILD F KIE": "succeeds", "BUILD A BER": "succeeds"}


# A whole year from the start, written as one request: each phase's orders in turn.
YEAR = [
    {"orders": {"FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
                "GERMANY": ["A MUN - RUH", "A BER - KIE", "F KIE - DEN"],
                "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"]}},
    {"phase": "F1901M",
     "orders": {"FRANCE": ["A BUR - BEL", "A SPA H", "F MAO - POR"],
                "GERMANY": ["A RUH - BUR", "A KIE - HOL", "F DEN H"],
                "ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG S A YOR - NWY"]}},
    {"phase": "W1901A",
     "orders": {"FRANCE": ["BUILD A PAR", "BUILD F BRE"], "GERMANY": ["BUILD A MUN", "BUILD F KIE"],
                "ENGLAND": ["BUILD F LON"]}},
    {"orders": {"FRANCE": ["A BEL - HOL"], "GERMANY": ["A HOL S A BUR - BEL"]}},
]


def test_a_whole_game_in_one_request_is_the_same_as_its_phases_chained_one_by_one():
    code, out = _run(stdin=json.dumps({"rules": "2000", "phases": YEAR}))
    game = json.loads(out)
    assert code == 0 and game["rules"] == "2000"
    assert [p["phase"] for p in game["phases"]] == ["S1901M", "F1901M", "W1901A", "S1902M"]

    request = json.loads(_run(stdin=json.dumps({"phases": []}))[1])["next"]   # the start, as JSON
    for played in YEAR:
        request["orders"] = played["orders"]
        request["rules"] = "2000"
        code, out = _run(stdin=json.dumps(request))
        one = json.loads(out)
        assert code == 0
        expected = game["phases"].pop(0)
        assert {k: v for k, v in one.items() if k not in ("variant", "rules", "next")} == expected
        request = one["next"]
    assert request == game["next"] and request["phase"] == "F1902M"


def test_a_whole_game_request_says_where_its_phases_and_the_game_part_ways():
    code, out = _run("--jsonl", stdin="\n".join(json.dumps(r) for r in (
        {"phases": [YEAR[0], YEAR[2]]},
        {"phases": {"orders": {}}},
        {"phases": [YEAR[0], "A PAR - BUR"]},
    )))
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert answers[0] == {"error": "phases[1] is for W1901A but the game is at F1901M"}
    assert "phases must be a list" in answers[1]["error"]
    assert answers[2] == {"error": "phases[1] must be an object with orders"}


def test_an_engine_fault_is_an_internal_error_with_the_phase_to_file(tmp_path):
    # A variant file the loader takes but the engine cannot play (a calendar adjusting every 0th year):
    # the engine raises, which is our fault, not the request's. (No position the packaged variants
    # accept makes the engine raise any more: tests/test_engine_property.py.)
    variant = json.loads((Path(judge.__file__).parent / "variants" / "pure" / "variant.json").read_text())
    variant["calendar"]["adjustment_every"] = 0
    (tmp_path / "broken.json").write_text(json.dumps(variant))
    request = {"variant": str(tmp_path / "broken.json"), "phase": "F1901M", "units": {"AUSTRIA": ["A VIE"]},
               "orders": {"AUSTRIA": ["A VIE - PAR"]}}
    code, out = _run(stdin=json.dumps(request))
    response = json.loads(out)
    assert code == 2
    assert response["error"] == "internal error" and response["kind"] == "internal"
    assert response["phase"] == "F1901M" and response["units"]["AUSTRIA"] == ["A VIE"]
    assert response["orders"] == {"AUSTRIA": ["A VIE - PAR"]}
    assert "ZeroDivision" not in response["detail"]  # Python's words go to the log, not the answer
    # in a batch, the others are still answered; the status says a fault is among them
    code, out = _run("--jsonl", stdin=json.dumps(request) + "\n" + json.dumps(OPENING) + "\n{bad\n")
    answers = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and answers[0]["kind"] == "internal" and "results" in answers[1]
    assert "kind" not in answers[2] and answers[2]["error"]


BAD_SHAPES = [
    ({"orders": None}, "orders must be an object keyed by power"),
    ({"orders": {"GERMANY": [5]}}, "orders.GERMANY must be a list of order lines"),
    ({"units": {"GERMANY": True}}, "units.GERMANY must be a list of strings"),
    ({"units": {"GERMANY": [{"a": 1}]}}, "units.GERMANY must be a list of strings"),
    ({"centres": "W1901A"}, "centres must be an object keyed by power"),
    ({"centres": {"FRANCE": [[[]]]}}, "centres.FRANCE must be a list of strings"),
    ({"variant": None}, "variant must be a string"),
    ({"phase": 10 ** 30}, "phase must be a string"),
    ({"phase": "F1901R", "dislodged": {"FRANCE": [{"unit": "A BUR", "retreats": "PAR"}]}}, "dislodged.FRANCE"),
    ({"phase": "F1901R", "units": {"GERMANY": ["A PAR"]},
      "dislodged": {"FRANCE": [{"unit": "A BUR", "attacker_from": "RUH", "retreats": ["PAR"]}]}},
     "cannot retreat to PAR: a unit stands there"),
    ({"phase": "F1901R", "dislodged": {"FRANCE": [{"unit": "A BRE", "attacker_from": "PIC", "retreats": ["ENG"]}]}},
     "A BRE cannot retreat to ENG: it cannot stand there"),
]


def test_a_request_of_the_wrong_shape_is_a_bad_request_in_our_words():
    lines = "".join(json.dumps({**OPENING, **change}) + "\n" for change, _ in BAD_SHAPES)
    lines += "[" * 100000 + "\n"  # nested deeper than the JSON reader goes
    code, out = _run("--jsonl", stdin=lines)
    answers = [json.loads(x) for x in out.splitlines()]
    assert code == 1
    for (change, words), answer in zip(BAD_SHAPES, answers, strict=False):
        assert "kind" not in answer and words in answer["error"], (change, answer)
    assert answers[-1] == {"error": "the input is nested too deeply"}
