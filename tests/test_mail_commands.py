"""Every mail command, through the dispatcher, against real games on disk."""

from judge.mail.outbound.courier import Courier
from mailjudge import POWERS


def test_register_create_and_join_by_mail_start_a_game(judge):
    reply = judge.reply_to("gm@dip.test", "REGISTER gm master-pw Europe/London\nCREATE beta master-pw\nLIST")
    assert "registered gm" in reply.body and "created beta; you are its master" in reply.body
    assert "master-pw" not in str(reply.mail)
    assert "beta" in reply.body and "forming" in reply.body
    for p in POWERS:
        who = f"{p.lower()}@dip.test"
        r = judge.reply_to(who, f"register {p.lower()} pw-{p.lower()}\njoin beta pw-{p.lower()} {p}")
        assert "joined beta" in r.body, r.body
        assert f"pw-{p.lower()}" not in str(r.mail)
    status = judge.service.status("beta")
    assert status.status == "active" and status.master == "gm"
    assert {p: i.account for p, i in status.powers.items()} == {p: p.lower() for p in POWERS}


def test_register_twice_and_join_without_registering_say_how_to_fix_it(judge):
    judge.reply_to("ann@dip.test", "register ann pw1")
    again = judge.reply_to("ann@dip.test", "register ann2 pw2")
    assert "already registered as ann" in again.body
    stranger = judge.reply_to("bob@dip.test", "join beta pw")
    assert "not registered" in stranger.body and "REGISTER name password" in stranger.body
    bad_zone = judge.reply_to("cy@dip.test", "register cy pw Mars/Olympus")
    assert "ERROR" in bad_zone.body and "REGISTER name password" in bad_zone.body


def test_settings_wait_draw_timezone_password_address(playing):
    j = playing
    r = j.reply_to("turkey@dip.test", "signon Talpha turkey-pw\nset wait\nset draw\nset timezone Europe/Istanbul\n"
                                      "set password new-secret")
    assert "Turkey asks the game to wait" in r.body and "you vote for a draw" in r.body
    assert "Europe/Istanbul" in r.body and "You asked the game to wait" in r.body
    assert "new-secret" not in str(r.mail) and "turkey-pw" not in str(r.mail)
    assert j.service.status("alpha").powers["TURKEY"].waiting
    assert "password is not right" in j.reply_to("turkey@dip.test", "signon Talpha turkey-pw").body
    r = j.reply_to("turkey@dip.test", "signon Talpha new-secret\nset nowait\nset nodraw\nset address t2@dip.test")
    assert "no longer asks" in r.body and "against a draw" in r.body and r.to == ["turkey@dip.test", "t2@dip.test"]
    assert j.service.accounts.get("turkey").addresses == ("t2@dip.test",)


def test_absence_moves_nothing_it_should_not_and_bad_dates_are_explained(playing):
    r = playing.reply_to("russia@dip.test", "signon Ralpha russia-pw\nset absence 2026-03-10 to 2026-03-12\n"
                                            "set absence someday")
    text = " ".join(r.body.split())         # one time in each zone, a line each
    assert "away from Tue 10 Mar 2026 00:00 UTC (UTC) Tue 10 Mar 2026 09:00 JST (Asia/Tokyo)" in text
    assert "to Thu 12 Mar 2026 00:00 UTC (UTC)" in text
    assert "cannot read the dates" in r.body and "SET ABSENCE 2026-12-20 to 2026-12-27" in r.body
    r = playing.reply_to("russia@dip.test", "signon Ralpha russia-pw\nset absence 2026-03-20 2026-03-22 18:00")
    assert "away from Fri 20 Mar 2026 00:00 UTC" in r.body and "to Sun 22 Mar 2026 18:00 UTC" in r.body


def test_press_white_grey_and_broadcast(playing):
    j = playing
    r = j.reply_to("england@dip.test", "signon Ealpha england-pw\npress to France Germany\nShall we?\nendpress\n"
                                       "broadcast\nHello all\nendpress\npress grey to france\nboo\nendpress\n"
                                       "press to Narnia\nx\nendpress")
    assert "press sent to France, Germany (1 line)" in r.body and "press sent to everyone" in r.body
    assert "white press: messages are signed" in r.body      # grey press is not allowed in this game
    assert "'Narnia' is not a power" in r.body
    press = [n for n in j.service.pending_notices("alpha") if n.kind == "press"]
    # the master ("gm") gets a copy of all press
    assert {n.recipient for n in press if n.payload["body"] == "Shall we?"} == {"france", "germany", "gm"}
    assert len([n for n in press if n.payload["body"] == "Hello all"]) == 8


