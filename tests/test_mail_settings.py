"""Game settings by mail: SET <setting> <value> for the master, every HELP SETTINGS example played,
refusals that say why, and the grammar's setting names kept equal to the table's."""
from __future__ import annotations

import re

import pytest

from judge.language.commands import CommandReader, SetGame
from judge.mail.commands.game_settings import BY_WORD, HELP_SETTINGS, SETTINGS

ROOT_GRAMMAR = __import__("pathlib").Path(__file__).resolve().parents[1] / "grammar" / "commands.lark"


@pytest.fixture
def judge(judge):
    judge.service.create_account("gm", "gm@dip.test", "gm-secret")
    judge.service.create_account("ann", "ann@dip.test", "ann-secret")
    judge.service.create_game("alpha", master="gm")
    return judge


def help_examples(judge) -> list[str]:
    body = judge.reply_to("ann@dip.test", "help settings").body
    return [line.strip() for line in body.splitlines() if line.lstrip().startswith("SET ") and line.startswith("    ")]


def test_every_help_settings_example_is_a_setting_the_master_can_set_by_mail(judge):
    examples = help_examples(judge)
    assert len(examples) == len(SETTINGS) and examples[0] == "SET MOVEMENT 72"
    reply = judge.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\n" + "\n".join(examples))
    done = re.findall(r"^\s*([A-Z]+(?: [A-Z]+)?) of alpha: ", reply.body, re.MULTILINE)   # MOVE CLOCK too
    assert done == [s.words[0] for s in SETTINGS], reply.body
    settings = judge.service.status("alpha").settings
    assert (settings["movement_hours"], settings["press"], settings["deadline_clock"]) == (72.0, "grey", "20:00")
    assert settings["deadline_days"] == ["mon", "tue", "wed", "thu", "fri"]
    assert settings["reminder_hours"] == [24.0, 4.0]
    assert (settings["unlisted"], settings["max_absence_days"], settings["players"]) == (True, 0.0, "five")
    assert "PRESS of alpha: grey (was white); WHITE (signed)" in " ".join(reply.body.split())


def test_set_is_the_masters_and_each_refusal_says_why_and_how(judge):
    judge.service.create_account("bob", "bob@dip.test", "bob-secret")
    judge.service.join("alpha", "ann")
    player = judge.reply_to("ann@dip.test", "SIGNON ?alpha ann-secret\nSET PRESS GREY")
    assert "SET PRESS is for the master of alpha" in " ".join(player.body.split())
    r = judge.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nSET PRESS purple\nSET MOVEMENT -3\n"
                                      "SET CLOCK 25:00\nSET GAMEZONE Mars/Olympus\nSET DAYS someday\nSET GRACE\n"
                                      "SET NOABSENCE 4\nSET MOVEMENT 36")
    text = " ".join(r.body.split())
    assert "SET PRESS: 'purple' is not one of WHITE, GREY, BROADCAST, NONE" in text and "SET PRESS grey" in text
    assert "SET MOVEMENT: hours must be more than 0" in text
    assert "'25:00' is not a time of day" in text
    assert "SET GAMEZONE: 'Mars/Olympus' is not a time zone; write its IANA name, such as Europe/Paris" in text
    assert "'someday' is not a day of the week" in text
    assert "SET GRACE needs a value" in text and "SET NOABSENCE takes no value" in text
    assert "MOVEMENT of alpha: 36 (was 48)" in text
    assert judge.service.status("alpha").settings["press"] == "white"


def test_once_started_only_the_clock_and_manners_change(judge):
    for name in ("bob", "cy", "dee", "eve", "fay", "gus"):
        judge.service.create_account(name, f"{name}@dip.test", "x")
    for name in ("ann", "bob", "cy", "dee", "eve", "fay", "gus"):
        judge.service.join("alpha", name)
    assert judge.service.status("alpha").status == "active"
    r = judge.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nSET PLAYERS five\nSET VICTORY 20\nSET PRESS none\n"
                                      "SET CLOCK 18:30")
    text = " ".join(r.body.split())
    assert "SET PLAYERS cannot change once the game has started" in text
    assert "SET VICTORY cannot change once the game has started" in text      # its word, not the field's
    assert "victory_centres" not in text
    assert "PRESS of alpha: none (was white)" in text and "CLOCK of alpha: 18:30 (was none)" in text


def test_the_grammar_knows_exactly_the_tables_setting_names():
    grammar = ROOT_GRAMMAR.read_text()
    names = set(re.search(r"SETTING: /\(([A-Z_|]+)\)", grammar).group(1).split("|"))
    assert names == set(BY_WORD) | {"STANDBY"}      # SET STANDBY: the player's, not the game's
    reader = CommandReader()
    for word in BY_WORD:
        assert reader.parse(f"set {word.lower()} 1") == SetGame(word, "1"), word
    assert [row[0] for row in HELP_SETTINGS] == [s.words[0] for s in SETTINGS]


def test_summary_shows_every_setting_as_set_writes_it(judge):
    judge.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nSET PRESS grey\nSET CLOCK 20:00\nSET REMINDERS 12 2")
    text = " ".join(judge.reply_to("ann@dip.test", "SUMMARY alpha").body.split())
    assert "settings (the master changes them with SET setting value; HELP SETTINGS):" in text
    for shown in ("MOVEMENT 48", "PRESS grey", "CLOCK 20:00", "REMINDERS 12 2", "DAYS none", "UNLISTED off"):
        assert shown in text, shown


def test_set_clock_auto_picks_the_hour_most_players_are_awake_and_says_whom_it_suits(judge):
    zones = {"ann": "Europe/London", "bob": "America/New_York", "cy": "Asia/Tokyo"}
    for name, zone in zones.items():
        if name != "ann":
            judge.service.create_account(name, f"{name}@dip.test", "x")
        judge.service.accounts.set_time_zone(name, zone)
        judge.service.join("alpha", name)
    r = " ".join(judge.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nSET CLOCK AUTO").body.split())
    clock = judge.service.status("alpha").settings["deadline_clock"]
    assert clock is not None and f"CLOCK of alpha: {clock} (UTC), the hour awake for " in r
    assert "of 3 players: " in r and ("ann" in r and "bob" in r and "cy" in r)
