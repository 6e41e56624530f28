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
        # When each guessed decision began to be guessed (a count): a cycle that reads the guess of
        # a decision begun before its own head rests on that outer guess, so it is not settled alone.
        self._since: dict[Key, int] = {}
        self._count = 0

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
        self._since[key] = since = self._count
        self._count += 1
        first = self._adjudicate(key, self)
        if len(self._cycle) == mark:
            # Nothing depended on a guess: the answer is certain. (Most decisions end here, so
            # `settle` is written out.)
            known = self._known.get(key)
            if known is None:
                del self._guessing[key]
                del self._since[key]
                self._known[key] = known = first
            return known
        if self._reads_outer_guess(mark, since):
            # Part of a larger cycle: the answer rests on the guess of a decision begun before this
            # one, which settles the cycle. (Reads of decisions begun after it are its own cycle's.)
            return self._in_larger_cycle(key, first)

        self._forget(mark)
        second = self._guess(key, True, since)
        if self._reads_outer_guess(mark, since):
            # With the other guess, the answer rests on a decision still being guessed further out.
            return self._in_larger_cycle(key, second)
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
        self._since.pop(key, None)
        self._known[key] = answer

    def settle_unasked(self, answers: Mapping[Key, bool]) -> None:
        """Fix the answers of decisions that depend on no other, before any is asked."""
        assert not self._guessing, "only before resolving"
        self._known.update(answers)

    def _guess(self, key: Key, guess: bool, since: int) -> bool:
        self._guessing[key] = guess
        self._since[key] = since         # begun when first guessed: still inside the same decisions
        return self._adjudicate(key, self)

    def _reads_outer_guess(self, mark: int, since: int) -> bool:
        """Whether the reads recorded since `mark` include the guess of a decision begun before the
        one begun at `since`: an answer found then holds only for that outer guess."""
        begun = self._since
        return any(begun.get(k, since) < since for k in self._cycle[mark:])

    def _in_larger_cycle(self, key: Key, answer: bool) -> bool:
        """Leave `key` guessed at `answer`, its reads recorded, for the outer decision to settle."""
        self._cycle.append(key)
        (self._known if key in self._known else self._guessing)[key] = answer
        return answer

    def _forget(self, mark: int) -> None:
        for key in self._cycle[mark:]:
            self._guessing.pop(key, None)
            self._since.pop(key, None)
            self._known.pop(key, None)
        del self._cycle[mark:]
