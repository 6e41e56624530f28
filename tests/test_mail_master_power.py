"""The master's toolkit by mail (issue 14, item 5): BECOME power, PROMOTE/DEMOTE co-masters, CLEAR,
CONCEDE and its acceptance, SET NOABSENCE, the masters' copy of grey press, UNOBSERVE, JOIN by a
power's initial; and anonymous games (item 3): no other player's name or address in any mail."""
from __future__ import annotations

import pytest

from judge.mail.outbound.courier import Courier
from judge.mail.screening.password_guard import FREE
from mailjudge import POWERS, MailJudge


def said(sent) -> str:
    return " ".join(sent.body.split())


def make_judge(tmp_path) -> MailJudge:
    j = MailJudge(tmp_path)
    j.dispatch.courier = Courier(j.service, j.config)     # notices go out after each mail, as in serve
    return j


@pytest.fixture
def playing(tmp_path):
    """Seven players (france@dip.test plays France, ...) and the master gm, all by the service."""
    j = make_judge(tmp_path)
    j.service.create_account("gm", "gm@dip.test", "gm-pw")
    j.service.create_account("cm", "cm@dip.test", "cm-pw")
    j.service.create_game("alpha", master="gm", settings={"pictures": False, "press": "grey"})
    for p in POWERS:
        j.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        j.service.join("alpha", p.lower(), [p])
    yield j
    j.close()


def to(sent, address: str) -> list:
    """The mails to `address`, the judge's answer (In-Reply-To) first."""
    return sorted((s for s in sent if address in s.to), key=lambda s: s.mail["In-Reply-To"] is None)


def answer(j: MailJudge, frm: str, body: str) -> str:
    """The judge's answer to one mail (not the notices the mail set off), its lines joined."""
    replies = [s for s in j.send(frm, body) if frm in s.to and s.mail["In-Reply-To"]]
    assert len(replies) == 1, [s.subject for s in replies]
    return said(replies[0])


def test_become_enters_orders_and_an_absence_for_a_power_and_its_player_is_told(playing):
    sent = playing.send("gm@dip.test", "SIGNON Malpha gm-pw\nBECOME France\nA Par - Bur\nA Mar H\n"
                                       "SET ABSENCE 2026-03-03 to 2026-03-30")
    reply = said(to(sent, "gm@dip.test")[0])
    assert "you act for France in alpha until the end of this mail" in reply and "its player, france, is told" in reply
    assert "which power" not in reply and "problem" not in reply
    told = [s for s in to(sent, "france@dip.test") if "acts for France" in s.subject]
    assert told and "the game master (gm) is sending orders or an absence for France" in said(told[0])
    orders = playing.service.confirmation("alpha", "FRANCE").orders
    assert {o["written"].upper() for o in orders} >= {"A PAR - BUR", "A MAR H"}
    assert any(e["kind"] == "master acts" and e["power"] == "FRANCE" for e in playing.service.events("alpha"))
    # 27 days away: more than a player may set (14), so set as the master's, for France's player
    assert "away from" in reply


def test_become_is_the_masters_only(playing):
    r = answer(playing, "italy@dip.test", "SIGNON Ialpha italy-pw\nBECOME France\nA Par - Bur")
    assert "BECOME France is for the master of alpha" in r
    assert not playing.service.confirmation("alpha", "FRANCE").orders


def test_a_co_master_has_the_masters_rights_and_mail_until_demoted(playing):
    r = answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nPROMOTE cm@dip.test")
    assert "cm is now a co-master of alpha" in r and "the masters are gm, cm" in r
    r = answer(playing, "cm@dip.test", "SIGNON Malpha cm-pw\nEXTEND 24")
    assert "signed on as a co-master in alpha" in r and "deadline of alpha extended" in r
    sent = playing.send("germany@dip.test", "SIGNON Galpha germany-pw\nPRESS GREY TO France\nhello\nENDPRESS")
    assert "grey press sent to France (1 line)" in said(to(sent, "germany@dip.test")[0])
    copies = {addr: said(to(sent, addr)[0]) for addr in ("gm@dip.test", "cm@dip.test")}
    for text in copies.values():      # each master sees the true sender of grey press
        assert "press from Germany to France" in text and "sent as grey press" in text
    assert "press from anonymous to France" in said(to(sent, "france@dip.test")[0])
    r = answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nDEMOTE cm")
    assert "cm is no longer a master of alpha; the masters are gm" in r
    r = answer(playing, "cm@dip.test", "SIGNON Malpha cm-pw\nEXTEND 24")
    assert "you (cm) are no longer a master of alpha" in r and "extended" not in r
    assert "password is not right" not in r


