"""sqlite-utils without numpy: it imports numpy (and pandas) at its own import when they are
installed, only to map their scalar types to column types, which the judge never stores. numpy is
here for the pictures, and cost every command line that opens a file (`judge status`, `judge
serve`) about 0.2 s of a 0.3 s start. `install` (run by judge/__init__.py, before any module imports
sqlite_utils) has that one optional import fail as if numpy were absent; the pictures, or anything
else, import numpy as before (tests/test_cli_start.py)."""
from __future__ import annotations

import sys
from collections.abc import Sequence
from types import FrameType, ModuleType

SKIPPED = frozenset({"numpy", "pandas"})   # what sqlite_utils.db imports only if it can
IMPORTER = "sqlite_utils.db"


class SkipOptionalImports:       # a meta path finder (importlib.abc.MetaPathFinder costs an import)
    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> None:
        if name in SKIPPED and _importer_is(IMPORTER):
            raise ModuleNotFoundError(f"{name} is not imported for {IMPORTER}", name=name)
        # every other import: None, for the usual finders


def _importer_is(module: str) -> bool:
    """Is `module` the one importing now? It is the nearest frame outside the import machinery."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__", "").startswith(("importlib", "_frozen_importlib")):
        frame = frame.f_back
    return frame is not None and frame.f_globals.get("__name__") == module


def install() -> None:
    if not any(isinstance(f, SkipOptionalImports) for f in sys.meta_path):
        sys.meta_path.insert(0, SkipOptionalImports())
