"""Every variant of issue 17 played by mail to its end through a running `judge serve` (in-process:
real SMTP in, an SMTP sink as the relay out, the games on disk). Data-driven by
tests/data/variants/by_mail.json: the master asks LIST VARIANTS and HELP VARIANT and creates the
game by mail, one player per power registers and joins by mail, a few powers send orders, the master
processes the first phase (its results mail carries the board's picture), and every surviving power
votes for a draw; each player's end-of-game mail says so. Cheap on purpose: one phase per game. The
maps issue 29 added play the same game side by side in one judge in-process (the real dispatcher,
no SMTP: tests/mailjudge.py), and a few of them again side by side in one running judge, for SMTP."""
import json
import smtplib
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.games.clock import ManualClock
from judge.games.service import GameService

from judge.mail.outbound.courier import Courier

from mailjudge import MailJudge, mail
from servers.net import wait_until
from servers.sink import Sink
from test_mail_game import judge_config, running

BY_MAIL = json.loads((Path(__file__).parent / "data" / "variants" / "by_mail.json").read_text(encoding="utf-8"))
GAMES = [g for g in BY_MAIL["games"] if not g.get("in_process")]
IN_PROCESS = [g for g in BY_MAIL["games"] if g.get("in_process")]
SIDE_BY_SIDE = [g for g in IN_PROCESS if g["variant"] in BY_MAIL["side_by_side"]]
JUDGE = "judge@dip.test"


class Players:
    """The players' side: mail the running judge by SMTP and read what the relay got (each mail
    parsed once, as it arrives)."""

    def __init__(self, sink: Sink, port: int):
        self.sink, self.port, self.seen = sink, port, []

    def mails(self):
        received = self.sink.received
        self.seen += [message_from_bytes(r.raw, policy=policy.default) for r in received[len(self.seen):]]
        return self.seen

    def to(self, address: str):
        return [m for m in self.mails() if address in str(m["To"])]

    def send(self, frm: str, body: str) -> str:
        """Send one mail and return the text of the judge's reply to it."""
        raw = mail(frm, body, to=JUDGE)
        mid = message_from_bytes(raw, policy=policy.default)["Message-ID"]
        with smtplib.SMTP("127.0.0.1", self.port) as smtp:
            smtp.sendmail(frm, [JUDGE], raw)
        [reply] = wait_until(lambda: [m for m in self.mails() if m["In-Reply-To"] == mid], what=f"the reply to {mid}")
        return reply.get_body(("plain",)).get_content()


def address(power: str) -> str:
    return f"{power.lower()}@dip.test"


def password(power: str) -> str:
    return f"{power.lower()}-Secret9"


@pytest.mark.parametrize("game", GAMES, ids=[g["variant"] for g in GAMES])
def test_a_variant_played_by_mail_to_its_end(tmp_path, game):
    variant = load_variant(game["variant"])
    name = "g" + variant.id.replace("-", "")
    service = GameService(tmp_path / "var", clock=ManualClock("2026-03-02T12:00:00Z"))
    with Sink() as sink:
        config = judge_config(tmp_path, sink)
        with running(config, service) as judge:
            table = Players(sink, judge.port)
            reply = table.send("gm@dip.test", f"REGISTER gm gm-Secret9\nLIST VARIANTS\nHELP VARIANT {variant.name}\n"
                                              f"CREATE {name} gm-Secret9 {variant.id}")
            assert f"{variant.id} - {variant.name}:" in reply                  # in LIST VARIANTS
            assert f"{variant.name} (CREATE game password {variant.id})" in reply
            for words in game["help"]:
                assert words in " ".join(reply.split()), words
            assert f"created {name}" in reply

            for power in variant.powers:
                reply = table.send(address(power.id), f"REGISTER {power.id.lower()} {password(power.id)}\n"
                                                      f"JOIN {name} {password(power.id)} {power.id}")
                assert f"joined {name}" in reply, reply
            assert wait_until(lambda: service.status(name).status == "active", what="the game to start")
            first = service.status(name).phase

            for power, lines in game["orders"].items():
                letter = variant.power(power).letter
                reply = table.send(address(power), "\n".join([f"SIGNON {letter}{name} {password(power)}", *lines]))
                assert "ERROR" not in reply and "not read" not in reply, reply
            reply = table.send("gm@dip.test", f"SIGNON M{name} gm-Secret9\nPROCESS")
            assert f"{name} {first}: processed" in reply, reply
            units = service.status(name).position["units"]
            for power, unit in game["after"].items():
                assert unit in units[power], (power, units[power])
            someone = address(next(iter(game["orders"])))
            results = wait_until(lambda: [m for m in table.to(someone) if "results" in str(m["Subject"]).lower()],
                                 what="the first phase's results")
            assert any(part.get_content_type() == "image/png" for part in results[0].iter_attachments())

            position = service.status(name).position
            alive = [p for p in variant.powers if position["units"].get(p.id) or position["centres"].get(p.id)]
            assert {p.id for p in alive} >= set(game["orders"])
            for power in alive:
                reply = table.send(address(power.id), f"SIGNON {power.letter}{name} {password(power.id)}\nSET DRAW")
                assert "you vote for a draw" in reply, reply
            assert "every survivor agreed: the game ends in a draw" in reply
            assert service.status(name).status == "finished"
            for power in variant.powers:
                ends = wait_until(lambda power=power: [m for m in table.to(address(power.id))
                                           if str(m["Subject"]).strip().startswith(f"{name} is over")],
                                  what=f"{power.name}'s end-of-game mail")
                assert "draw" in str(ends[0]["Subject"])


