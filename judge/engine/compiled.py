"""The optional compiled engine: the engine's modules built by mypyc, used only when built for exactly these sources.

`bin/compile-engine` (or `bin/setup --compiled`) builds every module of judge/engine but this one and
`__init__.py` into `<sys.prefix>/judge-compiled-engine/<key>/`, `key` a hash of their sources, the
Python version and the extension ABI. When `judge.engine` is imported, `install` looks for the
directory of the current key: if every module's extension is there and mypyc's shared library loads,
an import finder serves the engine's modules from it; otherwise (nothing built, a source changed since,
another Python, a file missing or broken) nothing is installed and the pure modules are imported, as on a
machine that never built it. All or nothing: compiled modules call one another inside mypyc's shared
library, so a pure module beside compiled ones would be a second copy of its classes.

JUDGE_PURE_ENGINE=1 keeps the pure modules whatever is built; JUDGE_COMPILED_ENGINE names another
directory than `<sys.prefix>/judge-compiled-engine`.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType

# hashlib and importlib's helpers are imported only where a build directory exists: the everyday
# import of the engine pays for one stat here, nothing more

PACKAGE = "judge.engine"
GROUP = "judge_engine"  # mypyc's group: its shared library is `judge_engine__mypyc`
SHARED = f"{GROUP}__mypyc"
HERE = Path(__file__).resolve().parent
NOT_COMPILED = ("__init__", "compiled")  # this finder itself, and the package that installs it

ACTIVE = False  # the compiled modules are the ones imported (bench/engine_vs_rust.py prints it)


def modules(source: Path = HERE) -> list[str]:
    """The engine's modules the build compiles, by name."""
    return sorted(p.stem for p in source.glob("*.py") if p.stem not in NOT_COMPILED)


def key(source: Path = HERE) -> str:
    """What a build is good for: these sources, this Python, this ABI."""
    import hashlib
    from importlib.machinery import EXTENSION_SUFFIXES
    digest = hashlib.sha256()
    digest.update(f"{sys.version}|{EXTENSION_SUFFIXES[0]}".encode())
    for name in modules(source):
        digest.update(name.encode() + b"\0" + (source / f"{name}.py").read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def root() -> Path:
    return Path(os.environ.get("JUDGE_COMPILED_ENGINE") or Path(sys.prefix) / "judge-compiled-engine")


def extension(directory: Path, dotted: str) -> Path:
    """Where the build puts the extension of module `dotted` (`judge.engine.board`, `judge_engine__mypyc`)."""
    from importlib.machinery import EXTENSION_SUFFIXES
    *package, name = dotted.split(".")
    return directory.joinpath(*package, name + EXTENSION_SUFFIXES[0])


class CompiledFinder:  # (an import finder for sys.meta_path: find_spec is all it needs)
    """Serves the engine's modules (and mypyc's shared library) from one build directory."""

    def __init__(self, directory: Path, names: Sequence[str]) -> None:
        self.directory = directory
        self.served = {f"{PACKAGE}.{n}" for n in names} | {SHARED}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in self.served:
            return None
        from importlib.machinery import ExtensionFileLoader
        from importlib.util import spec_from_file_location
        location = extension(self.directory, fullname)
        return spec_from_file_location(fullname, location, loader=ExtensionFileLoader(fullname, str(location)))


def finder_for(directory: Path) -> CompiledFinder | None:
    """A finder serving the build in `directory`, if it holds every module and its shared library loads
    here; the library is then loaded (and kept in sys.modules), nothing else done."""
    names = modules()
    needed = [extension(directory, f"{PACKAGE}.{n}") for n in names] + [extension(directory, SHARED)]
    if not all(p.is_file() for p in needed):
        return None
    finder = CompiledFinder(directory, names)
    spec = finder.find_spec(SHARED)
    from importlib.util import module_from_spec
    try:  # loaded from its file, never from sys.modules: a build that does not load here is refused
        assert spec is not None and spec.loader is not None
        shared = module_from_spec(spec)
        spec.loader.exec_module(shared)
    except (ImportError, OSError):
        return None
    sys.modules[SHARED] = shared
    return finder


def install() -> bool:
    """Serve the compiled engine if a build for these sources is complete and loads; say whether."""
    global ACTIVE
    if os.environ.get("JUDGE_PURE_ENGINE") == "1" or not root().is_dir():
        return False  # (the everyday case: one stat, no source read)
    finder = finder_for(root() / key())
    if finder is None:
        return False
    sys.meta_path.insert(0, finder)
    ACTIVE = True
    return True


install()  # on `import judge.engine`, before any other module of it
