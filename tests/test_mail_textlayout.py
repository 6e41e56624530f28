"""Plain-text layout for mail: columns, tables, wrapping and the centre table by year."""
from __future__ import annotations

from judge.engine import load_variant
from judge.games.answers import CentreCount
from judge.mail.words.notices import centre_tables, duration
from judge.mail.words.textlayout import columns, listing, table, wrap


def test_columns_align_and_move_a_long_left_cell_above_its_right_cell():
    text = columns([("Army Paris -> Burgundy", "moved"), ("A PAR H", "held"),
                    ("Fleet St Petersburg (south coast) -> Gulf of Bothnia and more words", "moved")], max_left=40)
    lines = text.splitlines()
    assert lines[0] == "  Army Paris -> Burgundy  moved"
    assert lines[1] == "  A PAR H                 held"
    assert lines[2].startswith("  Fleet St Petersburg") and lines[3] == " " * 26 + "moved"


def test_columns_wrap_a_long_right_cell_within_its_column():
    text = columns([("Army Warsaw -> Galicia", "bounced with the Austrian army from Vienna and the Turkish "
                                               "army from Rumania and more")])
    lines = text.splitlines()
    assert len(lines) > 1 and all(len(line) <= 77 for line in lines)
    assert all(line.startswith(" " * 26) for line in lines[1:])


def test_table_right_aligns_numbers_and_left_aligns_words():
    text = table([["Austria", 5, "builds 2"], ["France", 12, ""]], ["Power", "Centres", "Adjustment"])
    assert text.splitlines() == [
        "  Power    Centres  Adjustment",
        "  -------  -------  ----------",
        "  Austria        5  builds 2",
        "  France        12",
    ]


def test_wrap_and_listing():
    assert listing([]) == "none" and listing(["A"]) == "A" and listing(["A", "B", "C"]) == "A, B and C"
    text = wrap("word " * 40, indent="    ", first="  ")
    assert text.startswith("  word") and all(line.startswith("    ") for line in text.splitlines()[1:])
    assert all(len(line) <= 77 for line in text.splitlines())


def test_centre_tables_split_long_games_so_every_line_fits():
    standard = load_variant("standard")
    history = [CentreCount(phase=f"S{y}M", year=y, centres={p: (y - 1900) % 7 for p in standard.power_ids})
               for y in range(1901, 1931)]
    tables = centre_tables(standard, history)
    assert len(tables) > 1
    for t in tables:
        assert all(len(line) <= 77 for line in t.splitlines())
        assert len(t.splitlines()) == 2 + len(standard.power_ids)
    labels = [label for t in tables for label in t.splitlines()[0].split()[1:]]
    assert labels == ["Start", *[str(y) for y in range(1901, 1931)]]
    # a year's column is the ownership at the start of the next year
    first_rows = tables[0].splitlines()[2].split()
    assert first_rows[1:4] == ["1", "2", "3"]


def test_durations():
    assert duration(2 * 86400) == "2 days" and duration(3600 * 25 + 60) == "1 day 1 hour"
    assert duration(3 * 3600 + 600) == "3 hours 10 minutes" and duration(-5) == "passed"
    assert duration(30) == "less than a minute"
