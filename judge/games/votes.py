"""Draw votes and concessions. A person votes once for every surviving power they play."""
from __future__ import annotations

from datetime import datetime

from . import processing
from .answers import NoticeKind
from .clock import iso
from .ending import Ending, draw_result, draw_survivors
from .gamefile import GameFile, PowerRow
from .model import DrawRule, GameError, GameStatus, PowerStatus, Refusal


def vote(gf: GameFile, account: str, kind: str, value: str, now: datetime, for_power: str | None = None) -> bool:
    """Record the vote (draw: no, yes, or yes:A,B under the named rule; concede: a power or '').
    True when it ended the game. `for_power`: a master's vote for the power it acts for (BECOME)."""
    if gf.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise GameError(why=Refusal.NOT_UNDER_WAY, game=gf.name, status=gf.status.value)
    powers = gf.powers()
    if for_power is not None and account not in gf.masters():
        raise GameError(why=Refusal.NOT_A_MASTER, game=gf.name, account=account)
    voters = (for_power,) if for_power is not None else gf.powers_of(account)
    mine = [p for p in voters if powers[p].status is not PowerStatus.ELIMINATED]
    if not mine:
        raise GameError(why=Refusal.NO_SURVIVING_POWER, game=gf.name, account=account)
    row = gf.phase_now()
    # who shares a draw (and so votes on it): as the game's edition counts survivors
    alive = [p for p in draw_survivors(row.position, gf.variant.power_ids, gf.rules) if not powers[p].neutral]
    if kind == "draw":
        _check_draw_vote(gf, value, alive)
    elif value and value not in alive:
        raise GameError(why=Refusal.NOT_A_SURVIVOR, game=gf.name, power=value)
    elif value and powers[value].account == account:
        raise GameError(why=Refusal.OWN_POWER)
    for p in mine:
        gf.db.table("votes").upsert({"power": p, "kind": kind, "value": value, "at": iso(now)}, pk=("power", "kind"))
    counts = {p: len(row.position.centres_of(p)) for p in gf.variant.power_ids}
    ending = None
    if kind == "draw":
        shared = draw_result(gf.votes("draw"), tuple(alive), gf.settings.draw_rule is DrawRule.NAMED)
        if shared:
            ending = Ending("draw", shared, counts, "centres")
    else:
        # the powers one person plays are one side: they need not concede to each other
        sides: dict[str | None, list[str]] = {}
        for p in alive:
            sides.setdefault(powers[p].account, []).append(p)
        votes = gf.votes("concede")
        for side in sides.values():
            others = [q for q in alive if q not in side]
            if others and all(votes.get(q) in side for q in others):
                ending = Ending("concession", tuple(side), counts, "centres")
    if ending:
        processing.finish(gf, ending, row.position, now, key=f"{row.seq}:{kind}")
    return ending is not None


def _check_draw_vote(gf: GameFile, value: str, alive: list[str]) -> None:
    if gf.settings.no_draw:
        raise GameError(f"{gf.name} allows no draw: it ends only when one power wins, or all concede to one")
    if value == "no":
        return
    named = gf.settings.draw_rule is DrawRule.NAMED
    if named != value.startswith("yes:"):
        raise GameError("this game's draws name the powers sharing them" if named
                        else "a draw here is shared by every survivor; vote just yes or no")
    unknown = set(value[4:].split(",")) - set(alive) if named else set()
    if unknown:
        raise GameError("only survivors can share a draw, not " + ", ".join(sorted(unknown)))


def _alive_sides(gf: GameFile) -> tuple[list[str], dict[str, PowerRow]]:
    powers = gf.powers()
    alive = [p for p in draw_survivors(gf.phase_now().position, gf.variant.power_ids, gf.rules)
             if not powers[p].neutral]
    return alive, powers


def concession_tally(gf: GameFile, to_power: str) -> tuple[int, int]:
    """(survivors conceding to `to_power`, survivors who must): those not on its player's side."""
    alive, powers = _alive_sides(gf)
    side = {p for p in alive if powers[p].account == powers[to_power].account}
    others = [p for p in alive if p not in side]
    votes = gf.votes("concede")
    return sum(1 for p in others if votes.get(p) == to_power), len(others)


def ask_to_concede(gf: GameFile, to_power: str, now: datetime) -> None:
    """Tell the players of the survivors not yet conceding to `to_power` that others have: they agree
    by conceding too. One notice per player and tally, so a repeated vote writes nothing new."""
    alive, powers = _alive_sides(gf)
    conceded, needed = concession_tally(gf, to_power)
    votes = gf.votes("concede")
    ask = sorted({a for p in alive if (a := powers[p].account) and votes.get(p) != to_power
                  and a != powers[to_power].account})
    seq = gf.phase_now().seq
    for account in ask:
        gf.notice(f"{seq}:concede:{to_power}:{conceded}", NoticeKind.CONCESSION, account,
                  {"power": to_power, "phase": gf.phase_now().phase, "conceded": conceded, "needed": needed}, now)
