"""The daemon's two hooks for the mail judge: `dispatch` (judge.mail.commands.dispatch) and `tick`
(the games' scheduler, then the courier), built from one configuration and one GameService."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import nullcontext
from datetime import datetime, timezone

from ..config import Config
from ..games.service import GameService
from ..storage.db import open_db
from ..storage.open_files import games_kept_open
from .outbound import trouble_mail
from .outbound.courier import Courier
from .commands.dispatch import Dispatch


class Tick:
    """Every tick: play what is due in every game, the courier queueing each game's notices as the
    later games are played (a pipeline: see __call__)."""

    def __init__(self, service: GameService, courier: Courier, config: Config) -> None:
        self.service, self.courier, self.config = service, courier, config
        self._local = threading.local()      # one judge-file connection per thread that calls it

    def __repr__(self) -> str:
        return "GameService.play_due, each game's news queued by the courier as it is played"

    def __call__(self, now: float) -> None:
        # `now` is the daemon's clock, the moment up to which it has read all stored mail: the
        # games play what is due by then, at then (a whole second, as game times are kept).
        at = datetime.fromtimestamp(int(now), timezone.utc)
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = open_db(self.config.db_path)
        due = self.service.due_games(at)

        def played() -> Iterator[str]:
            # a pipeline: each game is played when the courier reads ahead for its next game to queue,
            # so its picture is painted (in processes of their own in a rush) and its mail queued
            # while the later games are played, on the cores that would otherwise wait
            for name, _ in self.service.play_due(at, due):
                yield name
            self.service.offer_open_powers(at)
            trouble_mail.tell(self.config, db)      # a game held or found damaged: its master and the keeper now

        # a rush: game files closed and phases synced on threads of their own (GameService.rush)
        with self.service.rush() if len(due) >= self.courier.pool_from else nullcontext():
            self.courier.run(db, first=played(), rush=len(due))

    def due(self, now: float) -> bool:
        """Is some game due by `now`, e.g. its last orders just came in? Then the daemon ticks at once
        instead of at its next turn, so a phase that need not wait is played within the second."""
        return bool(self.service.due_games(datetime.fromtimestamp(int(now), timezone.utc), limit=1))


def build_hooks(config: Config, service: GameService | None = None) -> tuple[Dispatch, Tick]:
    # judge.sqlite made durable once per mail (daemon.Processor); the games in play kept open
    service = service or GameService(config.data_dir, judge_synchronous="NORMAL", keep_open=games_kept_open())
    # (the game files changed since the index saw them are swept by the daemon's worker once it
    # takes mail: Dispatch.prepare)
    courier = Courier(service, config)
    return Dispatch(service, config, courier=courier), Tick(service, courier, config)
