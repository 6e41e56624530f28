"""judge/mail/courier.py: pending notices into the outbox, once each, with the secret reply address."""
from judge.mail.courier import Courier
from judge.mail.tokens import ReplyTokens
from judge.storage.db import open_db

from mailjudge import POWERS, MailJudge


def test_notices_are_queued_once_each_with_the_reply_address(tmp_path):
    j = MailJudge(tmp_path)
    j.service.create_account("watcher", "watch@dip.test", "w")
    j.service.create_account("gm", "gm@dip.test", "gm-secret")
    j.service.create_game("alpha", master="gm")
    j.service.observe("alpha", "watcher")
    for p in POWERS:
        j.service.create_account(p.lower(), f"{p.lower()}@dip.test", "pw")
        j.service.join("alpha", p.lower(), [p])
    courier = Courier(j.service, j.config)
    db = open_db(j.config.db_path)
    queued = courier.run(db)
    sent = j.outbox()
    assert queued == len(sent) == 9          # seven players, the master, and the observer's public copy
    by_to = {s.to[0]: s for s in sent}
    assert set(by_to) == {f"{p.lower()}@dip.test" for p in POWERS} | {"gm@dip.test", "watch@dip.test"}
    france = by_to["france@dip.test"]
    assert france.mail["Auto-Submitted"] == "auto-generated"
    tokens = ReplyTokens(db, "judge@dip.test")
    assert tokens.find([str(france.mail["Reply-To"])]).account == "france"
    assert j.service.pending_notices("alpha") == []
    assert courier.run(db) == 0 and len(j.outbox()) == 9


def test_a_crash_between_queueing_and_marking_queues_nothing_twice(tmp_path):
    j = MailJudge(tmp_path)
    j.seven_players()
    courier = Courier(j.service, j.config)
    db = open_db(j.config.db_path)
    tokens = ReplyTokens(db, j.config.address)
    for notice in j.service.pending_notices("alpha"):     # queued, then "crash" before marking
        courier.deliver(db, tokens, "alpha", notice)
    first = len(j.outbox())
    assert first > 0 and j.service.pending_notices("alpha")
    assert courier.run(db) == 0
    assert len(j.outbox()) == first and j.service.pending_notices("alpha") == []


def test_press_by_mail_goes_out_with_the_reply(tmp_path):
    j = MailJudge(tmp_path)
    j.seven_players()
    j.dispatch.courier = Courier(j.service, j.config)
    j.dispatch.courier.run(j.processor.context.db)
    sent = j.send("england@dip.test", "signon Ealpha england-pw\npress to france\nMeet in the Channel?\nendpress")
    to_france = [s for s in sent if s.to == ["france@dip.test"]]
    assert len(to_france) == 1 and "Meet in the Channel?" in to_france[0].body
    assert "england-pw" not in str(to_france[0].mail)
