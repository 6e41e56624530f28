"""Grow each variant's province cells over the land mask and write judge/variants/<id>/cells.png.

    python -m judge.pictures.build_cells standard abstraction2

Run it after changing a variant's layout.json or its board; tests/test_pictures.py fails while a
cells file is stale.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..engine import load_variant
from .atlas import board_home, encode_cells, fingerprint, grow_from_mask, load_layout
from .projection import Frame


def build(variant_id: str) -> Path:
    variant = load_variant(variant_id)
    layout = load_layout(variant.id)
    grid = grow_from_mask(variant, layout, Frame.from_layout(layout))
    path = Path(__file__).resolve().parent.parent / "variants" / board_home(variant.id) / "cells.png"
    path.write_bytes(encode_cells(grid, fingerprint(variant, layout)))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+")
    for variant_id in parser.parse_args(argv).variants:
        print(build(variant_id))
    return 0


if __name__ == "__main__":
    sys.exit(main())
