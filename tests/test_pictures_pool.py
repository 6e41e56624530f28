"""judge/pictures/pool.py and the courier's rush: pictures painted in processes of their own are the
pictures painted here; a picture that fails there, or a worker that dies, loses no report."""
import functools
import operator
import os
import signal

from judge.mail.outbound.courier import Courier
from judge.pictures import picture_of_phase
from judge.pictures.games import phase_painter
from judge.pictures.pool import PaintPool
from judge.storage.db import open_db

from mailjudge import MailJudge


def _played(j: MailJudge) -> None:
    j.seven_players()
    j.service.mark_notices_queued("alpha", [n.id for n in j.service.pending_notices("alpha")])  # (the start's)
    j.service.process("alpha")


def _results(j: MailJudge) -> list:
    return [s for s in j.outbox() if "Spring 1901 Movement results" in s.subject]


def _png(sent) -> bytes | None:
    parts = [p for p in sent.mail.iter_attachments() if p.get_content_type() == "image/png"]
    return parts[0].get_content() if parts else None


def test_the_courier_in_a_rush_paints_in_processes_the_same_picture(tmp_path):
    j = MailJudge(tmp_path)
    _played(j)
    Courier(j.service, j.config, pool_from=1).run(open_db(j.config.db_path))   # one game is a rush here
    results = _results(j)
    assert len(results) == 8
    assert {_png(s) for s in results} == {picture_of_phase(j.service, "alpha", "S1901M")}


def test_a_picture_failing_in_its_process_leaves_the_reports_queued_without_it(tmp_path, caplog):
    j = MailJudge(tmp_path)
    _played(j)
    courier = Courier(j.service, j.config, pool_from=1)
    # a job that raises where it is painted (picklable, so it goes to the painter process)
    courier._painter = lambda *a, **k: ("alpha-S1901M.png", functools.partial(operator.truediv, 1, 0))
    courier.run(open_db(j.config.db_path))
    results = _results(j)
    assert len(results) == 8 and all(_png(s) is None for s in results)
    assert j.service.pending_notices("alpha") == []
    assert "no picture for notice" in caplog.text


def test_a_painter_process_that_dies_leaves_its_pictures_to_this_process(tmp_path):
    j = MailJudge(tmp_path)
    _played(j)
    job = phase_painter(j.service, "alpha", "S1901M")
    with PaintPool(workers=1) as painters:
        worker = painters.submit(os.getpid).result()
        assert worker != os.getpid()
        os.kill(worker, signal.SIGKILL)
        assert painters.submit(job).result() == job()     # painted here now, the same picture
        assert painters.submit(os.getpid).result() == os.getpid()
