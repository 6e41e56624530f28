"""Every notice the games layer writes, rendered from real games (tests/notice_games.py): each kind
has a template, each occurs, and each mail says what a player must see."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from judge.games.answers import Notice, NoticeKind
from judge.mail.words.notices import UnknownNotice, render_notice, template_for
from judge.mail.words.reports import Reports
from judge.mail.words.textlayout import WIDTH
from notice_games import play_all

# One worker runs this module under pytest-xdist (bin/test: --dist loadgroup): its module fixture is
# costly, and each worker that ran some of its tests would build it again.
pytestmark = pytest.mark.xdist_group("mail_notices")

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "judge" / "games"
TEMPLATES = ROOT / "templates"


def kinds_the_games_layer_writes() -> set[str]:
    """Read from the games layer's source: the kind passed to GameFile.notice/announce (directly, or
    through a function that passes its own `kind` parameter on), and news items ({"kind": ...})."""
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in sorted(GAMES.glob("*.py"))]
    writers = {"notice": 1, "announce": 1}  # function name -> index of the kind among its arguments

    def called(call: ast.Call) -> str | None:
        f = call.func
        return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None

    changed = True
    while changed:  # functions that hand their `kind` parameter to a writer are writers too
        changed = False
        for tree in trees:
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef) or fn.name in writers:
                    continue
                params = [a.arg for a in fn.args.args]
                for call in ast.walk(fn):
                    if isinstance(call, ast.Call) and called(call) in writers and "kind" in params:
                        i = writers[called(call)]
                        if len(call.args) > i and isinstance(call.args[i], ast.Name) and call.args[i].id == "kind":
                            writers[fn.name] = params.index("kind") - (1 if params[0] == "self" else 0)
                            changed = True
    kinds = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and called(node) in writers:
                i = writers[called(node)]
                arg = node.args[i] if len(node.args) > i else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    kinds.add(arg.value)
                if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "NoticeKind":
                    kinds.add(NoticeKind[arg.attr].value)
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == "kind" and isinstance(v, ast.Constant):
                        kinds.add(v.value)
    return kinds


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return play_all(tmp_path_factory.mktemp("notices"))


def body(played, kind, game=None, recipient=False) -> str:
    return played.one(kind, game, recipient).mail.body


def flat(text: str) -> str:
    """The words of a mail in one line: phrases are found wherever the wrapping broke them."""
    return " ".join(text.split())


# -- every kind: a template, and a real occurrence --------------------------------------------------

def test_the_scan_finds_the_kinds_written_in_every_way():
    kinds = kinds_the_games_layer_writes()
    # written directly, through _tell_owing's parameter, and as news items
    assert {"results", "game_start", "game_end", "press", "late", "reminder", "civil_disorder", "coin_toss"} <= kinds
    assert len(kinds) >= 18


def test_notice_kind_names_exactly_the_kinds_written():
    """Every kind the games layer writes is a NoticeKind (its value the stored text), and every
    NoticeKind is written somewhere: the enum neither misses a kind nor keeps a dead one."""
    assert kinds_the_games_layer_writes() == {k.value for k in NoticeKind}
    assert NoticeKind("results") is NoticeKind.RESULTS and f"{NoticeKind.GAME_END}" == "game_end"


def test_every_kind_the_games_layer_writes_has_a_template():
    missing = [k for k in sorted(kinds_the_games_layer_writes()) if not (TEMPLATES / template_for(k)).is_file()]
    assert not missing, f"notice kinds without a template: {missing}"
    stale = {p.name[len("notice_"):-len(".j2")] for p in TEMPLATES.glob("notice_*.j2")} - kinds_the_games_layer_writes()
    assert not stale, f"templates for kinds nobody writes: {stale}"


def test_every_kind_occurs_in_the_played_games_and_renders(played):
    occurred = {m.kind for m in played.mails}
    assert kinds_the_games_layer_writes() <= occurred
    for m in played.mails:
        assert m.mail.subject and m.mail.body.strip()


def test_a_kind_without_a_template_is_an_error(played):
    real = played.mails[0].notice
    odd = Notice(real.id, "no_such_kind", real.recipient, {**real.payload, "kind": "no_such_kind"}, real.created_at)
    with pytest.raises(UnknownNotice, match="notice_no_such_kind.j2"):
        render_notice(Reports(), None, odd)  # refused before the service is asked anything


def test_every_mail_is_plain_text_in_78_columns_with_no_password_or_blank(played):
    for m in played.mails:
        text = m.mail.subject + "\n" + m.mail.body
        assert "secret-" not in text and "gm-secret" not in text
        for bad in ("None", "{{", "}}", "{%", "Undefined", "[]", "{'"):
            assert bad not in text, (m.kind, bad, text)
        lines = m.mail.body.splitlines()
        if m.kind is NoticeKind.RESULTS:     # its first line is for tools, whole (docs/players.md)
            assert lines[0].startswith(":: Judge: "), lines[0]
            lines = lines[1:]
        for line in lines:
            assert len(line) < 78 or " " not in line.strip(), (m.kind, line)
        assert len(m.mail.subject) < 78, m.mail.subject
        assert "\n\n\n" not in m.mail.body, (m.kind, m.mail.body)


def test_every_notice_fits_in_77_columns_but_for_a_lone_long_word(played):
    """As the replies do (tests/test_mail_replies.py): a line wider than WIDTH only when it is one word."""
    assert len({m.kind for m in played.mails}) >= 18
    def wrapped(m) -> str:   # a results mail's first line is for tools and never wrapped (docs/players.md)
        return m.mail.body.split("\n", 1)[1] if m.kind is NoticeKind.RESULTS else m.mail.body
    wide = [(m.kind, line) for m in played.mails for line in (m.mail.subject + "\n" + wrapped(m)).splitlines()
            if len(line) > WIDTH and " " in line.strip()]
    assert not wide, wide[:10]


def test_an_abandoned_powers_holds_are_told_once(played):
    texts = [m.mail.body for m in played.of("results", "long", "p-france")]
    idle = [t for t in texts if "open for takeover, sent no orders:" in t]
    assert idle, "no results mail with a power nobody orders"
    for text in idle:
        flat = " ".join(text.split())
        for power in re.findall(r"^(\w+) \([\w-]+\), open for takeover, sent no orders:", text, re.MULTILINE):
            assert f"{power} (p-{power.lower()}):" not in text            # no block of its holds as well
            assert flat.count(f"{power} (p-{power.lower()}), open for takeover") == 1


# -- turn results ---------------------------------------------------------------------------------

def test_movement_results_give_every_order_its_outcome_in_words(played):
    fall = [m for m in played.of("results", "alpha", "p-russia")
            if m.mail.subject == "alpha: Fall 1901 Movement results"]
    text = fall[0].mail.body
    words = flat(text)
    assert re.search(r"Army Ukraine -> Galicia +bounced 1 to 1 with the", text)    # a standoff: equal strengths
    assert "Army Ukraine -> Galicia bounced 1 to 1 with the Austrian army from Vienna" in words
    assert "support cut by the German army from Prussia" in words
    assert re.search(r"Fleet Rumania holds +dislodged 2 to 1 by the", text)       # the attack's strength first
    assert "Fleet Rumania holds dislodged 2 to 1 by the Turkish army from Bulgaria" in words
    assert "bounced 1 to 1 with the Russian army in Warsaw" in words        # the unit it attacked held
    assert "bounced 1 to 1 with the French fleet in Brest" in words
    assert re.search(r"Army Piedmont supports Army Burgundy -> Marseilles\s+support given", text)
    assert "no order given: held" in text                             # France, in civil disorder
    # dislodged units and where each may go
    assert ("The Russian fleet in Rumania was dislodged by the attack from Bulgaria and may retreat to Sevastopol"
            in words)
    # France sent no orders (civil disorder): its dislodged army does not retreat (all three rulebooks)
    assert "The French army in Marseilles was dislodged by the attack from Burgundy; its country sent no orders" \
        " (civil disorder), so it is disbanded." in words
    assert "Retreats to order in Fall 1901 Retreat:" in text
    assert "Standoffs (left empty): Galicia and Sweden." in text
    # ownership does not change before the fall retreats are played
    assert "Supply centres" not in text
    assert "France has missed 2 phases in a row and is abandoned" in words
    # the next phase and its deadline, in the game's zone and the player's
    assert "Next: Fall 1901 Retreat." in text
    assert "(UTC, game time)" in text and "(Europe/Berlin, your time)" in text
    public = [m for m in played.of("results", "alpha", None) if "Fall 1901 Movement" in m.mail.subject][0]
    assert "your time" not in public.mail.body
    gm = [m for m in played.of("results", "alpha", "gm") if "Fall 1901 Movement" in m.mail.subject][0]
    assert "(America/New_York, your time)" in gm.mail.body


def test_retreat_results_then_centres_and_adjustments_due(played):
    text = [m for m in played.of("results", "alpha", "p-turkey") if "Fall 1901 Retreat" in m.mail.subject][0].mail.body
    assert re.search(r"Fleet Rumania -> Sevastopol +retreated", text)
    # France sent no orders for the Fall move: its new player's retreat is refused, the army disbanded
    assert re.search(r"Army Marseilles -> Gascony +illegal order: the army in", text)
    assert "the army in Marseilles cannot retreat: its power sent no orders for the move (civil disorder)" in flat(text)
    assert re.search(r"Army Marseilles disbands \(by the judge\) +civil disorder", text)
    assert re.search(r"Power +Centres +Units +Adjustment", text)
    assert re.search(r"^  France +2 +2$", text, re.M)
    assert re.search(r"Austria +5 +3 +builds 2", text)
    assert "Germany: Berlin, Denmark, Kiel, Marseilles and Munich." in text
    assert "Unowned: Belgium, Bulgaria, Holland, Portugal, Spain and Sweden." in text
    assert "Adjustments to order in Winter 1901 Adjustment:" in text
    assert "Austria may build 2 units." in text and "France must remove" not in text


def test_adjustment_results_show_builds_waives_removals_and_civil_disorder(played):
    text = [m for m in played.of("results", "alpha", "p-austria") if "Winter 1901" in m.mail.subject][0].mail.body
    assert re.search(r"Build army Budapest +built", text)
    assert re.search(r"Waive a build \(by the judge\) +build waived", text)
    assert "not needed: you may build only 1 unit" in text
    assert re.search(r"Italy \(p-italy\): 1 phase missed in a row", text)
    assert "Next: Spring 1902 Movement." in text


def test_phases_the_judge_settled_alone_follow_in_the_same_report(played):
    text = [m for m in played.of("results", "alpha", "p-russia") if "Spring 1902" in m.mail.subject][0].mail.body
    assert "Spring 1902 Retreat\n-------------------" in text
    assert "disbanded: nowhere to retreat" in text
    assert "was dislodged by the attack from Armenia and has nowhere to retreat: it is disbanded" in flat(text)
    assert "Italy is back in play" in text


def test_abstraction_results_use_the_months_of_its_calendar(played):
    text = body(played, "results", "a2", "a2-france")
    assert "July 1914 Movement" in text and "Next: August 1914 Movement." in text


def test_world_war_rulings_in_full_names(played):
    text = body(played, "results", "ww", "ww-allies")
    assert "France: Army Marseilles -> Piedmont: Italian territory cannot be entered" in text


# -- players' notices ------------------------------------------------------------------------------

def test_reminder_and_late_notices(played):
    reminder = body(played, "reminder", "alpha", "p-france")
    assert "no orders yet from France for Spring 1901 Movement" in reminder
    assert "(Europe/Berlin, your time)" in reminder and "time left: 23 hours" in reminder
    assert "still no orders for Spring 1901 Movement from France" in body(played, "reminder", "alpha", "gm")
    late = body(played, "late", "alpha", "p-france")
    assert "You are late." in late and "Played at:" in late and "time left: 12 hours" in late


def test_a_game_that_waits_says_so_when_a_power_is_late(played):
    late = body(played, "late", "patient", "p-turkey")
    assert "You are late." in late and "Played at" not in late
    assert "This game waits for every power's orders" in flat(late)


def test_civil_disorder_abandonment_return_and_replacement(played):
    cd = body(played, "civil_disorder", "alpha", "p-france")
    assert "France (p-france) sent no orders and is in civil disorder" in cd
    assert "Send orders for the next phase" in cd
    abandoned = body(played, "abandoned", "alpha", None)
    assert "France has missed 2 phases in a row and is abandoned" in abandoned and "REPLACE" in abandoned
    assert "JOIN alpha password France" in flat(abandoned)
    # France's new player owes nothing until the spring (its army was disbanded in civil disorder, no
    # winter removal): the return told is Italy's, back after its winter in civil disorder
    assert "Italy is back in play" in body(played, "returned", "alpha")
    mine = body(played, "replacement", "alpha", "p-new")
    assert "you now play France, from Fall 1901 Retreat. You take over from p-france." in flat(mine)
    assert "SIGNON Falpha" in mine and "(Asia/Tokyo, your time)" in mine
    assert "Your units: fleet in Brest and army in Paris." in mine
    assert "p-new now plays France, taking over from p-france" in body(played, "replacement", "alpha", "p-england") \
        .replace("\n", " ")


def test_game_start_tells_seat_players_units_deadline_and_rules(played):
    text = body(played, "game_start", "alpha", "p-russia")
    assert "You play Russia." in text
    assert re.search(r"Russia +p-russia", text) and re.search(r"France +p-france", text)
    assert "fleet in St Petersburg (south" in text
    assert "The first phase is Spring 1901 Movement." in text
    assert "SIGNON Ralpha <your password>" in text
    assert "one a line: A MOS - LVN, F SEV - ARM, ..." in flat(text)   # the player's own units, not France's
    assert re.search(r"Press +grey \(may be anonymous\)", text)
    assert "reconstructed" not in text
    public = body(played, "game_start", "alpha", None)
    assert "You play" not in public and re.search(r"Turkey +p-turkey", public)
    two = body(played, "game_start", "ww", "ww-allies")
    assert "You play England, France and Russia." in two and "Italy    (neutral)" in two
    assert re.search(r"Victory +24 supply centres \(counted per player\)", two)


def test_game_start_of_a_reconstructed_variant_says_so(played):
    text = body(played, "game_start", "a2", "a2-france")
    assert "reconstructed Abstraction II map" in text
    assert "The first phase is July 1914 Movement." in text
    assert re.search(r"Victory +23 supply centres", text)


def test_results_name_the_open_powers_nobody_orders(played):
    texts = [flat(m.mail.body) for m in played.of("results", "long", "p-france")]
    assert any(re.search(r"No orders came for (\w+, )*\w+( and \w+)?, open for takeover", t) for t in texts)


def test_game_end_by_win_with_a_centre_table_by_year_for_every_power(played):
    text = body(played, "game_end", "long", "p-france")
    assert played.one("game_end", "long", "p-france").mail.subject == "long is over: France wins"
    assert "France won, with" in text and "Congratulations to p-france." in text
    header = next(line for line in text.splitlines() if line.strip().startswith("Power") and "Start" in line)
    years = header.split()[2:]
    assert years[0] == "1901" and years == [str(y) for y in range(1901, 1901 + len(years))]
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        row = next(line for line in text.splitlines() if line.split()[:1] == [power] and len(line.split()) > 4)
        assert len(row.split()) == 2 + len(years)
    france = next(line for line in text.splitlines() if line.split()[:1] == ["France"] and "3" in line.split()[1:2])
    assert int(france.split()[-1]) >= 18


def test_game_end_by_draw(played):
    mail = played.one("game_end", "alpha", "p-russia").mail
    assert mail.subject == "alpha is over: a 7-way draw"
    assert "every survivor voted for a draw" in mail.body
    assert re.search(r"Power +Start +1901 +1902", mail.body)


def test_press_shows_the_sender_or_anonymous_for_grey_press(played):
    white = body(played, "press", "alpha", "p-france")
    assert "press from England to France and Germany" in white and "Shall we share the Channel?\nEngland" in white
    grey = [m for m in played.of("press", "alpha", "p-england") if "anonymous" in m.mail.subject][0].mail.body
    assert "Watch out for France." in grey and "Germany" not in grey.split("----- press -----")[0]
    master_copy = [m for m in played.of("press", "alpha", "gm") if "Watch out" in m.mail.body][0].mail
    assert master_copy.subject == "alpha: press from Germany"
    broadcast = [m for m in played.of("press", "alpha", "p-turkey") if "broadcast" in m.mail.subject][0].mail
    assert broadcast.subject == "alpha: broadcast from the game master" and "Play nicely." in broadcast.body
    assert "Grüße – the GM" in broadcast.body  # the press as written, UTF-8


def test_master_actions_and_other_news(played):
    assert "paused by the game master during Spring 1902 Movement" in body(played, "paused", "alpha", "p-italy") \
        .replace("\n", " ")
    resumed = body(played, "resumed", "alpha", "p-italy")
    assert "moved on by as long as the game was paused" in resumed.replace("\n", " ") and "Deadline:" in resumed
    moved = body(played, "deadline_moved", "alpha", "p-germany")
    assert "you are away" in moved and "New deadline:" in moved
    assert "p-germany is away" in body(played, "deadline_moved", "alpha", "p-italy")
    rollback = body(played, "rollback", "alpha", "p-russia")
    assert "rolled back by the game master to Spring 1902 Movement" in rollback.replace("\n", " ")
    assert "Russia: fleet in Gulf of Bothnia" in rollback
    assert "the player of Austria has resigned" in body(played, "resigned", "alpha", "p-italy")
    assert "JOIN alpha password Austria" in flat(body(played, "resigned", "alpha", "p-italy"))
    eliminated = played.of("eliminated", "long")[0].mail
    assert eliminated.subject.endswith("is eliminated") and "out of the game" in eliminated.body
    assert "Italy joins" in body(played, "coin_toss", "ww", None)
    assert "Italian territory is open" in body(played, "italy_joins", "ww", None)


def test_an_excused_miss_tells_the_player_and_the_others_only_that_the_deadline_moved(played):
    mine = flat(body(played, "excused", "excused", "p-france"))
    assert "you missed the deadline for Spring 1901 Movement (no orders from France)" in mine
    assert "one of your 1 excuse is spent" in mine and "You have none left" in mine
    assert "The deadline is now:" in mine
    others = flat(body(played, "deadline_moved", "excused", "p-germany"))
    assert "France was excused for missing it" in others and "New deadline:" in others
    assert not played.of("excused", "excused", "p-germany")


def test_convoys_unmatched_supports_and_orders_that_cannot_be_carried_out(played):
    text = [m for m in played.of("results", "beta", "p-england") if "Fall 1901 Movement" in m.mail.subject][0].mail.body
    words = flat(text)
    assert ("Fleet North Sea convoys Army Yorkshire -> Norway dislodged 2 to 1 by the German fleet from Helgoland"
            " Bight" in words)     # the French support counts; Munich's, which cannot reach the sea, does not
    assert re.search(r"Army Yorkshire -> Norway via convoy +every convoy route was disrupted", text)
    assert "Fleet Black Sea convoys Army Bulgaria -> Sevastopol convoyed the army" in words
    assert "the supported unit was not ordered to do what this support says" in words
    assert "illegal order: a fleet cannot move into Vienna, an inland province" in words
    assert re.search(r"Fleet Tyrrhenian Sea holds +held instead", text)
    assert re.search(r"Fleet English Channel supports Fleet Helgoland Bight -> North Sea\s+support given", text)
    assert "may retreat to Edinburgh, Holland, Norwegian Sea, Norway and Skagerrak, or disband" in words


def test_game_end_at_the_last_year_and_by_concession(played):
    limit = played.one("game_end", "short", "p-italy").mail
    assert "it reached its last year" in flat(limit.body)
    assert "Victory goes to the power with the most centres: Russia." in flat(limit.body)
    final = [m for m in played.of("results", "short", "p-italy") if "Winter 1901" in m.mail.subject
             or "Fall 1901" in m.mail.subject][-1].mail.body
    assert "The game is over: a separate notice tells how it ended." in final
    gift = played.one("game_end", "gift", "p-france").mail
    assert gift.subject == "gift is over: France wins"
    assert "every other survivor conceded to France" in flat(gift.body)
    assert re.search(r"Power +Start +1901\n", gift.body)


def test_exchange_offers_reach_the_partner_and_results_tell_what_was_exchanged(played):
    offers = {m.notice.recipient: m.mail for m in played.of("exchange_offer", "a2")}
    assert "Austria offers Russia Budapest in exchange for Warsaw" in offers["a2-russia"].body.replace("\n", " ")
    assert "EXCHANGE WITH Austria GIVE WAR FOR BUD" in offers["a2-russia"].body
    assert "Your own offer matches it" in offers["a2-austria"].body
    assert "withdrew its offer" in offers["a2-france"].subject
    results = played.of("results", "a2", None)[0].mail.body.replace("\n", " ")
    assert "Austria gave Budapest to Russia, and Russia gave Warsaw to Austria" in results
    assert "did not take place: Germany still occupies Berlin with a unit" in results


def test_the_results_mails_first_line_is_in_the_form_docs_players_md_gives(played):
    docs = (Path(__file__).parent.parent / "docs" / "players.md").read_text(encoding="utf-8")
    form = re.compile(re.search(r"`(\^:: Judge: .*?\$)`", docs).group(1))
    results = [m for m in played.mails if m.kind is NoticeKind.RESULTS]
    assert results
    for m in results:
        found = form.match(m.mail.body.splitlines()[0])
        assert found, m.mail.body.splitlines()[0]
        judge, game, variant, phase, nxt, deadline = found.groups()
        assert game == m.notice.payload["game"] and phase == m.notice.payload["phase"]
        if "deadline" in m.notice.payload:
            due = m.notice.payload["deadline"]
            assert (nxt, deadline) == (m.notice.payload["next_phase"], due["utc"] if due else "none")
        else:
            assert (nxt, deadline) == ("none", "none")
