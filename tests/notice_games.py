"""Games played through GameService so that every kind of notice really occurs, each notice
rendered as the mail layer would, right after it was written (no tests here; see test_mail_notices).

`play_all(directory)` returns a `Played`: every rendered notice, in the order written.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from judge.engine import load_variant
from judge.engine.notation import order_text, position_from_json
from judge.games.clock import parse_time
from judge.games.model import Settings
from judge.games.service import GameService, Notice
from judge.mail.words.notices import render_notice
from judge.mail.words.reports import Rendered, Reports
from judge.storage.open_files import games_kept_open
from test_games_helpers import (STANDARD, accounts, france_plays_on_alone, greedy_orders, orders, seven_player_game,
                                service, submit)


@dataclass
class Mail:
    notice: Notice
    mail: Rendered

    @property
    def kind(self) -> str:
        return self.notice.kind


@dataclass
class Played:
    mails: list[Mail] = field(default_factory=list)

    def of(self, kind: str, game: str | None = None, recipient: str | None | bool = False) -> list[Mail]:
        """Mails of a kind (in a game; to a recipient, None meaning the public copy)."""
        return [m for m in self.mails if m.kind == kind
                and (game is None or m.notice.payload["game"] == game)
                and (recipient is False or m.notice.recipient == recipient)]

    def one(self, kind: str, game: str | None = None, recipient: str | None | bool = False) -> Mail:
        found = self.of(kind, game, recipient)
        assert found, f"no {kind} notice in {game or 'any game'} for {recipient}"
        return found[0]


class Courier:
    """What the mail layer does: render each pending notice, then mark it queued."""

    def __init__(self, svc: GameService, played: Played) -> None:
        self.svc, self.played, self.reports = svc, played, Reports()

    def __call__(self) -> None:
        for game in self.svc.games_with_notices():
            notices = self.svc.pending_notices(game)
            for n in notices:
                self.played.mails.append(Mail(n, render_notice(self.reports, self.svc, n)))
            self.svc.mark_notices_queued(game, [n.id for n in notices])


def deadline(svc: GameService, game: str):
    return parse_time(svc.status(game).deadline["utc"])


def past_grace(svc: GameService, clock, game: str) -> None:
    clock.set(deadline(svc, game) + timedelta(hours=svc.status(game).settings["grace_hours"]))
    svc.run_due()


def play_all(directory: Path) -> Played:
    played = Played()
    # The service as `judge serve` builds it (judge.mail.serve_hooks): game files kept open, judge.sqlite
    # at NORMAL. Opened and closed for every call, each close a checkpoint (three fsyncs), the ten games
    # cost four times the time on a busy disk, and the notices rendered are the same.
    svc, clock = service(directory, keep_open=games_kept_open(), judge_synchronous="NORMAL")
    courier = Courier(svc, played)
    alpha(svc, clock, courier)
    convoys(svc, clock, courier)
    long_game(svc, clock, courier)
    other_endings(svc, clock, courier)
    waiting(svc, clock, courier)
    world_war(svc, clock, courier)
    abstraction(svc, clock, courier)
    anonymous(svc, clock, courier)
    excused(svc, clock, courier)
    standby(svc, clock, courier)
    return played


def alpha(svc: GameService, clock, courier: Courier) -> None:
    """One year of a standard game: press, a reminder, a late power in civil disorder then abandoned
    and replaced, bounces, a cut support, dislodged units, a retreat, builds, a player back, a pause,
    an absence moving the deadline, a rollback, a resignation and a draw."""
    seven_player_game(svc, "alpha", settings=Settings(press="grey", abandon_after=2))
    courier()
    svc.send_press("alpha", "ENGLAND", ["FRANCE", "GERMANY"], "Shall we share the Channel?\nEngland",
                   account="p-england")
    svc.send_press("alpha", "GERMANY", ["ENGLAND"], "Watch out for France.", anonymous=True, account="p-germany")
    svc.send_press("alpha", "MASTER", None, "Welcome to alpha. Play nicely.\nGrüße – the GM")
    courier()

    submit(svc, "alpha", "AUSTRIA", "A VIE - GAL", "A BUD - SER", "F TRI - ALB")
    submit(svc, "alpha", "ENGLAND", "F LON - ENG", "F EDI - NTH", "A LVP - YOR")
    submit(svc, "alpha", "GERMANY", "A MUN - BUR", "A BER - PRU", "F KIE - DEN")
    submit(svc, "alpha", "ITALY", "A VEN - PIE", "A ROM - VEN", "F NAP - ION")
    submit(svc, "alpha", "RUSSIA", "A WAR - GAL", "A MOS - UKR", "F SEV - RUM", "F STP/SC - BOT")
    submit(svc, "alpha", "TURKEY", "F ANK - BLA", "A CON - BUL", "A SMY - ARM")
    # njudge's PHASE: orders kept for the fall, one of them void then (the army left Constantinople)
    svc.keep_orders("alpha", "TURKEY", "F1901M", orders("A BUL - RUM", "A CON H"), account="p-turkey",
                    source="test:later")
    clock.set(deadline(svc, "alpha") - timedelta(hours=23))
    svc.run_due()          # the 24-hour reminder, to France and the master
    courier()
    clock.set(deadline(svc, "alpha"))
    svc.run_due()          # France is late
    courier()
    past_grace(svc, clock, "alpha")   # Spring 1901: France in civil disorder
    courier()

    submit(svc, "alpha", "AUSTRIA", "A VIE - GAL", "A SER H", "F ALB - GRE")
    submit(svc, "alpha", "ENGLAND", "F ENG - BRE", "F NTH - NWY", "A YOR H")
    submit(svc, "alpha", "GERMANY", "A BUR - MAR", "A PRU - WAR", "F DEN - SWE")
    submit(svc, "alpha", "ITALY", "A PIE S A BUR - MAR", "A VEN H", "F ION - TUN")
    submit(svc, "alpha", "RUSSIA", "A UKR - GAL", "A WAR S A UKR - GAL", "F RUM H", "F BOT - SWE")
    submit(svc, "alpha", "TURKEY", "A BUL - RUM", "F BLA S A BUL - RUM", "A ARM H")
    past_grace(svc, clock, "alpha")   # Fall 1901: France abandoned, Russia's fleet dislodged
    courier()

    svc.create_account("p-new", "new@example.org", "secret-new", time_zone="Asia/Tokyo")
    svc.take_over("alpha", "FRANCE", "p-new")
    courier()
    svc.submit_orders("alpha", "FRANCE", orders("A MAR - GAS"), account="p-new")
    submit(svc, "alpha", "RUSSIA", "F RUM - SEV")
    svc.run_due()          # Russia's retreat is in (France's army, dislodged in civil disorder, is disbanded)
    courier()

    submit(svc, "alpha", "AUSTRIA", "BUILD A BUD", "BUILD F TRI")
    submit(svc, "alpha", "ENGLAND", "BUILD F LON")
    submit(svc, "alpha", "GERMANY", "BUILD A BER", "BUILD F KIE")
    submit(svc, "alpha", "TURKEY", "BUILD F ANK", "BUILD A CON")
    past_grace(svc, clock, "alpha")   # Winter 1901: Italy sends nothing and is in civil disorder
    courier()

    svc.pause("alpha")
    clock.advance(hours=5)
    svc.resume("alpha")
    courier()
    due = deadline(svc, "alpha")
    svc.add_absence("alpha", "p-germany", due - timedelta(hours=2), due + timedelta(hours=10))
    courier()
    status = svc.status("alpha")
    for power, info in status.powers.items():
        if info.owes:
            position = position_from_json(STANDARD, status.position)
            mine = greedy_orders(STANDARD, position, power)
            svc.submit_orders("alpha", power, [(order_text(o), o) for o in mine], account=info.account)
    svc.run_due()          # Spring 1902, played early: everyone is in; Italy is back
    courier()
    svc.rollback("alpha", "S1902M")
    courier()
    svc.resign("alpha", "AUSTRIA", account="p-austria")
    courier()
    for account in ("p-austria", "p-england", "p-new", "p-germany", "p-italy", "p-russia", "p-turkey"):
        svc.vote_draw("alpha", account)
    courier()


def convoys(svc: GameService, clock, courier: Courier) -> None:
    """A year with a convoy that works and one disrupted, a support that does not match, supports
    that cannot reach and a fleet ordered inland."""
    seven_player_game(svc, "beta")
    submit(svc, "beta", "ENGLAND", "F EDI - NTH", "F LON H", "A LVP - YOR")
    submit(svc, "beta", "GERMANY", "F KIE - HEL", "A BER - KIE", "A MUN H")
    submit(svc, "beta", "FRANCE", "F BRE - ENG", "A PAR - PIC", "A MAR H")
    submit(svc, "beta", "ITALY", "A VEN H", "A ROM H", "F NAP - TYS")
    submit(svc, "beta", "TURKEY", "F ANK - BLA", "A CON - BUL", "A SMY H")
    submit(svc, "beta", "RUSSIA", "F SEV H", "A MOS H")
    submit(svc, "beta", "AUSTRIA", "A VIE H")
    past_grace(svc, clock, "beta")
    courier()
    submit(svc, "beta", "ENGLAND", "F NTH C A YOR - NWY", "A YOR - NWY VIA CONVOY", "F LON H")
    submit(svc, "beta", "GERMANY", "F HEL - NTH", "A KIE - DEN", "A MUN S F HEL - NTH")
    submit(svc, "beta", "FRANCE", "F ENG S F HEL - NTH", "A PIC - BEL", "A MAR - BUR")
    submit(svc, "beta", "ITALY", "A VEN S A ROM - APU", "A ROM H", "F TYS - VIE")
    submit(svc, "beta", "TURKEY", "F BLA C A BUL - SEV", "A BUL - SEV")
    past_grace(svc, clock, "beta")
    courier()


def long_game(svc: GameService, clock, courier: Courier) -> None:
    """France plays on alone against civil disorder to 18 centres: eliminations, and a win."""
    seven_player_game(svc, "long")
    france_plays_on_alone(svc, "long", lambda: past_grace(svc, clock, "long"), courier)
    assert svc.status("long").status == "finished"


def other_endings(svc: GameService, clock, courier: Courier) -> None:
    """A game that reaches its last year, one that ends by concession (France's diary then shown), and one
    the master takes back to forming (UNSTART) and then ends by mistake and resumes (RESUME within a day of
    TERMINATE)."""
    seven_player_game(svc, "short", settings=Settings(last_year=1901))
    while svc.status("short").status != "finished":
        past_grace(svc, clock, "short")
    courier()
    seven_player_game(svc, "gift")
    svc.diary_record("gift", "FRANCE", "They will all concede to me.", account="p-france")   # shown at the end
    for power in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        svc.concede("gift", f"p-{power.lower()}", "FRANCE")
    courier()
    seven_player_game(svc, "undone")
    svc.unstart("undone")
    svc.start("undone")
    svc.terminate("undone")
    svc.resume("undone")
    courier()


def waiting(svc: GameService, clock, courier: Courier) -> None:
    """A game that waits for late orders instead of putting powers in civil disorder."""
    seven_player_game(svc, "patient", settings=Settings(nmr_policy="wait"))
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
        submit(svc, "patient", power, "A " + {"AUSTRIA": "VIE", "ENGLAND": "LVP", "FRANCE": "PAR",
                                              "GERMANY": "BER", "ITALY": "ROM", "RUSSIA": "MOS"}[power] + " H")
    clock.set(deadline(svc, "patient"))
    svc.run_due()
    courier()


def world_war(svc: GameService, clock, courier: Courier) -> None:
    """The two-player game: an order into closed Italy, the coin toss, Italy joining."""
    names = ["ww-allies", "ww-central"]
    accounts(svc, names, zone="America/Los_Angeles")
    svc.create_game("ww", settings=Settings(players="two"), seed=3)
    svc.join("ww", "ww-allies", ["ENGLAND/FRANCE/RUSSIA"])
    svc.join("ww", "ww-central", ["AUSTRIA/GERMANY/TURKEY"])
    courier()
    svc.submit_orders("ww", "FRANCE", orders("A MAR - PIE", "A PAR - BUR"), account="ww-allies")
    past_grace(svc, clock, "ww")
    courier()
    past_grace(svc, clock, "ww")
    courier()


def abstraction(svc: GameService, clock, courier: Courier) -> None:
    """Abstraction II: a reconstructed map, months for seasons."""
    variant = load_variant("abstraction2")
    names = [f"a2-{p.lower()}" for p in variant.power_ids]
    accounts(svc, names)
    svc.create_game("a2", variant="abstraction2", seed=5)
    for power, name in zip(variant.power_ids, names, strict=True):
        svc.join("a2", name, [power])
    courier()
    # Budapest (empty: its army starts in Tyrolia) for Warsaw, whose army leaves; then an offer
    # Italy makes and withdraws, and one that fails because Turkey's fleet stays on its centre.
    svc.offer_exchange("a2", "AUSTRIA", partner="Russia", give=["Bud"], receive=["War"], account="a2-austria")
    svc.submit_orders("a2", "RUSSIA", orders("A War - Gal", variant=variant), account="a2-russia")
    svc.offer_exchange("a2", "RUSSIA", partner="Austria", give=["Warsaw"], receive=["Budapest"], account="a2-russia")
    svc.offer_exchange("a2", "ITALY", partner="France", give=["Nap"], receive=["Mar"], account="a2-italy")
    svc.offer_exchange("a2", "ITALY", partner="France", give=[], receive=[], account="a2-italy")
    svc.offer_exchange("a2", "GERMANY", partner="Turkey", give=["Ber"], receive=["Con"], account="a2-germany")
    svc.offer_exchange("a2", "TURKEY", partner="Germany", give=["Con"], receive=["Ber"], account="a2-turkey")
    courier()
    past_grace(svc, clock, "a2")
    courier()


def excused(svc: GameService, clock, courier: Courier) -> None:
    """A game with one excused miss each: France sends nothing, and the deadline moves instead."""
    seven_player_game(svc, "excused", settings=Settings(excuses=1, excuse_hours=24))
    for power, unit in (("AUSTRIA", "VIE"), ("ENGLAND", "LVP"), ("GERMANY", "BER"), ("ITALY", "ROM"),
                        ("RUSSIA", "MOS"), ("TURKEY", "CON")):
        submit(svc, "excused", power, f"A {unit} H")
    past_grace(svc, clock, "excused")
    courier()


def standby(svc: GameService, clock, courier: Courier) -> None:
    """Last (the list would reach every later game's open powers): a resigned power offered to two
    standbys at once in a game whose master approves takeovers; one asks, the master approves, and
    the other is told the offer is over."""
    seven_player_game(svc, "stood", settings=Settings(offer_hours=0, approve_takeovers=True))
    accounts(svc, ["standby-sam", "standby-tia"])
    svc.set_standby("standby-sam", "standard")
    svc.set_standby("standby-tia", "ANY")
    svc.resign("stood", "ITALY", account="p-italy")
    svc.run_due()
    courier()
    assert not svc.claim("stood", "ITALY", "standby-sam")
    courier()
    svc.decide_takeover("stood", "standby-sam", True)
    svc.set_standby("standby-sam", None)
    svc.set_standby("standby-tia", None)
    courier()


def anonymous(svc: GameService, clock, courier: Courier) -> None:
    """An anonymous game: the master acts for a power (BECOME), a player is replaced, then REVEAL; then
    the master sets a new password for Italy's next player."""
    seven_player_game(svc, "masked", settings=Settings(anonymous=True))
    svc.act_for("masked", "ITALY", "gm")
    svc.eject("masked", "ITALY")
    svc.replace("masked", "ITALY", "p-italy")
    courier()
    svc.reveal("masked")
    courier()
    # Italy's new player, who plays nowhere else, lost the password: the master sets one (password_set)
    svc.create_account("lost-italy", "lost-italy@example.org", "forgotten")
    svc.replace("masked", "ITALY", "lost-italy")
    svc.set_player_password("masked", "ITALY", "gm", "a-new-one")
    courier()
