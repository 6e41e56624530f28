"""Fog of war by mail through a real `judge serve`: each power's results mail, its picture, HISTORY
and LIST show only what its units and centres see; the master sees all; an observer sees no board;
at the end HISTORY shows everyone the whole record.

What a power sees is worked out again from the board by tests/fogsight.py, not by judge.games.fog.
"""
import re
import smtplib
import subprocess
from email import message_from_bytes, policy
from xml.etree import ElementTree

import pytest

from judge.engine import starting_position
from judge.engine.notation import position_from_json
from judge.games.model import Settings
from judge.games.service import GameService
from judge.pictures import picture_of_phase

from fogsight import STANDARD, mentions, unseen
from mailjudge import POWERS, mail
from servers.net import wait_until
from servers.serve import JUDGE, rows, start_judge, stop

GAME = "fog"
SPRING = {"AUSTRIA": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
          "ENGLAND": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
          "FRANCE": ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"],
          "GERMANY": ["A Mun - Ruh", "A Ber - Kie", "F Kie - Den"],
          "ITALY": ["A Ven - Tyr", "A Rom - Apu", "F Nap - Ion"],
          "RUSSIA": ["A War - Gal", "A Mos - Ukr", "F Sev - Bla", "F Stp/sc - Bot"],
          "TURKEY": ["A Con - Bul", "A Smy - Arm", "F Ank - Bla"]}
FALL = {"AUSTRIA": ["A Vie H", "A Ser - Gre", "F Alb S A Ser - Gre"],
        "ENGLAND": ["F Nth - Nwy", "F Nwg H", "A Yor H"],
        "FRANCE": ["A Bur - Bel", "A Spa - Por", "F Mao H"],
        "GERMANY": ["A Ruh - Bel", "A Kie - Hol", "F Den H"],
        "ITALY": ["A Tyr - Mun", "A Apu - Tun", "F Ion C A Apu - Tun"],
        "RUSSIA": ["A War - Gal", "A Ukr - Rum", "F Sev H", "F Bot - Swe"],
        "TURKEY": ["A Bul - Gre", "A Arm H", "F Ank - Bla"]}
PHASES = [("S1901M", "Spring 1901 Movement", SPRING), ("F1901M", "Fall 1901 Movement", FALL)]


# -- the game and the mail -------------------------------------------------------------------------

def send(port: int, frm: str, body: str) -> str:
    raw = mail(frm, body)
    with smtplib.SMTP("127.0.0.1", port) as smtp:
        smtp.sendmail(frm, ["judge@dip.test"], raw)
    return raw.split(b"Message-ID: <", 1)[1].split(b">", 1)[0].decode()


def reply(tmp_path, message_id: str) -> str:
    found = wait_until(lambda: rows(tmp_path / "var" / "judge.sqlite",
                                    "SELECT raw FROM outbox_mail WHERE instr(raw, CAST(? AS BLOB)) > 0",
                                    [f"In-Reply-To: <{message_id}>"]), what=f"the reply to {message_id}")
    return message_from_bytes(found[0][0], policy=policy.default).get_body(("plain",)).get_content()


def notice_mail(tmp_path, address: str, subject: str):
    """The one mail with this subject queued for this address."""
    def found():
        return [
            m
            for m in (
                message_from_bytes(r[0], policy=policy.default)
                for r in rows(
                    tmp_path / "var" / "judge.sqlite",
                    "SELECT raw FROM outbox_mail WHERE recipients LIKE ?",
                    [f'%"{address}"%'],
                )
            )
            if str(m["Subject"]) == subject
        ]
    got = wait_until(found, what=f"{subject!r} for {address}")
    assert len(got) == 1
    return got[0]