def test_a_demoted_co_masters_right_password_counts_as_no_wrong_one(playing):
    """Told they are no longer a master, as often as they try: never held back as a guesser, and the
    master's account counts nothing either."""
    answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nPROMOTE cm")
    answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nDEMOTE cm")
    for _ in range(FREE["account"] + 2):
        r = answer(playing, "cm@dip.test", "SIGNON Malpha cm-pw")
        assert "no longer a master of alpha" in r and "too many wrong passwords" not in r
    assert "signed on as the master in alpha" in answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw")
    r = answer(playing, "cm@dip.test", "SIGNON Malpha gm-pw")     # not theirs: wrong, as any other
    assert "the password is not right" in r


def test_a_replaced_players_right_password_hears_they_play_the_power_no_more(playing):
    """Their own password is checked as theirs: never held back as a guesser, the new player's
    account counts nothing, and the reply names nobody (a QUIET game tells only the masters)."""
    playing.service.create_account("newbie", "newbie@dip.test", "nb-pw")
    r = answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nEJECT France\nREPLACE France newbie@dip.test")
    assert "is now played by newbie" in r, r
    for _ in range(FREE["account"] + 2):
        r = answer(playing, "france@dip.test", "SIGNON Falpha france-pw\nA Par - Bur")
        assert "you (france) no longer play France in alpha" in r and "newbie" not in r, r
        assert "password is not right" not in r and "too many wrong passwords" not in r
    assert not playing.service.confirmation("alpha", "FRANCE").orders
    assert "signed on as France in alpha" in answer(playing, "newbie@dip.test", "SIGNON Falpha nb-pw")
    assert "the password is not right" in answer(playing, "france@dip.test", "SIGNON Falpha wrong")


def test_become_then_set_password_sets_the_players_password_and_tells_them(playing):
    sent = playing.send("gm@dip.test", "SIGNON Malpha gm-pw\nBECOME France\nSET PASSWORD fresh-start")
    reply = said(to(sent, "gm@dip.test")[0])
    assert "the password of france, who plays France in alpha, is set" in reply and "fresh-start" not in reply
    told = [s for s in to(sent, "france@dip.test") if "new password" in s.subject]
    assert told and "the game master (gm) set a new password for your account" in said(told[0])
    assert "fresh-start" not in str(told[0].mail)
    assert playing.service.accounts.check_password("france", "fresh-start")
    assert playing.service.accounts.check_password("gm", "gm-pw")         # the master's own is unchanged
    assert "signed on as France in alpha" in answer(playing, "france@dip.test", "SIGNON Falpha fresh-start")


def test_become_then_set_password_is_refused_for_a_player_of_other_games(playing):
    """A master of one game must not take over an account that plays elsewhere: refused, with the
    way the player can do it."""
    playing.service.create_game("beta", master="cm")
    playing.service.join("beta", "france", ["ITALY"])
    playing.service.create_game("gamma", master="france")
    r = answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nBECOME France\nSET PASSWORD fresh-start")
    assert "cannot be set from alpha: france also plays or runs beta, gamma" in r
    assert "with SET PASSWORD new" in r
    assert playing.service.accounts.check_password("france", "france-pw")
    assert playing.service.accounts.check_password("gm", "gm-pw")


def test_an_early_process_counts_no_missed_phase(playing):
    """The master's PROCESS before the deadline plays the phase, but powers without orders missed
    nothing: no civil disorder, no abandonment, no notice of either, however often."""
    for _ in range(3):
        sent = playing.send("gm@dip.test", "SIGNON Malpha gm-pw\nPROCESS")
        assert not [s for s in sent if "abandoned" in s.subject or "civil disorder" in s.subject.lower()]
    powers = playing.service.status("alpha").powers
    assert {p: (info.status, info.missed) for p, info in powers.items()} == {p: ("active", 0) for p in POWERS}
    # A deadline that passed still counts.
    past_the_deadline(playing)
    playing.clock.advance(hours=12)     # and its grace
    playing.service.wake("alpha")
    assert all(info.missed == 1 for info in playing.service.status("alpha").powers.values())


