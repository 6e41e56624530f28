"""Adjustments: builds up to the centres a power has gained, removals down to its centres.

Orders count in the order given: the first legal ones are carried out (DATC 4.D.4-6).
A build not ordered is waived; a removal not ordered is made by the edition's
civil-disorder rule.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import alternative_homes, army_fleet, dummies, partisans
from .calendar import PhaseKind
from .geography import Location, UnitKind
from .homes import home_centres
from .orders import Build, Disband, Order, UnitRef, Waive
from .outcomes import Outcome, PhaseResult, Reason, Rejected, Why
from .position import Position, Unit
from .removals import civil_disorder_removals
from .rules import Rules
from .variant import Variant


def adjustment_due(variant: Variant, position: Position, power: str) -> int:
    """Positive: builds allowed; negative: removals owed."""
    if _mobilizing(variant, position):
        return 1 if not position.units_of(power) else 0
    return len(position.centres_of(power)) + len(partisans.active_sites(variant, position, power)) \
        - army_fleet.unit_count(position, power)


def build_sites(variant: Variant, power: str, position: Position) -> tuple[str, ...]:
    """Where this power may ever build now: its home centres, or (hook `build_any`: Chaos,
    Hundred) every centre it owns. Hook `remote_builds` (DPjudge's REMOTE_BUILDS: Aberration,
    Classical): every centre it owns, but only while it owns one of its home centres. Hook
    `home_builds` (DPjudge's HOME_BUILDS: Imperial): any centre it owns that is some power's home."""
    if "remote_builds" in variant.hooks:
        return tuple(sorted(position.centres_of(power))) if _holds_a_home(variant, power, position) else ()
    if "build_any" in variant.hooks:
        return tuple(sorted(position.centres_of(power)))
    if "home_builds" in variant.hooks:
        homes = {c for p in variant.power_ids for c in home_centres(variant, position, p)}
        return tuple(sorted(c for c in position.centres_of(power) if c in homes))
    return home_centres(variant, position, power)


def _holds_a_home(variant: Variant, power: str, position: Position) -> bool:
    return any(position.owners.get(c) == power for c in home_centres(variant, position, power))


def buildable_sites(variant: Variant, position: Position, power: str) -> tuple[str, ...]:
    """Centres where this power may build now: build sites it owns that are empty (and its partisan sites
    that count now, if empty: partisans.py)."""
    return tuple(c for c in build_sites(variant, power, position)
                 if position.owners.get(c) == power and position.unit_in(c) is None) \
        + tuple(c for c in partisans.active_sites(variant, position, power) if position.unit_in(c) is None)


def build_capacity(variant: Variant, position: Position, power: str) -> int:
    """How many units this power could build now, were its centres enough: one a free site, but
    never every site of an alternative home centre's group (DPjudge's `@X`: Zeus's California)."""
    sites = buildable_sites(variant, position, power)
    groups = alternative_homes.groups(variant, power, position.phase, sites)
    return len(alternative_homes.choose(groups, sites, len(sites))) if groups else len(sites)


def _mobilizing(variant: Variant, position: Position) -> bool:
    """Hook `mobilize` (DPjudge's MOBILIZE, 1898): the opening adjustment is one build in a home
    centre of the power's choice, which becomes the only centre it owns."""
    return "mobilize" in variant.hooks and position.phase == variant.calendar.first_phase \
        and position.phase.kind is PhaseKind.ADJUSTMENT


def _mobilized(variant: Variant, owners: dict[str, str], built: list[Unit]) -> dict[str, str]:
    """Each power keeps only the home centre it built in; one that built nothing keeps none."""
    chosen = {u.location.province for u in built}
    return {c: p for c, p in owners.items() if c in chosen or c not in variant.power(p).home_centres}


def adjudicate_adjustments(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                           rules: Rules) -> PhaseResult:
    outcomes: list[Outcome] = []
    units = list(position.units)
    for power in variant.power_ids:
        due = adjustment_due(variant, position, power)
        given = list(orders.get(power, ()))
        if due > 0:
            built, results = _builds(variant, position, power, due, given)
            units += built
        elif due < 0:
            removed, results = _removals(variant, position, power, -due, given, rules)
            units = _without(units, removed)
        else:
            results = [Outcome(power, o, False, Reason.ILLEGAL, Why.NO_ADJUSTMENTS)
                       for o in given]
        outcomes += results
    for power in orders:
        if power not in variant.power_ids:
            outcomes += [Outcome(power, o, False, Reason.ILLEGAL, Why.NO_SUCH_POWER, (power,))
                         for o in orders[power]]
    owners = dict(position.owners)
    if _mobilizing(variant, position):
        owners = _mobilized(variant, owners, [u for u in units if u not in position.units])
    after = Position(variant.calendar.next_phase(position.phase), tuple(units), owners, (), position.homes,
                     position.vassals)
    return PhaseResult(position.phase, tuple(outcomes), after)


def _not_a_site(variant: Variant, power: str, position: Position) -> Why:
    """Why a province is not one of this power's build sites, by the variant's build rule."""
    if "remote_builds" in variant.hooks:
        return Why.NOT_OWN_CENTRE if _holds_a_home(variant, power, position) else Why.NO_HOME_CENTRE_HELD
    if "build_any" in variant.hooks:
        return Why.NOT_OWN_CENTRE
    if "home_builds" in variant.hooks:
        return Why.NOT_OWNED_HOME_CENTRE
    return Why.NOT_HOME_CENTRE


def _builds(variant: Variant, position: Position, power: str, due: int,
            given: list[Order]) -> tuple[list[Unit], list[Outcome]]:
    board = variant.board
    built: list[Unit] = []
    used = 0
    outcomes: list[Outcome] = []
    for order in given:
        if isinstance(order, Waive):
            if used < due:
                used += 1
                outcomes.append(Outcome(power, order, True, Reason.WAIVED))
            else:
                outcomes.append(Outcome(power, order, False, Reason.NOT_NEEDED, Why.NO_BUILDS_TO_WAIVE))
            continue
        if not isinstance(order, Build):
            outcomes.append(Outcome(power, order, False, Reason.ILLEGAL, Why.BUILDS_NOT_REMOVALS))
            continue
        try:
            unit = _read_build(variant, position, power, order, built)
        except Rejected as r:
            outcomes.append(Outcome(power, order, False, Reason.ILLEGAL, r.why, r.about))
            continue
        if used >= due:
            outcomes.append(Outcome(power, order, False, Reason.NOT_NEEDED, Why.BUILD_LIMIT, (str(due),)))
            continue
        used += 1
        built.append(unit)
        hidden = alternative_homes.hidden_site(variant, power, position.phase, unit.location.province)
        outcomes.append(Outcome(power, order, True, Reason.BUILT, Why.BUILT_HIDDEN if hidden else None))
    free = buildable_sites(variant, position, power)
    sites = [c for c in free if c not in {u.location.province for u in built}]
    groups = alternative_homes.groups(variant, power, position.phase, free)
    if groups:      # what is left where no build may fill an alternative's group
        sites = list(alternative_homes.choose(groups, sites, len(sites), [u.location.province for u in built]))
    if not given and dummies.builds_by_rule(variant, power):     # hook cd_builds: a dummy builds
        for build in dummies.rule_builds(variant, sites, due):
            built.append(Unit(power, build.kind, build.location))
            outcomes.append(Outcome(power, build, True, Reason.BUILT, Why.BUILT_FOR_DUMMY, by_judge=True))
        return built, outcomes
    for _ in range(min(due - used, len(sites))):
        outcomes.append(Outcome(power, Waive(), True, Reason.WAIVED, Why.NO_BUILD_ORDERED, by_judge=True))
    del board
    return built, outcomes


def _read_build(variant: Variant, position: Position, power: str, order: Build,
                built: list[Unit]) -> Unit:
    board = variant.board
    loc = order.location
    if loc.province not in board.provinces:
        raise Rejected(Why.NO_SUCH_PROVINCE, loc.province)
    prov = board.province(loc.province)
    sites = build_sites(variant, power, position)
    partisan = partisans.active_sites(variant, position, power)
    if loc.province not in sites and loc.province not in partisan:
        # the sites too, so the words can say "your home centre" to one who has one
        raise Rejected(_not_a_site(variant, power, position), loc.province, *sorted(sites))
    if position.owners.get(loc.province) != power and loc.province not in partisan:
        raise Rejected(Why.NOT_OWNED, loc.province)
    # what could never stand there is said before "occupied": a fleet ordered for an inland centre
    # is told it has no coast, not that it must wait for the army there to leave
    if order.kind not in variant.unit_kinds or order.kind is UnitKind.ARMY_FLEET:
        raise Rejected(Why.CANNOT_BUILD_KIND, order.kind.value)
    if order.kind is UnitKind.ARMY and prov.is_sea:
        raise Rejected(Why.ARMY_AT_SEA)
    if order.kind is UnitKind.FLEET and prov.is_land:
        raise Rejected(Why.FLEET_BUILT_INLAND, loc.province)
    if position.unit_in(loc.province) is not None or any(u.location.province == loc.province for u in built):
        raise Rejected(Why.OCCUPIED, loc.province)
    free = buildable_sites(variant, position, power)
    full = alternative_homes.fills_a_group(alternative_homes.groups(variant, power, position.phase, free),
                                           [u.location.province for u in built], loc.province)
    if full is not None and full.sites == {full.alternative}:    # nothing free that it could stand in for
        raise Rejected(Why.ALTERNATIVE_WITHOUT_SITE, full.alternative)
    if full is not None:
        raise Rejected(Why.ALTERNATIVE_GROUP_FULL, full.alternative,
                       *sorted(full.sites - {full.alternative}))
    if order.kind is UnitKind.ARMY:
        return Unit(power, UnitKind.ARMY, loc.bare)
    if prov.coasts:
        if loc.coast is None:
            raise Rejected(Why.SAY_WHICH_COAST_TO_BUILD, loc.province, *(c.value for c in prov.coasts))
        if loc.coast not in prov.coasts:
            raise Rejected(Why.NO_SUCH_COAST, loc.province, loc.coast.value)
        return Unit(power, UnitKind.FLEET, loc)
    return Unit(power, UnitKind.FLEET, Location(loc.province))


def _removals(variant: Variant, position: Position, power: str, due: int, given: list[Order],
              rules: Rules) -> tuple[list[Unit], list[Outcome]]:
    board = variant.board
    removed: list[Unit] = []
    outcomes: list[Outcome] = []
    for order in given:
        if not isinstance(order, Disband):
            outcomes.append(Outcome(power, order, False, Reason.ILLEGAL, Why.REMOVALS_NOT_BUILDS))
            continue
        province = order.unit.location.province
        unit = position.unit_in(province) if province in board.provinces else None
        if unit is None or unit.power != power:
            outcomes.append(Outcome(power, order, False, Reason.ILLEGAL, Why.NO_UNIT_TO_REMOVE, (province,)))
            continue
        if unit in removed and (unit.kind is not UnitKind.ARMY_FLEET or removed.count(unit) > 1):
            outcomes.append(Outcome(power, order, False, Reason.NOT_NEEDED, Why.ALREADY_REMOVED))
            continue
        if len(removed) >= due:
            outcomes.append(Outcome(power, order, False, Reason.NOT_NEEDED, Why.REMOVAL_LIMIT, (str(due),)))
            continue
        removed.append(unit)
        outcomes.append(Outcome(power, order, True, Reason.DISBANDED))
    if len(removed) < due:
        remaining = position.with_(units=tuple(_without(list(position.units), removed)))
        for unit in civil_disorder_removals(variant, remaining, power, due - len(removed), rules):
            removed.append(unit)
            outcomes.append(Outcome(power, Disband(UnitRef(unit.location, unit.kind)), True, Reason.DISBANDED,
                                    Why.REMOVED_IN_DISORDER, by_judge=True))
    return removed, outcomes


def _without(units: list[Unit], removed: list[Unit]) -> list[Unit]:
    """The units left after these removals, in turn: removing an A/F removes its army (one unit) and
    leaves its fleet, which a second removal takes."""
    by_place = {u.location.province: u for u in units}
    for gone in removed:
        left = army_fleet.removal(by_place[gone.location.province])
        if left is None:
            del by_place[gone.location.province]
        else:
            by_place[gone.location.province] = left
    return list(by_place.values())
