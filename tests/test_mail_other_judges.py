"""At home for njudge and DPjudge veterans: every command of grammar/other_judges.json (njudge's
`index` and `master` help files, DPjudge's mail commands), sent by mail as a veteran writes it,
is done as this judge's own command, read as this judge's words (and the reply says so), or
refused naming the nearest command here; never set aside as a greeting.

One case per row, each in a game of its own on one in-process judge (a master signed on, as
most of these are a master's). The same words through a real `judge serve`, with a game created
and set up in njudge's words, are in tests/test_mail_other_judges_serve.py."""
from __future__ import annotations

import itertools

import pytest

from judge.language.other_judges import WORDS, Kind, Word
from mailjudge import POWERS, MailJudge

_games = itertools.count(2)


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    j = MailJudge(tmp_path_factory.mktemp("other_judges"))
    j.service.create_account("bob", "bob@dip.test", "bob-pw")
    j.service.create_account("gm", "gm@dip.test", "gm-pw")
    j.service.create_game("g1", master="gm")        # the game the examples name (WHO GAME g1)
    yield j
    j.close()


def said(reply) -> str:
    return " ".join(reply.body.split())


@pytest.mark.parametrize("word", WORDS, ids=lambda w: w.example)
def test_each_word_of_njudge_and_dpjudge_is_done_read_as_ours_or_refused_never_ignored(judge, word: Word):
    n = next(_games)
    master, game = f"m{n}", f"g{n}"     # a master and a game of the case's own: TERMINATE, SET PASSWORD ...
    judge.service.create_account(master, f"{master}@dip.test", "pw")
    judge.service.create_game(game, master=master)
    text = said(judge.reply_to(f"{master}@dip.test", f"SIGNON M{game} pw\n{word.example}"))
    first = word.example.split()[0]
    assert f"> {first}" in text or f"ERROR on line 2: {first}" in text, text    # read as a line of its own
    assert "Not read as orders or commands" not in text and "found nothing to do" not in text, text
    assert "not understood" not in text and "column" not in text, text         # never the parser's words
    if word.kind is Kind.SAME:
        assert "read `" not in text and "not a command here" not in text, text
    elif word.kind is Kind.MAPPED:
        assert f"read `{word.example}` as `{word.becomes}" in text, text
    else:
        assert f"not a command here; the nearest is {word.nearest}" in text, text
    if word.answer:
        assert word.answer in text, text


def test_the_vocabulary_has_each_command_the_issue_names_and_each_spelling_once():
    spellings = [s.upper() for w in WORDS for s in w.said]
    assert len(spellings) == len(set(spellings))
    for named in ("SET CENTERS", "SET DIAS", "SET NO DIAS", "SET NO PRESS", "SET WHITE", "SET GREY", "SET GREY/WHITE",
                  "SET PARTIAL", "SET ALL PRESS", "SET OBSERVER", "SET LATE PRESS", "SET MINOR PRESS", "SET NO NMR",
                  "SET CD", "SET MAX ABSENCE", "SET DEDICATION", "SET ONTIMERAT", "SET LEVEL", "SET PUBLIC",
                  "SET PRIVATE", "SET LIST", "SET PREFERENCE", "SET ZONE", "SET MOVE CLOCK", "SET RETREAT DAYS",
                  "SET ADJUST NEXT", "SET MOVE GRACE", "SET DAYS", "SET COMMENT", "SET QUIET", "SET NO REVEAL",
                  "SET START", "SET MANUAL PROCESS", "SET MANUAL START", "SET MODERATED", "PREDICT", "WHOIS",
                  "WHOGAME", "I AM ALSO", "VERSION", "GET INFO", "GET MASTER", "GET DEDICATION", "PHASE", "DIARY",
                  "UNSTART", "ROLLBACK", "INFO PLAYER"):
        assert named in spellings, named


def test_a_greeting_or_a_signature_is_still_set_aside_around_njudge_words(judge):
    text = said(judge.reply_to("gm@dip.test", "Hi judge,\nSIGNON Mg1 gm-pw\nSET CENTERS 15\nThanks, the GM\n"
                                              "Get Outlook for iOS"))
    assert "read `SET CENTERS 15` as `SET VICTORY 15`" in text and "VICTORY of g1: 15" in text
    assert ("Not read as orders or commands (greetings and the like): Hi judge, / Thanks, the GM / Get Outlook for"
            " iOS") in text, text