def past_the_deadline(j: MailJudge) -> None:
    """The judge's clock an hour past the current phase's deadline (a master's PROCESS then counts misses)."""
    j.clock.set(j.service.status("alpha").deadline["utc"])
    j.clock.advance(hours=1)


def test_clear_takes_back_a_players_own_orders_and_the_master_clears_any_power(playing):
    answer(playing, "france@dip.test", "SIGNON Falpha france-pw\nA Par - Bur\nA Mar - Spa")
    r = answer(playing, "france@dip.test", "SIGNON Falpha france-pw\nCLEAR")
    assert "the orders of France in alpha are cleared; 3 units without orders" in r
    assert not playing.service.confirmation("alpha", "FRANCE").orders
    answer(playing, "germany@dip.test", "SIGNON Galpha germany-pw\nA Mun - Ruh")
    r = answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nCLEAR G")
    assert "the orders of Germany in alpha are cleared" in r
    assert not playing.service.confirmation("alpha", "GERMANY").orders
    r = answer(playing, "italy@dip.test", "SIGNON Ialpha italy-pw\nCLEAR Germany")
    assert "CLEAR Germany is for the master of alpha" in r


def test_a_concession_is_put_to_the_others_and_ends_the_game_when_all_agree(playing):
    r = answer(playing, "italy@dip.test", "SIGNON Ialpha italy-pw\nCONCEDE Italy")
    assert "a concession is to another player's power" in r
    sent = playing.send("austria@dip.test", "SIGNON Aalpha austria-pw\nCONCEDE F")
    assert "you concede alpha to France: 1 of the 6 other survivors have" in said(to(sent, "austria@dip.test")[0])
    asked = [s for s in sent if "a concession to France" in s.subject]
    assert sorted(a for s in asked for a in s.to) == sorted(f"{p.lower()}@dip.test" for p in POWERS
                                                         if p not in ("AUSTRIA", "FRANCE"))
    assert "To agree, sign on and write CONCEDE France" in said(asked[0])
    for p in ("ENGLAND", "GERMANY", "ITALY", "RUSSIA"):
        playing.send(f"{p.lower()}@dip.test", f"SIGNON {p[0]}alpha {p.lower()}-pw\nCONCEDE France")
    r = answer(playing, "austria@dip.test", "SIGNON Aalpha austria-pw\nCONCEDE NONE")
    assert "you no longer concede alpha" in r
    playing.send("turkey@dip.test", "SIGNON Talpha turkey-pw\nCONCEDE France")
    assert playing.service.status("alpha").status == "active"      # Austria took its concession back
    sent = playing.send("austria@dip.test", "SIGNON Aalpha austria-pw\nCONCEDE France")
    assert "every other survivor has, so France wins and the game is over" in said(to(sent, "austria@dip.test")[0])
    assert playing.service.status("alpha").result["how"] == "concession"
    assert any("is over" in s.subject for s in to(sent, "france@dip.test"))


def test_noabsence_refuses_players_absences_but_not_the_masters(playing):
    r = answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nSET NOABSENCE")
    assert "NOABSENCE of alpha: 0" in r or "MAXABSENCE of alpha: 0" in r
    r = answer(playing, "italy@dip.test", "SIGNON Ialpha italy-pw\nSET ABSENCE 2026-03-03 to 2026-03-04")
    assert "alpha allows no absences (its master set NOABSENCE)" in r
    r = answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nBECOME Italy\nSET ABSENCE 2026-03-03 to 2026-03-04")
    assert "away from" in r


def test_observers_can_stop_observing(playing):
    playing.service.create_account("watcher", "watcher@dip.test", "watcher-pw")
    assert "you now observe alpha" in answer(playing, "watcher@dip.test", "OBSERVE alpha watcher-pw")
    assert playing.service.observers("alpha") == ["watcher"]
    r = answer(playing, "watcher@dip.test", "UNOBSERVE alpha wrong-pw")
    assert "the password is not right" in r and playing.service.observers("alpha") == ["watcher"]
    r = answer(playing, "watcher@dip.test", "UNOBSERVE alpha watcher-pw")
    assert "you no longer observe alpha" in r and playing.service.observers("alpha") == []
    r = answer(playing, "watcher@dip.test", "OBSERVE alpha watcher-pw\nSTOP OBSERVING alpha\nUNWATCH alpha")
    assert "you no longer observe alpha" in r and "you were not observing alpha: nothing changed" in r


