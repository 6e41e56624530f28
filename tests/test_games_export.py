"""`judge export`: a game's record that `judge adjudicate` replays to the game's own results."""
from __future__ import annotations

import json
import random
import subprocess
import sys

from judge.engine.notation import order_text, position_from_json

from test_games_helpers import POWERS, STANDARD, france_plays_on_alone, greedy_orders, seven_player_game, service


def play(svc, game: str, phases: int, rng: random.Random, account=lambda power: f"p-{power.lower()}") -> None:
    """Greedy orders from most powers; each phase one or two say nothing (civil disorder).
    `account`: the account that plays a power."""
    for _ in range(phases):
        status = svc.status(game)
        position = position_from_json(STANDARD, status.position)
        silent = set(rng.sample(POWERS, rng.choice([0, 1, 2])))
        for power in POWERS:
            mine = greedy_orders(STANDARD, position, power)
            if power not in silent and status.powers[power].owes and mine:
                svc.submit_orders(game, power, [(order_text(o), o) for o in mine], account=account(power))
        svc.clock.set(status.deadline["utc"])     # the silent missed it: the deadline has passed
        svc.process(game)


def replay(tmp_path, record: dict) -> dict:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "judge.cli", "adjudicate", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    return json.loads(done.stdout)


def outcomes(stored: list[dict]) -> set:
    return {(r["phase"], o["power"], o["order"], o["succeeded"], o["reason"]) for r in stored for o in r["outcomes"]}


def replayed_outcomes(phase: dict) -> set:
    out = set()
    for played in [phase, *phase.get("settled", [])]:
        for power, results in played["results"].items():
            out |= {(played["phase"], power, r["order"], r["result"] == "succeeds", r["reason"]) for r in results}
    return out


def test_an_exported_game_replays_to_the_results_the_game_mailed_and_the_position_it_is_at(tmp_path):
    svc, _ = service(tmp_path)
    seven_player_game(svc, rules="2000")
    play(svc, "alpha", 9, random.Random(3))
    svc.rollback("alpha", "F1902M")         # the rolled-back phases are not in the record
    play(svc, "alpha", 4, random.Random(4))
    record = svc.export("alpha")
    assert record["replayable"] == {"ok": True} and record["rules"] == "2000" and record["phase"] == "S1901M"
    played = [h for h in svc.history("alpha") if not h.rolled_back and h.processed_at]
    assert [p["phase"] for p in record["phases"] if "results" in p] == [h.phase for h in played]

    response = replay(tmp_path, record)
    assert [p["phase"] for p in response["phases"]] == [p["phase"] for p in record["phases"]]
    assert set().union(*map(replayed_outcomes, response["phases"])) == outcomes(
        [r for h in played for r in h.results])
    now = svc.status("alpha").position
    keys = ("phase", "units", "centres")
    assert {k: response["next"][k] for k in keys} == {k: now[k] for k in keys}


def test_a_finished_game_exports_whole_and_an_unstarted_one_says_it_has_nothing(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc)
    france_plays_on_alone(svc, "alpha", lambda: clock.advance(hours=200))
    assert svc.status("alpha").status == "finished"
    record = svc.export("alpha")
    assert record["replayable"] == {"ok": True}
    response = replay(tmp_path, record)
    assert len(response["phases"]) == len(record["phases"]) > 10
    assert sum(1 for c in response["next"]["centres"]["FRANCE"]) >= 18

    svc.create_game("later", master="gm")
    assert svc.export("later")["replayable"] == {"ok": False, "why": "the game has not started"}


def test_judge_export_writes_the_record_and_says_whether_it_replays(tmp_path):
    svc, _ = service(tmp_path)
    seven_player_game(svc)
    play(svc, "alpha", 2, random.Random(1))
    out = tmp_path / "alpha.json"
    done = subprocess.run([sys.executable, "-m", "judge.cli", "export", "alpha", "--data", str(tmp_path / "var"),
                           "-o", str(out)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"wrote {out}: 2 phases of alpha; it replays with `judge adjudicate`"
    assert json.loads(out.read_text())["game"] == "alpha"
    missing = subprocess.run([sys.executable, "-m", "judge.cli", "export", "nosuch", "--data", str(tmp_path / "var")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 1 and "nosuch" in missing.stdout
