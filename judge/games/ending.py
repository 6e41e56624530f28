"""How a game ends: a win, a draw of all survivors, a concession, or a turn or time limit.

The rulebooks: a Great Power with 18 centres (the variant's number) has won at once. A draw
is shared by the survivors, as each edition counts them (`draw_survivors`). At a limit agreed
beforehand the most centres win and tied players share (the 1982 short game counts pieces on
the board instead).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..engine import vassals
from ..engine.army_fleet import unit_count
from ..engine.position import Position
from ..engine.rules import DrawShare, Rules
from ..engine.variant import Variant
from .clock import parse_time
from .model import Settings
from .small import Setup


@dataclass(frozen=True)
class Ending:
    how: str                         # win, draw, concession, turn limit, time limit, last phase
    winners: tuple[str, ...]         # powers sharing the result
    counts: Mapping[str, int]        # centres (or units) per power at the end
    measure: str                     # "centres" or "units"
    drawn: bool = False              # at a limit: the winners share a draw (no one won by the count)

    def to_json(self) -> dict[str, Any]:
        out = {"how": self.how, "winners": list(self.winners), "counts": dict(self.counts), "measure": self.measure}
        return {**out, "drawn": True} if self.drawn else out


def survivors(position: Position, powers: tuple[str, ...]) -> tuple[str, ...]:
    """Powers still in the game: with a centre or a unit left."""
    return tuple(p for p in powers if position.centres_of(p) or position.units_of(p))


def draw_survivors(position: Position, powers: tuple[str, ...], rules: Rules) -> tuple[str, ...]:
    """The powers that share a draw of all survivors: 1982 and 2000, those with pieces on the board;
    the 5th edition, those with supply centres (see `DrawShare`)."""
    if rules.draw_share is DrawShare.PIECES_ON_BOARD:
        return tuple(p for p in powers if position.units_of(p))
    return tuple(p for p in powers if position.centres_of(p))


def _counts(position: Position, powers: tuple[str, ...], units: bool) -> dict[str, int]:
    return {p: unit_count(position, p) if units else len(position.centres_of(p)) for p in powers}


def _grouped(counts: Mapping[str, int], owner: Mapping[str, str | None], by_player: bool) -> dict[str, list[str]]:
    """Powers grouped by who is judged: each power alone, or all powers one person plays."""
    groups: dict[str, list[str]] = {}
    for power in counts:
        key = (owner.get(power) or f"power:{power}") if by_player else power
        groups.setdefault(key, []).append(power)
    return groups


def check_win(variant: Variant, position: Position, settings: Settings, setup_: Setup, rules: Rules,
              owner: Mapping[str, str | None]) -> Ending | None:
    target = settings.victory_centres or setup_.victory_centres or variant.victory_centres
    by_player = settings.victory_by_player or setup_.victory_by_player
    # 1982 World War I game: 24 units actually on the board.
    units = setup_.world_war and rules.count_units_for_victory
    counts = _counts(position, variant.power_ids, units)
    if vassals.in_use(variant):     # a power wins with its vassals' centres (DPjudge's TEAM_VICTORY)
        counts = vassals.team_counts(position, counts)
    groups = _grouped(counts, owner, by_player)
    totals = {k: sum(counts[p] for p in ps) for k, ps in groups.items()}
    reached = [k for k, t in totals.items() if t >= target]
    if not reached:
        return None
    best = max(totals[k] for k in reached)
    top = [k for k in reached if totals[k] == best]
    if len(top) > 1 and "win_by_count_only" in variant.hooks:
        return None  # DPjudge: one power wins, alone; two tied at the top with the count play on (1900's 18 of 39)
    winners = tuple(p for k in top for p in groups[k])
    return Ending("win", winners, counts, "units" if units else "centres")


def check_limits(variant: Variant, position: Position, settings: Settings, setup_: Setup, rules: Rules,
                 owner: Mapping[str, str | None], now: datetime, engine_over: bool) -> Ending | None:
    if settings.last_year is not None and position.phase.year > settings.last_year:
        how = "turn limit"
    elif settings.ends_at is not None and now >= parse_time(settings.ends_at):
        how = "time limit"
    elif engine_over:
        how = "last phase"
    else:
        return None
    # the 1982 short game, and a variant that says so at its last phase (Abstraction II): most units on the board
    units = rules.count_units_for_victory or (how == "last phase" and "victory_by_units_at_end" in variant.hooks)
    counts = _counts(position, variant.power_ids, units)
    if "win_by_count_only" in variant.hooks and how != "last phase":
        # DPjudge's variants know no short game: a win is the victory count (Chaos: 18 of 34) or
        # nothing, so a game stopped before anyone reaches it is a draw of the survivors.
        # (the dummies, which nobody plays, share nothing)
        survivors = tuple(p for p in draw_survivors(position, variant.power_ids, rules) if p not in variant.dummies)
        return Ending(how, survivors, counts, "units" if units else "centres", drawn=True)
    groups = _grouped(counts, owner, settings.victory_by_player or setup_.victory_by_player)
    totals = {k: sum(counts[p] for p in ps) for k, ps in groups.items()}
    best = max(totals.values())
    winners = tuple(p for k, ps in groups.items() if totals[k] == best for p in ps)
    return Ending(how, winners, counts, "units" if units else "centres")


def draw_result(votes: Mapping[str, str], voters: tuple[str, ...], named: bool) -> tuple[str, ...] | None:
    """The powers sharing a draw every surviving playing power has voted for, if there is one.

    Votes are "no", "yes" (all survivors share) or, under the named rule, "yes:A,B,C".
    """
    if not voters:
        return None
    chosen = {votes.get(p) for p in voters}
    if len(chosen) != 1:
        return None
    value = chosen.pop()
    if value == "yes" and not named:
        return voters
    if named and value and value.startswith("yes:"):
        return tuple(value[4:].split(","))
    return None