def test_join_takes_a_powers_initial_as_signon_does(tmp_path):
    j = make_judge(tmp_path)
    try:
        j.service.create_account("gm", "gm@dip.test", "gm-pw")
        j.service.create_game("beta", master="gm", settings={"assignment": "preference", "pictures": False})
        for p in POWERS:
            j.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        for p in POWERS:     # each asks for its own power by its initial
            answer(j, f"{p.lower()}@dip.test", f"JOIN beta {p.lower()}-pw {p[0]}")
        powers = j.service.status("beta").powers
        assert {p: info.account for p, info in powers.items()} == {p: p.lower() for p in POWERS}
    finally:
        j.close()


# -- anonymous games ---------------------------------------------------------------------------------

# Player names no English word contains, so a name found in a mail is a leak.
NAMES = {"AUSTRIA": "zanzibar", "ENGLAND": "quixote", "FRANCE": "yodeller", "GERMANY": "wobbegong",
         "ITALY": "vortexia", "RUSSIA": "umlautz", "TURKEY": "tundrak"}
NEWCOMER = "xylophon"
HOLD = {"AUSTRIA": "A Vie H", "ENGLAND": "F Lon H", "FRANCE": "A Par H", "GERMANY": "A Ber H",
        "RUSSIA": "A Mos H", "TURKEY": "A Con H"}


def leaks(sent, reader: str) -> list[str]:
    """The other players' names and addresses found in one mail (headers and body) to `reader`."""
    text = sent.mail.as_string().lower()
    others = [n for n in [*NAMES.values(), NEWCOMER] if n != reader]
    return [n for n in others if n in text]


def test_an_anonymous_game_keeps_every_players_name_and_address_out_of_the_others_mail(tmp_path):
    j = make_judge(tmp_path)
    try:
        mails = []
        mails += j.send("gm@dip.test", "REGISTER gm gm-pw\nCREATE alpha gm-pw\nSET ANONYMOUS ON\nSET PRESS GREY\n"
                                       "SET PICTURES OFF\nSET ABANDON 1")
        assert "ANONYMOUS of alpha: on (was off)" in said(mails[-1])
        for power, name in NAMES.items():
            mails += j.send(f"{name}@dip.test", f"REGISTER {name} {name}-pw\nJOIN alpha {name}-pw {power[0]}")
        assert j.service.status("alpha").status == "active"
        started = [s for s in mails if "has started" in s.subject]
        assert len(started) == 8          # seven players and the master
        master_start = said(to(started, "gm@dip.test")[0])
        assert all(n in master_start for n in NAMES.values())      # the master sees who is who
        assert "Player" in said(to(started, "yodeller@dip.test")[0])
        r = answer(j, "gm@dip.test", "SIGNON Malpha gm-pw\nSET ANONYMOUS OFF")
        assert "cannot change once the game has started" in r

        def play(frm: str, body: str) -> None:
            mails.extend(j.send(frm, body))
        play("yodeller@dip.test", "SIGNON Falpha yodeller-pw\nPRESS TO Germany\nAn alliance?\nENDPRESS\n"
                                  "BROADCAST\nHello all\nENDPRESS\nPRESS GREY TO England\nBeware\nENDPRESS")
        play("tundrak@dip.test", "SIGNON Talpha tundrak-pw\nRESIGN")                  # resigned notice
        play(f"{NEWCOMER}@dip.test", f"REGISTER {NEWCOMER} {NEWCOMER}-pw\nJOIN alpha {NEWCOMER}-pw Turkey")
        for power, name in NAMES.items():
            if power not in ("ITALY", "TURKEY"):       # Italy misses the phase: civil disorder, abandoned
                play(f"{name}@dip.test", f"SIGNON {power[0]}alpha {name}-pw\n{HOLD[power]}")
        past_the_deadline(j)
        play("gm@dip.test", "SIGNON Malpha gm-pw\nPROCESS")                            # results
        for name in NAMES.values():
            for command in ("LIST alpha", "SUMMARY alpha", "HISTORY alpha", "LIST"):
                play(f"{name}@dip.test", command)
        subjects = {s.subject for s in mails}
        for kind in ("alpha: a player now plays Turkey, from Spring 1901", "alpha: Turkey has resigned",
                     "alpha: Italy is abandoned and open for takeover", "alpha: Spring 1901 Movement results",
                     "alpha: press from France", "alpha: broadcast from France", "alpha: press from anonymous"):
            assert any(s.startswith(kind.split(",")[0]) for s in subjects), (kind, sorted(subjects))
        replies = [s for s in mails if s.mail["In-Reply-To"] and s.to != ["gm@dip.test"]]
        assert len(replies) >= 4 * len(NAMES)        # LIST, SUMMARY, HISTORY and LIST alpha answered
        for s in mails:
            for reader in s.to:
                if reader != "gm@dip.test":
                    assert not leaks(s, reader.split("@")[0]), (reader, s.subject, leaks(s, reader.split("@")[0]))
        white = [s for s in mails if "yodeller" not in s.to[0] and "press from France" in s.subject]
        assert white, "white press is signed by the power"
        grey = [s for s in mails if "press from anonymous" in s.subject]
        assert grey and all("quixote@dip.test" in s.to for s in grey)
        results = [s for s in mails if s.subject == "alpha: Spring 1901 Movement results"]
        mine = [s for s in results if s.to == ["gm@dip.test"]]     # the players' copies were checked above
        assert len(mine) == 1 and all(n in mine[0].body for n in ("zanzibar", "quixote", "yodeller", NEWCOMER))
        assert len(results) == 8 and all("anonymous" in s.body for s in results if s not in mine)
        master_grey = [s for s in mails if s.to == ["gm@dip.test"] and "Beware" in s.body]
        assert master_grey and "press from France to England" in said(master_grey[0])

        revealed = j.send("gm@dip.test", "SIGNON Malpha gm-pw\nREVEAL")
        assert "the players of alpha are revealed" in said(to(revealed, "gm@dip.test")[0])
        shown = [s for s in revealed if "players are revealed" in s.subject]
        assert {a for s in shown for a in s.to} >= {f"{n}@dip.test" for n in NAMES.values() if n != "tundrak"}
        assert all(n in said(shown[0]) for n in (*(v for k, v in NAMES.items() if k != "TURKEY"), NEWCOMER))
        r = answer(j, "gm@dip.test", "SIGNON Malpha gm-pw\nREVEAL")
        assert "alpha is not anonymous: its players are shown already" in r
    finally:
        j.close()


