"""Zeus played by mail to its end, in-process (tests/mailjudge.py: the real dispatcher, no SMTP): the
world in 1939 from the Winter builds, India a standing army nobody plays, and the USA's California an
alternative home centre (judge.engine.alternative_homes) whose Winter 1939 builds, in New York or
California, are hidden (judge.games.hidden_builds).

Thinking as Britain wanting to know where the USA built: its results mail, HISTORY, the board's
picture, the digests, PREVIEW, EXPORT, an observer's copy, and what its own orders' confirmations say (a support of the
hidden army, read and checked, and whether Britain is then "in") must not tell it, until the Spring
1940 moves are played; the USA's own mail and the master's say it all along."""
from judge.engine import load_variant
from judge.mail.outbound.courier import Courier
from judge.pictures.games import veiled_record

from mailjudge import MailJudge
from test_mail_variants import InProcess, address, password

GAME = "gzeus"


def test_zeus_played_by_mail_with_the_usa_building_hidden(tmp_path):
    variant = load_variant("zeus")
    judge = MailJudge(tmp_path)
    judge.dispatch.courier = Courier(judge.service, judge.config)
    service, table = judge.service, InProcess(judge)

    def say(power: str, *lines: str) -> str:
        letter = variant.power(power).letter
        return " ".join(table.send(address(power), "\n".join([f"SIGNON {letter}{GAME} {password(power)}",
                                                               *lines])).split())

    def results(power: str, phase: str) -> str:
        who = address(power) if power in variant.power_ids else f"{power}@dip.test"
        [got] = [m for m in table.to(who) if str(m["Subject"]) == f"{GAME}: {phase} results"]
        return " ".join(got.get_body(("plain",)).get_content().split())

    try:
        reply = " ".join(table.send("gm@dip.test", "REGISTER gm gm-Secret9\nLIST VARIANTS\nHELP VARIANT Zeus\n"
                                                   f"CREATE {GAME} gm-Secret9 zeus PICTURES OFF").split())
        assert "zeus - Zeus: 7 players, 22 of 43 centres win, from Winter 1939 Adjustment." in reply
        assert "7 players: Britain, China, France, Germany, Japan, USA and USSR." in reply
        assert "Played by nobody (the variant's rules give their orders): India." in reply
        players = [p for p in variant.power_ids if p not in variant.dummies]
        for power in players:
            reply = table.send(address(power), f"REGISTER {power.lower()} {password(power)}\n"
                                               f"JOIN {GAME} {password(power)} {power}")
            assert f"joined {GAME}" in reply, reply
        assert service.status(GAME).phase == "W1939A"

        # four centres, three builds; California only in place of New York
        reply = say("USA", "Build A Nyo", "Build A Cal")
        assert "You may build 3 units" in reply
        assert "Build army California: California is a build site only in place of New York" in reply
        assert "USA is in" in say("USA", "Build A Nyo", "Build A Haw", "Build F Was")
        say("BRITAIN", "Build A Can", "Build F Lon")
        reply = table.send("watcher@dip.test", f"REGISTER watcher watcher-Secret9\nOBSERVE {GAME} watcher-Secret9")
        assert f"you now observe {GAME}" in reply, reply
        assert f"{GAME} W1939A: processed" in table.send("gm@dip.test", f"SIGNON M{GAME} gm-Secret9\nPROCESS")
        assert "A NYO" in service.status(GAME).position["units"]["USA"]

        # the build in New York: told to the USA and the master, to nobody else
        for power in ("USA", "gm"):
            text = results(power, "Winter 1939 Adjustment") if power != "gm" else " ".join(
                [m for m in table.to("gm@dip.test") if "Winter 1939 Adjustment results" in str(m["Subject"])][0]
                .get_body(("plain",)).get_content().split())
            assert "Build army New York built (hidden: the other powers see it once the next movement is played)" \
                in text, power
            assert "USA: army in Hawaii, army in New York and fleet in Washington." in text
            assert "Built hidden" not in text
        for power in [*players, "watcher"]:
            if power != "USA":
                text = results(power, "Winter 1939 Adjustment")
                assert "Build army Hawaii built" in text and "USA: army in Hawaii and fleet in Washington." in text
                assert "Built hidden, where and of what kind told when the next movement phase is played: USA 1 unit." \
                    in text
                assert "Build army New York" not in text and "army in New York" not in text, power
                digests = text.split("Next:")[0].partition("Digests of the orders")[2]
                assert "USA" not in digests        # a digest of a few builds is found by trying them all
        assert "BUILD A NYO" in say("USA", "HISTORY gzeus")
        history = say("BRITAIN", "HISTORY gzeus")
        assert "USA BUILD A HAW ok" in history and "NYO" not in history

        # the board's picture (the results mail's and MAP's) shows no hidden unit, not even to the USA
        drawn = veiled_record(service, GAME, service.phase_record(GAME))
        assert "A NYO" not in drawn.position["units"]["USA"] and "A HAW" in drawn.position["units"]["USA"]
        built = veiled_record(service, GAME, service.phase_record(GAME, "W1939A"))
        assert [o["order"] for r in built.results for o in r["outcomes"] if o["power"] == "USA"] == \
            ["BUILD A HAW", "BUILD F WAS"]

        # Britain's orders are read and checked as if New York were empty: its support of the hidden
        # army is told void, as one of an empty province, and Britain is not in either way
        for where, name in (("Nyo", "New York"), ("Ore", "Oregon")):
            reply = say("BRITAIN", f"A Can S A {where}", "F Lon H")
            assert f"Army Canada supports Army {name}: there is no unit in {name} to support" in reply
            assert "Britain is not in yet" in reply
        reply = say("BRITAIN", "PREVIEW gzeus", "EXPORT gzeus")
        assert "nothing to preview" in reply and "builds hidden until the next movement phase" in reply
        assert "nothing to preview" not in say("USA", "PREVIEW gzeus")

        # the Spring moves played: the army in New York shows in everyone's results and HISTORY
        say("BRITAIN", "A Can S A Nyo", "F Lon H")
        say("USA", "A Nyo H", "A Haw H", "F Was - Mao")
        assert f"{GAME} S1940M: processed" in table.send("gm@dip.test", f"SIGNON M{GAME} gm-Secret9\nPROCESS")
        text = results("BRITAIN", "Spring 1940 Movement")
        assert "Army New York holds" in text or "Army New York hold" in text, text
        assert "BUILD A NYO" in say("BRITAIN", "HISTORY gzeus")
        assert "A NYO" in veiled_record(service, GAME, service.phase_record(GAME)).position["units"]["USA"]

        for power in players:
            reply = say(power, "SET DRAW")
        assert "every survivor agreed: the game ends in a draw" in reply
        assert service.status(GAME).status == "finished"
    finally:
        judge.close()