def test_njudge_turn_numbers_roll_back_to_the_nth_phase_played(tmp_path):
    judge = MailJudge(tmp_path)
    try:
        judge.seven_players("turns")
        for _ in range(2):
            judge.service.process("turns")
        text = said(judge.reply_to("gm@dip.test", "SIGNON Mturns gm-secret\nROLLBACK 2"))
        assert "turns rolled back to F1901M (turn 2, as njudge counts them)" in text, text
        text = said(judge.reply_to("gm@dip.test", "SIGNON Mturns gm-secret\nROLLBACK 9"))
        assert "there is no turn 9: turns has played 1 phase" in text, text
    finally:
        judge.close()


def test_njudge_spacing_and_this_judges_own_words_beside_njudges(judge):
    text = said(judge.reply_to("gm@dip.test", "SIGNON Mg1 gm-pw\nset nopress\nSET NO LIST\nSET PRIVATE club-key\n"
                                              "SET MAXABSENCE 3"))
    assert "read `set nopress` as `SET PRESS NONE`" in text and "PRESS of g1: none" in text, text
    assert "NOLIST of g1: on" in text and "read `SET NO LIST`" not in text, text      # only the spacing differs
    assert "g1 is private: joining needs its join password" in text, text   # SET PRIVATE key: this judge's own
    assert "MAXABSENCE of g1: 3" in text and "read `SET MAXABSENCE" not in text, text


def test_the_rulebook_chosen_at_create_is_checked_and_shown_by_summary(judge):
    judge.service.create_account("rulesgm", "rulesgm@dip.test", "rules-pw")
    text = said(judge.reply_to("rulesgm@dip.test", "CREATE old rules-pw standard RULES 1999"))
    assert "nothing was created" in text and "'1999' is not a rulebook the judge knows: 5TH, 2000 or 1982" in text
    text = said(judge.reply_to("rulesgm@dip.test", "CREATE old rules-pw standard RULES 1982\nSUMMARY old"))
    assert "settings: RULES 1982" in text and "old: Standard (1982 rules), forming" in text and "RULES 1982;" in text
    assert judge.service.status("old").rules == "1982"


def test_an_njudge_masters_game_in_njudges_words_only_set_up_and_run_two_phases(tmp_path):
    """Created, set up, joined, ordered and run by the master's PROCESS (njudge's MANUAL PROCESS) two
    phases on, every line in njudge's words; none refused, none set aside."""
    judge = MailJudge(tmp_path)
    try:
        judge.service.create_account("gm", "gm@dip.test", "gm-pw")
        for p in POWERS:
            judge.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        text = said(judge.reply_to("gm@dip.test", "\n".join((
            "CREATE ?vet gm-pw standard", "SET CENTERS 18", "SET GREY", "SET NMR", "SET MANUAL PROCESS",
            "SET NO REVEAL", "SET COMMENT Friendly game for veterans", "SET MOVE NEXT 72", "SET QUIET"))))
        for njudge, ours in (("SET MANUAL PROCESS", "SET MANUALPROCESS ON"), ("SET NO REVEAL", "SET REVEAL OFF"),
                             ("SET GREY", "SET PRESS GREY"), ("SET QUIET", "SET QUIET ON")):
            assert f"read `{njudge}` as `{ours}`" in text, (njudge, text)
        assert "MANUALPROCESS of vet: on" in text and "COMMENT of vet: Friendly game for veterans" in text, text
        assert "ERROR" not in text and "not a command here" not in text, text
        for p in POWERS:        # the last to join starts the game: no preference after that
            wish = "" if p == POWERS[-1] else f"\nSET PREFERENCE {p[0]}"
            text = said(judge.reply_to(f"{p.lower()}@dip.test", f"SIGNON ?vet {p.lower()}-pw{wish}"))
            assert "joined vet" in text and "ERROR" not in text, text
        assert judge.service.status("vet").status == "active"
        text = said(judge.reply_to("france@dip.test", "SIGNON Fvet france-pw\nA Par - Bur\nA Mar - Spa\nF Bre - Mao"))
        assert "ERROR" not in text, text
        for phase, after in (("S1901M", "F1901M"), ("F1901M", "W1901A")):
            judge.clock.advance(days=4)          # past the deadline: MANUAL PROCESS waits for the master
            judge.service.run_due()
            assert judge.service.status("vet").phase == phase
            text = said(judge.reply_to("gm@dip.test", f"SIGNON Mvet gm-pw\nPROCESS {phase}\nWHOGAME vet"))
            assert f"vet {phase}:" in text and "comment: Friendly game for veterans" in text, text
            assert judge.service.status("vet").phase == after
        assert judge.service.status("vet").powers["FRANCE"].centres == 4          # Spain, taken in the spring, kept
    finally:
        judge.close()
