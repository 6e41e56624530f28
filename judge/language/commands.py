"""The judge's commands as frozen values, read by grammar/commands.lark.

Meanings are the mail issue's; this module gives the syntax and the typed values.
Names of games, passwords and addresses are kept as written (letter case in a
password is the player's business); command words are read in any case.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from typing import Any, cast

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedInput

GRAMMAR = resources.files("judge.grammar") / "commands.lark"   # grammar/ in the source tree


@dataclass(frozen=True, slots=True)
class Register:
    details: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SignOn:
    """`SIGNON Fgame pw`: power initial + game name. `word` is the two as written: a power may also
    be named by the start of its name (`SIGNON Parisgame`), which only the judge, knowing its games,
    can tell from the game's name (judge.mail.screening.sign_on_names.read_signon); `power_letter` and `game`
    are the reading with a one-letter initial."""
    power_letter: str
    game: str
    password: str | None
    word: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Create:
    """`CREATE game password [variant] [setting value ...] [PRIVATE join-password]`: the words after
    the password as written (judge.mail.commands.game_setup tells a variant from a setting)."""
    game: str
    password: str | None = None
    variant: str | None = None
    settings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Join:
    """`JOIN game pw` or njudge's `SIGNON ?game pw`; `TAKE game power [pw]` (`take`) accepts an
    offered power and only that: it joins no game still forming."""
    game: str
    password: str | None = None
    preference: str | None = None
    join_password: str | None = None    # a private game's: `JOIN game pw [power] PRIVATE join-pw`
    take: bool = False


@dataclass(frozen=True, slots=True)
class Observe:
    game: str
    password: str | None = None


@dataclass(frozen=True, slots=True)
class ListGames:
    game: str | None = None


@dataclass(frozen=True, slots=True)
class History:
    game: str
    phases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Summary:
    game: str


@dataclass(frozen=True, slots=True)
class Map:
    """`MAP game [phase]`: a picture of the board, attached to the reply."""
    game: str
    phase: str | None = None


@dataclass(frozen=True, slots=True)
class Export:
    """`EXPORT game`: the game's whole record, a JSON attachment `judge adjudicate` replays."""
    game: str


@dataclass(frozen=True, slots=True)
class Calendar:
    """`CALENDAR game`: the game's next deadline, an .ics attachment for the player's calendar."""
    game: str


@dataclass(frozen=True, slots=True)
class SetJoinPassword:
    """The master's `SET JOIN PASSWORD x` (or `SET PRIVATE x`): a private game's join password; NONE clears it."""
    password: str | None


@dataclass(frozen=True, slots=True)
class Press:
    """PRESS [GREY] TO <powers> ... ENDPRESS; `recipients` as written (message.py fills `body`).
    njudge's fakes: `PRESS TO G FAKE BROADCAST`, `PRESS TO E FAKE TO EF`, `PRESS FAKE TO FRG` (a
    broadcast shown as to France, Russia and Germany): `fake`, and `fake_to` as written (none: a broadcast)."""
    recipients: tuple[str, ...]
    grey: bool = False
    broadcast: bool = False
    body: str = ""
    fake: bool = False
    fake_to: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Diary:
    """njudge's DIARY: `RECORD` (also DIARY alone) takes the lines up to ENDDIARY or ENDPRESS as the entry
    (message.py fills `body`); `LIST`; `READ n`; `DELETE n`."""
    action: str
    number: int | None = None
    body: str = ""


@dataclass(frozen=True, slots=True)
class SetWait:
    wait: bool


@dataclass(frozen=True, slots=True)
class SetDraw:
    draw: bool
    powers: tuple[str, ...] = ()  # a draw including these powers, if named


@dataclass(frozen=True, slots=True)
class SetAbsence:
    when: str  # the dates as written, read by the games code


@dataclass(frozen=True, slots=True)
class SetPassword:
    password: str


@dataclass(frozen=True, slots=True)
class SetAddress:
    address: str
    also: tuple[str, ...] = ()     # SET ADDRESS a,b: the others, each added once confirmed from it


@dataclass(frozen=True, slots=True)
class SetPreference:
    """njudge's `SET PREFERENCE E[FG]R...` (or names): the powers one would play, best first, as written."""
    ranking: str


@dataclass(frozen=True, slots=True)
class AddAddress:
    """`SET ADDRESS ALSO addr` (njudge's `I AM ALSO addr`): one more address for the account, added once
    a mail from it answers the code the judge mails there."""
    address: str


