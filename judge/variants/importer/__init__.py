"""Import DPjudge `.map` files as the judge's variant.json, with a linter (see README.md here)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .convert import variant_data
from .lint import Report, lint
from .mapfile import MapData, MapError, read_map

__all__ = ["MapData", "MapError", "Report", "import_map", "lint", "read_map", "variant_data"]


def import_map(path: str | Path, *, id: str | None = None, name: str | None = None,
               description: str = "", search: tuple[Path, ...] = (),
               aliases_from: dict[str, Any] | None = None,
               letters_from_names: bool = False) -> tuple[dict[str, Any], Report, list[str]]:
    """(variant.json data, the linter's report, what the map needs beyond the judge's hooks).

    `aliases_from`: a judge variant's data whose province aliases replace DPjudge's for the
    provinces both share by id and name (the standard map's aliases were chosen for the reader).
    `letters_from_names`: sign-on letters from the powers' names, not DPjudge's (catalogue.json's
    `"letters": "names"`: Chaos)."""
    path = Path(path)
    data = read_map(path, search)
    vid = id or path.stem.lower()
    variant = variant_data(data, id=vid, name=name or path.stem.title(), description=description,
                           letters_from_names=letters_from_names)
    if aliases_from:
        known = {(p["id"], p["name"]): p.get("aliases", []) for p in aliases_from["provinces"]}
        for p in variant["provinces"]:
            if (p["id"], p["name"]) in known:
                p["aliases"] = list(known[(p["id"], p["name"])])
    return variant, lint(data, variant), list(data.needs)
