"""What a deadline rush shares between mails (issue 27) changes no mail: a results report made once
for the copies of one phase reads, in every copy, as rendering that copy alone would; the accounts
one courier run reads once are read again by the next run; the painter's nearest palette entry is
the exact nearest."""
import numpy as np

from judge.engine import load_variant
from judge.engine.notation import parse_order
from judge.mail.outbound.courier import Courier, OneRead, RunAccounts
from judge.mail.words import results_report
from judge.mail.words.notices import render_notice
from judge.mail.words.reports import Reports
from judge.pictures.paint_png import _nearest, _rgb
from judge.storage.db import open_db

from mailjudge import MailJudge, POWERS

MOVES = {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"]}


def _played(j: MailJudge, game: str, moves: dict[str, list[str]]) -> None:
    variant = load_variant("standard")
    if game == "alpha":
        j.seven_players(game)
    else:           # the same seven players in a second game
        j.service.create_game(game, master="gm")
        for p in POWERS:
            j.service.join(game, p.lower(), [p])
    j.service.mark_notices_queued(game, [n.id for n in j.service.pending_notices(game)])   # (the start's)
    for power, orders in moves.items():
        j.service.submit_orders(game, power, [(t, parse_order(variant, t)) for t in orders], account=power.lower())
    j.service.process(game)


def _forget_shared() -> None:
    results_report._REPORTS.clear()
    results_report._SECTIONS.clear()
    results_report._TEXTS.clear()


def test_each_copy_of_a_shared_results_report_reads_as_rendered_alone(tmp_path):
    j = MailJudge(tmp_path)
    _played(j, "alpha", {})             # every unit holds
    _played(j, "beta", MOVES)           # another board: its copies must not take alpha's report
    reports = Reports()
    notices = [(g, n) for g in ("alpha", "beta") for n in j.service.pending_notices(g)
               if n.kind.value == "results"]
    half = len(notices) // 2
    assert half == 9 and notices[half][0] == "beta"       # seven players, the master, the public
    _forget_shared()
    alone = []
    for _, notice in notices:
        alone.append(render_notice(reports, j.service, notice))
        _forget_shared()
    # interleaved, the games' copies one after another, sharing what they may
    order = [i for pair in zip(range(half), range(half, 2 * half), strict=True) for i in pair]
    shared = {i: render_notice(reports, OneRead(j.service), notices[i][1]) for i in order}
    assert [shared[i] for i in range(2 * half)] == alone
    # each player's copy lists its own power first where the units stand
    england = next(r for (_, n), r in zip(notices, alone, strict=True) if n.recipient == "england")
    stand = england.body.split("Where the units stand")[1]
    assert stand.split("\n")[1].strip().startswith("England:")
    assert "Burgundy" in alone[half].body and alone[half].body != alone[0].body


def test_a_courier_run_reads_each_account_once_and_the_next_run_reads_it_again(tmp_path):
    j = MailJudge(tmp_path)
    _played(j, "alpha", {})
    read = []
    accounts = RunAccounts(j.service.accounts)
    real_get = j.service.accounts.get
    accounts._accounts = type("Counting", (), {"get": lambda self, name: read.append(name) or real_get(name)})()
    assert accounts.get("england") is accounts.get("england") and read == ["england"]
    assert accounts.zone_of("england") == "Asia/Tokyo" and accounts.zone_of(None) is None
    assert accounts.zone_of("nobody") is None and read == ["england", "nobody"]
    db = open_db(j.config.db_path)
    Courier(j.service, j.config).run(db)
    first = {tuple(s.to) for s in j.outbox() if "results" in s.subject}
    assert ("england@dip.test",) in first
    j.service.accounts.replace_address("england", "england@elsewhere.test", j.service.clock())
    last = j.last_outbox_row()
    _played(j, "beta", {})
    Courier(j.service, j.config).run(db)
    later = {tuple(s.to) for s in j.outbox(after=last) if "results" in s.subject}
    assert ("england@elsewhere.test",) in later and ("england@dip.test",) not in later


def test_the_nearest_palette_entry_is_the_exact_nearest_ties_to_the_first():
    rng = np.random.default_rng(27)
    table = np.unique(rng.integers(0, 1 << 24, 200))
    table = np.concatenate([table, table[:3]])          # (a colour twice: its first entry)
    keys = np.concatenate([rng.integers(0, 1 << 24, 3000), table[:50], [0, (1 << 24) - 1]])
    got = _nearest(keys, table, _rgb(table))
    rgb, palette = _rgb(keys).astype(np.int64), _rgb(table).astype(np.int64)
    distance = ((rgb[:, None, :] - palette[None, :, :]) ** 2).sum(axis=2)
    assert (got == distance.argmin(axis=1)).all()       # argmin: the first of equals
    assert (got[3000:3050] == np.arange(50)).all()
