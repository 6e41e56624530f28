"""What players and masters found confusing in the judge's replies, played by mail: each reply must say
what happened, what was wrong and how to fix it, in the words and time zones the rest of the mail uses."""
from judge.mail.words.notices import render_notice


def test_joining_a_forming_game_says_how_many_are_still_needed(judge):
    judge.reply_to("gm@dip.test", "REGISTER gm gm-pw\nCREATE beta gm-pw")
    r = judge.reply_to("ann@dip.test", "register ann ann-pw\njoin beta ann-pw")
    assert "1 of 7 players signed up" in r.body
    assert "signed up: 1 of 7" in judge.reply_to("ann@dip.test", "list beta").body


def test_create_with_a_taken_name_says_what_to_do_instead(judge):
    judge.reply_to("gm@dip.test", "REGISTER gm gm-pw\nCREATE beta gm-pw")
    r = judge.reply_to("bob@dip.test", "register bob bob-pw\ncreate beta bob-pw")
    assert "there is already a game called beta" in r.body
    assert "how to fix it: choose another name, or JOIN beta password" in r.body


def test_grey_press_in_a_white_press_game_is_refused_with_the_fix(playing):
    r = playing.reply_to("germany@dip.test", "signon Galpha germany-pw\npress grey to france\nhello\nendpress")
    assert "white press" in r.body and "the press was not sent" in r.body
    assert "without GREY" in r.body


def test_list_shows_the_deadline_in_the_readers_own_zone_and_powers_by_name(playing):
    r = playing.reply_to("germany@dip.test", "list alpha")      # germany's account is in Asia/Tokyo
    assert "(UTC)" in r.body and "(Asia/Tokyo)" in r.body
    assert "  Germany " in r.body and "GERMANY" not in r.body


def test_the_master_sees_deadlines_as_the_players_do(playing):
    r = playing.reply_to("gm@dip.test", "signon Malpha gm-secret\nextend 24")
    assert "extended to Thu 05 Mar 2026 12:00 UTC (UTC)" in r.body and "T12:00" not in r.body
    r = playing.reply_to("gm@dip.test", "signon Malpha gm-secret\npause\nresume")
    assert "the deadline is Thu 05 Mar 2026 12:00 UTC (UTC)" in r.body


def test_a_refusal_for_players_names_the_game_in_its_fix(playing):
    r = playing.reply_to("france@dip.test", "signon Falpha france-pw\npause")
    assert "how to fix it: SIGNON Malpha password, as the master" in r.body


def test_an_order_replaced_later_in_the_same_mail_says_so(playing):
    r = playing.reply_to("france@dip.test", "signon Falpha france-pw\nA Mar S A Par - Bur\nA Par - Bur\n"
                                            "A Mar - Spa")
    assert "note: replaced by line 4: a unit has one order, the last one given" in r.body
    standing = r.body.split("Orders standing now:")[1]
    assert "Army Marseilles -> Spain" in standing and "supports" not in standing


def test_orders_that_cannot_be_carried_out_are_named_in_full(playing):
    r = playing.reply_to("france@dip.test", "signon Falpha france-pw\nA Par - Mun")
    problems = r.body.split("As things stand these cannot be carried out:")[1]
    assert "Army Paris -> Munich: Munich is not next to Paris" in problems
    assert "A PAR - MUN" not in r.body


def test_orders_for_another_powers_units_are_refused_at_once_and_never_made_public(playing):
    r = playing.reply_to("france@dip.test", "signon Falpha france-pw\nF Lon - Nth\nA Par - Bur")
    assert "ERROR on line 2: F Lon - Nth" in r.body
    assert "the unit in London is English: you can order only France's units" in r.body
    assert [o["written"] for o in playing.service.confirmation("alpha", "FRANCE").orders] == ["A Par - Bur"]
    playing.service.process("alpha")
    results = playing.service.history("alpha")[0].results[0]["outcomes"]
    assert not any(o["power"] == "FRANCE" and "lon" in (o.get("args") or ()) for o in results)


def test_retreats_and_builds_are_counted_in_the_confirmation(playing):
    j = playing
    j.reply_to("france@dip.test", "signon Falpha france-pw\nA Par - Bur\nF Bre - Mao\nA Mar - Spa")
    j.reply_to("russia@dip.test", "signon Ralpha russia-pw\nA War - Gal")
    j.service.process("alpha")
    j.reply_to("france@dip.test", "signon Falpha france-pw\nF Mao - Por\nA Bur - Bel")
    j.reply_to("austria@dip.test", "signon Aalpha austria-pw\nA Vie - Gal\nA Bud S A Vie - Gal")
    # Russia orders too: a power that sends nothing is in civil disorder and its dislodged army is disbanded
    j.reply_to("russia@dip.test", "signon Ralpha russia-pw\nA Gal H")
    j.service.process("alpha")
    r = j.reply_to("russia@dip.test", "signon Ralpha russia-pw")
    assert "- Army Galicia: no order (it is disbanded unless you order a retreat)" in r.body
    assert "Army Galicia" in r.body
    r = j.reply_to("russia@dip.test", "signon Ralpha russia-pw\nA Gal - Ukr")
    assert "Russia is in: every unit that needs an order has a valid one." in r.body
    j.service.process("alpha")
    r = j.reply_to("france@dip.test", "signon Falpha france-pw\nbuild a par\nbuild f bre")
    assert "You may build 3 units; your orders give 2 builds or waives." in r.body
    assert "Builds you do not order are waived at the deadline." in r.body
    assert "- 1 build or waive" in r.body and "France is not in yet" in r.body
    r = j.reply_to("france@dip.test", "signon Falpha france-pw\nbuild f mar\nwaive")
    assert "each mail replaces all your earlier builds" in r.body and "give 2 builds" in r.body
    r = j.reply_to("france@dip.test", "signon Falpha france-pw\nbuild a par\nbuild f bre\nbuild f mar\nwaive")
    assert "your orders give 4 builds or waives" in r.body
    assert "Only the first 3 that can be carried out count" in r.body


