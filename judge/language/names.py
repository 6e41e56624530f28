"""Province and power names of one variant, read the way players write them.

A `NameIndex` is built once per variant and then only read (its small memo of
words already resolved is bounded and lives on the object, not in the module).
Names come from the variant data: ids, full names and aliases; the grammar never
spells a province. A word resolves to a province when it is an exact name, a
unique prefix of one (three letters or more), or one edit away from exactly one
name of five letters or more (then with a note saying how it was read).
"""
from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from ..engine import Variant

if TYPE_CHECKING:       # a type only: the games layer reads names without the parser (judge status)
    from lark import Token

_SEPARATORS = re.compile(r"[\s\-_]+")
_DROPPED = re.compile(r"[.'’`]")
MIN_PREFIX = 3
MIN_TYPO_NAME = 5
MIN_POWER_PREFIX = 4
# Older names of the standard map's powers, as the 1982 rulebook writes them ("Austria-Hungary:",
# "S Austro-Hungarian A Ser"); only for a variant that has a power with that id.
_OLD_NAMES = {"AUSTRIA": ("Austria-Hungary", "Austro-Hungarian", "Austria Hungary", "Austrohungarian")}
_MEMO_LIMIT = 4096


def name_key(text: str) -> str:
    """`St. Petersburg` and `st petersburg`, `Mid-Atlantic` and `mid atlantic` share a key."""
    return _SEPARATORS.sub(" ", _DROPPED.sub("", text.lower())).strip()


class Resolved(NamedTuple):
    """A word or phrase read as a province (`province`), or why it could not be.

    A NamedTuple, not a frozen dataclass: one is made for every place in every order, and
    a tuple is made in a third less time."""
    text: str
    province: str | None
    corrected: bool = False  # a one-edit typo was read as `province` ("Burgandy" as Burgundy)
    ambiguous: tuple[str, ...] = ()  # full names it could mean ("Nor")
    suggestions: tuple[str, ...] = ()  # nearest full names when nothing matched
    # Every province the words could name, `province` first: an abbreviation of another name too
    # ("Tyr": Tyrolia, and the Tyrrhenian Sea), or each meaning of an ambiguous one ("Liv"). Empty
    # when the words have one meaning. The board decides between them (judge.language.board_reading).
    candidates: tuple[str, ...] = ()

    def __str__(self) -> str:
        # A lark Token holding this is a str of str(value): the words as written, not the long repr.
        return self.text


def one_edit_apart(a: str, b: str) -> bool:
    """Exactly one insertion, deletion, substitution or transposition of neighbours."""
    la, lb = len(a), len(b)
    if abs(la - lb) > 1 or a == b:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if la > lb:
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1:]


