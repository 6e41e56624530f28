"""Vassals: dummy powers a played power comes to control (DPjudge's VASSAL_DUMMIES: the Vassal map).

With the hook `vassal_dummies`, a dummy never loses its home centres. Where one power's forces (its
own units and its vassals') stand in every home centre of a dummy when centres change hands, the
dummy becomes that power's vassal instead: its centres stay its own, its units are ordered by that
power's player, and they count with that power's towards victory. It stays so until another power's
forces stand in all its home centres. A dummy is never the vassal of another dummy (a dummy's forces
taking all of another's homes set it free again), a vassal's units never take a centre from its
overlord or from a fellow vassal, and a vassal's centre that is its overlord's home goes back to the
overlord. A vassal's retreats, builds and removals are its overlord's player's to order too (the
games layer waits for them: judge.games.processing); where none come, a dislodged unit is disbanded,
removals are the rules', and the dummies, vassals or not, build by the judge (the variant's
`cd_builds`: DPjudge's rule brings CD_DUMMIES and CD_BUILDS with it).

Who controls whom is kept in the position (`Position.vassals`: vassal -> overlord), set once a year
where the centres change hands (`settle`, called by `ownership.update_ownership`).
"""
from __future__ import annotations

from collections.abc import Mapping

from .calendar import PhaseKind
from .homes import home_centres
from .orders import Build, Order
from .position import Position
from .variant import Variant

HOOK = "vassal_dummies"


def in_use(variant: Variant) -> bool:
    return HOOK in variant.hooks


def overlord(position: Position, power: str) -> str | None:
    """The power that controls this one, if it is a vassal."""
    return (position.vassals or {}).get(power)


def controller(position: Position, power: str) -> str:
    """Whose forces a unit of this power is: its overlord's if it is a vassal, else its own."""
    return overlord(position, power) or power


def vassals_of(position: Position, power: str) -> tuple[str, ...]:
    """The vassals this power controls, in order."""
    return tuple(v for v, o in (position.vassals or {}).items() if o == power)


def captures(position: Position, occupier: str, owner: str | None) -> bool:
    """Whether a unit of `occupier` standing in a centre `owner` owns takes it: not from itself, not
    from its own overlord or vassal, nor from a vassal of the same overlord."""
    if owner is None:
        return True
    if occupier == owner:
        return False
    lord = overlord(position, owner)
    if lord is not None:
        return occupier != lord and overlord(position, occupier) != lord
    return overlord(position, occupier) != owner


def settle(variant: Variant, position: Position, owners: Mapping[str, str]) -> Position:
    """The position after centres changed hands by `owners` (each centre to the unit standing in it,
    as `captures` allows): vassals made and freed, each dummy's homes given back to it, and each
    overlord's homes that a vassal of its owned given back to the overlord."""
    after = dict(position.vassals or {})
    for dummy in sorted(variant.dummies):
        # whose forces took its homes (each home's owner now, or that owner's overlord), as the
        # vassals stood before: one side holding them all, and not the dummy itself, decides
        forces = {controller(position, owners[h]) for h in home_centres(variant, position, dummy) if h in owners}
        if len(forces) != 1:
            continue
        (force,) = forces
        if force == dummy:
            continue
        if force in variant.dummies:
            after.pop(dummy, None)      # freed by another dummy's forces: no dummy is a vassal of a dummy
        else:
            after[dummy] = force
    settled = dict(owners)
    for dummy in variant.dummies:
        for home in home_centres(variant, position, dummy):
            settled[home] = dummy
    for vassal, lord in after.items():
        for home in home_centres(variant, position, lord):
            if settled.get(home) == vassal:
                settled[home] = lord
    return position.with_(owners=settled, vassals=after)


def team_counts(position: Position, counts: Mapping[str, int]) -> dict[str, int]:
    """Each power's count for victory: its own with its vassals' added; a vassal's is none."""
    team = dict(counts)
    for vassal, lord in (position.vassals or {}).items():
        if vassal in team:
            team[lord] = team.get(lord, 0) + team[vassal]
            team[vassal] = 0
    return team


def carried_by(variant: Variant, position: Position, power: str, order: Order) -> str:
    """The power an order `power`'s player writes is for: the vassal whose unit it orders (the unit
    standing there, or in a retreat the one dislodged there; a removal's unit), or in whose home
    centre it builds; else `power` itself."""
    if not position.vassals:
        return power
    owner: str | None = None
    if isinstance(order, Build):
        owner = next((v for v in vassals_of(position, power)
                      if order.location.province in home_centres(variant, position, v)), None)
    elif (unit := getattr(order, "unit", None)) is not None:
        province = unit.location.province
        if position.phase.kind is PhaseKind.RETREAT:
            owner = next((d.unit.power for d in position.dislodged if d.unit.location.province == province), None)
        else:
            standing = position.unit_in(province)
            owner = standing.power if standing is not None else None
    return owner if owner is not None and overlord(position, owner) == power else power


def waive_for(position: Position, power: str, builds: Mapping[str, int]) -> str:
    """Whose build a WAIVE `power`'s player wrote without naming a power waives (`builds`: how many
    each power may make now): its own where it may build, else its one vassal's that may; with two
    or more such vassals its own still, and the line must name the vassal ("Belgium: Waive")."""
    if builds.get(power, 0) > 0:
        return power
    owed = [v for v in vassals_of(position, power) if builds.get(v, 0) > 0]
    return owed[0] if len(owed) == 1 else power
