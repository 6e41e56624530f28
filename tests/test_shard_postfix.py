"""The sharding plan of deploy/README.md ("Past one machine"), end to end: one Postfix built from
deploy/postfix/ in front of two `judge serve` processes with their own data directories. A regexp
transport table sends the game spring26's addresses (judge+spring26@ and its secret reply addresses
judge+spring26.<token>@) and host B's own address (judge+_b@) to host B; everything else for the
judge goes to host A, the home host. The players' mail comes from outside (127.0.0.2) and the
judges' mail leaves through the same Postfix for an SMTP sink. Postfix runs only as root: CI runs
this as root; elsewhere it is skipped and says why."""
from __future__ import annotations

import smtplib
import sqlite3
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.config import load_config
from judge.mail.federation.shards import wrap

from servers.judge_process import JudgeServe
from servers.net import free_port, wait_until
from servers.postfix import OUTSIDE, remove, start_postfix, why_not
from servers.sink import Sink

pytestmark = [pytest.mark.skipif(why_not() is not None, reason=why_not() or ""),
              pytest.mark.xdist_group("shard_postfix")]

SECRET = "a-secret-the-two-hosts-share"
GAME = "spring26"          # the game deploy/postfix/shards.regexp sends to host B
SHIPPED = Path(__file__).resolve().parent.parent / "deploy" / "postfix" / "shards.regexp"


def host_config(path: Path, *, name: str, port: int, relay: int, peers: str) -> Path:
    path.write_text(f"""
address = "judge@example.org"
[smtp]
port = {port}
lmtp = true
[relay]
host = "127.0.0.1"
port = {relay}
[shard]
secret = "{SECRET}"
name = "{name}"
peers = "{peers}"
""")
    return path


class Shards:
    """The two hosts behind one Postfix, and what the test asks of them."""

    def __init__(self, tmp: Path, postfix, sink: Sink):
        self.tmp, self.postfix, self.sink = tmp, postfix, sink
        self.sent = 0

    def send(self, sender: str, to: str, body: str, *, mail: EmailMessage | None = None) -> str:
        """A player's mail client submitting to the mail server; returns the Message-ID."""
        self.sent += 1
        if mail is None:
            mail = EmailMessage()
            mail["Subject"] = "judge"
            mail.set_content(body)
        mail["From"], mail["To"] = sender, to
        mail["Message-ID"] = message_id = f"<shard-test-{self.sent}@players.test>"
        with smtplib.SMTP("127.0.0.1", self.postfix.port, timeout=60, source_address=OUTSIDE) as smtp:
            smtp.send_message(mail)
        return message_id

    def query(self, host: str, sql: str, args=()) -> list[tuple]:
        with sqlite3.connect(self.tmp / host / "judge.sqlite") as conn:
            try:
                return conn.execute(sql, args).fetchall()
            except sqlite3.OperationalError:    # its tables not made yet
                return []

    def outcome(self, host: str, message_id: str) -> str | None:
        """What `host`'s dispatcher did with the mail, once it has."""
        rows = self.query(host, "SELECT d.outcome FROM inbound i JOIN dispatched d ON d.inbound_id = i.id"
                                " WHERE i.message_id = ?", [message_id.strip("<>")])
        return rows[0][0] if rows else None

    def wait_outcome(self, host: str, message_id: str) -> str:
        return wait_until(lambda: self.outcome(host, message_id), what=f"{message_id} handled on host {host}",
                          limit=90)

    def account(self, host: str, name: str) -> tuple | None:
        rows = self.query(host, "SELECT password, time_zone FROM accounts WHERE name = ?", [name])
        return rows[0] if rows else None

    def replies(self, to: str, message_id: str) -> list:
        """The judge's replies to one mail at the sink, parsed."""
        mails = [message_from_bytes(r.raw, policy=policy.default) for r in self.sink.received if to in r.rcpt_tos]
        return [m for m in mails if m["In-Reply-To"] == message_id]

    def reply(self, to: str, message_id: str):
        return wait_until(lambda: self.replies(to, message_id), what=f"the reply to {message_id}", limit=90)[0]

    def sent_by(self, host: str, mail) -> bool:
        """Whether this mail left from `host`'s outbox."""
        return bool(self.query(host, "SELECT 1 FROM outbox WHERE message_id = ?", [mail["Message-ID"].strip("<>")]))

    def diagnose(self) -> str:
        return f"--- postfix log\n{self.postfix.log()[-4000:]}\n--- queue\n{self.postfix.queue()}"


