"""A whole message body into typed commands and order blocks, in the order written.

A message is usually `SIGNON Fgame pw` and orders, or commands only. Orders need
the signed-on game's variant and phase, which only the games code knows, so the
caller passes `context`: called with the SignOn/Join the orders follow (or None
when there was none) it returns an `OrderContext` or None ("no game to order for").
PRESS/BROADCAST take the lines up to ENDPRESS as their body, DIARY RECORD those up to ENDDIARY.
SIGNOFF (or END) ends the message: lines after it are not read. Lines among the orders in which
nothing could be an order ("Hi judge,", "Thanks, Ann"; see judge.language.chatter)
are not read as orders: they are listed in `Message.ignored`, never as errors. A line
that starts with njudge's or DPjudge's words (judge.language.other_judges) is a command,
never such a line: read as this judge's command it is (`read_as`), or refused naming the
nearest. After njudge's `PHASE Fall 1901 Movement` the order lines, to the next PHASE or sign-on, are
read for that phase (its kind of orders, by name alone: the board they meet is the one it opens on)
and their block carries its code. Two neighbouring lines that fail alone but read as one order line are one line a
client hard-wrapped, and are read together (the order keeps the first line's number).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import Position
from ..engine.calendar import PhaseKind
from .board_reading import BoardView
from .chatter import is_chatter
from . import other_judges
from .clean import normalise_chars
from .commands import COMMAND_WORDS, Command, CommandError, CommandReader, Diary, Join, Press, SignOff, SignOn
from .commands import Phase as PhaseLine
from .later_phase import EXAMPLE, read_phase
from .parse import OrderError, OrderParse, OrderReader


@dataclass(frozen=True)
class OrderContext:
    reader: OrderReader
    phase_kind: PhaseKind
    power: str | None = None
    # The board the orders are for: names are read as the position allows ("A Liv" with the army in
    # Liverpool), and a bare unit in an adjustment phase is a build or a removal as the power's count says.
    position: Position | BoardView | None = None


@dataclass(frozen=True)
class CommandItem:
    line: int
    text: str
    command: Command
    read_as: str = ""   # an njudge or DPjudge command's line as this judge read it (judge.language.other_judges)


@dataclass(frozen=True)
class OrderBlock:
    first_line: int
    signon: SignOn | Join | None  # the sign-on these orders follow
    parse: OrderParse
    phase: str | None = None      # after a PHASE line: the later phase they are for (its code, `F1901M`)


@dataclass(frozen=True)
class IgnoredLine:
    """A line that plainly is no order (a greeting, a sign-off): not read, not an error."""
    line: int
    text: str


@dataclass(frozen=True)
class Message:
    items: tuple[CommandItem | OrderBlock | OrderError, ...]  # OrderError: a line not read (command or order)
    ignored: tuple[IgnoredLine, ...] = ()

    @property
    def commands(self) -> list[Command]:
        return [i.command for i in self.items if isinstance(i, CommandItem)]

    @property
    def errors(self) -> list[OrderError]:
        out: list[OrderError] = [i for i in self.items if isinstance(i, OrderError)]
        for block in self.items:
            if isinstance(block, OrderBlock):
                out.extend(block.parse.errors)
        return sorted(out, key=lambda e: e.line)


END_PRESS = {"endpress", "end press", "endbroadcast", "end broadcast", "endp"}
END_DIARY = END_PRESS | {"enddiary", "end diary"}     # njudge ends a diary entry as it ends press


def _first_word(line: str) -> str:
    words = line.split()
    return words[0].lower().rstrip(":") if words else ""


# The words this judge takes after SET that players write alone, as some judges had them ("WAIT ?",
# "DRAW"): a command, never a greeting, and never done on a guess: a draw vote is not cast by one
# bare word, nor anything done for a line ending in a question mark; refused with the line to
# write. WAIT alone is DPjudge's master's word (the game waiting): its row of the vocabulary
# (judge.language.other_judges) names both readings.
_SET_WORDS = {"wait": "SET WAIT (a player's; a master's PAUSE stops the clock, as DPjudge's WAIT did)",
              "nowait": "SET NOWAIT", "draw": "SET DRAW", "nodraw": "SET NODRAW"}
# Commands a question mark may follow: HELP ? is HELP; a press's header is followed by its body.
_ASKING_TAKEN = frozenset({"help", "?", "press", "p", "broadcast", "broad"})


def _refused_alone(line: str) -> OrderError | None:
    """A command line ending in a question mark ("WAIT ?", "RESIGN ?", "DRAW?"), or DRAW alone: refused,
    never done and never set aside as a greeting. A command asks nothing with a question mark, and
    doing the line without it could do what the player only asked about (RESIGN ?). None for any
    other line."""
    asking = line.endswith("?") and not line.startswith("?")
    words = (line[:-1] if asking else line).split()
    first = words[0].lower().rstrip(":") if words else ""
    if first in _SET_WORDS and len(words) == 1 and (asking or first != "wait"):
        return OrderError(0, line, f"{words[0].upper()} alone is no command here"
                                   + (", and a question mark asks nothing of the judge" if asking else "")
                                   + ": nothing was done",
                          f"{_SET_WORDS[first]}; every reply tells whether you wait and what you owe")
    if asking and first in COMMAND_WORDS and first not in _ASKING_TAKEN:
        return OrderError(0, line, f"a command here takes no question mark: nothing was done for {' '.join(words)}",
                          "the command without it, once sure (HELP COMMANDS and HELP MASTER say what each does)")
    return None


def _rejoin_wrapped(text: dict[int, str], reader: OrderReader, kind: PhaseKind) -> None:
    """Undo a hard wrap: Outlook's plain text (76 columns) and others break long lines. Two
    neighbouring lines that each fail but read cleanly as one line were one line: the first
    gets the joined text, the second is left blank."""
    for n in sorted(text):
        following = text.get(n + 1, "")
        if not text[n].strip() or not following.strip():
            continue
        if reader.parse(text[n], kind).errors and reader.parse(following, kind).errors:
            joined = text[n].rstrip() + " " + following.strip()
            whole = reader.parse(joined, kind)
            if whole.orders and not whole.errors:
                text[n], text[n + 1] = joined, ""


def parse_message(text: str, context: Callable[[SignOn | Join | None], OrderContext | None] | None = None,
                  *, commands: CommandReader | None = None) -> Message:
    """Read a cleaned body (see `clean_text`) into a `Message`. Never raises on bad input."""
    commands = commands or CommandReader()
    lines = normalise_chars(text).split("\n")
    items: list[CommandItem | OrderBlock | OrderError] = []
    ignored: list[IgnoredLine] = []
    signon: SignOn | Join | None = None
    block: list[int] = []  # line numbers of order lines waiting to be read
    later: PhaseLine | None = None   # the PHASE line the order lines now read follow

    def flush() -> None:
        if not block:
            return
        ctx = context(signon) if context is not None else None
        reader, kind = (ctx.reader, ctx.phase_kind) if ctx is not None else (None, None)
        code = None
        if ctx is not None and later is not None:
            try:
                target = read_phase(ctx.reader.variant.calendar, later.when)
            except ValueError as e:
                items.extend(OrderError(n, lines[n - 1].strip(), f"not used: the PHASE line before it names no phase"
                                        f" ({e})", EXAMPLE) for n in block if lines[n - 1].strip())
                block.clear()
                return
            kind, code = target.kind, ctx.reader.variant.calendar.code(target)
            ctx = dataclasses.replace(ctx, phase_kind=kind, position=None)   # the board then is not known now
        text = {n: lines[n - 1] for n in block}
        if reader is not None and kind is not None:
            _rejoin_wrapped(text, reader, kind)
        read = []
        for n in block:
            if not text[n].strip():
                continue  # the second half of a wrapped line, read with the first
            if is_chatter(text[n], reader, kind):
                ignored.append(IgnoredLine(n, text[n].strip()))
            else:
                read.append(n)
        block.clear()
        if not read:
            return
        first, last = read[0], read[-1]
        chunk = "\n".join(text[n] if n in read else "" for n in range(first, last + 1))
        if ctx is None:
            # signed on, a game with nothing to order has not started or is over: signing on again
            # would not help, its summary says which
            why, fix = (("orders need a game: sign on first", "SIGNON Fgame password") if signon is None
                        else ("there is nothing to order in that game now: it has not started, or it is over",
                              f"SUMMARY {signon.game} shows where it stands"))
            items.extend(OrderError(n, text[n].strip(), why, fix) for n in read)
        else:
            items.append(OrderBlock(first, signon, ctx.reader.parse(chunk, ctx.phase_kind, power=ctx.power,
                                                                   first_line=first, position=ctx.position), code))

    i = 0
    while i < len(lines):
        number, line = i + 1, lines[i].strip()
        i += 1
        if not line:
            continue
        asked = _refused_alone(line)
        if asked is not None:
            flush()
            items.append(dataclasses.replace(asked, line=number))
            continue
        veteran = other_judges.read(line)    # a word of njudge's or DPjudge's is a command, never chatter
        if veteran is None and _first_word(line) not in COMMAND_WORDS:
            block.append(number)
            continue
        flush()
        if veteran is not None and veteran.refused:
            items.append(OrderError(number, line, f"not a command here; the nearest is {veteran.word.nearest}"))
            continue
        read_as = veteran.text if veteran is not None and veteran.mapped else ""
        result = commands.parse(veteran.text if veteran is not None else line)
        if isinstance(result, CommandError):
            problem = f"read as {read_as}: {result.problem}" if read_as else result.problem
            items.append(OrderError(number, line, problem, result.expected, result.suggestions))
            continue
        if isinstance(result, Press) or (isinstance(result, Diary) and result.action == "record"):
            ends, what = (END_PRESS, "press") if isinstance(result, Press) else (END_DIARY, "diary")
            body: list[str] = []
            while i < len(lines) and lines[i].strip().lower() not in ends:
                body.append(lines[i].rstrip())
                i += 1
            if i >= len(lines):
                items.append(OrderError(number, line, f"{what} without END{what.upper()}: nothing was "
                                        f"{'sent' if what == 'press' else 'kept'}",
                                        f"END{what.upper()} on a line of its own after the {what}"))
                continue
            i += 1  # the ENDPRESS line
            result = dataclasses.replace(result, body="\n".join(body).strip("\n"))
        items.append(CommandItem(number, line, result, read_as))
        if isinstance(result, (SignOn, Join)):
            signon, later = result, None
        if isinstance(result, PhaseLine):
            later = result
        if isinstance(result, SignOff):
            break
    flush()
    return Message(tuple(items), tuple(ignored))
