"""Seeded self-play of the solved policies agrees with the tables within 4 standard errors."""

from __future__ import annotations

import numpy as np
import pytest

from solver.armada.exact import exact_game
from solver.armada.game import default_game
from solver.armada.simulate import self_play
from solver.armada.wholegame import solve_table


def within(results: np.ndarray, exact: float, sigmas: float = 4.0) -> bool:
    se = results.std(ddof=1) / np.sqrt(len(results))
    return abs(results.mean() - exact) < sigmas * se


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["solo", "duel"])
def test_reduced_board_self_play_matches_exact(objective):
    game = default_game().reduced(piers=["parrots", "three-of-a-kind", "full-house"], skulls=3)
    exact = float(exact_game(game, objective)(*game.opening))
    table = solve_table(game, objective)
    assert table[0, 0] == pytest.approx(exact, abs=1e-12)
    assert within(self_play(game, table, objective, 20000, seed=11), exact)


@pytest.mark.slow
def test_full_board_solitaire_self_play():
    game = default_game()
    table = solve_table(game, "solo")
    results = self_play(game, table, "solo", 3000, seed=2017)
    assert within(results, float(table[0, 0]))
    assert 40 < table[0, 0] < 60