class InProcess:
    """The players' side of an in-process judge (tests/mailjudge.py, its courier queueing each game's
    notices as the mail that caused them is answered): as Players, without SMTP."""

    def __init__(self, judge: MailJudge):
        self.judge, self.seen = judge, []

    def to(self, address: str):
        return [m.mail for m in self.seen if address in m.to]      # (the outbox's recipients: no header parsed)

    def send(self, frm: str, body: str) -> str:
        sent = self.judge.send(frm, body)
        self.seen += sent
        [reply] = [m for m in sent if frm in m.to and m.mail["In-Reply-To"]]     # (the notices answer nothing)
        return reply.body


def test_the_new_maps_played_by_mail_side_by_side_in_process_to_their_ends(tmp_path):
    """Every map by_mail.json marks in_process, its whole game as above, all of them side by side in
    one judge through the real dispatcher in-process: a player is one account (one per power's name)
    with one mail per step for every game that has its power."""
    judge = MailJudge(tmp_path)
    judge.dispatch.courier = Courier(judge.service, judge.config)
    try:    # each board's picture is painted by test_pictures_variants; the served games below attach it
        play_side_by_side(InProcess(judge), judge.service, IN_PROCESS, pictures=False)
    finally:
        judge.close()


def test_variants_sharing_powers_played_by_mail_side_by_side_to_their_ends(tmp_path):
    """As above, for a few of those maps (by_mail.json's side_by_side) in one running judge, for the
    SMTP path."""
    service = GameService(tmp_path / "var", clock=ManualClock("2026-03-02T12:00:00Z"))
    with Sink() as sink:
        config = judge_config(tmp_path, sink)
        with running(config, service) as judge:
            play_side_by_side(Players(sink, judge.port), service, SIDE_BY_SIDE)


