"""Press kinds a master can choose: white, grey, broadcast only, none; press only in movement
phases (the face-to-face rule); the master's copy of all press."""
from __future__ import annotations

import pytest

from judge.games.model import GameError
from judge.mail.words.notices import render_notice
from judge.mail.words.reports import Reports

from test_games_helpers import seven_player_game, service, submit


def press_to(svc, game: str) -> dict[str, dict]:
    return {n.recipient: n.payload for n in svc.pending_notices(game) if n.kind == "press"}


def test_the_master_gets_a_copy_of_all_press_with_its_true_sender(tmp_path):
    svc, _ = service(tmp_path)
    seven_player_game(svc, settings={"press": "grey"})
    svc.send_press("alpha", "FRANCE", ["GERMANY"], "Psst", anonymous=True, account="p-france")
    got = press_to(svc, "alpha")
    assert got["p-germany"]["from"] == "anonymous" and got["gm"]["from"] == "FRANCE" and got["gm"]["copy"]
    [copy] = [n for n in svc.pending_notices("alpha") if n.recipient == "gm" and n.kind == "press"]
    body = " ".join(render_notice(Reports(), svc, copy).body.split())
    assert "As the game master you get a copy of all press" in body and "press from France to Germany" in body
    assert "p-england" not in got


@pytest.mark.parametrize("press, to, anonymous, refused", [
    ("white", ["GERMANY"], False, None),
    ("white", ["GERMANY"], True, "white press: messages are signed"),
    ("broadcast", None, False, None),
    ("broadcast", ["GERMANY"], False, "broadcast press only"),
    ("broadcast", ["MASTER"], False, None),
    ("none", ["GERMANY"], False, "no press between players"),
    ("none", None, False, "no press between players"),
    ("none", ["MASTER"], False, None),
    ("grey", ["GERMANY", "ITALY"], True, None),
])
def test_each_press_kind_allows_and_refuses_with_the_reason(tmp_path, press, to, anonymous, refused):
    svc, _ = service(tmp_path)
    seven_player_game(svc, settings={"press": press})
    if refused is None:
        svc.send_press("alpha", "FRANCE", to, "Hello", anonymous=anonymous, account="p-france")
        assert press_to(svc, "alpha")
    else:
        with pytest.raises(GameError, match=refused):
            svc.send_press("alpha", "FRANCE", to, "Hello", anonymous=anonymous, account="p-france")
        assert press_to(svc, "alpha") == {}


@pytest.mark.parametrize("setting, to", [("movement_press_only", ["ENGLAND"]),
                                         ("ftf_press", None)])     # DPjudge's FTF_PRESS (Sail Ho!) too
def test_face_to_face_press_only_in_movement_phases_but_the_master_can_always_be_written_to(tmp_path, setting, to):
    svc, _ = service(tmp_path)
    seven_player_game(svc, settings={setting: True})
    svc.send_press("alpha", "FRANCE", ["ENGLAND"], "Spring talk", account="p-france")
    submit(svc, "alpha", "FRANCE", "A MAR - BUR", "A PAR - PIC", "F BRE H")
    submit(svc, "alpha", "GERMANY", "A MUN - RUH", "A BER - MUN", "F KIE H")
    svc.process("alpha")
    submit(svc, "alpha", "FRANCE", "A BUR H", "A PIC H", "F BRE H")
    submit(svc, "alpha", "GERMANY", "A RUH - BUR", "A MUN S A RUH - BUR", "F KIE H")
    svc.process("alpha")
    assert svc.status("alpha").phase == "F1901R"
    with pytest.raises(GameError, match="press only in movement phases"):
        svc.send_press("alpha", "FRANCE", to, "Retreat talk", account="p-france")
    svc.send_press("alpha", "FRANCE", ["MASTER"], "Is my army really gone?", account="p-france")
    svc.send_press("alpha", "MASTER", None, "Retreats are due tomorrow.")
