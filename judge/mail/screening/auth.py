"""Who is writing, and what they may do: one `Session` per inbound message.

The sender's address names an account but proves nothing (From is easy to forge). A message is
authenticated by a password in it (SIGNON, JOIN, CREATE, OBSERVE, BECOME MASTER, REGISTER), every
one checked through the one guard (judge.mail.screening.password_guard), or by being delivered to the
player's secret reply address (judge.mail.screening.tokens) from one of the account's own addresses.

A token proves the player for its own game only: signing on to another game, joining, and
changing the password or address need the password (or the account's reply address, the one on
mail about no game in particular). A token in mail from an address the account does not have is
not taken as proof (an ally answering all, or a leaked address).

A right password from an address the account does not have is accepted, but the reply goes to
the account's own addresses only, saying that someone else may have sent it, and the game's
master is alerted. Wrong passwords are told to the account's owner (at most once an hour).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.variant import Variant
from ...games.answers import NoSuchGame
from ...games.model import GameError
from ...games.service import GameService
from ...games.store import check_game_name
from ..words.refusals import refusal_words
from .password_guard import FREE, PasswordGuard, Source
from .sign_on_names import MASTER_LETTER, power_signed, powers_signed, shortest_sign
from .tokens import ReplyToken


class Refused(Exception):
    """A command the sender may not give, or gave wrongly: the text says why and how to fix it."""

    def __init__(self, problem: str, fix: str = "") -> None:
        super().__init__(problem)
        self.problem, self.fix = problem, fix


@dataclass(frozen=True)
class Alert:
    """Something the game's master (or the judge keeper), or with `account` that account's owner,
    must hear about."""
    game: str | None
    text: str
    account: str | None = None


@dataclass
class Session:
    sender: str                          # where the reply goes
    sender_account: str | None           # the account owning that address: a claim, not a proof
    token: ReplyToken | None = None
    account: str | None = None           # authenticated in this message
    game: str | None = None              # the signed-on game
    powers: tuple[str, ...] = ()         # the powers `account` plays there
    as_master: bool = False
    copy_to: set[str] = field(default_factory=set)   # the account's own addresses, when not the sender's
    alerts: list[Alert] = field(default_factory=list)
    passwords: set[str] = field(default_factory=set)  # every password seen: never echoed
    source: Source | None = None
    proven: set[str] = field(default_factory=set)     # accounts proven everywhere (password, account token)
    foreign: bool = False         # signed on by password from an address that is not the account's
    token_refused: bool = False   # came to a reply address, but not from its owner's address
    token_stale: bool = False     # came to a reply address in the judge's form that is nobody's now
    acting: bool = False          # a master acting for `powers` in its player's place (BECOME power)

    @property
    def power(self) -> str | None:
        return self.powers[0] if len(self.powers) == 1 else None

    @property
    def account_signed_on(self) -> str:
        """`account`, for a command run after `require_player` or `require_master` (which refuse without one)."""
        if self.account is None:
            raise Refused("this needs a sign-on first",
                          "SIGNON Fgame password (F: your power's initial or the start of its name)")
        return self.account

    def proven_for(self, account: str, game: str | None) -> bool:
        """This message proved `account` for `game` (None: for the account as a whole)."""
        if account in self.proven:
            return True
        return (self.token is not None and not self.token_refused and self.token.account == account
                and game is not None and self.token.game == game)

    def recipients(self) -> list[str]:
        """Where the reply goes: the sender, or after a sign-on from a foreign address, only the
        account's own addresses (the sender may be someone who stole the password)."""
        if self.foreign:
            return sorted(self.copy_to)
        return [self.sender, *sorted(a for a in self.copy_to if a.lower() != self.sender.lower())]


def start_session(service: GameService, sender: str, token: ReplyToken | None, source: Source | None = None,
                  stale: bool = False) -> Session:
    owner = service.accounts.by_address(sender) if sender else None
    session = Session(sender, owner.name if owner else None, token, source=source or Source(sender.lower()),
                      token_stale=stale)
    if token is not None:
        holder = owner if owner is not None and owner.name == token.account else service.accounts.get(token.account)
        if sender.lower() not in holder.addresses:
            session.token_refused = True
            return session
        session.account = token.account
        if token.game:
            _enter_game(service, session, token.account, token.game)
        else:
            session.proven.add(token.account)
    return session


def _enter_game(service: GameService, session: Session, account: str, game: str) -> None:
    try:
        session.game, session.powers, session.as_master = service.seats(game, account)
    except NoSuchGame:
        return


def _copy_if_elsewhere(service: GameService, session: Session, account: str) -> bool:
    addresses = service.accounts.get(account).addresses
    if session.sender.lower() in addresses:
        return False
    session.copy_to.update(addresses)
    return True