@dataclass(frozen=True, slots=True)
class ConfirmAddress:
    """`SET ADDRESS CONFIRM code`, from the address claimed: the code the judge mailed to it."""
    code: str


@dataclass(frozen=True, slots=True)
class NewReplyAddress:
    """SET NEWREPLY: the player's secret reply addresses are replaced by new ones."""


@dataclass(frozen=True, slots=True)
class SetTimezone:
    zone: str


@dataclass(frozen=True, slots=True)
class SetDeadline:
    when: str


@dataclass(frozen=True, slots=True)
class SetGame:
    """The master's SET <setting> <value> (judge.mail.commands.game_settings reads the value)."""
    setting: str     # the name as written, in capitals
    value: str | None


@dataclass(frozen=True, slots=True)
class Resign:
    game: str | None = None


@dataclass(frozen=True, slots=True)
class SignOff:
    pass


@dataclass(frozen=True, slots=True)
class Help:
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class BecomeMaster:
    password: str | None = None


@dataclass(frozen=True, slots=True)
class Process:
    phase: str | None = None


@dataclass(frozen=True, slots=True)
class ForceStart:
    """The master's FORCE START: start with the players there are; empty seats are neutral. `force`
    False: START, a full game held by MANUAL START started (njudge)."""
    force: bool = True


@dataclass(frozen=True, slots=True)
class Unstart:
    """The master's UNSTART (DPjudge): a game whose first phase is not played yet forms again, its
    players kept."""


@dataclass(frozen=True, slots=True)
class HandOver:
    """The master's SET MASTER account: the game handed to another master (the master's RESIGN
    steps down to a co-master)."""
    account: str


@dataclass(frozen=True, slots=True)
class Terminate:
    """The master's TERMINATE: the game ends now, with no winner."""


@dataclass(frozen=True, slots=True)
class Access:
    """The master's ALLOW (invite) or DENY (keep out) of accounts, for a private game."""
    allow: bool
    accounts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BecomePower:
    """A master's `BECOME power`: acts for the power (orders, an absence) in its player's place."""
    power: str


@dataclass(frozen=True, slots=True)
class Promote:
    """The master's PROMOTE (a co-master with the same rights) or DEMOTE (no longer one)."""
    who: str
    remove: bool = False


@dataclass(frozen=True, slots=True)
class ClearOrders:
    """CLEAR: the signed-on player's orders, or (the master) the named power's, taken back."""
    power: str | None = None


@dataclass(frozen=True, slots=True)
class Concede:
    """CONCEDE power: the game to that power, if every other survivor agrees; None takes it back."""
    power: str | None


@dataclass(frozen=True, slots=True)
class Unobserve:
    """UNOBSERVE [game [password]], or STOP OBSERVING: no more of the game's public news."""
    game: str | None = None
    password: str | None = None


@dataclass(frozen=True, slots=True)
class Whois:
    """WHOIS [account ...]: each account's record across this judge's games; none named: one's own."""
    accounts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Version:
    """VERSION: which judge this is, and its version."""


@dataclass(frozen=True, slots=True)
class Phase:
    """njudge's `PHASE Fall 1901 Movement` (or `PHASE F1901M`): the order lines after it, to the next
    PHASE or sign-on, are for that phase, kept until it opens (the words as written, read with the map)."""
    when: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """The master's REVEAL: an anonymous game's players shown to everyone."""


@dataclass(frozen=True, slots=True)
class Seek:
    """The master's `SEEK power`: offer a power still played to the standbys now; `SEEK power OFF` stops."""
    power: str
    stop: bool = False


@dataclass(frozen=True, slots=True)
class DecideTakeover:
    """The master's `APPROVE account` or `REJECT account`: a takeover held for approval."""
    account: str
    approve: bool


@dataclass(frozen=True, slots=True)
class Pause:
    pass


@dataclass(frozen=True, slots=True)
class Resume:
    pass


@dataclass(frozen=True, slots=True)
class Extend:
    by: str


@dataclass(frozen=True, slots=True)
class Eject:
    power: str


@dataclass(frozen=True, slots=True)
class Replace:
    power: str
    address: str | None = None


@dataclass(frozen=True, slots=True)
class Rollback:
    phase: str | None = None


@dataclass(frozen=True, slots=True)
class Preview:
    phase: str | None = None


