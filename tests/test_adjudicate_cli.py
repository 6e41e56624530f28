"""`judge adjudicate`, run as a real subprocess, JSON in and out."""
from __future__ import annotations

import json
import subprocess
import sys

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
