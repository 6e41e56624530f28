"""The map of the code in docs/architecture.md ("Where things are") stays true: every module under judge/ is named
in it, and every path it names exists. A module nobody mentions is one a newcomer cannot find."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def map_rows() -> list[tuple[str, str]]:
    """(path cell, description) of each row of the map's table."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## Where things are", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and not set(cells[0]) <= set("-") and cells[0] != "path":
            rows.append((cells[0], cells[1]))
    return rows


def named_paths() -> set[str]:
    """Every file or directory the map names. In a row, a bare name (`imap.py`) lives in the
    directory of the full path before it (`judge/mail/intake/smtp_server.py`), and so does one in the description
    (`judge/games/`: `service.py` is ...; `judge/mail/commands/handlers.py`: ... `master.py`)."""
    found: set[str] = set()
    for path_cell, what in map_rows():
        directory = ""
        for quoted in re.findall(r"`([^`]+)`", path_cell):
            name = quoted.split(" ")[0]
            if name.endswith("/") and "/" not in name.rstrip("/"):    # a top-level directory: `templates/`
                found.add(name)
            elif "/" in name.rstrip("/"):
                directory = name if name.endswith("/") else name.rsplit("/", 1)[0] + "/"
                found.add(name)
            else:
                found.add(directory + name)
        if directory:                      # a module named in the description, beside the row's
            for name in re.findall(r"`([a-z_0-9]+\.py)`", what):
                found.add(directory + name)
    return found


def test_every_module_is_on_the_map():
    named = named_paths()
    modules = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "judge").rglob("*.py")
                     if p.name != "__init__.py" and "__pycache__" not in p.parts
                     and not any(part.startswith(".") for part in p.parts))
    missing = [m for m in modules
               if m not in named and not any(m.startswith(n) and n.endswith("/") and n.count("/") > 2
                                             for n in named)]
    assert missing == [], f"modules the map in docs/architecture.md does not name: {missing}"


def test_every_path_on_the_map_exists():
    def exists(name: str) -> bool:
        if "<" in name or "{" in name:                  # a pattern: judge/variants/<id>/..., {a,b}/
            return True
        return (ROOT / name.rstrip("/")).exists()
    gone = sorted(n for n in named_paths() if not exists(n))
    assert gone == [], f"paths on the map in docs/architecture.md that are not in the tree: {gone}"
