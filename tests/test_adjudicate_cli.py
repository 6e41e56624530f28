"""`judge adjudicate`, run as a real subprocess, JSON in and out."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
    assert answers[0] == {"error": "phases[1] is for W1901A but the game is at F1901M", "kind": "request"}
    assert "phases must be a list" in answers[1]["error"]
    assert answers[2] == {"error": "phases[1] must be an object with orders", "kind": "request"}


def test_the_spring_1913_cycle_is_adjudicated_not_an_error():
    """issue 23: seven plain army orders of a real game made the resolver raise (answered {"error": "55"})."""
    request = {"variant": "standard", "phase": "S1913M", "rules": "2000",
               "units": {"AUSTRIA": ["A BUL", "A SER"], "RUSSIA": ["A SEV", "A UKR"],
                         "TURKEY": ["A ARM", "A CON", "A RUM"]}, "centres": {},
               "orders": {"TURKEY": ["A ARM - SEV", "A CON - BUL", "A RUM S A CON - BUL"],
                          "AUSTRIA": ["A BUL S A SER - RUM", "A SER - RUM"],
                          "RUSSIA": ["A SEV - RUM", "A UKR S A SEV - RUM"]}}
    for rules in ("1982", "2000", "5th", "2000-godip"):
        code, out = _run(stdin=json.dumps(dict(request, rules=rules)))
        response = json.loads(out)
        assert code == 0 and "error" not in response, response
        assert response["next"]["phase"] == "S1913R"


def test_an_engine_fault_is_an_internal_error_with_the_position_not_a_bad_request(monkeypatch):
    # No legal position is known to make the engine fail (that is the point); a fault is made here
    # by replacing the engine's entry point, to check what judge adjudicate says when one happens.
    from judge import adjudicate_cli
    from judge.engine import load_variant
    from judge.language import OrderReader

    def broken(*_args, **_kw):
        raise KeyError(55)
    monkeypatch.setattr(adjudicate_cli, "process_phase", broken)
    variant = load_variant("standard")
    answer = adjudicate_cli._answer(json.dumps(OPENING), lambda name: (variant, OrderReader(variant)), None)
    assert answer["kind"] == "internal" and answer["error"].startswith("internal error")
    assert answer["fault"] == "KeyError: 55"
    assert answer["request"]["phase"] == "F1901M" and answer["request"]["orders"] == OPENING["orders"]
    assert "A BUR" in answer["request"]["units"]["FRANCE"]
    bad = adjudicate_cli._answer(json.dumps({"units": {}}), lambda name: (variant, None), None)
    assert bad["kind"] == "request"


MISSED_MOVE = {"variant": "standard", "phase": "F1908M",
               "units": {"FRANCE": ["A BUR", "A PIC"], "GERMANY": ["A BEL", "A RUH"]},
               "centres": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["BER", "KIE", "MUN", "BEL"]},
               "orders": {"FRANCE": ["A PIC - BEL", "A BUR S A PIC - BEL"]}}


def _after_missed_move(**extra) -> dict:
    from judge import adjudicate_cli
    from judge.engine import load_variant
    variant = load_variant("standard")
    return adjudicate_cli._answer(json.dumps({**MISSED_MOVE, **extra}), lambda name: (variant, None), None)


def test_a_request_says_who_is_in_civil_disorder_or_that_missing_orders_hold():
    """issue 24: the rulebooks disband a silent power's dislodged units; the hobby lets it retreat."""
    for extra, retreats in (({}, None), ({"rules": "2000"}, None), ({"rules": "1982"}, None),
                            ({"missing_orders": "hold"}, ["HOL"]), ({"civil_disorder": []}, ["HOL"]),
                            ({"civil_disorder": ["GERMANY"]}, None), ({"civil_disorder": ["FRANCE"]}, ["HOL"]),
                            ({"rules": "2000-godip"}, ["HOL"]),
                            ({"rules": "2000-godip", "civil_disorder": ["germany"]}, None)):
        answer = _after_missed_move(**extra)
        dislodged = answer["next"].get("dislodged", {}).get("GERMANY")
        assert (dislodged[0]["retreats"] if dislodged else None) == retreats, extra
        assert answer["next"]["phase"] == ("F1908R" if retreats else "W1908A"), extra


def test_a_civil_disorder_that_does_not_read_is_a_bad_request():
    assert "no power" in _after_missed_move(civil_disorder=["PRUSSIA"])["error"]
    assert "not both" in _after_missed_move(civil_disorder=[], missing_orders="hold")["error"]
    assert _after_missed_move(missing_orders="sometimes")["kind"] == "request"



# -- one reader: order lines read as mail reads them (issue 23, item 3) --------------------------------