@dataclass(frozen=True, slots=True)
class Exchange:
    """`EXCHANGE WITH Russia GIVE Bud Pec FOR War Mos` (Abstraction II): centres for centres, as written.

    The names are read against the game's map by the games side. Nothing to give and nothing to
    receive (`EXCHANGE WITH Russia CANCEL`) withdraws the offer."""
    partner: str
    give: tuple[str, ...]
    receive: tuple[str, ...]


Command = (Register | SignOn | Create | Join | Observe | ListGames | History | Summary | Press | SetWait
           | SetDraw | SetAbsence | SetPassword | SetAddress | AddAddress | ConfirmAddress | NewReplyAddress
           | SetPreference
           | SetTimezone | SetDeadline | SetGame
           | Resign | SignOff
           | Help | BecomeMaster | Process | Pause | Resume | Extend | Eject | Replace | Rollback | Preview
           | Exchange | ForceStart | Terminate | Access | Map | Export | Calendar | SetJoinPassword | BecomePower
           | Promote | ClearOrders | Concede | Unobserve | Reveal | Whois | Version | Seek | DecideTakeover | Phase
           | Unstart | HandOver | Diary)

# First words that make a line a command rather than an order.
COMMAND_WORDS = frozenset(
    "register signon sign login create join observe watch list games history hist summary sum press p "  # noqa: SIM905 - a word list reads best as words
    "broadcast broad set resign signoff end quit exit help ? become process proc pause resume unpause "
    "extend ext eject kick replace rollback roll preview prev exchange swap force terminate allow deny "
    "map export calendar ics whogame promote demote clear concede unobserve unwatch stop reveal whois version "
    "standby take seek approve reject phase start unstart diary".split())

# The word before a private game's join password in CREATE and JOIN.
JOIN_PASSWORD_WORDS = frozenset({"private", "key", "joinpassword", "join-password"})


GREY_WORDS = frozenset({"grey", "gray", "anon", "anonymous"})
_GIVE_WORDS = frozenset({"give", "gives", "giving", "offer", "offers"})
_FOR_WORDS = frozenset({"for", "receive", "receives", "receiving", "get", "take", "against"})
_CANCEL_WORDS = frozenset({"cancel", "none", "withdraw", "nothing", "off"})


# what the grammar hands each rule: its tokens (and, for `start` and `set`, the command built)
_Items = list[Any]


def _words(items: _Items) -> tuple[str, ...]:
    return tuple(str(i) for i in items)


def _opt(items: _Items, i: int) -> str | None:
    return str(items[i]) if len(items) > i else None