def power_by_letter(variant: Variant, letter: str) -> str | None:
    for p in variant.powers:
        if p.letter.upper() == letter.upper():
            return p.id
    return None


def resolve_power(variant: Variant, word: str) -> str | None:
    """A power named by its letter, id, name or adjective, in any case."""
    key = word.strip().strip(".:").lower()
    for p in variant.powers:
        if key in (p.letter.lower(), p.id.lower(), p.name.lower(), p.adjective.lower()) \
                or (len(key) >= 3 and p.name.lower().startswith(key)):
            return p.id
    return None


def game_name(word: str) -> str:
    try:
        return check_game_name(word)
    except GameError as e:
        raise Refused(refusal_words(e), "game names are letters, digits, '-' and '_'") from None


def power_name(service: GameService, game: str, power: str) -> str:
    """The power's name as the variant spells it ("France"), for what the judge writes back."""
    return service.variant(service.status(game).variant).power(power).name


def known_game(service: GameService, word: str) -> str:
    """The game's name, refused with how to find the right one when there is no such game."""
    name = game_name(word)
    try:
        service.status(name)
    except NoSuchGame:
        raise Refused(f"there is no game called {name}", "LIST shows the games on this judge") from None
    return name


def signon(service: GameService, session: Session, letter: str, game: str, password: str | None) -> str:
    """SIGNON Fgame password: returns what to tell the player."""
    game = game_name(game)
    try:
        status = service.status(game)
    except NoSuchGame:
        raise Refused(f"there is no game called {game}", "LIST shows the games") from None
    variant = service.variant(status.variant)
    power = power_signed(variant, letter)
    if power is None and letter.upper() == MASTER_LETTER:
        account, role = status.master, "the master"
        if session.sender_account in status.masters[1:]:
            account, role = session.sender_account, "a co-master"     # a co-master (PROMOTE) signs on as itself
        elif session.sender_account and service.was_demoted(game, session.sender_account):
            # A former co-master means their own password: checked as theirs (a wrong one counts against
            # their account, never the master's), and a right one hears why it signs on to nothing.
            _check_password(service, session, session.sender_account, password, f"SIGNON M{game} password", game)
            raise Refused(f"you ({session.sender_account}) are no longer a master of {game}: a master removed you"
                          " (DEMOTE)", f"the master of {game}, {status.master}, can PROMOTE you again")
        if account is None:
            raise Refused(f"{game} has no master", "BECOME MASTER after signing on to it")
    elif power is None:
        letters = ", ".join(f"{shortest_sign(variant, p.id)} ({p.name})" for p in variant.powers)
        could = [variant.power(p).name for p in powers_signed(variant, letter)]
        if could:
            raise Refused(f"{letter} could be {' or '.join(could)} in {game}",
                          f"write more of the power's name: {letters}; or M for the master")
        raise Refused(f"{letter} names no power in {game}",
                      f"use one of {letters} (or more of the power's name), or M for the master")
    else:
        info = status.powers.get(power)
        if status.status == "forming" or info is None:
            raise Refused(f"{game} has not started: powers are given out when it does",
                          f"JOIN {game} password to play in it")
        account, role = info.account, variant.power(power).name
        former = session.sender_account
        if former and former != account and service.played_before(game, power, former):
            # The power's former player means their own password: checked as theirs (a wrong one counts
            # against their account, never the new player's), and a right one hears why it signs on to nothing.
            _check_password(service, session, former, password, f"SIGNON {letter}{game} password", game)
            raise Refused(f"you ({former}) no longer play {role} in {game}: another player has it now",
                          f"SUMMARY {game} shows who has played each power; the master of {game}"
                          f" ({status.master}) can say more")
        if account is None:
            raise Refused(f"nobody plays {variant.power(power).name} in {game} now",
                          "the master can give an open power to a new player (REPLACE)")
    _check_password(service, session, account, password, f"SIGNON {letter}{game} password", game)
    session.account = account
    session.acting = False      # a BECOME earlier in the mail ends at a new sign-on
    _enter_game(service, session, account, game)
    session.powers = () if power is None else (power,)     # (None: the master, as a letter not M was refused)
    if _copy_if_elsewhere(service, session, account):
        session.foreign = True
        session.alerts.append(Alert(game, f"{role} in {game} signed on with the right password from"
                                          f" {session.sender}, which is not the address registered for {account}."))
        return (f"signed on as {role} in {game} from {session.sender}, which is not your address: this answer"
                " goes to your own address only. If you did not send this mail, someone else knows your password:"
                " change it with SET PASSWORD (from your own address)")
    return f"signed on as {role} in {game}"