def test_information_commands(playing):
    j = playing
    r = j.reply_to("someone@else.test", "list\nlist alpha\nsummary alpha\nhistory alpha\nhistory nosuchgame")
    assert "alpha" in r.body and "  France " in r.body and "phases played: none" in r.body
    assert "S1901M: not played yet" in r.body and "there is no game called nosuchgame" in r.body
    assert "LIST shows the games" in r.body


def test_a_game_that_is_not_there_is_answered_as_no_such_game(judge):
    """GameService raises NoSuchGame (a LookupError, not a KeyError); the player reads the reply
    the judge has always given: from SIGNON's check, and from JOIN's and OBSERVE's calls into the games layer."""
    judge.reply_to("ann@dip.test", "register ann ann-pw")
    r = judge.reply_to("ann@dip.test", "signon Fnosuch ann-pw\njoin nosuch ann-pw France\nobserve nosuch ann-pw")
    lines = [line.strip() for line in r.body.splitlines()]
    signon = lines.index("ERROR on line 1: signon Fnosuch ********")
    assert lines[signon + 1:signon + 3] == ["there is no game called nosuch", "how to fix it: LIST shows the games"]
    join = lines.index("ERROR on line 2: join nosuch ******** France")
    assert lines[join + 1] == "no game called 'nosuch'"
    observe = lines.index("ERROR on line 3: observe nosuch ********")
    assert lines[observe + 1] == "there is no game called nosuch"
    assert "failed on this line" not in r.body      # not taken for a fault of the judge's


def test_master_commands(playing):
    j = playing
    assert "for the master of alpha" in j.reply_to("france@dip.test", "signon Falpha france-pw\npause").body
    j.reply_to("france@dip.test", "signon Falpha france-pw\nA Par - Bur")
    r = j.reply_to("gm@dip.test", "signon Malpha gm-secret\npreview\npause\nresume\nextend 12\n"
                                  "set deadline 2026-03-06 18:00")
    assert "what PROCESS would do now" in r.body and "A PAR - BUR" in r.body
    assert "is paused" in r.body and "resumed" in r.body and "extended to Thu 05 Mar 2026 00:00 UTC (UTC)" in r.body
    assert "set to Fri 06 Mar 2026 18:00 UTC (UTC)" in r.body
    assert j.service.history("alpha")[0].processed_at is None        # preview changed nothing
    r = j.reply_to("gm@dip.test", "signon Malpha gm-secret\nprocess")
    assert "alpha S1901M: processed" in r.body
    assert j.service.status("alpha").phase == "F1901M"
    r = j.reply_to("gm@dip.test", "signon Malpha gm-secret\nrollback")
    assert "rolled back to S1901M" in r.body
    j.service.create_account("newbie", "newbie@dip.test", "nb")
    r = j.reply_to("gm@dip.test", "signon Malpha gm-secret\neject Austria\nreplace Austria newbie@dip.test\n"
                                  "replace Turkey nobody@dip.test")
    assert "Austria was taken from its player" in r.body and "now played by newbie" in r.body
    assert "nobody@dip.test is not registered" in r.body
    assert j.service.status("alpha").powers["AUSTRIA"].account == "newbie"


def test_become_master_of_a_game_without_one(judge):
    judge.service.create_account("ann", "ann@dip.test", "pw-ann")
    judge.service.create_game("gamma")
    r = judge.reply_to("ann@dip.test", "join gamma pw-ann\nbecome master")
    assert "you are the master of gamma" in r.body
    assert judge.service.status("gamma").master == "ann"
    assert "signed on as the master in gamma" in judge.reply_to("ann@dip.test", "signon Mgamma pw-ann").body
    judge.service.create_account("bob", "bob@dip.test", "pw-bob")
    r = judge.reply_to("bob@dip.test", "join gamma pw-bob\nbecome master")
    assert "already has a master (ann)" in r.body
    judge.service.create_game("delta")
    assert "delta has no master" in judge.reply_to("bob@dip.test", "signon Mdelta pw-bob").body
    assert "signed on as the master in gamma" in judge.reply_to("ann@dip.test", "signon Mgamma pw-ann").body


def test_resign_and_observe(playing):
    j = playing
    j.service.create_account("watcher", "watch@dip.test", "w-pw")
    r = j.reply_to("watch@dip.test", "observe alpha w-pw")
    assert "you now observe alpha" in r.body
    assert j.service.observers("alpha") == ["watcher"]
    r = j.reply_to("austria@dip.test", "signon Aalpha austria-pw\nresign")
    assert "you resigned Austria" in r.body
    assert j.service.status("alpha").powers["AUSTRIA"].status == "resigned"