@v_args(inline=False)
class _Build(Transformer[Token, Command]):
    def start(self, c: _Items) -> Command:
        return cast(Command, c[0])

    def register(self, c: _Items) -> Command:
        return Register(_words(c))

    def signon(self, c: _Items) -> Command:
        who = str(c[0])
        if who.startswith("?"):
            return Join(who[1:], _opt(c, 1))
        if len(who) < 2:
            raise ValueError("SIGNON needs the power initial and the game name together, e.g. SIGNON Fgame")
        return SignOn(who[0].upper(), who[1:], _opt(c, 1), who)

    def create(self, c: _Items) -> Command:
        return Create(str(c[0]).lstrip("?"), _opt(c, 1), _opt(c, 2), _words(c[3:]))

    def join(self, c: _Items) -> Command:
        words = list(_words(c))
        key = None
        for i, word in enumerate(words[2:], start=2):
            if word.lower() in JOIN_PASSWORD_WORDS:
                if i + 1 >= len(words):
                    raise ValueError(f"{word.upper()} is followed by the game's join password")
                key = words[i + 1]
                del words[i:i + 2]
                break
        # the powers one would play, best first (`JOIN g pw E F G`, njudge's `E[FG]R`): read with the map
        return Join(words[0].lstrip("?"), _opt(words, 1), " ".join(words[2:]) or None, key)

    def observe(self, c: _Items) -> Command:
        return Observe(str(c[0]), _opt(c, 1))

    def list(self, c: _Items) -> Command:
        return ListGames(_opt(c, 0))

    def history(self, c: _Items) -> Command:
        return History(str(c[0]), _words(c[1:]))

    def summary(self, c: _Items) -> Command:
        return Summary(str(c[0]))

    def map(self, c: _Items) -> Command:
        return Map(str(c[0]), _opt(c, 1))

    def export(self, c: _Items) -> Command:
        return Export(str(c[0]))

    def calendar(self, c: _Items) -> Command:
        return Calendar(str(c[0]))

    def join_password(self, c: _Items) -> Command:
        word = str(c[-1])
        return SetJoinPassword(None if word.lower() in ("none", "off", "-") else word)

    def press(self, c: _Items) -> Command:
        words = list(_words(c))
        grey = bool(words) and words[0].lower() in GREY_WORDS
        if grey:
            words.pop(0)
        if any(w.lower() == "fake" for w in words):
            return _faked(words, grey)
        return Press(tuple(_after_to(words)), grey)

    def broadcast(self, c: _Items) -> Command:
        words = list(_words(c))
        grey = bool(words) and words[0].lower() in GREY_WORDS
        if grey:
            words.pop(0)
        if words and words[0].lower() == "fake":       # BROADCAST FAKE TO EF: to everyone, shown as to E and F
            return _faked(words, grey)
        if words:
            raise ValueError("BROADCAST goes to everybody; only GREY (or FAKE TO powers) may follow it")
        return Press((), grey, True)

    def diary(self, c: _Items) -> Command:
        words = [w.lower() for w in _words(c)]
        action = words[0] if words else "record"
        if action not in ("record", "list", "read", "delete") or len(words) > 2:
            raise ValueError("DIARY is followed by RECORD, LIST, READ number or DELETE number")
        if action in ("read", "delete"):
            if len(words) < 2 or not words[1].lstrip("#").isdecimal() or len(words[1].lstrip("#")) > 6:
                raise ValueError(f"DIARY {action.upper()} needs the entry's number (DIARY LIST shows them)")
            return Diary(action, int(words[1].lstrip("#")))
        if len(words) > 1:
            raise ValueError(f"DIARY {action.upper()} takes nothing after it")
        return Diary(action)

    def set(self, c: _Items) -> Command:
        return cast(Command, c[0])

    def wait(self, c: _Items) -> Command:
        return SetWait(True)

    def nowait(self, c: _Items) -> Command:
        return SetWait(False)

    def draw(self, c: _Items) -> Command:
        return SetDraw(True, _words(c))

    def nodraw(self, c: _Items) -> Command:
        return SetDraw(False)

    def absence(self, c: _Items) -> Command:
        return SetAbsence(_opt(c, 0) or "")

    def password(self, c: _Items) -> Command:
        return SetPassword(str(c[0]))

    def address(self, c: _Items) -> Command:
        return SetAddress(str(c[0]), _words(c[1:]))

    def preference(self, c: _Items) -> Command:
        return SetPreference(str(c[0]).strip())

    def address_also(self, c: _Items) -> Command:
        return AddAddress(str(c[0]))

    def address_confirm(self, c: _Items) -> Command:
        return ConfirmAddress(str(c[0]))

    def newreply(self, c: _Items) -> Command:
        return NewReplyAddress()

    def timezone(self, c: _Items) -> Command:
        return SetTimezone(str(c[0]))

    def deadline(self, c: _Items) -> Command:
        return SetDeadline(str(c[0]).strip())

    def game_setting(self, c: _Items) -> Command:
        return SetGame(str(c[0]).upper(), _opt(c, 1))

    def resign(self, c: _Items) -> Command:
        return Resign(_opt(c, 0))

    def signoff(self, c: _Items) -> Command:
        return SignOff()

    def help(self, c: _Items) -> Command:
        return Help(" ".join(_words(c)) or None)

    def become_master(self, c: _Items) -> Command:
        if str(c[0]).upper() == "MASTER":
            return BecomeMaster(_opt(c, 1))
        if len(c) > 1:
            raise ValueError("BECOME takes one power (BECOME France), or MASTER and your password")
        return BecomePower(str(c[0]))

    def promote(self, c: _Items) -> Command:
        return Promote(str(c[0]))

    def demote(self, c: _Items) -> Command:
        return Promote(str(c[0]), remove=True)

    def clear(self, c: _Items) -> Command:
        return ClearOrders(_opt(c, 0))

    def concede(self, c: _Items) -> Command:
        word = _opt(c, 0)
        if word is None:
            raise ValueError("CONCEDE to which power? CONCEDE France, or CONCEDE NONE to take a concession back")
        return Concede(None if word.lower() in _CANCEL_WORDS else word)

    def unobserve(self, c: _Items) -> Command:
        return Unobserve(_opt(c, 0), _opt(c, 1))

    def reveal(self, c: _Items) -> Command:
        return Reveal()

    def whois(self, c: _Items) -> Command:
        return Whois(_words(c))

    def version(self, c: _Items) -> Command:
        return Version()

    def phase(self, c: _Items) -> Command:
        return Phase(str(c[0]).strip())

    def process(self, c: _Items) -> Command:
        return Process(_opt(c, 0))

    def force_start(self, c: _Items) -> Command:
        return ForceStart()

    def start_game(self, c: _Items) -> Command:
        return ForceStart(force=False)

    def unstart(self, c: _Items) -> Command:
        return Unstart()

    def set_master(self, c: _Items) -> Command:
        return HandOver(str(c[0]))

    def terminate(self, c: _Items) -> Command:
        return Terminate()

    def allow(self, c: _Items) -> Command:
        return Access(True, _words(c))

    def deny(self, c: _Items) -> Command:
        return Access(False, _words(c))

    def pause(self, c: _Items) -> Command:
        return Pause()

    def resume(self, c: _Items) -> Command:
        return Resume()

    def extend(self, c: _Items) -> Command:
        return Extend(str(c[0]).strip())

    def eject(self, c: _Items) -> Command:
        return Eject(str(c[0]))

    def replace(self, c: _Items) -> Command:
        return Replace(str(c[0]), _opt(c, 1))

    def rollback(self, c: _Items) -> Command:
        return Rollback(_opt(c, 0))

    def preview(self, c: _Items) -> Command:
        return Preview(_opt(c, 0))

    def exchange(self, c: _Items) -> Command:
        return _exchange(list(_words(c)))

    def standby(self, c: _Items) -> Command:
        return SetGame("STANDBY", _opt(c, 0))

    def take(self, c: _Items) -> Command:
        return Join(str(c[0]), _opt(c, 2), str(c[1]), take=True)

    def seek(self, c: _Items) -> Command:
        stop = _opt(c, 1)
        if stop is not None and stop.lower() not in _CANCEL_WORDS:
            raise ValueError("SEEK takes one power (SEEK France), or the power and OFF to stop")
        return Seek(str(c[0]), stop is not None)

    def approve(self, c: _Items) -> Command:
        return DecideTakeover(str(c[0]), True)

    def reject(self, c: _Items) -> Command:
        return DecideTakeover(str(c[0]), False)


