"""Exchange of supply centres (Abstraction II, rule 6), for variants whose hooks include "centre_exchange".

Two powers exchange ownership of centres at the end of a move, an equal number each way. A power
cannot give a centre it still occupies with a unit. Each side sends `EXCHANGE` during the movement
phase; the exchange takes effect when both sides' latest offers to each other match. Offers are kept
as submissions (action "exchange") of the phase, so a message dispatched twice is applied once and
the history keeps them; a later offer to the same partner replaces the earlier one, and an empty one
withdraws it.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..engine.calendar import PhaseKind
from ..engine.position import Position
from ..engine.variant import Variant
from ..language.names import NameIndex, name_key, or_list
from .answers import ExchangeState, NoticeKind
from .gamefile import GameFile, PhaseRow
from .model import GameError, PowerStatus

HOOK = "centre_exchange"


@dataclass(frozen=True)
class Offer:
    power: str
    partner: str
    give: frozenset[str]
    receive: frozenset[str]
    seq: int  # submission id: the order offers were made in

    def matches(self, other: "Offer") -> bool:
        return (other.power, other.partner) == (self.partner, self.power) and \
            other.give == self.receive and other.receive == self.give and bool(self.give)


def offer(gf: GameFile, power: str, partner: str, give: Sequence[str], receive: Sequence[str],
          now: datetime, source: str | None) -> ExchangeState:
    """Record `power`'s offer to `partner` in the current phase and say where the exchange stands."""
    variant = gf.variant
    if HOOK not in variant.hooks:
        raise GameError(f"centres cannot be exchanged in {variant.name}")
    row = gf.phase_now()
    if row.position.phase.kind is not PhaseKind.MOVEMENT:
        raise GameError("centres are exchanged at the end of a move: send EXCHANGE during the next movement phase")
    names = NameIndex(variant)
    other = _partner(gf, names, power, partner)
    give_ids, receive_ids = _centres(names, give), _centres(names, receive)
    position = row.position
    if give_ids or receive_ids:
        _check(variant, position, power, other, give_ids, receive_ids, at_end=False)
    read = {"partner": other, "give": sorted(give_ids), "receive": sorted(receive_ids)}
    written = f"EXCHANGE WITH {partner} GIVE {' '.join(give)} FOR {' '.join(receive)}" if give_ids else \
        f"EXCHANGE WITH {partner} CANCEL"
    sid = gf.submission(row.seq, power, now, source, "exchange", written, read)
    result = standing(gf, power, other)
    _tell_partner(gf, sid, result, now)
    return result


def _tell_partner(gf: GameFile, submission: int, result: ExchangeState, now: datetime) -> None:
    """The partner hears of each offer (or its withdrawal) at once: an exchange needs both sides' orders."""
    account = gf.powers()[result.partner].account
    if account:
        gf.notice(f"exchange:{submission}", NoticeKind.EXCHANGE_OFFER, account,
                  {"phase": result.phase, "power": result.power, "partner": result.partner,
                   "give": list(result.give), "receive": list(result.receive), "status": result.status}, now)


def repeated(gf: GameFile, power: str, partner: str, source: str) -> ExchangeState:
    """A message handled before (dispatched again after a crash): where its exchange stands now."""
    row = next(gf.db["submissions"].rows_where("source = ? AND action = 'exchange'", [source], select="read"), None)
    other = json.loads(row["read"])["partner"] if row else NameIndex(gf.variant).power(partner) or partner.upper()
    return replace(standing(gf, power, other), repeated=True)


def standing(gf: GameFile, power: str, partner: str) -> ExchangeState:
    """Where `power`'s exchange with `partner` stands in the current phase."""
    row = gf.phase_now()
    offers = current_offers(gf, row)
    mine, theirs = offers.get((power, partner)), offers.get((partner, power))
    occupied = sorted(c for c in (mine.give if mine else ()) if _occupier(row.position, c) == power)
    status = "withdrawn" if mine is None else "agreed" if theirs is not None and mine.matches(theirs) else "offered"
    warning = (f"you occupy {or_list([gf.variant.board.province(c).name for c in occupied])}: "
               "the exchange happens only if your unit has left by the end of the move") if occupied else None
    return ExchangeState(
        status=status, game=gf.name, phase=row.phase, power=power, partner=partner,
        give=tuple(sorted(mine.give)) if mine else (), receive=tuple(sorted(mine.receive)) if mine else (),
        partner_offer={"give": sorted(theirs.give), "receive": sorted(theirs.receive)} if theirs else None,
        warning=warning)


