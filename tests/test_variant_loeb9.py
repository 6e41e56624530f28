"""Loeb9's Arctic Ocean by mail (judge/engine/seasonal.py): a move into it in Fall refused in the
confirmation with the reason, the results mails saying it is impassable in the coming Fall and which
fleet is trapped there, the trapped fleet's move refused. In-process (tests/mailjudge.py), set up by
the service, no pictures; the rule's cases are tests/data/variants/seasonal.json."""
from __future__ import annotations

from judge.engine import load_variant
from judge.games.model import Settings

from mailjudge import MailJudge, deliver

GAME = "gloeb"


def test_the_arctic_ocean_shuts_in_fall_and_traps_a_fleet_by_mail(tmp_path):
    judge = MailJudge(tmp_path)
    try:
        variant = load_variant("loeb9")
        judge.service.create_account("gm", "gm@dip.test", "gm-secret")
        judge.service.create_game(GAME, variant="loeb9", master="gm", settings=Settings(pictures=False))
        for p in variant.power_ids:
            judge.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
            judge.service.join(GAME, p.lower(), [p])
        deliver(judge)

        def orders(*lines: str) -> str:
            return " ".join(judge.reply_to("england@dip.test", "\n".join([f"SIGNON E{GAME} england-pw", *lines])).body
                            .split())

        def process() -> str:
            judge.reply_to("gm@dip.test", f"SIGNON M{GAME} gm-secret\nPROCESS")
            [results] = [m.body for m in deliver(judge) if "england@dip.test" in m.to and "results" in m.subject]
            return " ".join(results.split())

        orders("F Edi - Nwg")
        spring = process()
        assert "Impassable in Fall 1901 Movement: Arctic Ocean; nothing moves, supports or retreats into it." \
            in spring, spring
        assert "Trapped there" not in spring
        refused = orders("F Nwg - Arc")
        assert "Arctic Ocean is impassable this season: no unit enters it or supports into it" in refused, refused
        fall = process()
        assert "Impassable in" not in fall       # (Spring 1902 next: open)
        orders("F Nwg - Arc")
        spring = process()
        assert "Trapped there, able only to hold until it opens: English fleet in Arctic Ocean." in spring, spring
        trapped = orders("F Arc - Nwg")
        assert "the unit there is trapped and may only hold" in trapped, trapped
        assert "F ARC" in judge.service.status(GAME).position["units"]["ENGLAND"]
    finally:
        judge.close()