def attached_png(tmp_path, message_id: str) -> bytes:
    found = wait_until(lambda: rows(tmp_path / "var" / "judge.sqlite",
                                    "SELECT raw FROM outbox_mail WHERE instr(raw, CAST(? AS BLOB)) > 0",
                                    [f"In-Reply-To: <{message_id}>"]), what=f"the reply to {message_id}")
    return picture_in(message_from_bytes(found[0][0], policy=policy.default))


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def picture_in(message) -> bytes:
    parts = [p for p in message.iter_attachments() if p.get_content_type() == "image/png"]
    assert len(parts) == 1
    return parts[0].get_content()


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A standard game whose master turned fog on by mail before the start, played to the winter
    through a real `judge serve`; an observer watches. Yields (service, port, positions by phase,
    the judge's directory). Only the last test ends the game."""
    tmp_path = tmp_path_factory.mktemp("fog")
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    service.create_account("watcher", "watcher@dip.test", "watcher-pw")
    service.create_game(GAME, master="gm", settings=Settings(grace_hours=0))
    process, port = start_judge(tmp_path, JUDGE_TICK_SECONDS="0.2")
    try:
        answer = reply(tmp_path, send(port, "gm@dip.test", f"signon M{GAME} gm-pw\nset fog on"))
        assert "FOG of fog: on (was off)" in " ".join(answer.split())
        service.observe(GAME, "watcher")
        for p in POWERS:
            service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
            service.join(GAME, p.lower(), [p])
        assert service.status(GAME).settings["fog"] is True
        refused = reply(tmp_path, send(port, "gm@dip.test", f"signon M{GAME} gm-pw\nset fog off"))
        assert service.status(GAME).settings["fog"] is True, refused       # fixed once the game started
        positions = {"S1901M": starting_position(STANDARD)}
        for code, name, orders in PHASES:
            for p, lines in orders.items():
                send(port, f"{p.lower()}@dip.test", f"signon {p[0]}{GAME} {p.lower()}-pw\n" + "\n".join(lines))
            wait_until(lambda code=code: service.status(GAME).phase != code, what=f"{code} to be played")
            for p in POWERS:   # each player answers the results once they are mailed, as players do
                notice_mail(tmp_path, f"{p.lower()}@dip.test", f"{GAME}: {name} results")
            after = position_from_json(STANDARD, service.status(GAME).position)
            positions[service.status(GAME).phase] = after
        assert service.status(GAME).phase == "W1901A"
        yield service, port, positions, tmp_path
    finally:
        stop(process)


def test_each_power_reads_only_what_it_sees(game):
    _, _, positions, tmp_path = game
    for (code, name, orders), after in zip(PHASES, ["F1901M", "W1901A"], strict=True):
        before, later = positions[code], positions[after]
        whole = text_of(notice_mail(tmp_path, "gm@dip.test", f"{GAME}: {name} results"))
        for power in POWERS:
            hidden = unseen(before, later, {power})
            body = text_of(notice_mail(tmp_path, f"{power.lower()}@dip.test", f"{GAME}: {name} results"))
            assert mentions(body, hidden) == [], (power, code, body)
            assert "Fog of war" in body
            for line in orders[power]:            # its own orders are all there, in full names
                unit = STANDARD.board.province(line.split()[1].split("/")[0].lower()).name
                assert unit in body, (power, line)
        # what France sees of others: the German move beside Burgundy, not the Italian far away
        assert mentions(whole, hidden) != []      # the master's copy names what France's leaves out
    france = text_of(notice_mail(tmp_path, "france@dip.test", f"{GAME}: Spring 1901 Movement results"))
    assert "Army Munich -> Ruhr" in " ".join(france.split())
    assert "Venice" not in france and "Venice" in text_of(notice_mail(tmp_path, "gm@dip.test",
                                                                       f"{GAME}: Spring 1901 Movement results"))
    fall = " ".join(text_of(notice_mail(tmp_path, "france@dip.test", f"{GAME}: Fall 1901 Movement results")).split())
    assert "bounced with the German army from Ruhr" in fall
    assert "France 4 3 builds 1" in fall             # its own count (Spain left empty in the fall)
    assert "Germany 4" not in fall and "Germany: Berlin" not in fall and "Germany may" not in fall  # others' unseen
    assert "Germany: army in Ruhr." in fall      # where the units stand: only the German army in sight
    assert "Italy: Munich." in fall                    # a foreign centre next to Burgundy
    assert "Tyrolia" not in fall                       # the order that took it came from out of sight


def test_the_start_tells_each_power_its_own_board_and_the_rule(game):
    _, _, positions, tmp_path = game
    start = positions["S1901M"]
    for power in POWERS:
        name = STANDARD.power(power).name
        body = text_of(notice_mail(tmp_path, f"{power.lower()}@dip.test", f"{GAME} has started: you play {name}"))
        assert mentions(body, unseen(start, start, {power})) == [], (power, body)
        assert "Fog of war" in body and "you see only what your units and centres see" in " ".join(body.split())


def test_the_observer_sees_no_board(game):
    tmp_path = game[3]
    body = text_of(notice_mail(tmp_path, "watcher@dip.test", f"{GAME}: Spring 1901 Movement results"))
    assert mentions(body, STANDARD.board.provinces) == []
    assert "only the players see the board" in " ".join(body.split())


def test_each_picture_is_the_powers_own(game):
    service, _, positions, tmp_path = game
    whole = picture_in(notice_mail(tmp_path, "gm@dip.test", f"{GAME}: Spring 1901 Movement results"))
    assert whole == picture_of_phase(service, GAME, "S1901M")
    for power in ("FRANCE", "RUSSIA"):
        png = picture_in(notice_mail(tmp_path, f"{power.lower()}@dip.test", f"{GAME}: Spring 1901 Movement results"))
        assert png == picture_of_phase(service, GAME, "S1901M", powers=frozenset({power})) != whole
        svg = picture_of_phase(service, GAME, "S1901M", powers=frozenset({power}), svg=True)
        texts = {t.text for t in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")}
        hidden = unseen(positions["S1901M"], positions["F1901M"], {power})
        assert {p.upper() for p in hidden} & texts == set()
        assert {p.upper() for p in set(STANDARD.board.provinces) - hidden} <= texts
        assert mentions("\n".join(texts), hidden) == []


def test_history_list_and_summary_are_cut_until_the_end(game):
    service, port, positions, tmp_path = game
    hidden = unseen(positions["S1901M"], positions["F1901M"], {"FRANCE"}) | unseen(
        positions["F1901M"], positions["W1901A"], {"FRANCE"})
    seen_by_france = reply(tmp_path, send(port, "france@dip.test", f"signon F{GAME} france-pw\nhistory {GAME}"))
    assert "A MUN - RUH" in seen_by_france and "A PAR - BUR" in seen_by_france
    assert mentions(seen_by_france.split(f"history {GAME}", 1)[1], hidden) == []
    assert "A VEN - TYR" not in seen_by_france
    master = reply(tmp_path, send(port, "gm@dip.test", f"signon M{GAME} gm-pw\nhistory {GAME}"))
    assert "A VEN - TYR" in master and "A TYR - MUN" in master
    listed = reply(tmp_path, send(port, "france@dip.test", f"signon F{GAME} france-pw\nlist {GAME}\nsummary {GAME}"))
    assert re.search(r"France\s.*active\s+4 centres", listed) and re.search(r"Germany\s.*active\s+\? centres", listed)
    assert "FOG on" in " ".join(listed.split())
    listed = reply(tmp_path, send(port, "gm@dip.test", f"signon M{GAME} gm-pw\nlist {GAME}"))
    assert re.search(r"Germany\s.*active\s+4 centres", listed)
    # MAP draws the reader's own view, as its results mail; EXPORT waits for the end but for the master
    message_id = send(port, "france@dip.test", f"signon F{GAME} france-pw\nmap {GAME} S1901M\nexport {GAME}")
    refused = " ".join(reply(tmp_path, message_id).split())
    assert "played with fog of war: its whole record is revealed at the end" in refused
    png = attached_png(tmp_path, message_id)
    assert png == picture_of_phase(service, GAME, "S1901M", powers=frozenset({"FRANCE"}))
    message_id = send(port, "gm@dip.test", f"signon M{GAME} gm-pw\nmap {GAME} S1901M\nexport {GAME}")
    assert attached_png(tmp_path, message_id) == picture_of_phase(service, GAME, "S1901M")
    # the end: the whole record for everyone
    send(port, "gm@dip.test", f"signon M{GAME} gm-pw\nterminate")
    wait_until(lambda: service.status(GAME).status == "finished", what="the game to end")
    end_mail = notice_mail(tmp_path, "france@dip.test", f"{GAME} is over: ended by the game master")
    end = " ".join(text_of(end_mail).split())
    assert f"The fog of war is lifted: HISTORY {GAME} now shows every order" in end
    after = reply(tmp_path, send(port, "france@dip.test", f"signon F{GAME} france-pw\nhistory {GAME}"))
    assert "A VEN - TYR" in after and "A TYR - MUN" in after


def test_create_sets_fog_from_the_command_line(tmp_path):
    subprocess.run([str(JUDGE), "create", "blind", "--data", str(tmp_path / "var"), "--set", "fog=true"],
                   check=True, capture_output=True)
    assert GameService(tmp_path / "var").status("blind").settings["fog"] is True
