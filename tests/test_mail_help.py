"""HELP and HELP <topic>: rendered from templates/reply_help.j2, every example order read by the
real parser, every example command by the real command grammar."""
from __future__ import annotations

import re

from judge.engine import load_variant
from judge.engine.calendar import PhaseKind
from judge.language.commands import CommandError, CommandReader
from judge.language.parse import OrderReader
from judge.mail.words.reports import Reports

TOPICS = ["orders", "commands", "press", "deadlines", "master"]
STANDARD = load_variant("standard")


def helps(topic):
    return Reports().render("reply_help.j2", topic=topic)


def examples(body: str) -> dict[str, list[str]]:
    """The order lines (indented four spaces) under each phase heading of HELP ORDERS."""
    out: dict[str, list[str]] = {}
    heading = None
    for line in body.splitlines():
        if line and not line.startswith(" "):
            heading = line.split()[0]
            out.setdefault(heading, [])
        elif line.startswith("    ") and not line.startswith("     ") and heading:
            out[heading].append(line.strip())
    return out


def test_overview_lists_every_topic_and_fits_a_mail_window():
    mail = helps(None)
    assert mail.subject == "Help"
    for topic in TOPICS:
        assert f"HELP {topic.upper()}" in mail.body
    for topic in [None, *TOPICS, "nonsense"]:
        for line in helps(topic).body.splitlines():
            assert len(line) < 78, (topic, line)


def test_topics_are_read_in_any_case_and_by_their_other_names():
    assert helps("ORDERS").body == helps("orders").body == helps("Builds").body
    assert helps("  Press ").subject == "Help: press"
    assert helps("wait").subject == "Help: deadlines"


def test_an_unknown_topic_is_answered_with_the_topics():
    mail = helps("tactics")
    assert mail.subject == "Help: tactics"
    assert 'There is no help on "tactics"' in mail.body and "HELP ORDERS" in mail.body


def test_every_example_order_is_read_by_the_parser_in_its_phase():
    reader = OrderReader(STANDARD)
    found = examples(helps("orders").body)
    phases = {"Movement": PhaseKind.MOVEMENT, "Retreats": PhaseKind.RETREAT, "Adjustments": PhaseKind.ADJUSTMENT}
    for heading, kind in phases.items():
        assert len(found[heading]) >= 4, heading
        for text in found[heading]:
            result = reader.parse(text, kind)
            assert result.ok and result.orders, (heading, text, result.errors)
    # every kind of order is shown
    shown = {type(p.order).__name__ for h, k in phases.items() for t in found[h] for p in reader.parse(t, k).orders}
    assert shown == {"Hold", "Move", "SupportHold", "SupportMove", "Convoy", "Retreat", "Disband", "Build", "Waive"}


def test_every_example_command_is_read_by_the_command_grammar():
    reader = CommandReader()
    read = 0
    for topic in ("commands", "master"):
        for line in helps(topic).body.splitlines():
            m = re.match(r"  ([A-Z][A-Z ?]+[A-Za-z\[\]/ ?]*?)\s{2,}\S", line)
            if not m:
                continue
            for variant in m.group(1).split(" / "):
                text = re.sub(r"\[([^\]]+)\]", r"\1", variant).strip()
                text = text.replace("Fgame", "Falpha").replace("?game", "?alpha")
                text = re.sub(r"\b(game|password|variant|phases|new|zone|when|hours|power|address|phase|from|to)\b",
                              lambda w: {"hours": "24", "from": "2026-03-01", "to": "2026-03-08",
                                         "when": "2026-03-08 12:00", "power": "FRANCE"}.get(w.group(1), "x"), text)
                assert not isinstance(reader.parse(text), CommandError), (topic, text, reader.parse(text))
                read += 1
    assert read >= 25  # every command line of both topics was found and read


def test_power_initials_are_the_variants():
    body = " ".join(helps(None).body.split())
    for power in STANDARD.powers:
        assert f"{power.letter} {power.name}" in body
