"""The daemon's `dispatch` hook: one archived message -> commands, orders and one reply.

    dispatch = Dispatch(GameService(config.data_dir), config)
    Daemon(config, dispatch=dispatch, tick=...)

A mail goes through the steps of `mail_steps.STEPS` (robots left unanswered, the sender found, a
copy applied before skipped, the sign-on, the body read, a mail for another host's game forwarded,
then what it asks carried out and answered). The body is cleaned (quotes, signatures and HTML
dropped), read by `parse_message` with the order context of the signed-on game, and each item handled
in the order written: commands through
`judge.mail.commands.handlers.HANDLERS`, orders through `GameService.submit_orders`. The reply says what was
done and what was wrong, and is queued in the outbox with a Message-ID derived from the inbound
message, so dispatching the same message again queues nothing new. Orders and press carry the
message as their `source`, and commands that must not run twice are recorded per message
(dispatch_store.StepLog): a second dispatch after a crash does not do anything twice.

Who is writing (judge.mail.screening.auth.start_session): the secret reply address counts only as the
envelope recipient (judge.mail.screening.tokens.envelope_recipients). A copy of a message applied before,
whatever headers it gained, is not applied again (judge.mail.screening.replays). Once the message is
handled, its raw copy in the archive is rewritten with its passwords masked, in the same
transaction that records it finished: a dispatch after that only repeats the outcome.

Transactions: the daemon handles the mail on the games service's own connection to judge.sqlite
(`judge_connection`), in one transaction from the claim to the mark that it is processed: reply
tokens, the password guard's counts, the steps done, the reply in the outbox all commit at once,
with FULL sync, after the game files' own commits (`GameService.batch`: one per game file). A crash
between the two leaves the game's writes marked with this message as their source: handled again,
the orders read as "read before" and exactly one reply goes out. The courier, whose notices must be
on disk before their game marks them queued, runs after that commit (`after_commit`).
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from email.message import Message
from pathlib import Path
from typing import Any, Protocol

import sqlite_utils

from ...config import Config
from ...games import fog
from ...games.model import GameError
from ...games.answers import NoSuchGame
from ...games.service import GameService
from ...engine.notation import position_from_json
from ...engine.variant import Variant
from ...games.submissions import TooLate
from ...language import BoardView, CommandItem, CommandReader, OrderBlock, OrderContext, OrderReader
from ...language.commands import BecomePower, Join, SignOn
from ...language.parse import OrderError, ParsedOrder
from ..federation import account_sync
from ..outbound import outgoing
from ..outbound.outgoing import Attachment
from ..intake.archive import StoredMessage, replace_raw
from ..outbound.reply_budget import Item, cut_reply, stranger_over_budget
from ..screening.auth import Alert, Refused, Session, resolve_power
from ..screening.sign_on_names import power_signed, read_signon
from .handlers import HANDLERS, Env
from .mail_steps import STEPS, InMail
from ..words.confirm import error_line, not_yours, order_lines, power_summary, stored_by_place
from ..words.problem_words import Problem, problem_of, problem_words
from ..outbound import trouble_mail
from ..outbound.courier import Courier
from ..screening.dispatch_store import StepLog, mark_finished, prepare
from ..screening.robot_mail import Bounce, Classification
from ..outbound.compose import reply_subject
from ..screening.replays import inbound_of
from ..words.reports import Rendered, Reports
from ..screening.secrets_mask import mask_line, mask_words, scrub_raw
from ...storage.db import synchronous, transaction
from ..screening.tokens import ReplyTokens

log = logging.getLogger("judge.dispatch")


class MailContext(Protocol):
    """What the daemon hands a dispatcher with each mail (judge.daemon.MailContext): the judge file."""
    @property
    def db(self) -> sqlite_utils.Database: ...


@dataclass
class Handled:
    """What the handling of one message produced, for the reply."""
    entries: list[dict[str, Any]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)   # lines set aside as greetings and the like
    attachments: list[str] = field(default_factory=list)   # attached files, never read
    touched: list[tuple[str, str]] = field(default_factory=list)   # (game, power) whose orders to summarise
    signed: dict[int, tuple[str | None, tuple[str, ...], bool]] = field(default_factory=dict)
    last_signon: int | None = None     # the sign-on the orders that follow belong to (BECOME changes it)
    silent: str = ""       # why no reply was sent (a budget spent), else ''
    files: list[Attachment] = field(default_factory=list)   # what the reply carries (MAP, EXPORT)

    def touch(self, game: str, power: str) -> None:
        if (game, power) not in self.touched:
            self.touched.append((game, power))


class Dispatch:
    def __init__(self, service: GameService, config: Config, reports: Reports | None = None,
                 courier: Courier | None = None, commands: CommandReader | None = None) -> None:
        self.service = service
        self.config = config
        self.reports = reports or Reports()
        self.courier = courier        # run after each message: press and starts go out at once
        self.commands = commands or CommandReader()     # (its LALR tables: a tenth of a second to make)
        self._readers: dict[str, OrderReader] = {}   # one per variant, built on first use

    def __repr__(self) -> str:
        return "Dispatch: commands, orders and confirmation replies"

    def prepare(self) -> None:
        """The daemon has started: before the first mail, the games index is brought up to date with
        the game files changed since it was written (a crash between the two), each of them checked
        (a damaged one recorded, the others run). `judge serve` is taking mail meanwhile."""
        self.service.sync_index(quick=True)

    def close(self) -> None:
        """The daemon stops: the game files kept open on this thread are closed."""
        self.service.close_games()

    def judge_connection(self, path: str | Path) -> sqlite_utils.Database | None:
        """The games service's connection to the judge file on this thread, for the daemon to handle
        each mail on (one connection, one transaction per mail); None if `path` is another file."""
        if Path(path).resolve() != (self.service.data / "judge.sqlite").resolve():
            return None
        db = self.service.judge
        prepare(db)     # the dispatcher's tables now, not inside a mail's transaction that may roll back
        return db

    def __call__(self, message: StoredMessage, verdict: Classification, context: MailContext) -> str:
        with self.service.batch():      # each game file opened once for the whole message
            return self._dispatch(message, verdict, context)

    def after_commit(self, context: MailContext) -> None:
        """After the mail's transaction committed: the notices its orders or commands released
        (press, a game started or played) are queued by the courier now, in transactions of their
        own (FULL: a notice is marked queued in its game file only once its mail is on disk)."""
        try:    # (FULL for each trouble it tells, by itself)
            trouble_mail.tell(self.config, context.db)   # a game this mail found damaged
        except Exception:   # the mail was handled; the tick tells them later
            log.exception("telling of a game's trouble failed; the next tick tries again")
        if self.courier is None:
            return
        try:
            with self.service.batch(), synchronous(context.db, "FULL"):
                self.courier.run(context.db)
        except Exception:   # the mail was handled; the tick sends the notices later
            log.exception("courier after a message failed; the next tick tries again")

    def _dispatch(self, message: StoredMessage, verdict: Classification, context: MailContext) -> str:
        """The mail through each step of `mail_steps.STEPS` until one ends its handling."""
        mail = InMail(message, verdict, context.db)
        for step in STEPS:
            stop = step(self, mail)
            if stop is not None:
                if not stop.record:
                    return stop.outcome
                return self._finish(context.db, mail.message, set(stop.passwords), stop.outcome, mail.mail)
        raise AssertionError("the last step always ends a mail's handling")

    def share_accounts(self, db: sqlite_utils.Database, session: Session) -> None:
        """Accounts this mail may have changed go to the judge's other hosts (judge.mail.federation.account_sync)."""
        if not self.config.shard.peer_addresses:
            return
        try:
            registered = self.service.accounts.by_address(session.sender)
            account_sync.share_changes(db, self.config, self.service, [
                session.account, session.sender_account, registered.name if registered else None])
        except Exception:   # the mail was handled; the account goes with its next change
            log.exception("account changes of %s not sent to the other hosts", session.sender)

    def _finish(self, db: sqlite_utils.Database, message: StoredMessage, passwords: set[str], outcome: str,
                read: Message) -> str:
        """The raw copy loses its passwords, in the transaction that records the message finished
        (`read`: the one parse of it, so a mail with nothing to mask is not parsed again)."""
        raw = scrub_raw(message.raw, passwords, read)
        if raw == message.raw:      # one statement: no savepoint needed around it (storage.db.write_statement)
            mark_finished(db, message.id, outcome)
            return outcome
        with transaction(db):
            replace_raw(db, message.id, raw)
            mark_finished(db, message.id, outcome)
        return outcome

    def repeated(self, message: StoredMessage, mail: Message, sender: str, earlier: int,
                 db: sqlite_utils.Database) -> str:
        """A copy of a message applied before: not applied again, and the sender told which."""
        rendered = self.reports.render("reply_repeat.j2", earlier=earlier,
                                       subject=reply_subject(str(mail.get("Subject", "") or "")))
        outgoing.send(db, self.config, rendered, key=f"reply:{message.id}:{message.content_hash}", to=[sender],
                      in_reply_to=mail)
        return f"a copy of message #{earlier}, not applied again; {sender} told"

    # -- reading -----------------------------------------------------------------------------------
    def _reader(self, variant: str) -> OrderReader:
        if variant not in self._readers:
            self._readers[variant] = OrderReader(self.service.variant(variant))
        return self._readers[variant]

    def order_context(self, session: Session) -> Callable[[SignOn | Join | None], OrderContext | None]:
        def context(signon: SignOn | Join | None) -> OrderContext | None:
            who, game = "", signon.game if signon is not None else session.game
            if isinstance(signon, SignOn):      # `SIGNON Parisgame`: where the power ends, only the games tell
                who, game = (read_signon(self.service, signon.word) if signon.word
                             else (signon.power_letter, signon.game))
            if not game:
                return None
            try:
                variant, phase, status = self.service.phase_of(game)
            except (GameError, NoSuchGame, ValueError):
                return None
            if phase is None or status not in ("active", "paused"):
                return None
            v = self.service.variant(variant)
            if isinstance(signon, Join):       # taking over an open power in a game under way
                power = resolve_power(v, signon.preference) if signon.preference else None
            else:
                power = power_signed(v, who) if signon else session.power
            return OrderContext(self._reader(variant), v.calendar.parse(phase).kind, power, self._board(game, v, power))
        return context

    def _board(self, game: str, variant: Variant, power: str | None = None) -> BoardView | None:
        """The game's board now, so orders are read as it allows (`A Liv` with the army in Liverpool,
        `F Edi` a build for a power that builds). Without it orders are still read, by name alone.
        Under fog of war only the board `power` sees (judge.games.fog), so no reading tells of more."""
        try:
            position, fogged = self.service.position_now(game)     # (the game file's own decoded value)
            if fogged:
                seen = fog.position_seen(variant, self.service.phase_record(game).position, [power] if power else [])
                position = position_from_json(variant, seen)
            if any(m.hidden for m in variant.build_marks):    # builds hidden from this power: not read by
                position = self.service.without_hidden_builds(game, position, power)
            return BoardView(variant, position, self._unordered(game, power))
        except (GameError, NoSuchGame, KeyError, ValueError):   # KeyError: a position that does not read
            return None

    def _unordered(self, game: str, power: str | None) -> frozenset[str] | None:
        """The provinces of `power`'s units with no order stored yet ("A PAR" -> "par"), or None."""
        try:
            units = self.service.units_without_orders(game, power) if power else None
        except (GameError, NoSuchGame, KeyError):   # the examples then come from every unit
            return None
        return None if units is None else frozenset(u.partition(" ")[2].partition("/")[0].lower() for u in units)

    # -- doing -------------------------------------------------------------------------------------
    def handle(self, inbound_id: int, items: Iterable[Item], session: Session, steps: StepLog,
               received: datetime | None = None) -> Handled:
        """`received`: when the mail came in; its orders are for the phase current then."""
        out = Handled()
        for index, item in enumerate(items):
            if isinstance(item, CommandItem):
                self._command(inbound_id, index, item, session, steps, out)
            elif isinstance(item, OrderBlock):
                self._orders(inbound_id, index, item, session, out, received)
            elif isinstance(item, OrderError):
                out.entries.append({"kind": "error", **error_line(item, mask_line)})
        return out

    def _command(self, inbound_id: int, index: int, item: CommandItem, session: Session, steps: StepLog,
                 out: Handled) -> None:
        text = mask_line(item.text)
        # another judge's words read as this judge's: the reply says how, before what was done
        read_as = f"read `{text}` as `{mask_line(item.read_as)}`" if item.read_as else ""
        handler = HANDLERS.get(type(item.command))
        if handler is None:
            out.entries.append({"kind": "error", "line": item.line, "text": text, "problem":
                                "this judge does not do that command yet", "expected": "", "suggestions": []})
            return
        env = Env(self.service, session, self.reports, f"mail:{inbound_id}:{index}", out.files,
                  domain=self.config.domain, config=self.config)
        lines = steps.answer(inbound_id, index) if handler.once else None
        if lines is None:
            try:
                lines = handler.run(env, item.command)
            except Refused as e:
                out.entries.append({"kind": "error", "line": item.line, "text": text,
                                    "problem": f"{read_as}: {e.problem}" if read_as else e.problem,
                                    "expected": e.fix, "suggestions": []})
                return
            except (GameError, NoSuchGame, KeyError, ValueError) as e:   # KeyError: no such account
                problem = self._problem(e, f"message #{inbound_id} line {item.line}")
                out.entries.append({"kind": "error", "line": item.line, "text": text,
                                    "problem": f"{read_as}: {problem}" if read_as else problem,
                                    "expected": "", "suggestions": []})
                return
            except Exception:   # a defect of the judge's must not lose the rest of the mail
                log.exception("message #%d line %d: %s failed", inbound_id, item.line, type(item.command).__name__)
                out.entries.append({"kind": "error", "line": item.line, "text": text, "problem":
                                    "the judge failed on this line (a fault of its own, logged for its keeper)",
                                    "expected": "try again later, or write to the judge's keeper", "suggestions": []})
                return
            if handler.once:
                steps.record(inbound_id, index, lines)
        if isinstance(item.command, (SignOn, Join)):
            out.last_signon = id(item.command)
        # (after a SIGNON or JOIN, `last_signon` is its own: set just above)
        if isinstance(item.command, (SignOn, Join, BecomePower)) and out.last_signon is not None:
            out.signed[out.last_signon] = (session.game, session.powers, session.as_master)
            if session.power and session.game:
                out.touch(session.game, session.power)
        out.entries.append({"kind": "command", "line": item.line, "text": text,
                            "lines": [read_as, *lines] if read_as else lines})

    def _orders(self, inbound_id: int, index: int, block: OrderBlock, session: Session, out: Handled,
                received: datetime | None = None) -> None:
        errors = [error_line(e, mask_line) for e in block.parse.errors]
        if block.signon is None:
            game, powers, as_master = session.game, session.powers, session.as_master
            allowed = session.account is not None and game is not None
            why = "orders need a game: sign on first"
        else:
            game, powers, as_master = out.signed.get(id(block.signon), (None, (), False))
            allowed = id(block.signon) in out.signed
            why = "the SIGNON before these orders did not succeed, so they were not taken"
        if not allowed or game is None:
            for p in block.parse.orders:
                errors.append({"line": p.line, "text": mask_line(p.text), "problem": why,
                               "expected": "SIGNON Fgame password (F: your power's initial or the start of its name)",
                               "suggestions": []})
            out.entries.append({"kind": "orders", "game": game, "power": None, "orders": [],
                                "errors": sorted(errors, key=lambda e: e["line"]), "repeated": False})
            return
        variant = self.service.variant(self.service.phase_of(game)[0])
        by_power: dict[str, list[ParsedOrder]] = {}
        # a power's vassals (the Vassal map): their units are ordered by its player (judge.engine.vassals)
        lords = self.service.vassals(game) if "vassal_dummies" in variant.hooks else {}
        for p in block.parse.orders:
            power = p.power or (powers[0] if len(powers) == 1 else None)
            if power in lords and lords[power] in powers:
                pass
            elif power is None or (power not in powers and not as_master):
                problem = (not_yours(variant, game, power, lords.get(power)) if power else
                           "which power is this order for? Start the line with the power's name")
                errors.append({"line": p.line, "text": p.text, "problem": problem, "expected": "", "suggestions": []})
                continue
            by_power.setdefault(power, []).append(p)
        for power in powers if block.parse.errors or block.parse.orders else ():
            out.touch(game, power)   # what the phase still needs ends the reply, even when no line was taken
        if block.phase is not None and block.phase != self.service.phase_of(game)[1]:
            self._keep(game, variant, block.phase, by_power, f"mail:{inbound_id}:{index}", session, out, errors)
            return
        if lords:       # (orders kept for a later phase stay the writer's: the board then decides)
            by_power = self._to_vassals(game, by_power, lords)
        for power, orders in by_power.items():
            out.touch(game, power)
            later = [n for n in map(inbound_of, self.service.order_sources(game, power)) if n and n > inbound_id]
            if later:   # older mail never replaces newer orders (judge.mail.screening.replays)
                errors.extend({"line": p.line, "text": p.text, "problem": f"orders from a mail that reached the"
                               f" judge later (#{max(later)}) stand for {variant.power(power).name}; these, from"
                               " an earlier mail, were not used", "expected": "", "suggestions": []} for p in orders)
                continue
            try:
                standing, adjusting = self.service.standing_orders(game, power)
                earlier = {} if adjusting else stored_by_place(standing)
                result = self.service.submit_orders(game, power, orders, account=session.account,
                                                    source=f"mail:{inbound_id}:{index}:{power}", received=received)
            except (GameError, NoSuchGame, KeyError, ValueError) as e:   # KeyError: no such account or power
                problem = self._problem(e, f"message #{inbound_id}: orders for {power} in {game}")
                errors.extend({"line": p.line, "text": p.text, "problem": problem, "expected": "", "suggestions": []}
                              for p in orders)
                if isinstance(e, TooLate):
                    out.touch(game, power)     # what the phase now current needs of them
                continue
            except Exception:   # a defect of the judge's must not lose the rest of the mail
                log.exception("message #%d: orders for %s in %s failed", inbound_id, power, game)
                errors.extend(
                    {
                        "line": p.line,
                        "text": p.text,
                        "problem": "the judge failed on this order (a fault"
                        " of its own, logged for its keeper); it was not taken",
                        "expected": "send it again later",
                        "suggestions": [],
                    }
                    for p in orders
                )
                continue
            refused = result.refused
            errors.extend({"line": orders[i].line, "text": orders[i].text, "problem": why,
                           "expected": "", "suggestions": []} for i, why in refused.items())
            kept = [p for i, p in enumerate(orders) if i not in refused]
            out.touch(game, power)
            if not kept:
                continue
            out.entries.append({"kind": "orders", "game": game, "power": variant.power(power).name,
                                "orders": order_lines(kept, variant, {} if result.repeated else earlier),
                                "errors": [],
                                "repeated": result.repeated})
        if errors:
            out.entries.append({"kind": "orders", "game": game, "power": None, "orders": [],
                                "errors": sorted(errors, key=lambda e: e["line"]), "repeated": False})

    @staticmethod
    def _problem(error: Exception, where: str) -> str:
        """What the player reads for a line the games layer refused by raising: never the exception's
        str() (a KeyError's is Python's quoted key); one of Python's own is logged as the defect it is."""
        if problem_of(error) is Problem.NOT_CARRIED_OUT:
            log.error("%s: %s", where, type(error).__name__, exc_info=error)
        return problem_words(error)

    def _to_vassals(self, game: str, by_power: dict[str, list[ParsedOrder]],
                    lords: dict[str, str]) -> dict[str, list[ParsedOrder]]:
        """The lines a power's player wrote for its vassal's units (the unit's place says whose it
        is) moved to the vassal; a line naming the vassal is the vassal's already."""
        routed: dict[str, list[ParsedOrder]] = {}
        for power, orders in by_power.items():
            carried = [power] * len(orders) if power in lords else self.service.order_powers(game, power, orders)
            for p, whose in zip(orders, carried, strict=True):
                routed.setdefault(whose, []).append(p)
        return routed

    def _keep(self, game: str, variant: Variant, phase: str, by_power: dict[str, list[ParsedOrder]], source: str,
              session: Session, out: Handled, errors: list[dict[str, Any]]) -> None:
        """Orders after njudge's PHASE line for a later phase: kept until it opens, and confirmed as such."""
        for power, orders in by_power.items():
            try:
                name = self.service.keep_orders(game, power, phase, orders, account=session.account,
                                                source=f"{source}:{power}")
            except (GameError, NoSuchGame, KeyError, ValueError) as e:   # KeyError: no such account or power
                problem = self._problem(e, f"{source}: orders for {power} in {game} kept for {phase}")
                errors.extend({"line": p.line, "text": p.text, "problem": f"not kept: {problem}", "expected": "",
                               "suggestions": []} for p in orders)
                continue
            out.entries.append({"kind": "orders", "game": game, "power": variant.power(power).name, "later": name,
                                "orders": order_lines(orders, variant), "errors": [], "repeated": False})
        if errors:
            out.entries.append({"kind": "orders", "game": game, "power": None, "orders": [],
                                "errors": sorted(errors, key=lambda e: e["line"]), "repeated": False})

        # -- answering ---------------------------------------------------------------------------------
    def answer(self, message: StoredMessage, mail: Message, session: Session, outcome: Handled,
               tokens: ReplyTokens, db: sqlite_utils.Database) -> bool:
        summaries = []
        for game, power in outcome.touched:
            try:
                state = self.service.status(game)
                if state.status == "finished" or state.powers[power].status in ("resigned", "eliminated"):
                    continue   # over, or the sender left it or is out: no deadline, nothing owed to show
                # in the reader's zone: a master acting for a power (BECOME) reads the master's times
                summaries.append(power_summary(self.service, game, power, self.config.tick_seconds,
                                               viewer=session.account, status=state))
            except (GameError, NoSuchGame, KeyError):
                pass   # the game ended or has no current phase: nothing to summarise
            except Exception:   # the reply still goes out, without this part
                log.exception("message #%d: no summary for %s in %s", message.id, power, game)
        subject = str(mail.get("Subject", "") or "").strip()
        rendered = self.reports.render(
            "reply_confirm.j2", entries=outcome.entries, summaries=summaries, sender=session.sender,
            subject=reply_subject(subject),
            copied=sorted(session.copy_to), empty=not outcome.entries, foreign=session.foreign,
            token_refused=session.token_refused, token_stale=session.token_stale,
            ignored=outcome.ignored, attachments=outcome.attachments,
            secret_reply=(session.account or session.sender_account) is not None and self._plays(session),
            unproven=self._unproven(session, outcome))
        body = cut_reply(mask_words(rendered.body, session.passwords), self.config.limits.reply_bytes)
        to = session.recipients()
        # The secret address goes to a proven player, or to an address registered to the account it is
        # for (the sender's own, whoever claims to be the sender): never to an address a stranger chose.
        # After a sign-on from a foreign address the reply goes to the account's own addresses only.
        owner = session.account or session.sender_account
        reply_to = None
        if owner is not None:
            reply_to = tokens.address_for(owner, session.game if session.account else None)
        else:   # perhaps a forged address: what it may be sent is bounded
            outcome.silent = stranger_over_budget(db, self.config.limits, session.sender,
                                                  len(body) + sum(len(f.data) for f in outcome.files)) or ""
            if outcome.silent:
                log.warning("message #%d: no reply to %s: %s", message.id, session.sender, outcome.silent)
        queued = not outcome.silent and outgoing.send(
            db, self.config, Rendered(mask_words(rendered.subject, session.passwords), body),
            key=f"reply:{message.id}:{message.content_hash}", to=to, in_reply_to=mail, reply_to=reply_to,
            files=outcome.files)
        for n, alert in enumerate(session.alerts):
            self._alert(message, n, alert, session, db)
        return queued

    def _plays(self, session: Session) -> bool:
        """Whether the account is in a game (or master of one): only then does a secret reply
        address let it send orders without the password."""
        owner = session.account or session.sender_account
        if session.game is not None or owner is None:
            return session.game is not None
        return bool(self.service.games_of(owner)) or any(g.master == owner for g in self.service.list_games(owner))

    @staticmethod
    def _unproven(session: Session, outcome: Handled) -> str:
        """Why the owner of the sender's address should wonder whether they sent this mail: it
        proved nothing (From is easily forged) and something in it was refused, or its envelope
        sender is another address. '' when there is no such doubt."""
        if session.sender_account is None or session.account is not None or session.token_refused:
            return ""
        envelope = session.source.envelope if session.source else None
        if envelope and envelope != session.sender.lower():
            return f"its envelope sender was {envelope}"
        refused = any(e["kind"] == "error" or e.get("errors") for e in outcome.entries)
        return "nothing in it proved it was you (no right password)" if refused else ""

    def bounced(self, message: StoredMessage, bounce: Bounce, context: MailContext) -> str:
        """The daemon's on_bounce hook: the master of each game the failing address's player is in
        hears which power's mail bounced (the keeper is told by the daemon itself)."""
        told = []
        for address in bounce.failed:
            account = self.service.accounts.by_address(address)
            if account is None:
                continue
            for game, power in self.service.games_of(account.name):
                master = self.service.status(game).master
                to = list(self.service.accounts.get(master).addresses[:1]) if master else []
                if not to:
                    continue
                name = self.service.variant(self.service.phase_of(game)[0]).power(power).name
                rendered = self.reports.render("reply_bounce.j2", game=game, power=name, account=account.name,
                                               address=address, diagnostic=bounce.diagnostic, inbound_id=message.id)
                outgoing.send(context.db, self.config, rendered, key=f"bounce:{message.id}:{game}:{power}", to=to)
                told.append(f"{game} ({power})")
        return f"masters told: {', '.join(told)}" if told else ""

    def _alert(self, message: StoredMessage, n: int, alert: Alert, session: Session,
               db: sqlite_utils.Database) -> None:
        to: list[str] = []
        if alert.account:       # for the account's owner, at the account's own addresses
            to = list(self.service.accounts.get(alert.account).addresses)
        elif alert.game:
            master = self.service.status(alert.game).master
            if master:
                to = list(self.service.accounts.get(master).addresses[:1])
        if not to and self.config.master_address:
            to = [self.config.master_address]
        if not to:
            log.warning("alert for %s not sent: no master and no master_address", alert.game)
            return
        rendered = self.reports.render("reply_alert.j2", game=alert.game, text=alert.text,
                                       inbound_id=message.id, to_owner=alert.account is not None)
        outgoing.send(db, self.config, Rendered(rendered.subject, mask_words(rendered.body, session.passwords)),
                      key=f"alert:{message.id}:{n}", to=to)