def play_side_by_side(table: Players | InProcess, service: GameService, games: list[dict], *,
                      pictures: bool = True) -> None:
    """The games played to their ends at once, each as test_a_variant_played_by_mail_to_its_end plays
    one: JOIN, orders and SET DRAW for every game a player's power is in, in one mail per step.
    `pictures`: the results carry the board's picture (else the games are made with PICTURES OFF)."""
    variants = {g["variant"]: load_variant(g["variant"]) for g in games}
    name = {v: "g" + v.replace("-", "") for v in variants}
    powers = sorted({p.id for v in variants.values() for p in v.powers})
    off = "" if pictures else " PICTURES OFF"
    asks = [f"HELP VARIANT {v.name}\nCREATE {name[v.id]} gm-Secret9 {v.id}{off}" for v in variants.values()]
    reply = table.send("gm@dip.test", "\n".join(["REGISTER gm gm-Secret9", "LIST VARIANTS", *asks]))
    reply = " ".join(reply.split())
    for g in games:
        v = variants[g["variant"]]
        assert f"{v.id} - {v.name}:" in reply and f"{v.name} (CREATE game password {v.id})" in reply
        assert all(words in reply for words in g["help"]), g["help"]
        assert f"created {name[v.id]}" in reply

    def in_games(power: str) -> list[str]:     # (a dummy, which nobody plays, has no seat: Vassal's small countries)
        return [v for v, var in variants.items() if power in var.power_ids and power not in var.dummies]

    for power in powers:
        joins = [f"JOIN {name[v]} {password(power)} {power}" for v in in_games(power)]
        reply = table.send(address(power), "\n".join([f"REGISTER {power.lower()} {password(power)}", *joins]))
        assert all(f"joined {name[v]}" in reply for v in in_games(power)), reply
    for v in variants:
        assert wait_until(lambda v=v: service.status(name[v]).status == "active", what=f"{v} to start")
    first = {v: service.status(name[v]).phase for v in variants}

    by_power: dict[str, list[str]] = {}
    for g in games:
        for power, lines in g["orders"].items():
            letter = variants[g["variant"]].power(power).letter
            signon = f"SIGNON {letter}{name[g['variant']]} {password(power)}"
            by_power.setdefault(power, []).extend([signon, *lines])
    for power, lines in by_power.items():
        reply = table.send(address(power), "\n".join(lines))
        assert "ERROR" not in reply and "not read" not in reply, reply
    reply = table.send("gm@dip.test", "\n".join(f"SIGNON M{name[v]} gm-Secret9\nPROCESS" for v in variants))
    for g in games:
        v = g["variant"]
        assert f"{name[v]} {first[v]}: processed" in reply, reply
        units = service.status(name[v]).position["units"]
        for power, unit in g["after"].items():
            assert unit in units[power], (v, power, units[power])
        someone = address(next(iter(g["orders"])))
        results = wait_until(lambda v=v, someone=someone: [
            m for m in table.to(someone)
            if str(m["Subject"]).startswith(f"{name[v]}: ") and "results" in str(m["Subject"]).lower()],
            what=f"{v}'s first results")
        drawn = [p for p in results[0].iter_attachments() if p.get_content_type() == "image/png"]
        assert len(drawn) == pictures, v

    for power in powers:
        votes = []
        for v in in_games(power):
            position = service.status(name[v]).position
            if position["centres"].get(power):     # who shares a draw (the 5th edition: a power with centres)
                letter = variants[v].power(power).letter
                votes.append(f"SIGNON {letter}{name[v]} {password(power)}\nSET DRAW")
        if votes:
            assert "you vote for a draw" in table.send(address(power), "\n".join(votes))
    for v in variants:
        assert service.status(name[v]).status == "finished", v
        for power in (p for p in variants[v].power_ids if p not in variants[v].dummies):
            ends = wait_until(lambda v=v, power=power: [m for m in table.to(address(power))
                              if str(m["Subject"]).strip().startswith(f"{name[v]} is over")],
                              what=f"{power}'s end-of-game mail in {v}")
            assert "draw" in str(ends[0]["Subject"])


def test_list_variants_names_every_variant_and_help_variant_reads_ids_and_names(tmp_path):
    from judge.engine.variant import available_variants

    j = MailJudge(tmp_path)
    listed = j.reply_to("ann@dip.test", "LIST VARIANTS").body
    for variant_id in available_variants():
        assert f"  {variant_id} - {load_variant(variant_id).name}:" in listed
    for words in ("Ancient Mediterranean", "ANCMED", "ancient-mediterranean"):
        answer = " ".join(j.reply_to("ann@dip.test", f"HELP VARIANT {words}").body.split())
        assert "Ancient Mediterranean (CREATE game password ancmed)" in answer
        assert "5 players: Carthage, Egypt, Greece, Persia and Rome" in answer and "18 of the 34" in answer
        assert "Map: Imported from DPjudge ancmed.map" in answer and "Picture: drawn from the board itself" in answer
    answer = " ".join(j.reply_to("ann@dip.test", "HELP VARIANT France vs Austria").body.split())
    assert (
        "Off the board (their units gone, their centres neutral): England, Germany, Italy, Russia and Turkey" in answer
    )
    assert "Picture: the Standard map's picture" in answer
    wrong = j.reply_to("ann@dip.test", "HELP VARIANT Atlantis").body
    assert "there is no variant 'Atlantis'" in wrong and "LIST VARIANTS" in wrong
    j.close()