class NameIndex:
    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.full_names = {pid: p.name for pid, p in variant.board.provinces.items()}
        exact: dict[str, str] = {}
        for pid, prov in variant.board.provinces.items():
            for spelling in (pid, prov.name, *prov.aliases):
                key = name_key(spelling)
                for k in (key, key.replace(" ", "")):
                    other = exact.setdefault(k, pid)
                    if other != pid:
                        raise ValueError(f"variant {variant.id}: name {spelling!r} means both {other} and {pid}")
        self.exact = exact
        # a province named exactly as written -> its token (judge.language.lexer fills it)
        self.place_tokens: dict[str, Token] = {}
        self.prefix_keys = sorted(exact)
        # Other provinces an exact name is also the start of ("tyr": Tyrolia, Tyrrhenian Sea): made
        # once here, so reading an exact name costs one lookup.
        self.also: dict[str, tuple[str, ...]] = {}
        for key, pid in exact.items():
            others = sorted({exact[k] for k in self._keys_with_prefix(key)} - {pid})
            if others:
                self.also[key] = (pid, *others)
        # Multi-word names by the start of their first word, for abbreviations written word by word:
        # "Norw. Sea", "W Med.", "Gulf of L.", "St. P." (each word the start of the name's word).
        self.abbreviations: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for key, pid in exact.items():
            words = tuple(key.split(" "))
            if len(words) > 1:
                for n in range(1, len(words[0]) + 1):
                    self.abbreviations.setdefault(words[0][:n], []).append((words, pid))
        # Longest multi-word names first tell the lexer how far to look ahead.
        self.phrase_lengths = sorted({k.count(" ") + 1 for k in exact if " " in k}, reverse=True)
        # First words of multi-word names: most words start none, and skip the phrase search.
        self.phrase_starts = frozenset(k.split(" ")[0] for k in exact if " " in k)
        powers: dict[str, str] = {}
        prefixes: dict[str, str] = {}
        for p in variant.powers:
            for spelling in (p.name, p.adjective, p.id, *_OLD_NAMES.get(p.id, ())):
                powers[name_key(spelling)] = p.id
            for spelling in (p.name, p.adjective, p.id, p.name[:3], p.letter, *_OLD_NAMES.get(p.id, ())):
                prefixes[name_key(spelling)] = p.id
        self.powers = powers  # words that name a power inside an order ("S Russian A War")
        # Power names of several words ("Austro-Hungarian"), by their first word, for the lexer.
        self.power_phrases = {k: pid for k, pid in powers.items() if " " in k}
        self.power_phrase_starts = frozenset(k.split(" ")[0] for k in self.power_phrases)
        # A power's name or adjective shortened with a stop ("Turk.", "Russ."): four letters or
        # more of exactly one power, tried only when the word names no province.
        starts: dict[str, set[str]] = {}
        for key, pid in powers.items():
            if " " not in key:
                for n in range(MIN_POWER_PREFIX, len(key)):
                    starts.setdefault(key[:n], set()).add(pid)
        self.power_starts = {k: next(iter(v)) for k, v in starts.items() if len(v) == 1 and k not in powers}
        self.power_prefixes = prefixes  # also "ENG:" and "E:" before an order
        self._memo: dict[str, Resolved] = {}

    # -- provinces -----------------------------------------------------------------------
    def phrase(self, words: tuple[str, ...]) -> str | None:
        """Exact reading of several words (`mid atlantic ocean`), or None."""
        return self.exact.get(" ".join(words)) or self.exact.get("".join(words))

    def word(self, word: str) -> Resolved:
        """Read one word as a province (exact, unique prefix, one-edit typo)."""
        hit = self._memo.get(word)
        if hit is None:
            hit = self._resolve(word)
            if len(self._memo) < _MEMO_LIMIT:
                self._memo[word] = hit
        return hit

    def _resolve(self, word: str) -> Resolved:
        key = name_key(word)
        pid = self.exact.get(key) or self.exact.get(key.replace(" ", ""))
        if pid:
            return Resolved(word, pid, candidates=self.also.get(key, ()))
        compact = key.replace(" ", "")
        if len(compact) >= MIN_PREFIX:
            found = sorted({self.exact[k] for k in self._keys_with_prefix(key)}
                           | {self.exact[k] for k in self._keys_with_prefix(compact)})
            if len(found) == 1:
                return Resolved(word, found[0])
            if len(found) > 1:
                return Resolved(word, None, ambiguous=tuple(self.full_names[p] for p in found),
                                candidates=tuple(found))
        elif compact:
            # Too short to be read as a prefix ("Bu"): name what it could have meant.
            found = sorted({self.exact[k] for k in self._keys_with_prefix(compact)})
            if 1 <= len(found) <= 6:
                return Resolved(word, None, ambiguous=tuple(self.full_names[p] for p in found))
        typo = {self.exact[k] for k in self.exact if len(k) >= MIN_TYPO_NAME and one_edit_apart(compact, k)}
        if len(typo) == 1:
            pid = typo.pop()
            return Resolved(word, pid, corrected=True)
        return Resolved(word, None, suggestions=self.nearest(compact))

    def _keys_with_prefix(self, prefix: str) -> list[str]:
        keys = self.prefix_keys
        i = bisect.bisect_left(keys, prefix)
        out = []
        while i < len(keys) and keys[i].startswith(prefix):
            out.append(keys[i])
            i += 1
        return out

    def nearest(self, text: str, n: int = 3) -> tuple[str, ...]:
        """Full names of the provinces whose spellings are nearest to `text`."""
        close = difflib.get_close_matches(text, list(self.exact), n=12, cutoff=0.5)
        names: list[str] = []
        for k in close:
            name = self.full_names[self.exact[k]]
            if name not in names:
                names.append(name)
        return tuple(names[:n])

    def name(self, province: str) -> str:
        return self.full_names[province]

    def abbreviated(self, words: list[str]) -> tuple[tuple[str, ...], int]:
        """Provinces whose multi-word name `words` (lower case, no stops) writes word by word in
        short ("norw sea", "w med", "gulf of l", "st p"), and how many words that took: the most
        words that make a name, two at least. ((), 0) when none."""
        found: tuple[str, ...] = ()
        used = 0
        for words_of_name, pid in self.abbreviations.get(words[0], ()):
            n = len(words_of_name)
            if n < 2 or n > len(words) or n < used:
                continue
            if all(words_of_name[k].startswith(words[k]) for k in range(1, n)):
                if n > used:
                    found, used = (pid,), n
                elif pid not in found:
                    found = (*found, pid)
        return found, used

    # -- powers ------------------------------------------------------------------------------
    def power(self, word: str) -> str | None:
        return self.powers.get(name_key(word))

    def power_start(self, word: str) -> str | None:
        """"Turk" for Turkey, "russ" for Russia: only once no province is named so."""
        return self.power_starts.get(name_key(word))

    def power_prefix(self, word: str) -> tuple[str | None, bool]:
        """(power id, read as a typo?) for a prefix like `ENG:`, `France:`, `Germnay:`."""
        key = name_key(word)
        hit = self.power_prefixes.get(key)
        if hit is not None:
            return hit, False
        typo = {p for k, p in self.power_prefixes.items() if len(k) >= MIN_TYPO_NAME and one_edit_apart(key, k)}
        return (typo.pop(), True) if len(typo) == 1 else (None, False)


def or_list(names: Iterable[str]) -> str:
    shown = list(names)
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
