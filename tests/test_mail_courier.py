"""judge/mail/outbound/courier.py: pending notices into the outbox, once each, with the secret reply address."""
from judge.mail.outbound.courier import Courier
from judge.mail.screening.tokens import ReplyTokens
from judge.mail.words.notices import render_notice
from judge.storage.db import open_db

from mailjudge import POWERS, MailJudge
from test_games_helpers import orders


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


def _results_mails(j: MailJudge) -> list:
    return [s for s in j.outbox() if "Spring 1901 Movement results" in s.subject]


def test_results_mail_carries_the_board_picture_after_the_text(tmp_path):
    j = MailJudge(tmp_path)
    j.seven_players()
    courier = Courier(j.service, j.config)
    db = open_db(j.config.db_path)
    j.service.submit_orders("alpha", "FRANCE", orders("A PAR - BUR", "F BRE - MAO"), account="france")
    j.service.process("alpha")
    courier.run(db)
    mails = _results_mails(j)
    assert len(mails) == 8   # seven players and the master, each with the same picture
    for sent in mails:
        m = sent.mail
        assert m.get_content_type() == "multipart/mixed"
        text, picture = m.iter_parts()
        assert text.get_content_type() == "text/plain" and "Army Paris -> Burgundy" in text.get_content()
        assert picture.get_content_type() == "image/png" and picture.get_filename() == "alpha-S1901M.png"
        png = picture.get_content()
        assert png.startswith(b"\x89PNG") and len(png) < 200_000
    assert len({s.mail.get_payload()[1].get_content() for s in mails}) == 1


def test_a_game_without_pictures_gets_text_only(tmp_path):
    j = MailJudge(tmp_path)
    j.seven_players()
    j.service.set_settings("alpha", pictures=False)
    j.service.process("alpha")
    Courier(j.service, j.config).run(open_db(j.config.db_path))
    mails = _results_mails(j)
    assert mails and all(s.mail.get_content_type() == "text/plain" for s in mails)


def test_the_game_end_mail_carries_the_centre_chart(tmp_path):
    j = MailJudge(tmp_path)
    j.seven_players()
    j.service.process("alpha")
    for p in POWERS:
        j.service.vote_draw("alpha", p.lower())
    Courier(j.service, j.config).run(open_db(j.config.db_path))
    ends = [s for s in j.outbox() if s.mail.get_content_type() == "multipart/mixed"
            and s.mail.get_payload()[1].get_filename() == "alpha-centres.png"]
    assert len(ends) == 8 and all("draw" in s.body.lower() for s in ends)


def test_a_games_storage_stays_small_after_results_mails(tmp_path):
    """Each phase's picture is stored once for all its recipients, and each results notice names the
    stored result rather than carrying a copy of it."""
    import sqlite3

    j = MailJudge(tmp_path)
    j.seven_players()
    courier = Courier(j.service, j.config)
    db = open_db(j.config.db_path)
    j.service.submit_orders("alpha", "FRANCE", orders("A PAR - BUR", "F BRE - MAO"), account="france")
    for _ in range(3):                       # S1901M, F1901M, W1901A: three results mails to eight people
        j.service.process("alpha")
        courier.run(db)
    mails = [s for s in j.outbox() if s.mail.get_content_type() == "multipart/mixed" and "results" in s.subject]
    assert len(mails) == 24 and "Army Paris -> Burgundy" in _results_mails(j)[0].body
    pictures = {s.mail.get_payload()[1].get_content() for s in mails}
    assert len(pictures) == 3
    parts, part_bytes, texts, largest = db.execute(
        "SELECT (SELECT count(*) FROM outbox_parts), (SELECT sum(length(part)) FROM outbox_parts),"
        " (SELECT count(*) FROM outbox WHERE part_id IS NOT NULL), (SELECT max(length(raw)) FROM outbox)").fetchone()
    assert parts == 3 and texts == 24 and largest < min(len(p) for p in pictures)
    assert part_bytes < 1.4 * sum(len(p) for p in pictures)      # base64 and MIME headers, once per phase
    with sqlite3.connect(tmp_path / "var" / "games" / "alpha.sqlite") as game:
        results = game.execute("SELECT sum(length(result)) FROM phases").fetchone()[0]
        notices = game.execute("SELECT payload FROM notices WHERE kind = 'results'").fetchall()
    assert len(notices) == 27                # eight people and the public copy, three times
    assert all('"outcomes"' not in p for (p,) in notices) and all('"results_of"' in p for (p,) in notices)
    assert max(len(p) for (p,) in notices) < results / 3


