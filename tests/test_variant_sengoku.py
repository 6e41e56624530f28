"""Sengoku Jidai played by mail to its end, in-process (tests/mailjudge.py: the real dispatcher, no
SMTP): its ninth power, Neutral, is a dummy nobody plays (judge.engine.dummies). LIST VARIANTS and
HELP VARIANT count eight players and name Neutral as played by nobody; nobody may join as Neutral; the
game starts with the eight and each phase is played as soon as the eight are in (Neutral is never
waited for); Neutral's army in Mino, dislodged, is destroyed with no retreat, and built again in
the Winter because Mino is still Neutral's; no draw may be voted (NO_DRAW), so the game ends when
the others concede to Oda."""
from judge.engine import load_variant
from judge.mail.outbound.courier import Courier

from mailjudge import MailJudge, deliver
from test_mail_variants import InProcess, address, password

GAME = "gsengoku"


def holds(status, power: str) -> list[str]:
    return [f"{unit} H" for unit in status.position["units"][power]]


def test_sengoku_played_by_mail_with_neutral_a_dummy_nobody_plays(tmp_path):
    variant = load_variant("sengoku")
    judge = MailJudge(tmp_path)
    judge.dispatch.courier = Courier(judge.service, judge.config)
    service, table = judge.service, InProcess(judge)
    try:
        reply = " ".join(table.send("gm@dip.test", "REGISTER gm gm-Secret9\nLIST VARIANTS\nHELP VARIANT Sengoku Jidai\n"
                                                   f"CREATE {GAME} gm-Secret9 sengoku PICTURES OFF").split())
        assert "sengoku - Sengoku Jidai: 8 players, 15 of 37 centres win, from Spring 1570 Movement." in reply
        assert "8 players: Asakura, Chosokabe, Hojo, Mori, Oda, Shimazu, Takeda and Uesugi." in reply
        assert "Played by nobody (the variant's rules give their orders): Neutral." in reply
        assert f"created {GAME}" in reply

        reply = table.send(address("NEUTRAL"), f"REGISTER neutral {password('NEUTRAL')}\n"
                                               f"JOIN {GAME} {password('NEUTRAL')} NEUTRAL")
        assert f"joined {GAME}" not in reply and "no seat" in reply, reply
        players = [p for p in variant.power_ids if p != "NEUTRAL"]
        for power in players:
            reply = table.send(address(power), f"REGISTER {power.lower()} {password(power)}\n"
                                               f"JOIN {GAME} {password(power)} {power}")
            assert f"joined {GAME}" in reply, reply
        status = service.status(GAME)
        assert status.status == "active" and status.phase == "S1570M"
        start = [m for m in table.to(address("ODA")) if "Draws" in m.get_body(("plain",)).get_content()]
        assert "Draws none: the game ends in a win, or when the others concede to one power" in " ".join(
            start[0].get_body(("plain",)).get_content().split())
        assert status.powers["NEUTRAL"].account is None and not status.powers["NEUTRAL"].owes

        def play(moves: dict[str, list[str]]) -> None:
            """Every player's orders (the named ones, holds for the rest); then the judge's tick: the
            phase is played at once, every player being in."""
            status = service.status(GAME)
            for power in players:
                lines = moves.get(power) or holds(status, power)
                letter = variant.power(power).letter
                reply = table.send(address(power), "\n".join([f"SIGNON {letter}{GAME} {password(power)}", *lines]))
                assert "ERROR" not in reply and "not read" not in reply, reply
            assert service.run_due() == {GAME: "processed"}

        play({"ODA": ["A Owa - Min", "F Mik H"], "TAKEDA": ["A Ssh S A Owa - Min", "A Kai H"]})
        status = service.status(GAME)
        assert status.phase == "F1570M"          # no retreat: Neutral's army in Mino was destroyed
        assert "A MIN" in status.position["units"]["ODA"] and "A MIN" not in status.position["units"]["NEUTRAL"]

        play({"ODA": ["A Min - Owa", "F Mik H"]})         # Mino left before the Fall: still Neutral's centre
        status = service.status(GAME)
        assert status.phase == "S1571M"          # Neutral's Winter build made by the rule, not awaited
        assert sorted(status.position["units"]["NEUTRAL"]) == ["A BIZ", "A BUN", "A HIZ", "A MIN", "A MUS", "A YAS"]
        results = [m.body for m in deliver(judge) if address("ODA") in m.to and "Winter 1570" in m.body]
        assert results and "built by the variant's rule for a power nobody plays" in " ".join(results[-1].split())

        reply = table.send(address("ODA"), f"SIGNON D{GAME} {password('ODA')}\nSET DRAW")
        assert "allows no draw" in reply and "you vote for a draw" not in reply, reply
        for power in players:
            if power != "ODA":
                letter = variant.power(power).letter
                reply = table.send(address(power), f"SIGNON {letter}{GAME} {password(power)}\nCONCEDE Oda")
        assert "Oda wins and the game is over" in " ".join(reply.split()), reply     # Neutral concedes nothing
        assert service.status(GAME).status == "finished"
        ends = {power: [m for m in table.to(address(power)) if str(m["Subject"]).startswith(f"{GAME} is over")]
                for power in ("ODA", "NEUTRAL")}
        assert ends["ODA"] and not ends["NEUTRAL"]
    finally:
        judge.close()
