"""Sharding's parts in-process (judge.mail.federation.shards, account_sync, tokens): what tests/test_shard_postfix.py
shows through a real Postfix, here with the mail carried between the hosts by the test itself, so the
orderings a mail server may produce (late, twice, tampered with, routed back) can be made at will."""
from __future__ import annotations

import dataclasses
import sqlite3
from email import policy

import pytest

from judge.config import ConfigError, ShardConfig, load_config
from judge.mail.federation import shards as shard_mail

from mailjudge import MailJudge

SECRET = "sixteen-or-more-characters"


def host(tmp_path, name: str, peers: str = "", secret: str = SECRET) -> MailJudge:
    j = MailJudge(tmp_path / name)
    j.config = dataclasses.replace(j.config, shard=ShardConfig(secret=secret, name=name, peers=peers))
    j.dispatch.config = j.config
    return j


@pytest.fixture
def pair(tmp_path):
    a, b = host(tmp_path, "a", "judge+_b@dip.test"), host(tmp_path, "b", "judge@dip.test")
    yield a, b
    a.close()
    b.close()


def shard_mails(sent, kind: str):
    return [s for s in sent if s.mail[shard_mail.KIND] == kind]


def deliver(judge: MailJudge, sent, to: str) -> str:
    """What the mail server does: the mail as queued, into the other host's archive; its outcome."""
    judge.processor.archive.store(sent.mail.as_bytes(policy=policy.SMTP), mail_from="judge@dip.test",
                                  rcpt_tos=[to], via="lmtp")
    judge.processor.process_next()
    with sqlite3.connect(judge.config.db_path) as conn:
        return conn.execute("SELECT outcome FROM dispatched ORDER BY inbound_id DESC LIMIT 1").fetchone()[0]


def account(judge: MailJudge, name: str):
    with sqlite3.connect(judge.config.db_path) as conn:
        return conn.execute("SELECT password, time_zone FROM accounts WHERE name = ?", [name]).fetchone()


def written(judge: MailJudge, game: str, power: str) -> list[str]:
    """The power's orders standing, as written."""
    with sqlite3.connect(judge.config.data_dir / "games" / f"{game}.sqlite") as conn:
        return [r[0] for r in conn.execute("SELECT written FROM orders WHERE power = ? ORDER BY position", [power])]


def test_an_account_change_reaches_the_peer_in_version_order_once(pair):
    a, b = pair
    first = shard_mails(a.send("ann@players.test", "REGISTER ann Ann-Secret9 Europe/Paris"), "accounts")
    assert [s.to for s in first] == [["judge+_b@dip.test"]]
    assert "Ann-Secret9" not in first[0].mail.as_string()          # the hash travels, never the password
    second = shard_mails(a.send("ann@players.test", "REGISTER ann Ann-Secret9\nSET PASSWORD Ann-Newer99"), "accounts")
    assert len(second) == 1
    # The newer state arrives first; the older one, late, changes nothing.
    assert "applied" in deliver(b, second[0], "judge+_b@dip.test")
    assert "not newer" in deliver(b, first[0], "judge+_b@dip.test")
    assert account(b, "ann") == account(a, "ann") and b.service.accounts.check_password("ann", "Ann-Newer99")
    # The same state twice: applied once. And B does not send back what it was sent.
    assert "not newer" in deliver(b, second[0], "judge+_b@dip.test")
    assert shard_mails(b.send("ann@players.test", "HELP"), "accounts") == []


def test_a_sync_mail_without_the_right_signature_is_never_applied(pair):
    a, b = pair
    sent = shard_mails(a.send("ann@players.test", "REGISTER ann Ann-Secret9 Europe/Paris"), "accounts")[0]
    tampered = sent.mail
    tampered.replace_header(shard_mail.SIGNATURE, "0" * 64)
    assert deliver(b, sent, "judge+_b@dip.test").startswith("not read and not answered")
    assert account(b, "ann") is None
    # Signed with another secret: the same.
    c = host(b.config.data_dir.parent.parent / "elsewhere", "c", "judge+_b@dip.test", secret="another-secret-entirely")
    forged = shard_mails(c.send("ann@players.test", "REGISTER ann Mallory-99 Europe/Paris"), "accounts")[0]
    c.close()
    assert deliver(b, forged, "judge+_b@dip.test").startswith("not read and not answered")
    assert account(b, "ann") is None


