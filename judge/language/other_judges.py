"""Commands players and masters bring from njudge and DPjudge, read as this judge's or refused.

Veterans type what they learnt elsewhere: `SET CENTERS 17`, `GET info`, `WHOIS bob`. The words
are data (grammar/other_judges.json, one row per command: how it is spelt there, and what it is
here), taken from njudge's public `index` and `master` help files and DPjudge's mail commands. A
row is one of three kinds:

- same: this judge has the command under that name; the line is read as written (a spacing the
  grammar does not take, `SET NO LIST`, is put in the row's first spelling);
- mapped: the command is this judge's under other words; the line is read as those words with
  the rest of the line after them, and the reply says so;
- refused: there is nothing like it here; the reply names the nearest command.

A line whose first words are in the vocabulary is a command line, never a greeting: its words
are matched with the spaces taken out (`SET NOPRESS` is `SET NO PRESS`), the longest spelling
first, and a spelling marked `alone` only when nothing follows it (`SET PRIVATE` alone is
njudge's unlisted game; `SET PRIVATE key` is this judge's join password).
"""
from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from importlib import resources

VOCABULARY = resources.files("judge.grammar") / "other_judges.json"   # grammar/ in the source tree


class Kind(enum.Enum):
    SAME = "same"
    MAPPED = "mapped"
    REFUSED = "refused"


@dataclass(frozen=True)
class Word:
    """One command of njudge's or DPjudge's, and what it is here."""
    said: tuple[str, ...]       # its spellings there, the first its name
    kind: Kind
    example: str                # a line as a veteran writes it (a test sends each)
    becomes: str = ""           # MAPPED: this judge's words for the spelling
    nearest: str = ""           # REFUSED: the nearest command here, in this judge's words
    alone: bool = False         # only when nothing follows the spelling
    source: str = "njudge"
    answer: str = ""            # words the reply to `example` holds (for the test)


@dataclass(frozen=True)
class Reading:
    """A line read by the vocabulary: the row, and the line as this judge reads it."""
    word: Word
    text: str

    @property
    def mapped(self) -> bool:
        return self.word.kind is Kind.MAPPED

    @property
    def refused(self) -> bool:
        return self.word.kind is Kind.REFUSED


def load() -> tuple[Word, ...]:
    rows = json.loads(VOCABULARY.read_text(encoding="utf-8"))
    return tuple(Word(tuple(r["said"]), Kind(r["kind"]), r["example"], r.get("becomes", ""), r.get("nearest", ""),
                      r.get("alone", False), r.get("from", "njudge"), r.get("answer", "")) for r in rows)


WORDS = load()


def _compact(text: str) -> str:
    return "".join(text.lower().split())


# every spelling without its spaces, the longest first: `SET NO MINOR PRESS` before `SET NO ...`
_SPELLINGS = sorted(((_compact(s), w) for w in WORDS for s in w.said), key=lambda p: -len(p[0]))
# the same, by their first letter: a line is looked up among those alone (every line of every mail is
# read here, and most are orders that start with none of them)
_BY_FIRST: dict[str, list[tuple[str, Word]]] = {}
for _spelling, _word in _SPELLINGS:
    _BY_FIRST.setdefault(_spelling[:1], []).append((_spelling, _word))


def _consumed(words: list[str], spelling: str) -> int | None:
    """How many of the line's first words spell `spelling` run together, or None."""
    joined = ""
    for n, word in enumerate(words, start=1):
        joined += word.lower()
        if joined == spelling:
            return n
        if not spelling.startswith(joined):
            return None
    return None


def read(line: str) -> Reading | None:
    """The line as the vocabulary reads it, or None when its first words are none of its commands
    (or are already this judge's own words, spelt its way)."""
    words = line.split()
    if not words:
        return None
    first = words[0].lower()
    for spelling, word in _BY_FIRST.get(first[:1], ()):
        if not spelling.startswith(first):
            continue
        n = _consumed(words, spelling)
        if n is None or (word.alone and n < len(words)):
            continue
        rest = words[n:]
        if word.kind is Kind.REFUSED:
            return Reading(word, line)
        ours = " ".join([word.becomes if word.kind is Kind.MAPPED else word.said[0], *rest])
        if word.kind is Kind.MAPPED and ours.lower().split() == [w.lower() for w in words]:
            return Reading(Word(word.said, Kind.SAME, word.example), ours)   # written this judge's way
        return Reading(word, ours)
    return None
