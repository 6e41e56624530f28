"""Private and unlisted games (judge.games.access): a join password, ALLOW and DENY lists, and
LIST leaving unlisted games out for strangers."""
from __future__ import annotations

import pytest

from judge.games.answers import AccessRules
from judge.games.model import GameError

from test_games_helpers import accounts, service


@pytest.fixture
def svc(tmp_path):
    svc, _ = service(tmp_path)
    accounts(svc, ["gm", "ann", "bob", "cy", "dee"])
    svc.create_game("secret", master="gm", settings={"players": "two", "unlisted": True})
    svc.create_game("open", master="gm", settings={"players": "two"})
    return svc


def test_a_public_game_takes_anyone_but_the_denied(svc):
    svc.set_access("open", deny=["bob"])
    with pytest.raises(GameError, match="has not allowed you to join"):
        svc.join("open", "bob")
    svc.join("open", "ann")


def test_a_private_game_takes_the_invited_and_those_with_its_join_password(svc):
    rules = svc.set_access("secret", password="letmein", allow=["ann"])
    assert rules == AccessRules(password=True, allow=("ann",), deny=())
    with pytest.raises(GameError, match="needs its join password"):
        svc.join("secret", "bob")
    with pytest.raises(GameError, match=r"\(that one is not it\)"):
        svc.join("secret", "bob", join_password="guess")
    svc.join("secret", "ann")                                   # invited: no password needed
    svc.join("secret", "bob", join_password="letmein")
    assert svc.status("secret").status == "active"           # two players: it started


def test_deny_wins_over_the_password_and_moves_a_name_off_the_allow_list(svc):
    svc.set_access("secret", password="letmein", allow=["cy"])
    svc.set_access("secret", deny=["cy"])
    assert svc.set_access("secret") == AccessRules(password=True, allow=(), deny=("cy",))
    with pytest.raises(GameError, match="has not allowed you"):
        svc.join("secret", "cy", join_password="letmein")
    svc.set_access("secret", clear_password=True, allow=["ann"])      # invitations only now
    with pytest.raises(GameError, match="only players its game master invites"):
        svc.join("secret", "dee", join_password="letmein")
    svc.set_access("secret", deny=["ann"])          # no password, nobody invited: public again
    svc.join("secret", "dee")


def test_the_password_is_kept_hashed_and_not_in_the_settings(svc, tmp_path):
    svc.set_access("secret", password="letmein")
    raw = (tmp_path / "var" / "games" / "secret.sqlite").read_bytes()
    assert b"letmein" not in raw and b"scrypt$" in raw
    assert "letmein" not in str(svc.status("secret"))


def test_list_leaves_unlisted_games_out_but_for_their_master_and_players(svc):
    names = lambda viewer=None, **kw: [g.name for g in svc.list_games(viewer, **kw)]  # noqa: E731
    assert names() == names("ann") == ["open"]
    assert names("gm") == names(all_games=True) == ["open", "secret"]
    svc.join("secret", "ann")
    svc.join("secret", "bob")
    assert names("ann") == ["open", "secret"] and names("cy") == ["open"]
