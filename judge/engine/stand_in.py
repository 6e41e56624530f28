"""The stand-in: orders for a power nobody plays, that hold the line (DPjudge's SMART_CD as the model).

A pure function of the position: no chance, no clock, the same orders for the same input (every choice
made over sorted values). It moves a unit only off a centre nobody can reach (or off no centre): into
an empty lost home centre, or an empty centre next door. It attacks no occupied province but a lost
home centre, and that only with more support than the unit holding it could possibly get. Every other
unit supports a threatened neighbour in place, or holds. A dislodged unit retreats toward home; builds
go to home centres (armies, but fleets where an army could never leave); removals are the engine's
civil-disorder choice (the farthest units, as the edition counts it). Each order is checked by the
engine itself, and one it would refuse becomes a hold (or disband, or waive).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from . import alternative_homes
from .adjustment import adjustment_due, buildable_sites
from .calendar import PhaseKind
from .geography import Location, UnitKind
from .homes import home_centres
from .orders import Build, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, UnitRef, Waive
from .phase import check_orders, orders_needed
from .position import DislodgedUnit, Position, Unit
from .removals import civil_disorder_removals
from .rules import DEFAULT, Rules
from .variant import Variant

_FAR = 10_000


def stand_in_orders(variant: Variant, position: Position, power: str, rules: Rules = DEFAULT) -> tuple[Order, ...]:
    """The stand-in's orders for `power` in the phase `position` is in (empty: nothing to decide)."""
    need = orders_needed(variant, position).get(power)
    if not need:
        return ()
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        orders = _movement(variant, position, power)
    elif kind is PhaseKind.RETREAT:
        orders = _retreats(variant, position, power, need.retreats)
    else:
        orders = _adjustments(variant, position, power, need.builds, need.removals, rules)
    return _checked(variant, position, power, orders, rules)


# -- movement ------------------------------------------------------------------------------------

def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.kind)


def _threats(variant: Variant, position: Position, power: str) -> dict[str, int]:
    """Province -> how many other powers' units could move into it this phase (convoys aside)."""
    board = variant.board
    count: dict[str, int] = {}
    for enemy in position.units:
        if enemy.power == power:
            continue
        for province in board.neighbours(enemy.location.province):
            if board.can_reach_province(enemy.kind, enemy.location, province):
                count[province] = count.get(province, 0) + 1
    return count


def _way_in(variant: Variant, unit: Unit, province: str) -> Location | None:
    """Where in `province` this unit may move (a fleet: the first coast it reaches), or None."""
    board = variant.board
    if unit.kind is UnitKind.ARMY:
        there = board.location(province)
        return there if board.can_move(UnitKind.ARMY, unit.location, there) and \
            board.can_stand(UnitKind.ARMY, there) else None
    if unit.kind is not UnitKind.FLEET:
        return None  # an army aboard a fleet stays where it is: landings are not the stand-in's to make
    reach = board.fleet_can_reach_province(unit.location, province)
    return min(reach, key=str) if reach else None


def _movement(variant: Variant, position: Position, power: str) -> list[Order]:
    board = variant.board
    mine = sorted(position.units_of(power), key=lambda u: str(u.location))
    threat = _threats(variant, position, power)
    owned = set(position.centres_of(power))

    def pinned(unit: Unit) -> bool:
        """The unit guards a centre of its power that another unit could walk into, or stands on a
        centre it takes for its power at the end of the year."""
        here = unit.location.province
        if here in owned:
            return threat.get(here, 0) > 0
        return board.province(here).supply_centre

    def free(moves: dict[str, Move], goal: str) -> list[Unit]:
        """The units that may go to `goal`: rather one off any centre of its own, and one nobody
        threatens where it stands."""
        out = [u for u in mine if u.location.province not in moves and u.location.province not in helping
               and not pinned(u) and _way_in(variant, u, goal) is not None]
        return sorted(out, key=lambda u: (u.location.province in owned, threat.get(u.location.province, 0) > 0,
                                          str(u.location)))

    home = home_centres(variant, position, power)
    lost_homes = sorted(h for h in home if position.owners.get(h) != power)
    other_centres = sorted(c for c in variant.supply_centres if c not in owned and c not in home)
    moves: dict[str, Move] = {}          # the moving unit's province -> its move
    helping: dict[str, SupportMove] = {}  # a supporting unit's province -> its support of a move
    # home first (it is where the power builds), empty and then held by another power; then the rest
    _take_empty(variant, position, lost_homes, moves, free)
    _retake_occupied_homes(variant, position, power, mine, lost_homes, moves, helping, free)
    _take_empty(variant, position, other_centres, moves, free)

    staying = [u for u in mine if u.location.province not in moves]
    backed: dict[str, int] = {}          # a staying unit's province -> supports given to it so far
    orders: list[Order] = list(moves.values())
    for unit in staying:
        if unit.location.province in helping:
            orders.append(helping[unit.location.province])
            continue
        choices = [t for t in staying if t is not unit and threat.get(t.location.province, 0) > 0
                   and board.can_reach_province(unit.kind, unit.location, t.location.province)]
        if not choices:
            orders.append(Hold(_ref(unit)))
            continue
        # the neighbour on a centre first, then the one least backed against the most attackers
        best = min(choices, key=lambda t: (not board.province(t.location.province).supply_centre,
                                           backed.get(t.location.province, 0) - threat[t.location.province],
                                           str(t.location)))
        backed[best.location.province] = backed.get(best.location.province, 0) + 1
        orders.append(SupportHold(_ref(unit), _ref(best)))
    return orders