def _after_to(words: list[str]) -> list[str]:
    return words[1:] if words and words[0].lower() == "to" else words


def _faked(words: list[str], grey: bool) -> Press:
    """njudge's fakes: the true recipients before FAKE (none: a broadcast), the ones shown after it
    (`FAKE [PARTIAL] TO list`; none, or BROADCAST: a broadcast). `FAKE BROADCAST TO list` is a press
    to the list shown as a broadcast."""
    at = [w.lower() for w in words].index("fake")
    real, shown = _after_to(words[:at]), words[at + 1:]
    if shown and shown[0].lower() == "broadcast":
        rest = _after_to(shown[1:])
        if real and rest:
            raise ValueError("name the true recipients once: PRESS TO powers FAKE BROADCAST")
        return Press(tuple(real or rest), grey, not (real or rest), fake=True)
    if shown and shown[0].lower() == "partial":
        shown = shown[1:]
    return Press(tuple(real), grey, not real, fake=True, fake_to=tuple(_after_to(shown)))


def _exchange(words: list[str]) -> Exchange:
    """[WITH] power [GIVE] centres FOR centres, or centres FOR centres WITH power; `and` may join names."""
    low = [w.lower() for w in words]
    if "with" in low:
        i = low.index("with")
        if i + 1 >= len(words):
            raise ValueError("EXCHANGE WITH names the other power")
        partner = words[i + 1]
        del words[i:i + 2], low[i:i + 2]
    else:
        partner = words.pop(0)
        low.pop(0)
    kept = [(w, lw) for w, lw in zip(words, low, strict=True) if lw not in _GIVE_WORDS and lw not in ("and", "&")]
    if not kept or all(lw in _CANCEL_WORDS for _, lw in kept):
        return Exchange(partner, (), ())
    splits = [i for i, (_, lw) in enumerate(kept) if lw in _FOR_WORDS]
    if len(splits) != 1:
        raise ValueError("say what you give and what you receive: EXCHANGE WITH power GIVE centres FOR centres")
    give = tuple(w for w, _ in kept[:splits[0]])
    receive = tuple(w for w, _ in kept[splits[0] + 1:])
    if not give or not receive:
        raise ValueError("name centres on both sides: EXCHANGE WITH power GIVE centres FOR centres")
    return Exchange(partner, give, receive)