def test_a_results_notice_stored_before_carries_its_results_itself_and_reads_the_same(tmp_path):
    """Notices written before `results_of` hold a copy of the results: they still render the same."""
    import json
    import sqlite3

    from judge.mail.words.notices import render_notice
    from judge.mail.words.reports import Reports

    j = MailJudge(tmp_path)
    j.seven_players()
    j.service.submit_orders("alpha", "FRANCE", orders("A PAR - BUR", "F BRE - MAO"), account="france")
    j.service.process("alpha")
    reports = Reports()
    new = {
        n.id: render_notice(reports, j.service, n) for n in j.service.pending_notices("alpha") if n.kind == "results"
    }
    with sqlite3.connect(tmp_path / "var" / "games" / "alpha.sqlite") as game:
        for nid, payload in game.execute("SELECT id, payload FROM notices WHERE kind = 'results'").fetchall():
            old = json.loads(payload)
            seq = old.pop("results_of")
            old["results"] = json.loads(game.execute("SELECT result FROM phases WHERE seq = ?", [seq]).fetchone()[0])[
                "results"
            ]
            game.execute("UPDATE notices SET payload = ? WHERE id = ?", [json.dumps(old), nid])
    old = {n.id: render_notice(reports, j.service, n) for n in j.service.pending_notices("alpha")
           if n.kind == "results"}
    assert len(new) == 9 and old == new
    assert all("Army Paris -> Burgundy" in r.body for r in old.values())


def test_a_notice_of_a_kind_this_judge_does_not_know_does_not_stop_the_others(tmp_path):
    """A kind stored by a later version is read as its text (NoticeKind knows it not); its notice
    has no template and fails alone, while every other notice of the game goes out."""
    import sqlite3

    from judge.games.answers import NoticeKind

    j = MailJudge(tmp_path)
    j.seven_players()
    with sqlite3.connect(tmp_path / "var" / "games" / "alpha.sqlite") as game:
        odd = game.execute("SELECT id FROM notices WHERE recipient = 'france'").fetchone()[0]
        game.execute("UPDATE notices SET kind = 'from_the_future' WHERE id = ?", [odd])
    kinds = {n.id: n.kind for n in j.service.pending_notices("alpha")}
    assert kinds[odd] == "from_the_future" and not isinstance(kinds[odd], NoticeKind)
    assert all(isinstance(k, NoticeKind) for i, k in kinds.items() if i != odd)
    courier = Courier(j.service, j.config)
    queued = courier.run(open_db(j.config.db_path))
    to = {s.to[0] for s in j.outbox()}
    assert queued == len(to) and to == {f"{p.lower()}@dip.test" for p in POWERS if p != "FRANCE"} | {"gm@dip.test"}
    assert [n.id for n in j.service.pending_notices("alpha")] == [odd]     # tried again later, then set aside


def test_several_games_notices_go_into_the_outbox_in_one_commit_then_are_marked(tmp_path, monkeypatch):
    """A rush: the notices of QUEUED_TOGETHER games commit to the judge file together (one sync), and
    only then is each game's notices marked queued; a mark lost (no sync of its own) queues nothing twice."""
    from judge.mail.outbound import courier as courier_module
    monkeypatch.setattr(courier_module, "QUEUED_TOGETHER", 2)
    j = MailJudge(tmp_path)
    j.seven_players("alpha")
    for game in ("beta", "gamma"):
        j.service.create_game(game, master="gm")
        for p in POWERS:
            j.service.join(game, p.lower(), [p])
    courier = Courier(j.service, j.config)
    db = open_db(j.config.db_path)
    commits, marked = [], []
    db.conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    mark = j.service.mark_notices_queued

    def marking(game, ids, **how):
        marked.append((game, len(commits), how))
        with open_db(j.config.db_path) as look:     # its mails are on disk, in the outbox, before the mark
            assert look.conn.execute("SELECT count(*) FROM outbox").fetchone()[0] > 0
        return mark(game, ids, **how)
    monkeypatch.setattr(j.service, "mark_notices_queued", marking)
    queued = courier.run(db)
    assert queued == len(j.outbox()) == 3 * 8      # seven players and the master in each game
    assert [m[:2] for m in marked] == [("alpha", 1), ("beta", 1), ("gamma", 2)]   # two commits for three games
    assert all(m[2] == {"durable": False} for m in marked)
    for game in ("alpha", "beta", "gamma"):     # every mark lost, as a power cut could lose them
        with open_db(j.service.data / "games" / f"{game}.sqlite") as file:
            file.conn.execute("UPDATE notices SET queued_at = NULL")
    j.service.sync_index()
    assert courier.run(db) == 0 and len(j.outbox()) == queued
    assert all(j.service.pending_notices(game) == [] for game in ("alpha", "beta", "gamma"))


def test_a_notice_nobody_is_to_read_is_marked_queued_without_being_rendered(tmp_path):
    j = MailJudge(tmp_path)
    j.seven_players("alpha")       # nobody watches: the public copy has no reader (an observer's: the first test)
    rendered = []

    def render(reports, service, notice):
        rendered.append(notice.recipient)
        return render_notice(reports, service, notice)
    queued = Courier(j.service, j.config, render=render).run(open_db(j.config.db_path))
    assert None not in rendered and "france" in rendered and "gm" in rendered
    assert queued == len(j.outbox()) == len(rendered) == 8
    assert j.service.pending_notices("alpha") == []