def current_offers(gf: GameFile, row: PhaseRow) -> dict[tuple[str, str], Offer]:
    """(power, partner) -> the latest standing offer of the phase (withdrawn ones left out)."""
    latest: dict[tuple[str, str], Offer] = {}
    for r in gf.db["submissions"].rows_where("phase_seq = ? AND action = 'exchange'", [row.seq], order_by="id",
                                             select="id, power, read"):
        sid, power, data = r["id"], r["power"], json.loads(r["read"])
        latest[(power, data["partner"])] = Offer(power, data["partner"], frozenset(data["give"]),
                                                 frozenset(data["receive"]), sid)
    return {k: o for k, o in latest.items() if o.give}


def agreed(gf: GameFile, row: PhaseRow) -> list[tuple[Offer, Offer]]:
    """Pairs of matching offers, in the order the second of each pair was made."""
    offers = current_offers(gf, row)
    pairs = [(o, offers[(o.partner, o.power)]) for o in offers.values()
             if (o.partner, o.power) in offers and o.power < o.partner and o.matches(offers[(o.partner, o.power)])]
    return sorted(pairs, key=lambda p: max(p[0].seq, p[1].seq))


class Settlement:
    """The exchanges agreed for one move, applied to the position at its end (`apply`); `report` then
    says what happened, for the results notice."""

    def __init__(self, gf: GameFile, row: PhaseRow) -> None:
        self.variant = gf.variant
        on = HOOK in gf.variant.hooks and row.position.phase.kind is PhaseKind.MOVEMENT
        self.pairs = agreed(gf, row) if on else []
        self.report: list[dict[str, Any]] = []

    def apply(self, position: Position) -> Position:
        owners = dict(position.owners)
        for a, b in self.pairs:
            item = {"powers": [a.power, b.power], "gave": {a.power: sorted(a.give), b.power: sorted(b.give)}}
            try:
                _check(self.variant, position.with_(owners=owners), a.power, b.power, a.give, a.receive, at_end=True)
            except GameError as e:
                self.report.append({**item, "done": False, "reason": str(e)})
                continue
            owners.update({c: b.power for c in a.give})
            owners.update({c: a.power for c in b.give})
            self.report.append({**item, "done": True, "reason": ""})
        return position.with_(owners=owners)


def _partner(gf: GameFile, names: NameIndex, power: str, written: str) -> str:
    other = names.power(written) or names.power_prefix(written)[0]
    if other is None:
        raise GameError(f"'{written}' is not a power of {gf.variant.name}")
    if other == power:
        raise GameError("a power cannot exchange centres with itself")
    pr = gf.powers().get(other)
    if pr is None or pr.status is PowerStatus.ELIMINATED:
        raise GameError(f"{gf.variant.power(other).name} is not in the game")
    return other


def _centres(names: NameIndex, words: Sequence[str]) -> frozenset[str]:
    """Province ids for the names written; a name may take several words ("St Petersburg")."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):  # the longest run of words that is one name
            pid = names.exact.get(name_key(" ".join(words[i:j])))
            if pid is not None or j == i + 1:
                break
        if pid is None:
            res = names.word(words[i].lower())
            if res.province is None:
                hint = f"; did you mean {or_list(res.ambiguous or res.suggestions)}?" if (
                    res.ambiguous or res.suggestions) else ""
                raise GameError(f"no centre is called '{words[i]}'{hint}")
            pid = res.province
        if not names.variant.board.province(pid).supply_centre:
            raise GameError(f"{names.name(pid)} is not a supply centre")
        if pid in out:
            raise GameError(f"{names.name(pid)} is named twice")
        out.append(pid)
        i = j
    return frozenset(out)


def _occupier(position: Position, centre: str) -> str | None:
    unit = position.unit_in(centre)
    return unit.power if unit else None


def _check(variant: Variant, position: Position, power: str, partner: str, give: frozenset[str],
           receive: frozenset[str], *, at_end: bool) -> None:
    """Can this exchange be made? Occupation counts only at the end of the move (`at_end`): a unit
    on a centre when the offer is made may still leave it."""
    board = variant.board
    name: Callable[[str], str] = lambda c: board.province(c).name  # noqa: E731
    if not give or not receive or len(give) != len(receive):
        raise GameError(f"an exchange is an equal number of centres each way (you give {len(give)}, "
                        f"receive {len(receive)})")
    if give & receive:
        raise GameError(f"{or_list(sorted(name(c) for c in give & receive))} cannot be given and received")
    for who, centres in ((power, give), (partner, receive)):
        for c in sorted(centres):
            if position.owners.get(c) != who:
                raise GameError(f"{variant.power(who).name} does not own {name(c)}")
            if at_end and _occupier(position, c) == who:
                raise GameError(f"{variant.power(who).name} still occupies {name(c)} with a unit")
