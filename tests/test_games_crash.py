"""Kill the judge at every step of processing and restart it: each phase is played exactly once and
each report is queued exactly once.

The test runs this file as a separate process that plays the due games and drains the notices into
an outbox (as the mail layer does), and kills itself with SIGKILL at its N-th checkpoint. Then it
runs it again without killing and checks the files, against a run that was never killed. For every
checkpoint those processes are forked from one that imported the judge once (_fork_each); the kills
at random moments start each afresh.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOW = "2026-03-10T00:00:00Z"  # long after every deadline set up below
GAMES = ("crash-a", "crash-b")


def _run_judge(data: Path, kill_at: int) -> None:
    """The process under test: start-up sweep, drain, play what is due, drain."""
    sys.path.insert(0, str(HERE))
    from judge.games.clock import ManualClock
    from judge.games.service import GameService
    from test_games_helpers import Outbox

    seen = 0

    def checkpoint(name: str) -> None:
        nonlocal seen
        seen += 1
        if seen == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    svc = GameService(data / "var", clock=ManualClock(NOW), checkpoint=checkpoint)
    svc.sync_index()
    outbox = Outbox(data / "outbox.sqlite", checkpoint=checkpoint)
    outbox.drain(svc)
    while svc.run_due():
        pass
    outbox.drain(svc)
    print(json.dumps({"checkpoints": seen}))


def _setup(data: Path) -> None:
    from test_games_helpers import service, seven_player_game, submit
    svc, clock = service(data)
    for name in GAMES:
        seven_player_game(svc, name)
        submit(svc, name, "FRANCE", "A PAR - BUR", "A MAR - SPA", "F BRE - MAO")
        submit(svc, name, "GERMANY", "A MUN - RUH", "F KIE - DEN")
    svc.judge.close()


def _spawn(data: Path, kill_at: int) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, __file__, str(data), str(kill_at)], capture_output=True, text=True,
                          timeout=120, cwd=HERE.parent)


def _fork_each(requests) -> None:
    """For each request read ('data kill_at'), _run_judge in a process forked from this one, with its
    exit status (negative: the signal that ended it) written back, its output in data.out and data.err.
    This process imports the judge's modules once and runs nothing itself, so each child starts as a
    fresh interpreter would, less the start-up and the imports (a second each, most of this test's
    time); each child is a process of its own, killed for real."""
    sys.path.insert(0, str(HERE))
    import judge.games.service  # noqa: F401 - imported once, before forking
    import test_games_helpers  # noqa: F401
    for request in requests:
        data, kill_at = request.split()
        pid = os.fork()
        if pid == 0:                # the child: its output to files, then the judge's run
            for fd, suffix in ((1, ".out"), (2, ".err")):
                os.dup2(os.open(data + suffix, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
            status = 0
            try:
                _run_judge(Path(data), int(kill_at))
            except BaseException:
                traceback.print_exc()
                status = 1
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
        print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)


class Forks:
    """A process that forks a judge for each run (_fork_each); runs answer as subprocess.run would."""

    def __enter__(self) -> Forks:
        self.server = subprocess.Popen([sys.executable, __file__, "--fork-each"], cwd=HERE.parent, text=True,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        return self

    def __exit__(self, *exc) -> None:
        self.server.stdin.close()
        self.server.wait(timeout=60)

    def run(self, data: Path, kill_at: int) -> subprocess.CompletedProcess:
        self.server.stdin.write(f"{data} {kill_at}\n")
        self.server.stdin.flush()
        status = self.server.stdout.readline()
        assert status, "the forking process exited"
        out, err = (Path(f"{data}{suffix}").read_text() for suffix in (".out", ".err"))
        return subprocess.CompletedProcess([str(data), str(kill_at)], int(status), out, err)


def _state(data: Path) -> dict:
    """Everything that must come out the same however often the judge was killed."""
    out: dict = {"games": {}}
    for name in GAMES:
        db = sqlite3.connect(data / "var" / "games" / f"{name}.sqlite")
        out["games"][name] = {
            "phases": db.execute("SELECT seq, phase, position, processed_at IS NOT NULL, rolled_back "
                                 "FROM phases ORDER BY seq").fetchall(),
            "results": db.execute("SELECT seq, result FROM phases WHERE result IS NOT NULL").fetchall(),
            "notices": db.execute("SELECT id, payload FROM notices ORDER BY id").fetchall(),
            "unqueued": db.execute("SELECT count(*) FROM notices WHERE queued_at IS NULL").fetchone()[0],
            "powers": db.execute("SELECT power, status, missed FROM powers ORDER BY power").fetchall(),
            "next_event_at": db.execute("SELECT next_event_at FROM game").fetchone()[0],
        }
        db.close()
    judge = sqlite3.connect(data / "var" / "judge.sqlite")
    out["index"] = judge.execute("SELECT name, phase, next_event_at, pending_notices FROM game_index "
                                 "ORDER BY name").fetchall()
    judge.close()
    box = sqlite3.connect(data / "outbox.sqlite")
    out["outbox"] = box.execute("SELECT message_id FROM outbox ORDER BY message_id").fetchall()
    box.close()
    return out


def _check_exactly_once(state: dict) -> None:
    notice_ids = []
    for name, game in state["games"].items():
        phases = [(p[1], p[3]) for p in game["phases"]]
        assert phases == [("S1901M", 1), ("F1901M", 0)], (name, phases)
        assert game["unqueued"] == 0
        notice_ids += [n[0] for n in game["notices"]]
    assert sorted(f"<{i}@judge.test>" for i in notice_ids) == [r[0] for r in state["outbox"]]
    assert [(i[0], i[1], i[3]) for i in state["index"]] == [(g, "F1901M", 0) for g in GAMES]
    assert [i[2] for i in state["index"]] == [state["games"][g]["next_event_at"] for g in GAMES]


def test_killed_at_every_checkpoint_the_phase_and_reports_happen_exactly_once(tmp_path):
    sys.path.insert(0, str(HERE))
    template = tmp_path / "template"
    _setup(template)
    reference = tmp_path / "reference"
    shutil.copytree(template, reference)
    with Forks() as judges:
        done = judges.run(reference, 0)
        assert done.returncode == 0, done.stderr
        total = json.loads(done.stdout)["checkpoints"]
        expected = _state(reference)
        _check_exactly_once(expected)
        assert total >= 2 * 6  # every step of two phases, plus the drains

        for kill_at in range(1, total + 1):
            data = tmp_path / f"kill-{kill_at}"
            shutil.copytree(template, data)
            killed = judges.run(data, kill_at)
            assert killed.returncode == -signal.SIGKILL, (kill_at, killed.stderr)
            again = judges.run(data, 0)
            assert again.returncode == 0, (kill_at, again.stderr)
            state = _state(data)
            _check_exactly_once(state)
            assert state == expected, kill_at
            shutil.rmtree(data)


def test_killed_at_random_moments_while_it_runs(tmp_path):
    """The same, with SIGKILL from outside at random times (the checkpoints cannot cover SQLite's own steps)."""
    sys.path.insert(0, str(HERE))
    template = tmp_path / "template"
    _setup(template)
    reference = tmp_path / "reference"
    shutil.copytree(template, reference)
    started = time.monotonic()
    assert _spawn(reference, 0).returncode == 0
    # Kill times are drawn within the length of a whole run as measured here, so that a fast or a
    # loaded machine alike gets runs cut short; runs that finished anyway still count as checks.
    whole_run = time.monotonic() - started
    expected = _state(reference)
    rng = random.Random(4)
    killed = attempts = 0
    while killed < 4 and attempts < 12:
        data = tmp_path / f"random-{attempts}"
        attempts += 1
        shutil.copytree(template, data)
        proc = subprocess.Popen([sys.executable, __file__, str(data), "0"], cwd=HERE.parent,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.1, 0.8) * whole_run)
        proc.send_signal(signal.SIGKILL)
        killed += proc.wait() == -signal.SIGKILL
        assert _spawn(data, 0).returncode == 0
        assert _state(data) == expected, attempts
    assert killed >= 2  # most runs were cut short somewhere, not left to finish


if __name__ == "__main__":
    if sys.argv[1:] == ["--fork-each"]:
        _fork_each(sys.stdin)
    else:
        _run_judge(Path(sys.argv[1]), int(sys.argv[2]))
