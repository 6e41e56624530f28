"""A safety net for players, by mail (issue 26): misorder warnings in the confirmation (the orders
still stand), and the digest of the standing orders that the results mail must repeat.

The warnings: one case of each kind from tests/data/player/misorders.json, checked against the
pure function (judge.engine.misorders) and in the reply; and not one warning on the Spring 1901
openings players play (tests/data/player/openings.tsv)."""
from __future__ import annotations

import json
import re
import shlex
import sqlite3
from datetime import datetime, timedelta
import hashlib
import itertools
from pathlib import Path

import icalendar
import pytest

from judge.engine.misorders import warnings
from judge.mail.outbound.courier import Courier

DATA = Path(__file__).parent / "data" / "player"
CASES = json.loads((DATA / "misorders.json").read_text())["cases"]
OPENINGS = [line.split("\t") for line in (DATA / "openings.tsv").read_text().splitlines()
            if line and not line.startswith("#")]


def signon(power: str) -> str:
    return f"signon {power[0]}alpha {power.lower()}-pw\n"


def standing_orders(body: str) -> list[str]:
    lines = body.splitlines()
    after = lines[lines.index("Orders standing now:") + 1:]
    return [line for line in itertools.takewhile(lambda line: line.startswith("  "), after)
            if not line.startswith("    ")]


def play_before(judge, before: dict[str, list[str]]) -> None:
    """Orders sent by mail, then the phase played by the master (nothing, if there are none)."""
    if not before:
        return
    for power, orders in before.items():
        judge.reply_to(f"{power.lower()}@dip.test", signon(power) + "\n".join(orders))
    judge.service.process("alpha")
    judge.clock.advance(minutes=11)      # the results read (judge.games.submissions.too_late)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_each_kind_of_misorder_is_warned_of_and_the_orders_stand(playing, case):
    play_before(playing, case.get("before", {}))
    power = case["power"]
    r = playing.reply_to(f"{power.lower()}@dip.test", signon(power) + "\n".join(case["orders"]))
    summary = " ".join(r.body.split("===", 2)[2].split())
    assert case["says"] in summary
    assert ("Warnings (your orders stand as given" in r.body) is case.get("warned", True)
    assert len(standing_orders(r.body)) == len(case["orders"])    # every order stands
    # the same warning from the pure function, on the typed orders the judge stored
    service = playing.service
    status = service.status("alpha")
    variant = service.variant(status.variant)
    with service._read("alpha") as gf:
        row = gf.current()
        found = warnings(variant, row.position, power, gf.orders(row.seq)[power])
    assert [(w.kind.value, list(w.args)) for w in found] == [(case["kind"], case["args"])]


def test_no_warning_on_the_openings_players_play(playing):
    by_power: dict[str, int] = {}
    for power, name, orders in OPENINGS:
        lines = [o.strip() for o in orders.split(";")]
        r = playing.reply_to(f"{power.lower()}@dip.test", signon(power) + "\n".join(lines))
        assert "ERROR" not in r.body and "cannot be carried out" not in r.body, (name, r.body)
        assert "Warnings" not in r.body, (power, name, r.body)
        by_power[power] = by_power.get(power, 0) + len(lines)
    assert sum(by_power.values()) >= 300 and len(by_power) == 7


# -- order digests ---------------------------------------------------------------------------------

DIGEST = re.compile(r"Digest of these orders: ([0-9a-f]{10})")


def digest_by_help(game: str, phase: str, power: str, short_orders: list[str]) -> str:
    """The digest as HELP DIGEST tells a player to compute it, with nothing of the judge's code."""
    text = "".join(f"{line}\n" for line in [game, phase, power, *sorted(short_orders)])
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def results_digests(sent, address: str) -> dict[str, str]:
    mail = next(s for s in sent if s.to == [address] and s.subject.endswith("results"))
    block = mail.body.split("Digests of the orders each power was played with")[1]
    return dict(re.findall(r"^  (\S+) +([0-9a-f]{10})\s*$", block, re.M))


@pytest.fixture
def with_notices(playing):
    playing.dispatch.courier = Courier(playing.service, playing.config)     # notices go out after each mail
    playing.send("gm@dip.test", "list")        # the start notices go out with it
    return playing