def test_mail_for_a_game_elsewhere_is_forwarded_once_and_never_again(pair):
    a, b = pair
    sent = a.send("ann@players.test", "JOIN spring26 Ann-Secret9 France")
    forwards = shard_mails(sent, "forward")
    assert [s.to for s in forwards] == [["judge+spring26@dip.test"]] and len(sent) == 1   # no reply from A
    assert forwards[0].mail["Auto-Submitted"] == "auto-generated"
    with sqlite3.connect(a.config.db_path) as conn:      # A's copy loses the password, as if handled there
        assert b"Ann-Secret9" not in conn.execute("SELECT raw FROM inbound WHERE id = 1").fetchone()[0]
    # Routed back to A (no transport line for the game): A answers it itself, forwarding nothing.
    outcome = deliver(a, forwards[0], "judge+spring26@dip.test")
    assert outcome.startswith("answered ann@players.test: 0 item(s) done, 1 error(s)"), outcome
    assert [s.message_id for s in shard_mails(a.outbox(), "forward")] == [forwards[0].message_id]
    # Mail to a game's address (routed here by the mail server) or naming a game this host has is
    # not forwarded; nor is anything when sharding is off.
    assert shard_mails(a.send("ann@players.test", "JOIN spring26 x France", to="judge+spring26@dip.test"),
                       "forward") == []
    a.service.create_account("gm", "gm@players.test", "gm-Secret9")
    a.service.create_game("here", master="gm")
    assert shard_mails(a.send("ann@players.test", "JOIN here x France"), "forward") == []
    alone = MailJudge(a.config.data_dir.parent.parent / "alone")
    assert shard_mails(alone.send("ann@players.test", "JOIN spring26 x France"), "forward") == []
    alone.close()


def test_a_reply_address_names_its_game_and_the_token_only_counts_for_that_game(judge):
    judge.seven_players()
    reply = judge.reply_to("france@dip.test", "SIGNON Falpha france-pw\nA Par - Bur")
    secret = str(reply.mail["Reply-To"])
    local, _, domain = secret.partition("@")
    assert local.startswith("judge+alpha.") and domain == "dip.test"
    token = local.rpartition(".")[2]
    # The token under another game's name is nobody's: the orders are not taken.
    wrong = judge.reply_to("france@dip.test", "A Par - Pic", to=f"judge+beta.{token}@dip.test")
    assert written(judge, "alpha", "FRANCE") == ["A Par - Bur"]
    assert "sign on first" in wrong.text
    # The old form, the token alone, still counts on the host that issued it.
    judge.reply_to("france@dip.test", "A Par - Gas", to=f"judge+{token}@dip.test")
    assert written(judge, "alpha", "FRANCE") == ["A Par - Gas"]


def test_shard_settings_are_checked():
    with pytest.raises(ConfigError):
        load_config(env={}, overrides={"shard.secret": "short", "shard.name": "a"})
    with pytest.raises(ConfigError):
        load_config(env={}, overrides={"shard.secret": SECRET})            # no name
    with pytest.raises(ConfigError):
        load_config(env={}, overrides={"shard.peers": "judge@dip.test"})  # peers, nothing to sign with
    config = load_config(env={"JUDGE_SHARD_SECRET": SECRET, "JUDGE_SHARD_NAME": "a",
                              "JUDGE_SHARD_PEERS": "judge+_b@x.org, judge+_c@x.org"})
    assert config.shard.enabled and config.shard.peer_addresses == ["judge+_b@x.org", "judge+_c@x.org"]
