"""A player's PREVIEW by mail, in-process (tests/mailjudge.py): the player's standing orders played on
paper with every other power's units holding, in words and a picture, to that player alone; nothing
stored, no other power's orders used; under fog of war only what the player's power sees. The
cases are tests/data/mail/own_preview.json; tests/test_mail_own_preview_serve.py plays one through a
real `judge serve`."""
import json
from pathlib import Path

import pytest

from judge.engine import load_variant, process_phase, starting_position
from judge.engine.notation import parse_order

from fogsight import mentions, unseen
from mailjudge import POWERS

CASES = json.loads((Path(__file__).parent / "data" / "mail" / "own_preview.json").read_text())["cases"]
STANDARD = load_variant("standard")


def signon(power: str) -> str:
    return f"signon {power[0]}alpha {power.lower()}-pw\n"


def section(body: str) -> str:
    """The reply's PREVIEW lines, joined on one line (the layout may wrap them)."""
    part = body.split("> preview", 1)[1].split("\n===", 1)[0]
    return " ".join(part.split())


def give_orders(judge, orders: dict[str, list[str]]) -> None:
    for power, lines in orders.items():
        r = judge.reply_to(f"{power.lower()}@dip.test", signon(power) + "\n".join(lines))
        assert "ERROR" not in r.body, r.body


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_a_players_preview_says_what_its_orders_alone_would_do(playing, case):
    give_orders(playing, case["orders"])
    reader = case["reader"]
    said = section(playing.reply_to(f"{reader.lower()}@dip.test", signon(reader) + "preview").body)
    for phrase in case["says"]:
        assert phrase in said, (phrase, said)
    for phrase in case["never"]:
        assert phrase not in said, (phrase, said)


def test_the_preview_goes_to_its_player_alone_and_changes_nothing(playing):
    give_orders(playing, {"GERMANY": ["A Mun - Bur"]})
    before = playing.service.status("alpha")
    standing = {p: playing.service.phase_record("alpha").position for p in POWERS}
    sent = playing.send("france@dip.test", signon("FRANCE") + "A Par - Bur\npreview")
    assert [m.to for m in sent] == [["france@dip.test"]]
    pictures = [p for p in sent[0].mail.iter_attachments() if p.get_content_type() == "image/png"]
    assert [p.get_filename() for p in pictures] == ["alpha-S1901M-preview.png"]
    assert pictures[0].get_content().startswith(b"\x89PNG")
    after = playing.service.status("alpha")
    assert (after.phase, after.deadline) == (before.phase, before.deadline)
    assert [h.processed_at for h in playing.service.history("alpha")] == [None]
    assert playing.service.phase_record("alpha").position == standing["FRANCE"]
    # Germany's order stands, and the phase is played with it (not with the preview's holds)
    playing.reply_to("gm@dip.test", "signon Malpha gm-secret\nprocess")
    spring = playing.service.history("alpha")[0].results[0]["outcomes"]
    moves = {o["order"]: o["reason"] for o in spring if o["power"] in ("FRANCE", "GERMANY")}
    assert moves["A PAR - BUR"] == moves["A MUN - BUR"] == "bounced"


def test_the_masters_preview_still_plays_every_powers_orders(playing):
    give_orders(playing, {"FRANCE": ["A Par - Bur"], "GERMANY": ["A Mun - Bur"]})
    r = playing.reply_to("gm@dip.test", "signon Malpha gm-secret\npreview")
    assert "what PROCESS would do now" in r.body and "A MUN - BUR" in r.body and "bounced" in r.body
    assert not list(r.mail.iter_attachments())


def test_under_fog_the_preview_shows_only_what_the_power_sees(judge):
    svc = judge.service
    svc.create_account("gm", "gm@dip.test", "gm-secret")
    svc.create_game("alpha", master="gm", settings={"fog": True})
    for p in POWERS:
        svc.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        svc.join("alpha", p.lower(), [p])
    orders = ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]
    said = section(judge.reply_to("france@dip.test", signon("FRANCE") + "\n".join(orders) + "\npreview").body)
    assert "fog of war: only what France can see is shown" in said
    start = starting_position(STANDARD)
    after = process_phase(STANDARD, start, {"FRANCE": [parse_order(STANDARD, o) for o in orders]}).result
    hidden = unseen(start, after.position, {"FRANCE"})
    assert hidden and not mentions(said, hidden), said
    assert "Germany: army in Munich" in said and "Moscow" not in said     # Munich borders Burgundy


def test_in_an_adjustment_phase_the_preview_plays_the_players_builds(playing):
    give_orders(playing, {"FRANCE": ["A Mar - Spa"]})
    playing.reply_to("gm@dip.test", "signon Malpha gm-secret\nprocess")
    give_orders(playing, {"FRANCE": ["A Spa H"]})
    playing.reply_to("gm@dip.test", "signon Malpha gm-secret\nprocess")
    assert playing.service.status("alpha").phase == "W1901A"
    said = section(playing.reply_to("france@dip.test", signon("FRANCE") + "build a mar\npreview").body)
    assert "in Winter 1901 Adjustment of alpha" in said and "the other powers build nothing" in said
    assert "Build army Marseilles built" in said
    assert "France: fleet in Brest, army in Marseilles, army in Paris, army in Spain" in said
    assert playing.service.status("alpha").phase == "W1901A"


def test_in_a_retreat_phase_the_preview_plays_the_players_retreat(playing):
    give_orders(playing, {"FRANCE": ["A Par - Bur"], "GERMANY": ["A Mun - Ruh", "A Ber - Mun"]})
    playing.reply_to("gm@dip.test", "signon Malpha gm-secret\nprocess")
    give_orders(playing, {"FRANCE": ["A Bur H"], "GERMANY": ["A Ruh - Bur", "A Mun S A Ruh - Bur"]})
    playing.reply_to("gm@dip.test", "signon Malpha gm-secret\nprocess")
    assert playing.service.status("alpha").phase == "F1901R"
    said = section(playing.reply_to("france@dip.test", signon("FRANCE") + "A Bur R Gas\npreview").body)
    assert "every other power's dislodged units are disbanded" in said
    assert "Army Burgundy retreats -> Gascony retreated" in said
    assert "France: fleet in Brest, army in Gascony, army in Marseilles" in said
    assert playing.service.status("alpha").phase == "F1901R"


def test_dpjudges_predict_is_a_players_preview_too(playing):
    r = playing.reply_to("france@dip.test", signon("FRANCE") + "A Par - Bur\npredict")
    assert "read `predict` as `PREVIEW`" in r.text, r.body
    assert "PREVIEW: what the orders of France standing now would do" in r.text