def test_the_results_repeat_the_digest_of_the_orders_confirmed(with_notices):
    judge = with_notices
    first = judge.reply_to("france@dip.test", signon("FRANCE") + "A Par - Bur\nA Mar - Spa\nF Bre - Mao")
    last = judge.reply_to("france@dip.test", signon("FRANCE") + "a mar s a par - bur")
    before, after = DIGEST.search(first.body).group(1), DIGEST.search(last.body).group(1)
    assert before != after           # a change of orders is a new digest
    assert after == digest_by_help("alpha", "S1901M", "FRANCE", ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"])
    sent = judge.send("gm@dip.test", "signon Malpha gm-secret\nprocess")
    for address in ("france@dip.test", "england@dip.test", "gm@dip.test"):
        digests = results_digests(sent, address)
        assert digests["France"] == after
        assert digests["England"] == digest_by_help("alpha", "S1901M", "ENGLAND", [])   # it sent none
        assert len(digests) == 7
    help_text = " ".join(judge.reply_to("france@dip.test", "help digest").body.split())
    assert "SHA-256" in help_text
    # HELP's worked example is these very orders: its sha256sum starts with the digest confirmed
    example = re.search(r"printf '%s\\n' (.*?) \| sha256sum", help_text).group(1).replace(" \\ ", " ")
    printed = "".join(line + "\n" for line in shlex.split(example))   # what printf '%s\n' prints
    assert hashlib.sha256(printed.encode()).hexdigest()[:10] == after


def test_orders_changed_behind_the_players_back_show_in_the_results(with_notices):
    judge = with_notices
    confirmed = judge.reply_to("france@dip.test", signon("FRANCE") + "A Par - Bur\nA Mar - Spa\nF Bre - Mao")
    digest = DIGEST.search(confirmed.body).group(1)
    game_file = judge.config.data_dir / "games" / "alpha.sqlite"
    with sqlite3.connect(game_file) as db:       # the keeper edits the stored order by hand
        changed = db.execute("UPDATE orders SET read = ? WHERE power = 'FRANCE' AND read LIKE '%\"par\"%'",
                             [json.dumps({"type": "Move", "unit": {"at": "par", "kind": "A"}, "to": "pic"})]).rowcount
    assert changed == 1
    sent = judge.send("gm@dip.test", "signon Malpha gm-secret\nprocess")
    assert results_digests(sent, "france@dip.test")["France"] != digest


# -- deadlines in the player's calendar ------------------------------------------------------------

def calendar_event(sent_mail):
    parts = [p for p in sent_mail.mail.iter_attachments() if p.get_content_type() == "text/calendar"]
    assert len(parts) == 1, sent_mail.subject
    cal = icalendar.Calendar.from_ical(parts[0].get_payload(decode=True))
    (event,) = cal.walk("VEVENT")
    return event


def test_the_start_a_moved_deadline_and_calendar_by_mail_carry_one_event(playing):
    judge = playing
    judge.dispatch.courier = Courier(judge.service, judge.config)
    sent = judge.send("gm@dip.test", "list")
    start = next(s for s in sent if s.to == ["france@dip.test"])
    first = calendar_event(start)
    deadline = judge.service.status("alpha").deadline["utc"]
    assert first.decoded("dtstart") == datetime.fromisoformat(deadline.replace("Z", "+00:00"))
    assert first.decoded("dtstart").utcoffset() == timedelta(0)          # in UTC ...
    assert "(UTC, the game's time zone)" in " ".join(str(first["description"]).split())   # ... the zone named
    judge.clock.advance(hours=1)
    moved = judge.send("gm@dip.test", "signon Malpha gm-secret\nextend 24")
    told = next(s for s in moved if s.to == ["france@dip.test"] and "deadline" in s.subject)
    second = calendar_event(told)
    assert str(second["uid"]) == str(first["uid"])
    assert int(second["sequence"]) > int(first["sequence"])
    assert second.decoded("dtstart") - first.decoded("dtstart") == timedelta(hours=24)
    asked = judge.reply_to("france@dip.test", "signon Falpha france-pw\ncalendar alpha")
    third = calendar_event(asked)
    assert str(third["uid"]) == str(first["uid"]) and third.decoded("dtstart") == second.decoded("dtstart")
    assert int(third["sequence"]) >= int(second["sequence"])
    help_text = " ".join(judge.reply_to("france@dip.test", "help deadlines").body.split())
    assert "CALENDAR game" in help_text


def test_help_says_what_the_warnings_are_and_that_the_orders_stand(playing):
    said = " ".join(playing.reply_to("france@dip.test", "help orders").body.split())
    assert "The orders stand as you gave them" in said and "HELP DIGEST" in said
