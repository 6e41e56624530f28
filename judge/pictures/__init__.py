"""Pictures of the board, drawn from the variant's own data (see README "Pictures").

    atlas = load_atlas(variant)                    # once per variant; read-only
    png = render_png(variant, position, turn.result, atlas=atlas)
"""
from .atlas import Atlas, load_atlas
from .render import build_scene, render_png, render_svg

__all__ = ["Atlas", "load_atlas", "build_scene", "render_png", "render_svg"]
