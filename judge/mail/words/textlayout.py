"""Plain-text layout for mail: wrapped paragraphs, two aligned columns, and tables.

Mail clients show text in a fixed width of about 78 columns, so every helper here keeps lines
within `width` (77) where the words allow; a single word longer than that is never broken. A
paragraph never ends on a line of one word when the line above can give it a companion: a word
alone reads as a stray, not as the end of a sentence.
"""
from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from functools import lru_cache

WIDTH = 77


def wrap(text: str, indent: str = "", first: str | None = None, width: int = WIDTH) -> str:
    """A paragraph filled to `width`; `first` is the first line's indent (default: `indent`)."""
    return "\n".join(_filled(str(text), width, indent if first is None else first, indent))


def _filled(text: str, width: int, first: str = "", indent: str = "") -> list[str]:
    return list(_filled_once(text, width, first, indent))


# the same paragraphs come in every copy of a report (7 players' and the master's): filled once
@lru_cache(maxsize=4096)
def _filled_once(text: str, width: int, first: str, indent: str) -> tuple[str, ...]:
    lines = textwrap.wrap(" ".join(text.split()), width=width, initial_indent=first, subsequent_indent=indent,
                          break_long_words=False, break_on_hyphens=False)
    if len(lines) < 2 or " " in lines[-1][len(indent):]:
        return tuple(lines)
    above = first if len(lines) == 2 else indent
    kept, _, word = lines[-2][len(above):].rpartition(" ")
    if " " in kept and len(indent) + len(word) + 1 + len(lines[-1]) - len(indent) <= width:
        lines[-2:] = [above + kept, indent + word + " " + lines[-1][len(indent):]]   # two words end it
    return tuple(lines)


def columns(rows: Iterable[Sequence[str]], indent: int = 2, gap: int = 2, max_left: int = 44,
            width: int = WIDTH) -> str:
    """(left, right) pairs as two aligned columns. A left cell too wide for its column puts its
    right cell on the next line, and a long right cell wraps within its column."""
    rows = [(str(a), str(b)) for a, b in rows]
    if not rows:
        return ""
    left = max((len(a) for a, _ in rows if len(a) <= max_left), default=max_left)
    column = indent + left + gap
    lines = []
    for a, b in rows:
        right = _filled(b, max(width - column, 20)) or [""]
        if len(a) > left:
            lines.append(" " * indent + a)
            lines += [" " * column + r for r in right]
        else:
            lines.append((" " * indent + a.ljust(left) + " " * gap + right[0]).rstrip())
            lines += [" " * column + r for r in right[1:]]
    return "\n".join(lines)


def table(rows: Iterable[Sequence[object]], header: Sequence[str], indent: int = 2, gap: int = 2) -> str:
    """A table with a header and a rule; numbers are right-aligned, words left-aligned.
    (Rows first, so that a template writes `rows | table(["Power", "Centres"])`.)"""
    rows = [[("" if c is None else c) for c in r] for r in rows]
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    numeric = [all(isinstance(r[i], int) for r in rows) and bool(rows) for i in range(len(header))]

    def line(r: Sequence[str]) -> str:
        parts = [c.rjust(w) if num else c.ljust(w) for c, w, num in zip(r, widths, numeric, strict=True)]
        return (" " * indent + (" " * gap).join(parts)).rstrip()

    rule = (" " * indent + (" " * gap).join("-" * w for w in widths))
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


def listing(names: Iterable[str], none: str = "none") -> str:
    """Names joined for a sentence: "A", "A and B", "A, B and C"."""
    names = [str(n) for n in names]
    if not names:
        return none
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def fit(line: str, indent: str = "", more: str = "  ", width: int = WIDTH) -> str:
    """One line as it is (its alignment kept) when it fits in `width` after `indent`; else wrapped,
    the lines after the first indented by `more` as well."""
    line = str(line)
    if len(indent) + len(line) <= width:
        return indent + line
    return wrap(line, indent + more, indent, width)


FILTERS = {"fit": fit, "wrap": wrap, "columns": columns, "table": table, "listing": listing}