@dataclass(frozen=True, slots=True)
class CommandError:
    problem: str
    expected: str = ""
    suggestions: tuple[str, ...] = ()


USAGE = {
    "signon": "SIGNON Fgame password",
    "sign": "SIGNON Fgame password",
    "create": "CREATE game password [variant] [setting value ...]",
    "join": "JOIN game password [power] [PRIVATE join-password]",
    "map": "MAP game [phase]",
    "export": "EXPORT game",
    "calendar": "CALENDAR game",
    "ics": "CALENDAR game",
    "observe": "OBSERVE game",
    "history": "HISTORY game [phases]",
    "summary": "SUMMARY game",
    "set": "SET WAIT | NOWAIT | DRAW | NODRAW | ABSENCE dates | PASSWORD new | "
    "ADDRESS new | TIMEZONE zone | DEADLINE when | a game setting (HELP SETTINGS)",
    "eject": "EJECT power",
    "replace": "REPLACE power [address]",
    "extend": "EXTEND hours",
    "become": "BECOME MASTER, or (a master) BECOME power",
    "promote": "PROMOTE account",
    "demote": "DEMOTE account",
    "concede": "CONCEDE power",
    "press": "PRESS TO powers ... ENDPRESS",
    "diary": "DIARY RECORD (the entry, then ENDDIARY), DIARY LIST, DIARY READ number, DIARY DELETE number",
    "exchange": "EXCHANGE WITH power GIVE centres FOR centres (or: EXCHANGE WITH power CANCEL)",
    "take": "TAKE game power [password]",
    "seek": "SEEK power (or: SEEK power OFF)",
    "approve": "APPROVE account",
    "reject": "REJECT account",
}


# A player's SET word given with no value: how it is written (a game setting's own word goes to the
# master's SET, which says what its value is).
SET_USAGE = {
    "deadline": "SET DEADLINE when: 2026-12-05 23:30, Dec 5 or Sat Dec 5 23:30 (the master's)",
    "absence": "SET ABSENCE from to (HELP DEADLINES)",
    "password": "SET PASSWORD new",
    "address": "SET ADDRESS new",
    "timezone": "SET TIMEZONE zone, e.g. Europe/Berlin",
    "zone": "SET ZONE zone, e.g. Europe/Berlin (yours; the game's is SET GAMEZONE)",
}


class CommandReader:
    """Build once (the LALR tables are made here) and keep."""

    def __init__(self) -> None:
        self._lark = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                          transformer=_Build())

    def parse(self, line: str) -> Command | CommandError:
        try:
            # the Transformer given to Lark makes the tree a Command
            return cast(Command, self._lark.parse(line.strip()))
        except UnexpectedInput as e:
            # in the player's words, never the parser's: where the line stops making sense, and its form
            text = line.strip()
            first = text.split()[0] if text else ""
            usage = USAGE.get(first.lower(), "")
            column = getattr(e, "column", None)
            ended = getattr(getattr(e, "token", None), "type", "") == "$END"      # the line ran out
            rest = text[column - 1:].split() if not ended and isinstance(column, int) and 0 < column <= len(text) \
                else []
            words = text.split()
            if first.lower() == "set" and len(words) == 2 and not rest:     # SET DEADLINE, and no value
                word = words[1].upper()
                return CommandError(f"SET {word} needs a value",
                                    SET_USAGE.get(word.lower(), "HELP SETTINGS shows how each setting is written"))
            problem = (f"{first.upper()} was not understood from {rest[0]!r} on" if rest
                       else f"{first.upper()} needs more words")
            # the form once, as the fix: not again as a "did you mean" of the same words
            return CommandError(problem, usage or "HELP COMMANDS shows how each command is written")
        except (LarkError, ValueError) as e:
            cause = e.orig_exc if hasattr(e, "orig_exc") else e
            first = line.split()[0]
            # our own ValueErrors are written for the player; anything else is the parser's or Python's
            problem = str(cause) if isinstance(cause, ValueError) else f"{first.upper()} was not understood"
            return CommandError(problem, USAGE.get(first.lower(), ""))