@pytest.fixture
def shards(tmp_path):
    port_a, port_b = free_port(), free_port()
    # The shipped table, host B's lines pointed at this test's host B, host C's left out.
    routes = "\n".join(line for line in SHIPPED.read_text().replace("10.0.0.12:2525", f"127.0.0.1:{port_b}")
                       .splitlines() if "10.0.0.13" not in line) + "\n"
    assert routes.count(f"127.0.0.1:{port_b}") == 2
    with Sink() as sink:
        postfix = start_postfix(judge_lmtp=f"127.0.0.1:{port_a}",
                                outbound_transport={"players.test": f"smtp:[127.0.0.1]:{sink.port}"},
                                extra_maps={"shards.regexp": routes},
                                settings=("transport_maps = regexp:{maps}/shards.regexp, hash:{maps}/transport",))
        try:
            a = host_config(tmp_path / "a.toml", name="a", port=port_a, relay=postfix.port,
                            peers="judge+_b@example.org")
            b = host_config(tmp_path / "b.toml", name="b", port=port_b, relay=postfix.port, peers="judge@example.org")
            with JudgeServe(["--config", str(a), "--data", str(tmp_path / "a")]) as judge_a, \
                    JudgeServe(["--config", str(b), "--data", str(tmp_path / "b")]) as judge_b:
                shards = Shards(tmp_path, postfix, sink)
                try:
                    yield shards
                except BaseException:
                    print(shards.diagnose())
                    raise
            assert judge_a.process.returncode == 0, judge_a.errors
            assert judge_b.process.returncode == 0, judge_b.errors
        finally:
            remove(postfix)


