"""Kruijswijk's guess-and-check resolver, knowing nothing of armies or fleets.

Each decision is a yes/no question identified by a key (for movement: "does this
order succeed?"). The rule code supplies `adjudicate(key, resolver)`, which answers
the question by asking the resolver about other decisions. When answering a
decision depends on itself, the resolver guesses both answers: if both guesses
agree the answer is certain; otherwise the cycle is handed to the rule code's
`backup(cycle)`, which settles it (Szykman for convoy paradoxes, success for
circular movement) and returns.

See the DATC document, section 5.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


class Resolver(Generic[Key]):
    def __init__(
        self,
        adjudicate: Callable[[Key, Resolver[Key]], bool],
        backup: Callable[[Sequence[Key], Resolver[Key]], None],
    ) -> None:
        self._adjudicate = adjudicate
        self._backup = backup
        # A decision is unresolved, being guessed (in `_guessing`, with the guess) or resolved
        # (in `_known`, with its answer); never both.
        self._known: dict[Key, bool] = {}
        # Every decision settled so far and its answer (the same dict; read-only for the caller, who
        # settles with `settle`): read directly where a decision is asked often and most are settled.
        self.answers = self._known
        self._guessing: dict[Key, bool] = {}
        self._cycle: list[Key] = []  # decisions found to depend on a guess

    def resolve(self, key: Key) -> bool:
        known = self._known.get(key)
        if known is not None:
            return known
        guess = self._guessing.get(key)
        if guess is not None:
            # Every read of a guess is recorded (even a repeated one), so that whoever
            # read it knows its answer rests on the guess.
            self._cycle.append(key)
            return guess

        mark = len(self._cycle)
        self._guessing[key] = False
        first = self._adjudicate(key, self)
        if len(self._cycle) == mark:
            # Nothing depended on a guess: the answer is certain. (Most decisions end here, so
            # `settle` is written out.)
            known = self._known.get(key)
            if known is None:
                del self._guessing[key]
                self._known[key] = known = first
            return known
        if self._cycle[mark] != key:
            # Part of a larger cycle whose first member is still being guessed.
            self._cycle.append(key)
            (self._known if key in self._known else self._guessing)[key] = first
            return first

        self._forget(mark)
        second = self._guess(key, True)
        if first == second:
            self._forget(mark)
            self.settle(key, first)
            return first

        # Both guesses are consistent (or neither is): the rules decide.
        cycle = tuple(dict.fromkeys(self._cycle[mark:]))
        self._forget(mark)
        self._backup(cycle, self)
        return self.resolve(key)

    def settle(self, key: Key, answer: bool) -> None:
        """Fix a decision's answer (used by the backup rule, and internally)."""
        self._guessing.pop(key, None)
        self._known[key] = answer

    def settle_unasked(self, answers: Mapping[Key, bool]) -> None:
        """Fix the answers of decisions that depend on no other, before any is asked."""
        assert not self._guessing, "only before resolving"
        self._known.update(answers)

    def _guess(self, key: Key, guess: bool) -> bool:
        self._guessing[key] = guess
        return self._adjudicate(key, self)

    def _forget(self, mark: int) -> None:
        for key in self._cycle[mark:]:
            self._guessing.pop(key, None)
            self._known.pop(key, None)
        del self._cycle[mark:]
