"""Painting pictures in processes of their own, one per core but the courier's, for a deadline rush.

    with PaintPool() as painters:
        future = painters.submit(job)      # a judge.pictures.jobs job; future.result() is its bytes

A picture is CPU work in Python, numpy and Pillow: on a thread beside the courier it shares one
interpreter with the courier's own work (rendering and queueing the mail). In processes it gets
the cores the courier does not use (one fewer than the machine's, at least one). The workers come
from a fork server that has imported the painting code once, so starting them costs little; each
loads a variant's atlas on its first picture of that variant and keeps it (with the board's pixel
classes and labels) for the rest of the pool's life.

A worker that dies (killed, out of memory) breaks the pool: every picture not painted yet is then
painted on a thread of this process instead, as without a pool, so no report waits for a picture
that will not come; a picture that fails to paint fails as it would here (the courier sends the
report without it). Leaving the `with` block waits for the pictures started and ends the workers.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import TypeVar

log = logging.getLogger("judge.pictures")

Painted = TypeVar("Painted")
PRELOAD = ["judge.pictures.jobs"]       # imported once by the fork server, so each worker starts warm


def cores() -> int:
    """The cores this process may run on (a container or `taskset` may allow fewer than the machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:      # (not on Linux)
        return os.cpu_count() or 1


class PaintPool:
    def __init__(self, workers: int | None = None) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        # one per core but the courier's: the courier (playing the games, rendering and queueing their
        # mail) is the longer half of a deadline rush now, and a second painter on two cores only took
        # turns with it on its core (issue 27's rush, 2026-11-27: 32.2 and 31.9 s with one painter,
        # 35.0 and 33.2 with two, alternated; each painter slows the others' memory too)
        workers = workers or max(1, cores() - 1)
        self._processes: ProcessPoolExecutor | None = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        self._here = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures-after-a-broken-pool")
        self._gone: list[ProcessPoolExecutor] = []     # a broken pool: closed with the rest (see close)

    def submit(self, job: Callable[[], Painted]) -> Future[Painted]:
        """Start painting `job` (picklable: a judge.pictures.jobs job) in a worker, or here once the
        pool has broken."""
        if self._processes is not None:
            try:
                painting = self._processes.submit(job)
            except BrokenProcessPool:
                self._broken()
            else:
                answer: Future[Painted] = Future()
                painting.add_done_callback(lambda done: self._settle(done, answer, job))
                return answer
        return self._here.submit(job)

    def _settle(self, done: Future[Painted], answer: Future[Painted], job: Callable[[], Painted]) -> None:
        """The worker's picture into `answer`; when the pool broke under it, painted here instead."""
        error = done.exception()
        if isinstance(error, BrokenProcessPool):
            log.warning("a picture painter process died; painting its pictures in the judge's own process")
            self._here.submit(job).add_done_callback(lambda again: _copy(again, answer))
        else:
            _copy(done, answer)

    def _broken(self) -> None:
        log.warning("the picture painter processes are gone; painting in the judge's own process")
        if self._processes is not None:
            self._gone.append(self._processes)
            self._processes = None

    def close(self) -> None:
        """Wait for the pictures started, then end the workers. The process pools first: their
        pictures lost to a dead worker are handed to the thread here as they settle."""
        for processes in [*self._gone, *([self._processes] if self._processes else [])]:
            processes.shutdown(wait=True)
        self._processes = None
        self._here.shutdown(wait=True)

    def __enter__(self) -> PaintPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _copy(done: Future[Painted], into: Future[Painted]) -> None:
    error = done.exception()
    if error is not None:
        into.set_exception(error)
    else:
        into.set_result(done.result())