def test_two_judges_behind_one_postfix_share_accounts_forward_mail_and_route_secret_replies(shards):
    # A player registers on the home host; the account (its scrypt hash, not the password) reaches B.
    for name, password in (("gm", "gm-Secret9"), ("ann", "ann-Secret9"), ("bob", "bob-Secret9")):
        sent = shards.send(f"{name}@players.test", "judge@example.org", f"REGISTER {name} {password} Europe/Paris")
        assert "1 item(s) done, 0 error(s)" in shards.wait_outcome("a", sent)
    for name in ("gm", "ann", "bob"):
        on_a = shards.account("a", name)
        assert on_a[0].startswith("scrypt$")
        assert wait_until(lambda name=name: shards.account("b", name), what=f"{name}'s account on host B") == on_a

    # The game is created on B: its address is routed there.
    created = shards.send("gm@players.test", f"judge+{GAME}@example.org", f"CREATE {GAME} gm-Secret9 france-austria")
    assert "1 item(s) done, 0 error(s)" in shards.wait_outcome("b", created)
    assert shards.query("a", "SELECT name FROM game_index WHERE name = ?", [GAME]) == []

    # Ann writes to the home address: A has no such game and forwards the mail, whole, to B.
    joined = shards.send("ann@players.test", "judge@example.org", f"JOIN {GAME} ann-Secret9 France")
    assert shards.wait_outcome("a", joined) == f"forwarded to judge+{GAME}@example.org: {GAME} is not on this host"
    reply = shards.reply("ann@players.test", joined)
    assert shards.sent_by("b", reply) and not shards.sent_by("a", reply)
    assert f"joined {GAME}: 1 of 2 players" in reply.get_body(("plain",)).get_content()
    # Bob writes to the game's address, straight to B.
    joined = shards.send("bob@players.test", f"judge+{GAME}@example.org", f"JOIN {GAME} bob-Secret9 Austria")
    assert "1 item(s) done, 0 error(s)" in shards.wait_outcome("b", joined)

    # The game starts on B; its mail to Ann carries her secret reply address, naming the game.
    started = wait_until(lambda: next((m for r in shards.sink.received if "ann@players.test" in r.rcpt_tos
                                       for m in [message_from_bytes(r.raw, policy=policy.default)]
                                       if "has started" in str(m["Subject"])), None),
                         what="the game's start, mailed from B to Ann", limit=90)
    secret = str(started["Reply-To"])
    assert secret.startswith(f"judge+{GAME}.") and secret.endswith("@example.org") and shards.sent_by("b", started)
    power = "FRANCE" if "you play France" in str(started["Subject"]) else "AUSTRIA"
    order = {"FRANCE": ("A Par - Bur", "A Par - Pic"), "AUSTRIA": ("A Vie - Gal", "A Vie - Boh")}[power]
    orders = shards.send("ann@players.test", secret, order[0])
    assert "answered ann@players.test: 1 item(s) done, 0 error(s)" in shards.wait_outcome("b", orders)
    assert order[0] in shards.reply("ann@players.test", orders).get_body(("plain",)).get_content()
    assert shards.outcome("a", orders) is None        # Postfix took it to B: A never saw it

    # A "forwarded" mail without the hosts' signature is not trusted: a stranger claims Ann sent
    # orders to her secret address; handled as the stranger's own mail, it changes nothing.
    original = EmailMessage()
    original["From"], original["To"], original["Message-ID"] = "ann@players.test", secret, "<forged-1@players.test>"
    original["Subject"] = "orders"
    original.set_content(order[1])
    meta = {"sender": "ann@players.test", "mail_from": "ann@players.test", "rcpt_tos": [secret], "via": "lmtp",
            "peer": "127.0.0.1", "received_at": 0, "game": GAME, "from_host": "a"}
    config = load_config(overrides={"address": "judge@example.org", "shard.secret": "not-the-hosts-secret-at-all",
                                    "shard.name": "a"})
    forged = wrap(config, "forward", meta, bytes(original), key="forged", to=secret)
    del forged["From"], forged["To"], forged["Message-ID"], forged["Auto-Submitted"]
    forged_id = shards.send("mallory@players.test", f"judge+{GAME}@example.org", "", mail=forged)
    outcome = shards.wait_outcome("b", forged_id)
    assert outcome.startswith("answered mallory@players.test: 0 item(s) done"), outcome
    with sqlite3.connect(shards.tmp / "b" / "games" / f"{GAME}.sqlite") as game:
        standing = game.execute("SELECT written FROM orders WHERE power = ?", [power]).fetchall()
    assert standing == [(order[0],)], standing
    # The same mail signed with the hosts' secret is trusted (wherever it comes from: the signature
    # is the proof): Ann's new orders stand. So what kept the forgery out was the signature alone.
    config = load_config(overrides={"address": "judge@example.org", "shard.secret": SECRET, "shard.name": "a"})
    signed = wrap(config, "forward", meta, bytes(original), key="signed", to=secret)
    del signed["From"], signed["To"], signed["Message-ID"], signed["Auto-Submitted"]
    shards.send("mallory@players.test", f"judge+{GAME}@example.org", "", mail=signed)
    reply = shards.reply("ann@players.test", "<forged-1@players.test>")
    assert order[1] in reply.get_body(("plain",)).get_content()
    with sqlite3.connect(shards.tmp / "b" / "games" / f"{GAME}.sqlite") as game:
        standing = game.execute("SELECT written FROM orders WHERE power = ?", [power]).fetchall()
    assert standing == [(order[1],)], standing

    # A change to an account on B goes back to A, newer than what A had.
    bob = "F" if power == "AUSTRIA" else "A"
    zone = shards.send("bob@players.test", f"judge+{GAME}@example.org",
                       f"SIGNON {bob}{GAME} bob-Secret9\nSET TIME ZONE Asia/Tokyo")
    assert "2 item(s) done, 0 error(s)" in shards.wait_outcome("b", zone)
    assert wait_until(lambda: shards.account("a", "bob")[1] == "Asia/Tokyo", what="Bob's new zone on host A")
    versions = {host: shards.query(host, "SELECT stamp, origin FROM account_versions WHERE account = 'bob'")
                for host in "ab"}
    assert versions["a"] == versions["b"] and versions["a"][0][1] == "b", versions
