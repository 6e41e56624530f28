"""`python -m judge.variants.importer`: import DPjudge maps, or derive the absent-power setups.

    python -m judge.variants.importer MAP.map [--id ID] [--name NAME] [--maps DIR] [--out DIR]
    python -m judge.variants.importer --all DIR          # lint every .map in DIR, print a table
    python -m judge.variants.importer --derive france-austria [--out DIR]

Without --out the variant is checked and its report printed, nothing written. Exit status 1 when
the linter finds an error or the judge cannot load the result.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ...engine.variant import variant_from_data
from . import import_map
from .derive import SETUPS, base_data, derive

CATALOGUE = json.loads(Path(__file__).with_name("catalogue.json").read_text(encoding="utf-8"))


LICENCE = Path(__file__).with_name("DPJUDGE-LICENSE.md")


def _write(data: dict, out: Path) -> None:
    """OUT/<id>/variant.json, and beside it SOURCE.md: where the data came from, with DPjudge's
    MIT licence text, which must go with every copy of its map data."""
    folder = out / data["id"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "variant.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "SOURCE.md").write_text(
        f"# {data['name']}: where this data comes from\n\n{data['map_source']}\n\n"
        "Made by `python -m judge.variants.importer` (see judge/variants/importer/README.md); do not edit\n"
        "variant.json by hand: change the importer or its input and import again.\n\n"
        "## DPjudge's licence (MIT)\n\n" + LICENCE.read_text(encoding="utf-8"), encoding="utf-8")
    print(f"wrote {folder / 'variant.json'}")


def _one(path: Path, args) -> int:
    aliases = base_data(args.aliases_from) if args.aliases_from else None
    data, report, needs = import_map(path, id=args.id, name=args.name, description=args.description or "",
                                     search=tuple(args.maps), aliases_from=aliases,
                                     letters_from_names=getattr(args, "letters", None) == "names")
    failed = bool(report.errors)
    try:
        variant_from_data(data)
    except (ValueError, KeyError) as e:
        report.errors.append(f"the judge cannot load it: {e}")
        failed = True
    for label, items in (("error", report.errors), ("warning", report.warnings), ("needs", needs)):
        for item in items:
            print(f"{path.name}: {label}: {item}")
    if args.out and not failed:
        _write(data, Path(args.out))
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m judge.variants.importer", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("map", nargs="?", type=Path, help="a DPjudge .map file")
    ap.add_argument("--id"), ap.add_argument("--name"), ap.add_argument("--description")
    ap.add_argument("--maps", action="append", type=Path, default=[], help="more folders to find USEd files in")
    ap.add_argument("--aliases-from", help="take province aliases from this judge variant (e.g. standard)")
    ap.add_argument("--out", help="write OUT/<id>/variant.json")
    ap.add_argument("--all", type=Path, help="check every .map in this folder")
    ap.add_argument("--derive", choices=sorted(SETUPS), help="a standard-map setup with powers absent")
    ap.add_argument("--catalogue", type=Path, help="import every variant of catalogue.json from this folder of maps")
    args = ap.parse_args(argv)
    if args.catalogue:
        status = 0
        for entry in CATALOGUE["imported"]:
            status |= _one(args.catalogue / entry["map"], argparse.Namespace(**{
                **vars(args), "id": entry["id"], "name": entry["name"], "description": entry["description"],
                "aliases_from": entry.get("aliases_from"), "letters": entry.get("letters")}))
        for setup in sorted(SETUPS):
            data = derive(setup)
            variant_from_data(data)
            if args.out:
                _write(data, Path(args.out))
        return status
    if args.derive:
        data = derive(args.derive)
        variant_from_data(data)
        if args.out:
            _write(data, Path(args.out))
        else:
            print(json.dumps({k: v for k, v in data.items() if k not in ("provinces", "army_edges", "fleet_edges")}))
        return 0
    if args.all:
        status = 0
        for path in sorted(args.all.glob("*.map")):
            status |= _one(path, argparse.Namespace(**{**vars(args), "id": None, "out": None}))
        return status
    if args.map is None:
        ap.error("name a .map file, --all DIR or --derive SETUP")
    return _one(args.map, args)


if __name__ == "__main__":
    sys.exit(main())
