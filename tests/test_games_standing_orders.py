"""The orders standing before an order mail's are stored (GameService.standing_orders): the same
orders and "has builds or removals to order" as the power's full confirmation says, which the
dispatcher no longer makes before the store only to read those two. In-process, on real files."""
from __future__ import annotations

import pytest

from judge.games.answers import NoSuchPower
from judge.games.model import GameError
from test_games_helpers import seven_player_game, service, submit


def test_the_standing_orders_are_the_confirmations_own(tmp_path):
    svc, _ = service(tmp_path)
    seven_player_game(svc, "alpha")
    assert svc.standing_orders("alpha", "russia") == ((), False)
    submit(svc, "alpha", "RUSSIA", "A War - Ukr", "F Sev - Bla")
    submit(svc, "alpha", "RUSSIA", "A War H")       # a later mail replaces Warsaw's order
    told = svc.confirmation("alpha", "RUSSIA")
    standing, adjusting = svc.standing_orders("alpha", "RUSSIA")
    assert standing == told.orders and [o["written"] for o in standing] == ["F Sev - Bla", "A War H"]
    assert adjusting is (told.adjustment is not None) is False
    # none for a power or a phase that is not there
    with pytest.raises(NoSuchPower):
        svc.standing_orders("alpha", "NARNIA")
    svc.create_game("beta", master="gm")
    with pytest.raises(GameError):
        svc.standing_orders("beta", "RUSSIA")
