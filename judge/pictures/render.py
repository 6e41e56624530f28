"""Pictures of a position: `render_png`, `render_svg`, and the scene both are drawn from."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..engine.geography import Terrain
from ..engine.outcomes import Outcome, PhaseResult, Reason
from ..engine.position import DislodgedUnit, Position
from ..engine.seasonal import shut_now
from ..engine.variant import Variant
from . import style
from .atlas import Atlas, load_atlas
from .background import paint_classes
from .legend import legend
from .legend import legend_height as legend_rows_height
from .overlay import Overlay
from .paint_png import paint_png
from .paint_svg import paint_svg
from .scene import Scene

Results = PhaseResult | Sequence[Outcome] | None


def _outcomes(results: Results) -> tuple[tuple[Outcome, ...], tuple[DislodgedUnit, ...]]:
    if results is None:
        return (), ()
    if isinstance(results, PhaseResult):
        return results.outcomes, results.dislodged
    return tuple(results), ()


def province_fills(variant: Variant, position: Position, colour: Mapping[str, style.Rgb],
                   hidden: frozenset[str] = frozenset()) -> dict[str, style.Rgb]:
    fills = {}
    shut = shut_now(variant, position.phase)   # a seasonal space shut now is drawn impassable
    for pid, province in variant.board.provinces.items():
        if pid in hidden:      # fog of war: nothing of it is known
            fills[pid] = style.FOG_SEA if province.is_sea else style.FOG_LAND
            continue
        if pid in shut:
            fills[pid] = style.IMPASSABLE
        elif province.is_sea:
            fills[pid] = style.SEA
        elif province.terrain is Terrain.IMPASSABLE:
            fills[pid] = style.IMPASSABLE
        elif pid in position.owners:
            fills[pid] = style.territory_tint(colour[position.owners[pid]])
        else:
            fills[pid] = style.LAND
        if variant.is_frozen(pid, position.phase):
            fills[pid] = style.FROZEN
    return fills


def build_scene(variant: Variant, position: Position, results: Results = None, *, width: int | None = None,
                atlas: Atlas | None = None, dislodged: Sequence[DislodgedUnit] = (), title: str | None = None,
                hidden: frozenset[str] = frozenset(), counted: frozenset[str] | None = None) -> Scene:
    """Everything on the picture; `atlas` (from `load_atlas`) saves reloading the variant's geometry.
    `dislodged`: the units the results dislodged, when `results` are bare outcomes. `title` heads the
    legend (default: the variant and the phase). Fog of war (judge.games.fog): `hidden` provinces are
    greyed out without their names, and the legend counts only the `counted` powers (None: all); the
    position and results given must already be cut to what the reader sees. `width`: the board's own
    (its atlas's `picture_width`: 1200 px on all but the largest boards) unless given."""
    atlas = atlas or load_atlas(variant)
    width = width or atlas.picture_width
    if width < 300:
        raise ValueError(f"a board picture needs at least 300 pixels of width, not {width}")
    if atlas.variant_id != variant.id:
        raise ValueError(f"the atlas is for {atlas.variant_id}, not {variant.id}")
    outcomes, dislodged_now = _outcomes(results)
    dislodged_now = dislodged_now or tuple(dislodged)
    frozen = frozenset(p for p in variant.board.provinces if variant.is_frozen(p, position.phase))
    water = frozenset(p for p, prov in variant.board.provinces.items() if prov.is_sea)
    hatches = {p: style.FROZEN_HATCH for p in frozen}
    shut = shut_now(variant, position.phase)
    hatches.update({p: style.IMPASSABLE_HATCH for p, prov in variant.board.provinces.items()
                    if prov.terrain is Terrain.IMPASSABLE or p in shut})
    patterns = {p: (atlas.colours[owner], atlas.patterns[owner]) for p, owner in position.owners.items()
                if owner in atlas.patterns and p not in hidden}
    classes, ground, colours = paint_classes(atlas, width, province_fills(variant, position, atlas.colours, hidden),
                                             water, {p: h for p, h in hatches.items() if p not in hidden}, patterns)
    map_height = classes.shape[0]
    legend_height = legend_rows_height(variant, width)
    # (the map's red, green and blue made only when asked: the PNG painter makes its board from the classes)
    scene = Scene(width, map_height + legend_height, map_height, None, style.PAPER, ground_colours=colours,
                  ground_classes=(classes, ground))

    overlay = Overlay(variant, atlas, position, width, hidden)
    overlay.passages()
    overlay.board()
    scene.board = len(overlay.shapes)     # the board layer, drawn once for every picture of this board
    overlay.units()
    overlay.dislodged(position.dislodged, offset=True)
    if not dislodged_now:  # results given as bare outcomes: mark the dislodged, their options unknown
        dislodged_now = tuple(DislodgedUnit(u, o.dislodged_from or "", ()) for o in outcomes
                              if o.reason is Reason.DISLODGED and (u := position.unit_in(
                                  o.order.unit.location.province)) is not None)
    overlay.dislodged(dislodged_now, offset=False)
    overlay.orders(outcomes)
    scene.add(*overlay.shapes)
    scene.add(*legend(variant, atlas.colours, position, title or title_of(variant, position), map_height, width,
                      frozen=bool(variant.frozen), with_orders=bool(outcomes), counted=counted, shut=bool(shut),
                      outcomes=outcomes, patterns=atlas.patterns))
    return scene


def title_of(variant: Variant, position: Position) -> str:
    return f"{variant.name}: {variant.calendar.name(position.phase)}"


def render_png(variant: Variant, position: Position, results: Results = None, *, width: int | None = None,
               atlas: Atlas | None = None, dislodged: Sequence[DislodgedUnit] = (), title: str | None = None,
               hidden: frozenset[str] = frozenset(), counted: frozenset[str] | None = None) -> bytes:
    """The board before the phase, with its orders and their outcomes when `results` is given."""
    return paint_png(build_scene(variant, position, results, width=width, atlas=atlas, dislodged=dislodged,
                                 title=title, hidden=hidden, counted=counted))


def render_svg(variant: Variant, position: Position, results: Results = None, *, width: int | None = None,
               atlas: Atlas | None = None, dislodged: Sequence[DislodgedUnit] = (), title: str | None = None,
               hidden: frozenset[str] = frozenset(), counted: frozenset[str] | None = None) -> str:
    title = title or title_of(variant, position)
    return paint_svg(build_scene(variant, position, results, width=width, atlas=atlas, dislodged=dislodged,
                                 title=title, hidden=hidden, counted=counted), title)