BOARD_READINGS = json.loads((Path(__file__).parent / "data" / "language" / "board_readings.json")
                            .read_text(encoding="utf-8"))["cases"]
ON_A_BOARD = [c for c in BOARD_READINGS if c["position"] and c["power"]]


def test_judge_adjudicate_reads_each_line_as_mail_does():
    """The board-reading cases (tests/data/language/board_readings.json, read by mail's parser in
    tests/test_language_board.py) through `judge adjudicate --jsonl`: the same order, or the same
    refusal, for each. `F NAP - TYR` is a line in the canonical notation, and still the Tyrrhenian Sea."""
    requests = [{**case["position"], "orders": {case["power"]: [case["text"]]}} for case in ON_A_BOARD]
    code, out = _run("--jsonl", stdin="".join(json.dumps(r) + "\n" for r in requests))
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(answers) == len(ON_A_BOARD)
    for case, answer in zip(ON_A_BOARD, answers, strict=True):
        listed = answer.get("read", {}).get(case["power"], [])
        if "error" in case:
            [error] = answer["errors"][case["power"]]
            assert case["error"] in error["error"] and not listed, (case, answer)
            continue
        read = [n["read_as"] for n in listed] or [" ".join(case["text"].replace("-", " - ").split()).upper()]
        assert read == case["read"], (case, answer)
        ordered = [r["order"] for r in answer["results"][case["power"]] if not r.get("by_judge")]
        assert ordered == case["read"], (case, answer)
        notes = " ".join(n for entry in listed for n in entry["notes"])
        assert (case["note"] in notes) if case["note"] else not notes, (case, answer)


def test_a_dislodged_unit_without_retreats_is_a_bad_request_naming_it():
    """Not disbanded as if it had nowhere to go: the request is refused, and says which unit."""
    retreat = {"phase": "F1901R", "units": {"GERMANY": ["A BUR"]},
               "dislodged": {"FRANCE": [{"unit": "A BUR", "attacker_from": "RUH"}]},
               "orders": {"FRANCE": ["A BUR R PAR"]}}
    code, out = _run(stdin=json.dumps(retreat))
    assert code == 1
    assert json.loads(out) == {"error": "dislodged FRANCE A BUR has no retreats: list the places it may retreat to"
                                        " (\"retreats\": [] for none)", "kind": "request"}
    for bad in ({"FRANCE": {"unit": "A BUR"}}, {"FRANCE": ["A BUR"]}, ["A BUR"]):
        code, out = _run(stdin=json.dumps({**retreat, "dislodged": bad}))
        assert code == 1 and "dislodged" in json.loads(out)["error"]
    retreat["dislodged"]["FRANCE"][0]["retreats"] = ["PAR", "PIC"]
    code, out = _run(stdin=json.dumps(retreat))
    response = json.loads(out)
    assert code == 0 and response["results"]["FRANCE"][0]["result"] == "succeeds"
    assert "A PAR" in response["next"]["units"]["FRANCE"]


MALFORMED = [{"phase": "S1901M", "units": 5}, {"phase": "S1901M", "orders": {"FRANCE": 5}}, {"phase": 5},
             {"phase": "S1901M", "units": {"FRANCE": [1]}}, {"phase": "S1901M", "dislodged": {"FRANCE": ["A BUR"]}},
             {"phases": [{"orders": {"FRANCE": {"a": 1}}}]}, {"variant": ["standard"], "phase": "S1901M"}]


def test_a_request_of_the_wrong_shape_is_a_bad_request_in_our_words():
    lines = "\n".join([json.dumps(r) for r in MALFORMED] + ["[" * 5000 + "]" * 5000])
    code, out = _run("--jsonl", stdin=lines)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(answers) == len(MALFORMED) + 1
    for answer in answers:
        assert answer["kind"] == "request" and "Error" not in answer["error"] and "object has no" not in answer["error"]


def test_a_variant_is_named_never_a_file_the_request_points_at(tmp_path):
    """A variant name comes from a request (or a mail): a path to a variant file, however valid the
    file, is an unknown variant, so no request can make the judge open a file of its choosing."""
    copy = tmp_path / "standard.json"
    packaged = Path(__file__).resolve().parents[1] / "judge" / "variants" / "standard" / "variant.json"
    copy.write_bytes(packaged.read_bytes())
    request = {"variant": str(copy), "phase": "S1901M", "units": {"ITALY": ["A VEN"]}, "orders": {}}
    code, out = _run(stdin=json.dumps(request))
    answer = json.loads(out)
    assert code == 1 and answer["kind"] == "request" and "unknown variant" in answer["error"], answer
