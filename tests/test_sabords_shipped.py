"""The command line reads the shipped two-player table (proofs/sabords/game-6000.json) for a
position or a hold when the cache does not hold the table, as the web server does, instead of
solving the game again; the headline, which needs the solve's statistics, still solves."""

from __future__ import annotations

import pytest

import solver.sabords.game.solved as game
from solver.sabords.answers import game_table
from solver.sabords.game.solved import shipped_table
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules


def test_a_position_reads_the_shipped_table(monkeypatch) -> None:
    spec = GameSpec(load_rules(), 6000)
    shipped = shipped_table(spec)
    assert shipped is not None, "proofs/sabords/game-6000.json is stale: make solve"

    def no_solve(*args, **kwargs):
        raise AssertionError("the command line solved the game instead of reading the "
                             "shipped table")

    monkeypatch.setattr(game, "load_game", no_solve)
    table = game_table()(spec)
    assert table.win(5400, 5900) == shipped.win(5400, 5900)
    with pytest.raises(AssertionError, match="solved the game"):
        game_table()(spec, headline=True)


def test_other_games_are_not_the_shipped_one() -> None:
    assert shipped_table(GameSpec(load_rules(), 5000)) is None
    assert shipped_table(GameSpec(load_rules(("nine-as-set",)), 6000)) is None
