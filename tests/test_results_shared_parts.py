"""The parts of a results mail every copy of one report shares (templates/_results_*.j2: the phases
played, the news, the centres) are rendered once for all a phase's copies: each copy still reads,
byte for byte, as rendering it alone does, in an ordinary game (where the seven players, the master
and the public share them), under fog of war (where each power's report is its own) and in an
anonymous game (where each reader's copy names other players)."""
import pytest

from judge.engine import load_variant
from judge.engine.notation import parse_order
from judge.games.model import Settings
from judge.mail.outbound.courier import OneRead
from judge.mail.words import results_report
from judge.mail.words.notices import render_notice
from judge.mail.words.reports import Reports

from mailjudge import MailJudge, POWERS

STANDARD = load_variant("standard")
SPRING = {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"],
          "ITALY": ["A VEN - TYR"], "AUSTRIA": ["A VIE - TYR"], "RUSSIA": ["F SEV - BLA"], "TURKEY": ["F ANK - BLA"]}
FALL = {"FRANCE": ["F MAO - POR", "A MAR - SPA"], "ENGLAND": ["F LON - NTH", "F EDI - NWG"],
        "ITALY": ["A VEN - TRI", "A ROM - VEN"], "GERMANY": ["F KIE - DEN"]}
GAMES = {"plain": Settings(), "fogged": Settings(fog=True), "masked": Settings(anonymous=True)}


class Watched(Reports):
    """Reports that note which kept texts each results copy was rendered with."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[int] = []

    def render(self, template, **context):
        self.texts.append(id(context["report"]["shared_texts"]))
        return super().render(template, **context)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Three games with the same seven players, a master and an observer, played to the winter."""
    j = MailJudge(tmp_path_factory.mktemp("shared"))
    j.service.create_account("gm", "gm@dip.test", "gm-secret")
    j.service.create_account("watcher", "watcher@dip.test", "watcher-pw")
    for p in POWERS:
        zone = "Asia/Tokyo" if p != "ENGLAND" else "Europe/London"
        j.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw", time_zone=zone)
    for game, settings in GAMES.items():
        j.service.create_game(game, master="gm", settings=settings)
        j.service.observe(game, "watcher")
        for p in POWERS:
            j.service.join(game, p.lower(), [p])
        j.service.mark_notices_queued(game, [n.id for n in j.service.pending_notices(game)])
        for moves in (SPRING, FALL):
            for power, orders in moves.items():
                j.service.submit_orders(game, power, [(t, parse_order(STANDARD, t)) for t in orders],
                                        account=power.lower())
            j.service.process(game)
    return j


def _forget_shared() -> None:
    results_report._REPORTS.clear()
    results_report._SECTIONS.clear()
    results_report._TEXTS.clear()


def test_each_copy_rendered_with_the_shared_parts_reads_as_rendered_alone(played):
    notices = {g: [n for n in played.service.pending_notices(g) if n.kind.value == "results"] for g in GAMES}
    # a phase's copies: the seven players', the master's and the public one (the observer's)
    assert {g: len(ns) for g, ns in notices.items()} == {g: 2 * 9 for g in GAMES}
    reports = Watched()
    alone = {}
    for found in notices.values():
        for notice in found:
            _forget_shared()
            alone[notice.id] = render_notice(reports, played.service, notice)
    _forget_shared()
    reports.texts.clear()
    shared, used = {}, {}
    for game, found in notices.items():      # game after game, as the courier renders them
        reading = OneRead(played.service)     # (each game read once)
        shared.update({n.id: render_notice(reports, reading, n) for n in found})
        used[game], reports.texts = reports.texts, []
    assert shared == alone
    # shared indeed: the plain game's copies of a phase use one report's parts, each fogged power its own
    assert len(set(used["plain"])) == 2                         # one a phase, the games' same boards apart
    assert len(set(used["fogged"])) > 2 * len(POWERS)
    bodies = [alone[n.id].body for n in notices["fogged"][:9]]
    assert len(set(bodies)) >= len(POWERS)                      # (each power's report differs)
    assert any("Burgundy" in b for b in bodies) and not all("Burgundy" in b for b in bodies)