def test_a_co_master_gets_the_masters_own_notices_too(playing):
    answer(playing, "gm@dip.test", "SIGNON Malpha gm-pw\nPROMOTE cm")
    for p in POWERS:
        if p != "ITALY":
            playing.send(f"{p.lower()}@dip.test", f"SIGNON {p[0]}alpha {p.lower()}-pw\nSET WAIT")
    past_the_deadline(playing)
    sent = playing.send("gm@dip.test", "SIGNON Malpha gm-pw\nPROCESS")
    for master in ("gm@dip.test", "cm@dip.test"):
        news = [s for s in to(sent, master) if s.subject == "alpha: Italy is in civil disorder"]
        assert news, (master, [s.subject for s in to(sent, master)])


def test_help_documents_each_new_command(playing):
    master = answer(playing, "gm@dip.test", "HELP MASTER")
    for words in ("BECOME power", "CLEAR power", "PROMOTE name / DEMOTE name", "REVEAL", "SET ANONYMOUS ON",
                  "SET NOABSENCE"):
        assert words in master, words
    commands = answer(playing, "gm@dip.test", "HELP COMMANDS")
    for words in ("CONCEDE power", "CONCEDE NONE", "CLEAR", "UNOBSERVE game password", "name or initial"):
        assert words in commands, words
    assert "ANONYMOUS on" in answer(playing, "gm@dip.test", "HELP SETTINGS")


def test_a_sign_on_after_become_ends_acting_for_the_power(playing):
    sent = playing.send("gm@dip.test", "SIGNON Malpha gm-pw\nBECOME France\nSIGNON Galpha germany-pw\n"
                                       "SET ABSENCE 2026-03-03 to 2026-03-30")
    # signed on as Germany from the master's address: the answer goes to Germany's player only
    r = " ".join(said(s) for s in sent if s.mail["In-Reply-To"])
    assert "signed on as Germany in alpha" in r
    assert "a player may be away at most 14 days at once" in r     # Germany's own, not set as the master's
