"""Pictures of the board, drawn from the variant's own data (see docs/pictures.md).

    atlas = load_atlas(variant)                    # once per variant; read-only
    png = render_png(variant, position, turn.result, atlas=atlas)
    png = picture_of_phase(service, "alpha", "S1901M")   # for a results mail; None: pictures are off
    attach_png(message, png, "alpha-S1901M.png")
"""
from .atlas import Atlas, NoLayout, load_atlas
from .chart import centre_chart_png
from .games import (attach_png, centre_counts_by_year, end_of_game_chart, end_of_game_painter,
                    phase_painter, picture_of_phase)
from .render import build_scene, render_png, render_svg

__all__ = ["Atlas", "NoLayout", "load_atlas", "build_scene", "render_png", "render_svg", "picture_of_phase",
           "attach_png", "centre_chart_png", "centre_counts_by_year", "end_of_game_chart",
           "end_of_game_painter", "phase_painter"]