def test_a_resignation_reply_does_not_list_the_orders_of_the_power_left(playing):
    r = playing.reply_to("italy@dip.test", "signon Ialpha italy-pw\nresign")
    assert "you resigned Italy in alpha" in r.body
    assert "=== Italy" not in r.body and "not in yet" not in r.body


def test_master_refusals_say_what_was_wrong_in_words(playing):
    r = playing.reply_to("gm@dip.test", "signon Malpha gm-secret\nprocess S1903M\nset deadline whenever")
    assert "alpha is in Spring 1901 Movement (S1901M), not S1903M: nothing was processed" in r.text
    assert "cannot read 'whenever'" in r.text and "isoformat" not in r.text


def test_an_ejected_power_is_announced_as_taken_by_the_master_not_resigned(playing):
    playing.reply_to("gm@dip.test", "signon Malpha gm-secret\neject turkey")
    notices = [n for n in playing.service.pending_notices("alpha") if n.kind == "resigned"]
    assert notices and all(n.payload["by_master"] for n in notices)
    rendered = render_notice(playing.dispatch.reports, playing.service, notices[0])
    assert "was taken from its player by the game master" in rendered.subject
    assert "the game master has taken Turkey from its player" in " ".join(rendered.body.split())


def test_a_misspelt_press_recipient_gets_a_guess_and_is_not_sent(playing):
    r = playing.reply_to("england@dip.test", "signon Ealpha england-pw\npress to frnace\nhi\nendpress")
    assert "'frnace' is not a power in alpha (did you mean France?); the press was not sent" in r.text


def test_a_long_order_as_written_does_not_push_its_reading_off_the_line(playing):
    r = playing.reply_to("germany@dip.test", "signon Galpha germany-pw\nA munich supports a berlin to kiel")
    lines = r.body.splitlines()
    at = lines.index("  A munich supports a berlin to kiel")
    assert lines[at + 1].strip().startswith("read as: Army Munich supports")       # under it, not pushed off
    assert all(len(line) <= 77 for line in lines[at:at + 3])                        # wrapped within 77 columns
    assert "A munich supports a berlin to kiel read as: Army Munich supports Army Berlin -> Kiel" in r.text


def test_a_draw_vote_naming_powers_where_draws_include_all_says_how_to_vote(playing):
    r = playing.reply_to("france@dip.test", "signon Falpha france-pw\nset draw austria france")
    assert "your vote was not changed" in r.text and "how to fix it: SET DRAW to vote for a draw" in r.text


def test_help_tells_a_newcomer_how_to_get_into_a_game(judge):
    r = judge.reply_to("new@dip.test", "help")
    assert "REGISTER name password Europe/Paris" in r.body and "JOIN game password" in r.body


def test_list_has_a_header_and_says_what_to_do_next(playing):
    lines = playing.reply_to("new@dip.test", "list").body.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split() == ["game", "variant", "status", "phase"])
    assert lines[header + 1].split() == ["alpha", "standard", "active", "S1901M"]
    assert any("JOIN game password" in line for line in lines[header:])


def test_an_outbox_file_being_written_is_never_named_like_a_finished_mail(tmp_path, monkeypatch):
    from judge.mail.outbound import outbox as outbox_module
    seen = []
    real_fdopen = outbox_module.os.fdopen

    def spy(fd, *args, **kw):
        seen.extend(p.name for p in (tmp_path / "eml").glob("*.eml"))   # what a watcher sees mid-write
        return real_fdopen(fd, *args, **kw)

    monkeypatch.setattr(outbox_module.os, "fdopen", spy)
    box = outbox_module.Sender.__new__(outbox_module.Sender)   # only its eml_dir is used
    box.eml_dir = tmp_path / "eml"
    box._write_eml("<a@b>", b"Subject: x\r\n\r\nbody\r\n")
    assert seen == [] and [p.suffix for p in (tmp_path / "eml").iterdir()] == [".eml"]


def test_each_order_error_stands_apart_from_the_next(playing):
    body = playing.reply_to("france@dip.test", "signon Falpha france-pw\nA Par - Bourgogne\nF Bre - Manche").body
    lines = body.splitlines()
    second = next(i for i, line in enumerate(lines) if line.startswith("ERROR on line 3"))
    assert lines[second - 1] == ""


def test_preview_and_history_name_the_powers_and_skip_empty_phases(playing):
    playing.reply_to("france@dip.test", "signon Falpha france-pw\nA Par - Bur")
    r = playing.reply_to("gm@dip.test", "signon Malpha gm-secret\npreview")
    assert "  France     A PAR - BUR" in r.body and "FRANCE" not in r.body
    assert "S1901R:" not in r.body and "in civil disorder: Austria, England" in r.body
    playing.reply_to("gm@dip.test", "signon Malpha gm-secret\nprocess")
    r = playing.reply_to("new@dip.test", "history alpha S1901M")
    assert "  France     A PAR - BUR" in r.body and "  Turkey     A CON H" in r.body
