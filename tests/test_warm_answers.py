"""What a warm answer keeps between requests (the web server's hot path), checked against
answers worked out from scratch: the turn solved at a position (kept per table object and
position), the whole-game tables the server read from the cache (kept per entry), and each
solved turn's action values and bust chances (kept per solution). A small game (target 500,
lowest score -300) in a cache folder of this module's own."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game.solved import load_game
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules

RULES = load_rules(())


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("TREASURE_CACHE", str(tmp_path_factory.mktemp("warm-cache")))
    mp.setattr("solver.sabords.game.two_player.DEFAULT_LOW", -300)
    yield GameSpec(RULES, 500, -300)
    mp.undo()


def test_a_kept_turn_is_the_turn_solved_again(spec):
    """The second question at a position gets the very turn the first solved, read only; it
    equals a fresh solve; another table object (the same game read again) solves its own;
    and a hold answered from the kept turn is the one answered from a fresh solve."""
    from solver.sabords.game.advice import (
        _payoffs,
        card_turn_by_payoffs,
        card_turn_values,
        game_hold,
        hold_by_payoffs,
    )

    table = load_game(spec)
    first = card_turn_values(table, "captain", 200, 300, "normal")
    again = card_turn_values(table, "Kapitän", 200, 300, "normal")  # the same card
    assert all(a is b for a, b in zip(first, again, strict=True))
    _, pay, sol = first
    for array in (pay, sol.value, sol.action_value):
        with pytest.raises(ValueError):
            array[0] = 0.0

    def pay_of(own, loss, win):
        return _payoffs(table, "normal", 200, 300, own, loss, win)

    _, fresh_pay, fresh = card_turn_by_payoffs(RULES, "captain", pay_of)
    assert np.array_equal(pay, fresh_pay)
    assert np.array_equal(sol.value, fresh.value)
    assert np.array_equal(sol.action_value, fresh.action_value)
    other = card_turn_values(load_game(spec), "captain", 200, 300, "normal")
    assert other[2] is not sol and np.array_equal(other[2].value, sol.value)
    other_position = card_turn_values(table, "captain", 300, 200, "normal")
    assert not np.array_equal(other_position[1], pay)

    for dice in ("CCDMPSXX", "CCCCDDSX", "MMMPPSSX"):
        kept = game_hold(table, "captain", 200, 300, "normal", dice)
        solved = hold_by_payoffs(RULES, "captain", dice, pay_of,
                                 {"me": 200, "opponent": 300, "phase": "normal"})
        assert kept == solved


def test_the_server_reads_a_cached_table_once(spec):
    """GameTables gives the same table object for the same cached game (so the turns kept
    for it are found again), with the values the cache holds."""
    from solver.web.builds import Builds
    from solver.web.tables import GameTables

    cached = load_game(spec)  # built here if no test before built it
    tables = GameTables(Builds())
    table = tables(spec)
    assert tables(spec) is table
    assert np.array_equal(table.normal, cached.normal)


@pytest.mark.parametrize("card", ["sorceress", "treasure-island", "captain"])
def test_action_table_reads_the_solutions_kept_values(card):
    """action_table's values and bust chances, read from what the solution keeps, are the
    engine's worked out again for the state (two modes for the Sorceress, the chest's bonus
    for Treasure Island)."""
    from solver.engine.stopping import action_values
    from solver.sabords.objective import Objective
    from solver.sabords.turn.solve import action_table, solve_turn

    sol = solve_turn(card, Objective("points"), RULES, use_cache=False)
    problem = sol.model.problem
    values = action_values(problem, sol.value)
    busts = problem.space.expect(np.stack([(~problem.live).astype(float), sol.bust]))
    states = np.unique(np.stack([problem.act_mode, problem.act_state]), axis=1).T
    for mode, state in states[:: max(1, len(states) // 60)]:
        rows = np.flatnonzero((problem.act_mode == mode) & (problem.act_state == state))
        keep, nxt = problem.act_keep[rows], problem.act_next[rows]
        expected = list(zip(rows.tolist(), values[rows].tolist(),
                            busts[0][nxt, keep].tolist(), busts[1][nxt, keep].tolist(),
                            strict=True))
        assert action_table(sol, int(mode), int(state)) == expected


def test_the_server_makes_a_gold_armada_game_once_per_reading():
    """The server's Gold Armada game is made once per reading, and a turn answered with it
    (its lattice and stages already worked out by earlier answers) is the one a new game
    gives."""
    from solver.armada.advice import hold
    from solver.armada.game import Game
    from solver.web.tables import armada_game

    game = armada_game(())
    assert armada_game(()) is game
    for dice, rolls in (("BBOPA", 2), ("CCMMA", 1), ("BOPAC", 0)):
        fresh = hold(Game.load(None, ()), "0000000000/0", rolls, dice, "turn")
        assert hold(game, "0000000000/0", rolls, dice, "turn") == fresh