_GUESSED = ("Your password for {account} was taken from your own address, but others have given many wrong"
            " passwords for it lately: their mail is held back, yours is not. If you chose a simple password,"
            " change it with SET PASSWORD.")


def check_password(service: GameService, session: Session, account: str, password: str, usage: str,
                   game: str | None = None) -> None:
    """The one way a password is checked: through the guard's backoff, per account and per source."""
    session.passwords.add(password)
    source = session.source or Source(session.sender.lower())
    guard = PasswordGuard(service.judge, clock=lambda: service.clock().timestamp())
    own = session.sender.lower() in service.accounts.get(account).addresses   # then the refusal reaches the owner
    wait = guard.wait(account, source, own=own)
    if wait > 0:
        minutes = max(1, round(wait / 60))
        raise Refused(f"too many wrong passwords were given for {account} (or from where this mail came):"
                      f" no password for it is checked for another {minutes} minute{'s' * (minutes != 1)};"
                      " nothing after this line was done as that player",
                      "answer one of the judge's mails to you: its reply address needs no password")
    if service.accounts.check_password(account, password):
        session.proven.add(account)
        if own and guard.account_held(account) and guard.should_tell_owner(account):
            session.alerts.append(Alert(game or session.game, _GUESSED.format(account=account), account=account))
        return
    failures = guard.failed(account, source)
    where = game or session.game
    if failures == FREE["account"]:
        session.alerts.append(Alert(where, f"{failures} wrong passwords for {account} within a day, the last"
                                           f" from {source.words()}: its passwords are now checked only"
                                           " at growing intervals."))
    if not own and guard.should_tell_owner(account):
        session.alerts.append(Alert(where, f"A wrong password for your account {account} was given in a mail"
                                           f" from {source.words()} ({failures} wrong within a day). If that"
                                           " was not you, someone is guessing: after a few wrong ones the"
                                           " judge checks passwords for your account only at growing"
                                           " intervals, but answering the judge's mails to you (their"
                                           " reply address) always works.", account=account))
    raise Refused("the password is not right; nothing after this line was done as that player",
                  f"{usage} with the password you chose (SET PASSWORD changes it)")


def _check_password(service: GameService, session: Session, account: str, password: str | None, usage: str,
                    game: str | None = None) -> None:
    if password is not None:
        check_password(service, session, account, password, usage, game)
        return
    if session.proven_for(account, game):
        return  # already proven in this message (reply address, or an earlier password)
    if session.account == account and game is not None:
        raise Refused(f"the reply address you wrote to is for another game: a password is needed for {game}", usage)
    if session.account == account:
        raise Refused("the reply address you wrote to is for one game: this needs your password", usage)
    raise Refused("a password is needed here", usage)


def authenticate(service: GameService, session: Session, password: str | None, usage: str, *,
                 game: str | None = None, anywhere: bool = False) -> str:
    """The sender's own account, proven by this password or earlier in the message: for `game`, or
    (None) for the account as a whole; `anywhere`: proof for any game will do (harmless settings)."""
    if session.account is not None and password is None and (
            anywhere or session.proven_for(session.account, game)):
        return session.account
    account = session.account or session.sender_account   # the account this mail acts for so far
    if account is None:
        raise Refused(f"{session.sender} is not registered with this judge",
                      "REGISTER name password [time zone] first, in this message or an earlier one")
    _check_password(service, session, account, password, usage, game)
    session.account = account
    return account


def require_player(session: Session, what: str) -> tuple[str, str]:
    """(game, power) of the signed-on player, for orders, press and settings."""
    if session.game is None or session.account is None:
        raise Refused(f"{what} needs a game: sign on first",
                      "SIGNON Fgame password (F: your power's initial or the start of its name)")
    if session.power is None:
        if not session.powers:
            raise Refused(f"you play no power in {session.game}", "SIGNON with your power's initial")
        raise Refused(f"you play several powers in {session.game}: which one?",
                      "SIGNON with that power's initial before this line")
    return session.game, session.power


def require_master(service: GameService, session: Session, what: str) -> str:
    if session.game is None or session.account is None:
        raise Refused(f"{what} is the game master's: sign on first", "SIGNON Mgame password")
    if session.account not in service.status(session.game).masters:
        try:
            keeper = service.accounts.get(session.account).keeper
        except KeyError:
            keeper = False
        if not keeper:
            raise Refused(f"{what} is for the master of {session.game}",
                          f"SIGNON M{session.game} password, as the master")
    return session.game


__all__ = [
    "Alert",
    "Refused",
    "Session",
    "authenticate",
    "check_password",
    "game_name",
    "known_game",
    "power_by_letter",
    "power_name",
    "require_master",
    "require_player",
    "resolve_power",
    "signon",
    "start_session",
]