def _move(variant: Variant, unit: Unit, goal: str) -> Move:
    to = _way_in(variant, unit, goal)
    assert to is not None
    return Move(_ref(unit), to)


def _take_empty(variant: Variant, position: Position, goals: Sequence[str], moves: dict[str, Move],
                free: Callable[[dict[str, Move], str], list[Unit]]) -> None:
    """A move into each of these centres that is empty and no other move goes to, by the first unit free."""
    for goal in goals:
        if position.unit_in(goal) is None and goal not in {m.to.province for m in moves.values()}:
            candidates = free(moves, goal)
            if candidates:
                moves[candidates[0].location.province] = _move(variant, candidates[0], goal)


def _retake_occupied_homes(variant: Variant, position: Position, power: str, mine: Sequence[Unit],
                           lost_homes: Sequence[str], moves: dict[str, Move], helping: dict[str, SupportMove],
                           free: Callable[[dict[str, Move], str], list[Unit]]) -> None:
    """Attacks on a lost home centre another power's unit holds, only with more support than it could
    possibly get (every other unit next to it counted as its supporter): the moves added to `moves`,
    the supports to `helping`."""
    board = variant.board
    for goal in lost_homes:
        holder = position.unit_in(goal)
        if holder is None or holder.power == power:
            continue
        attackers = free(moves, goal)
        if not attackers:
            continue
        attacker = attackers[0]
        helpers = [u for u in mine if u is not attacker and u.location.province not in moves
                   and u.location.province not in helping
                   and board.can_reach_province(u.kind, u.location, goal)]
        its_help = sum(1 for u in position.units if u.power != power and u is not holder
                       and board.can_reach_province(u.kind, u.location, goal))
        if len(helpers) <= its_help:
            continue
        move = _move(variant, attacker, goal)
        moves[attacker.location.province] = move
        for u in helpers:
            helping[u.location.province] = SupportMove(_ref(u), _ref(attacker), board.location(goal))


# -- retreats and adjustments ----------------------------------------------------------------------

def _retreats(variant: Variant, position: Position, power: str,
              dislodged: Sequence[DislodgedUnit]) -> list[Order]:
    board = variant.board
    toward_home = board.distances_from(home_centres(variant, position, power))
    owned = set(position.centres_of(power))
    taken: set[str] = set()              # two of its own units to one place would both be lost
    orders: list[Order] = []
    for d in sorted(dislodged, key=lambda d: str(d.unit.location)):
        options = [loc for loc in d.retreats if loc.province not in taken]
        if d.civil_disorder or not options:
            orders.append(Disband(_ref(d.unit)))
            continue
        best = min(options, key=lambda loc: (toward_home.get(loc.province, _FAR), loc.province not in owned,
                                             str(loc)))
        taken.add(best.province)
        orders.append(Retreat(_ref(d.unit), best))
    return orders


def _adjustments(variant: Variant, position: Position, power: str, builds: int, removals: int,
                 rules: Rules) -> list[Order]:
    if removals:
        return [Disband(_ref(u)) for u in civil_disorder_removals(variant, position, power, removals, rules)]
    if adjustment_due(variant, position, power) <= 0:
        return []
    orders: list[Order] = []
    sites = sorted(buildable_sites(variant, position, power))
    groups = alternative_homes.groups(variant, power, position.phase, sites)     # Zeus's California
    for site in alternative_homes.choose(groups, sites, builds):
        build = _build_at(variant, site)
        orders.append(build if build is not None else Waive())
    return orders


def _build_at(variant: Variant, site: str) -> Build | None:
    """An army where one can stand and go somewhere by land; else a fleet (an island's centre)."""
    board = variant.board
    there = board.location(site)
    army_fits = UnitKind.ARMY in variant.unit_kinds and board.can_stand(UnitKind.ARMY, there)
    coasts = sorted(board.fleet_locations(site), key=str) if UnitKind.FLEET in variant.unit_kinds else []
    if army_fits and (board.army_steps(site) or not coasts):
        return Build(UnitKind.ARMY, there)
    if coasts:
        return Build(UnitKind.FLEET, coasts[0])
    return None


# -- every order one the engine takes ---------------------------------------------------------------

def _instead(order: Order) -> Order | None:
    """What a refused order becomes: a hold, a disband, a waive (None: nothing, the engine's default)."""
    if isinstance(order, Retreat):
        return Disband(order.unit)
    if isinstance(order, Build):
        return Waive()
    if isinstance(order, Disband):
        return None
    if isinstance(order, (Hold, Move, SupportHold, SupportMove)):
        return Hold(order.unit)
    return None


def _checked(variant: Variant, position: Position, power: str, orders: list[Order],
             rules: Rules) -> tuple[Order, ...]:
    for _ in range(3):
        refused = {o.order for o in check_orders(variant, position, {power: orders}, rules) if o.power == power}
        if not refused:
            return tuple(orders)
        replaced = [o if o not in refused else _instead(o) for o in orders]
        orders = [o for o in replaced if o is not None]
    # still refused after falling back twice: give no orders at all, and the engine's defaults stand
    return ()