def test_a_message_may_mix_commands_and_orders_for_two_sign_ons(playing):
    j = playing
    j.service.create_account("duo", "duo@dip.test", "duo-pw")
    sent = j.send("france@dip.test", "signon Falpha france-pw\nA Par - Bur\nset wait\nsignon Galpha germany-pw\n"
                                     "A Ber - Kie\nlist")
    # Germany's password from France's address: the answer goes to Germany's own address only
    [r] = [s for s in sent if s.to == ["germany@dip.test"]]
    assert "Army Paris -> Burgundy" in r.body and "Army Berlin -> Kiel" in r.body
    assert "=== France in alpha" in r.body and "=== Germany in alpha" in r.body
    assert j.service.status("alpha").powers["FRANCE"].waiting


def test_help_and_help_on_a_topic(judge):
    r = judge.reply_to("new@dip.test", "help\nhelp orders")
    assert "SIGNON Fgame password" in r.body and "Movement" in r.body and "Retreats" in r.body
    assert "ERROR" not in r.body


def test_grey_press_where_the_game_allows_it(playing):
    j = playing
    j.service.set_settings("alpha", press="grey")
    r = j.reply_to("italy@dip.test", "signon Ialpha italy-pw\npress grey to Austria\nWatch Russia.\nendpress")
    assert "grey press sent to Austria" in r.body
    [notice] = [n for n in j.service.pending_notices("alpha") if n.kind == "press" and n.recipient == "austria"]
    assert notice.payload["from"] == "anonymous"
    [to_master] = [n for n in j.service.pending_notices("alpha") if n.kind == "press" and n.recipient == "gm"]
    assert to_master.payload["from"] == "ITALY"


def test_njudge_signon_question_mark_joins(judge):
    judge.service.create_account("ann", "ann@dip.test", "pw-ann")
    judge.service.create_game("epsilon")
    r = judge.reply_to("ann@dip.test", "SIGNON ?epsilon pw-ann")
    assert "joined epsilon" in r.body and "pw-ann" not in str(r.mail)


def test_join_a_game_under_way_takes_over_an_open_power(playing):
    j = playing
    j.service.create_account("sub", "sub@dip.test", "sub-pw")
    assert "no power is open for takeover" in j.reply_to("sub@dip.test", "join alpha sub-pw").body
    j.service.resign("alpha", "ITALY", account="italy")
    r = j.reply_to("sub@dip.test", "join alpha sub-pw\nA Ven - Tyr")
    assert "open for takeover are Italy" in r.body and "JOIN alpha password Italy" in r.body
    r = j.reply_to("sub@dip.test", "join alpha sub-pw Italy\nA Ven - Tyr\nset wait")
    assert "you now play Italy in alpha" in r.body and "Italy asks the game to wait" in r.body
    assert "Army Venice -> Tyrolia" in r.body
    assert j.service.status("alpha").powers["ITALY"].account == "sub"


def test_exchange_of_centres_by_mail_in_abstraction_ii(judge):
    svc = judge.service
    svc.create_account("gm", "gm@dip.test", "gm-secret")
    svc.create_game("a2", variant="abstraction2", master="gm")
    for p in POWERS:
        svc.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        svc.join("a2", p.lower(), [p])
    judge.dispatch.courier = Courier(svc, judge.config)     # notices go out after each mail
    offer = judge.send("austria@dip.test", "SIGNON Aa2 austria-pw\nEXCHANGE WITH Russia GIVE Bud FOR War")
    reply = next(s for s in offer if s.to == ["austria@dip.test"] and s.subject.startswith("Re:"))
    assert "offered Russia BUD for WAR" in reply.body
    told = next(s for s in offer if s.to == ["russia@dip.test"] and "exchange" in s.subject)
    assert "Austria offers an exchange" in told.subject and "EXCHANGE WITH Austria GIVE WAR FOR BUD" in told.body
    agreed = judge.reply_to("russia@dip.test",
                            "SIGNON Ra2 russia-pw\nA War - Gal\nexchange with austria give war for bud")
    assert "agreed with Austria: WAR for BUD" in agreed.body
    bad = judge.reply_to("italy@dip.test", "SIGNON Ia2 italy-pw\nEXCHANGE WITH France GIVE Nap Rom FOR Mar")
    assert "equal number of centres" in bad.body
    svc.process("a2")
    assert svc.status("a2").position["centres"]["AUSTRIA"].count("WAR") == 1


def test_exchange_in_a_standard_game_is_refused_plainly(playing):
    reply = playing.reply_to("france@dip.test", "SIGNON Falpha france-pw\nEXCHANGE WITH England GIVE Par FOR Lon")
    assert "cannot be exchanged in Standard" in reply.body
