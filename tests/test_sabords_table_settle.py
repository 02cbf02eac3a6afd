"""Best responses that cycle, settled by mixing (solver/sabords/game/table/settle.py): the
projection it rests on, and a real cycling table (six dice, three players, target 400, lowest
score 0), whose mixed equilibrium is certified by the independent N-player reference's regret."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game.points import points_play_outcomes
from solver.sabords.game.table.compact import Plays
from solver.sabords.game.table.equilibrium import TableSolver, regret
from solver.sabords.game.table.linear import evaluate
from solver.sabords.game.table.payoff import TIES
from solver.sabords.game.table.settle import (
    Reduced,
    RestrictedGame,
    adopt_responses,
    project_simplex,
)
from solver.sabords.game.table.states import NORMAL, TableSpec
from solver.sabords.rules import load_rules
from tests.sabords_game_multi_reference import regret_n
from tests.test_sabords_table_reference import product_table

CYCLING = (6, 400, 0)  # dice, target, lowest score: policy iteration cycles at 3 states


def test_the_projection_is_the_nearest_point_of_the_simplex() -> None:
    """Against its optimality conditions: v - p = t + mu with mu >= 0 and mu_i p_i = 0."""
    rng = np.random.default_rng(7)
    for _ in range(500):
        v = rng.normal(size=rng.integers(1, 6)) * rng.choice([1e-6, 1.0, 1e3])
        p = project_simplex(v)
        assert p.min() >= 0.0 and p.sum() == pytest.approx(1.0, abs=1e-12)
        t = (v - p)[p > 0].mean()
        assert np.allclose((v - p)[p > 0], t, atol=1e-9 * max(1.0, np.abs(v).max()))
        assert np.all((v - p)[p == 0] <= t + 1e-9 * max(1.0, np.abs(v).max()))


def test_the_oracle_switches_a_state_once_then_mixes_it() -> None:
    """Between restricted games: a mixing state that gains gets a new candidate; any other
    switches its pure turn; a state switching a second time mixes every turn it played; an
    answer with nothing new changes nothing (settle stops there)."""
    e = np.eye(3)
    dist = Plays.of(e)  # state r plays outcome r
    rows = np.arange(3)
    cands: dict[int, list[np.ndarray]] = {0: [e[0], e[1]]}
    switched: dict[int, np.ndarray] = {}
    assert adopt_responses(dist, cands, switched, rows, np.array([True, True, False]),
                    Plays.of(e[[2, 2, 0]]))
    assert [int(c.argmax()) for c in cands[0]] == [0, 1, 2]
    assert dist[1].argmax() == 2 and switched[1].argmax() == 1
    assert dist[0].argmax() == 0 and dist[2].argmax() == 2  # a mixing state's play: the mix's
    assert adopt_responses(dist, cands, switched, rows, np.array([False, True, False]),
                    Plays.of(e[[0, 0, 0]]))
    assert 1 not in switched and sorted(int(c.argmax()) for c in cands[1]) == [0, 1, 2]
    before = {r: len(c) for r, c in cands.items()}
    assert not adopt_responses(dist, cands, switched, rows, np.array([True, True, False]),
                        Plays.of(e[[1, 2, 0]]))
    assert {r: len(c) for r, c in cands.items()} == before and not switched


@pytest.fixture(scope="module")
def cycling():
    """The cycling table, solved (policy iteration, then mixing)."""
    dice, target, low = CYCLING
    solver = TableSolver(TableSpec.of(load_rules(("score-floor-zero",)).with_dice(dice), 3,
                                      target, low))
    return solver, solver.solve(max_steps=12)


@pytest.mark.slow
def test_policy_iteration_cycles_there(cycling) -> None:
    """Without settling the best responses chase each other: the case needs mixing."""
    solver, _ = cycling
    pure = solver.solve(max_steps=12, settle_rounds=0)
    assert not pure.stats["converged"] and pure.stats["cycling"]
    assert pure.stats["regret"] > 1e-8


@pytest.mark.slow
def test_mixing_settles_the_cycle_with_a_certificate(cycling) -> None:
    solver, solution = cycling
    stats = solution.stats
    assert stats["converged"] and stats["regret"] <= 1e-12
    assert stats["mixed"], "a state mixes two turns"
    for m in stats["mixed"]:
        assert len(m["weights"]) >= 2 and all(0 < w < 1 for w in m["weights"])
        assert sum(m["weights"]) == pytest.approx(1.0, abs=1e-12)
    # a mixed state's mover is indifferent between the turns mixed: the mixture is worth the
    # weighted sum of its turns, none worth more than the best turn, which the regret bounds
    # the certificate recomputed: every turn solved again from scratch ...
    assert regret(solution).max() <= 1e-12
    # ... and by the independent reference's own turn solver
    dice, target, low = CYCLING
    mine = product_table(solution)
    regrets = regret_n(3, dice, target, low, mine, ("score-floor-zero",), strict=False)
    assert len(regrets) > 0.9 * len(mine)
    assert max(regrets.values()) < 1e-9 and min(regrets.values()) > -1e-9
    values = solution.values[:solution.layout.states]
    assert np.allclose(values.sum(axis=1), 1.0, atol=1e-12)



@pytest.mark.slow
def test_the_reduced_stage_is_the_stage_swept(cycling) -> None:
    """The restricted game's values without sweeps (settle.Reduced: the stage affine in the
    mixing rows' values) equal the stage swept to convergence, for mixes the solve never
    played: each mixing row's turn blended with points play's."""
    solver, solution = cycling
    layout = solver.layout
    stage = next(s for s in layout.stages() if s.names == (NORMAL,))
    order = solver._order(stage)
    rows = [int(r) for r in layout.index(NORMAL, [[2, 2, 2], [2, 2, 1], [3, 1, 0]])]
    values, dist = solution.values.copy(), solution.dist.copy()
    reduced = Reduced(values, dist, solver.succ, order, rows)
    points = points_play_outcomes(layout.spec.rules)
    for share in (0.0, 0.3, 1.0):
        mix = (1 - share) * dist[rows] + share * points
        dist[rows] = mix
        evaluate(values, order, solver.succ, dist)
        swept = np.roll(values[solver.succ[rows]], 1, axis=2)
        assert np.abs(reduced.next_values(mix)[0] - swept).max() < 1e-13
    assert share == 1.0 and np.abs(swept - np.roll(solution.values[solver.succ[rows]], 1,
                                                   axis=2)).max() > 1e-6  # the mix mattered


def _blended_game(cycling) -> tuple[RestrictedGame, np.ndarray]:
    """The restricted game of three of the cycling table's states, each blending its turn
    with points play's, and a mix of them."""
    solver, solution = cycling
    layout = solver.layout
    stage = next(s for s in layout.stages() if s.names == (NORMAL,))
    rows = [int(r) for r in layout.index(NORMAL, [[2, 2, 2], [2, 2, 1], [3, 1, 0]])]
    points = points_play_outcomes(layout.spec.rules)
    game = RestrictedGame(solution.values.copy(), solution.dist.copy(), solver.succ,
                          solver._order(stage), rows,
                          [np.array([solution.dist[r], points]) for r in rows])
    return game, np.array([0.7, 0.3, 0.4, 0.6, 0.2, 0.8])


@pytest.mark.slow
def test_the_gain_jacobian_is_the_gains_derivative(cycling) -> None:
    """Newton's Jacobian (RestrictedGame.gain_jacobian, by the reduced system's inverse)
    against central differences of the candidates' values."""
    game, x = _blended_game(cycling)
    game.play(x)
    jac = game.gain_jacobian(x)
    h = 1e-5
    for i in range(len(x)):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        game.play(up)
        q_up = np.concatenate(game.gains())
        game.play(down)
        q_down = np.concatenate(game.gains())
        assert np.abs((q_up - q_down) / (2 * h) - jac[:, i]).max() < 1e-8
    assert np.abs(jac).max() > 1e-4  # the weights move the values


@pytest.mark.parametrize("tie", TIES)
def test_the_restricted_game_and_its_oracle_share_one_objective(tie) -> None:
    """A candidate's value in the restricted game (settle.RestrictedGame.gains, what settling
    mixes by) is its value to the oracle (the best responses' payoff, TableSolver._pay), under
    every tie rule: under ``next`` and ``previous`` that is the mover's own value plus
    TIE_SHARE of the favoured player's, which differs from the own value alone by more than
    the comparison's tolerance. Small table: three dice, target 300, floor 0; candidates the
    turns of points play and of the mover's best response, mixed 0.6 / 0.4."""
    spec = TableSpec.of(load_rules(("score-floor-zero",)).with_dice(3), 3, 300)
    solver = TableSolver(spec, tie=tie)
    layout = solver.layout
    dist = np.ascontiguousarray(np.broadcast_to(points_play_outcomes(spec.rules),
                                                (layout.states, layout.deck.count)))
    values = solver.play(dist)
    stage = next(s for s in layout.stages() if s.names == (NORMAL,))
    rows = [int(r) for r in layout.index(NORMAL, [[1, 1, 2], [2, 0, 1], [0, 2, 2]])]
    store = solver.lanes.storage(len(rows))
    best = solver.lanes.solve(solver._pay(values, solver.succ[rows]), np.arange(len(rows)),
                              store, 1e-14, distribution=True).dist
    candidates = [np.array([dist[r], best[a]]) for a, r in enumerate(rows)]
    assert min(np.abs(c[0] - c[1]).max() for c in candidates) > 1e-3  # two different turns
    game = RestrictedGame(values.copy(), dist.copy(), solver.succ, solver._order(stage), rows,
                          candidates, solver.weights)
    x = np.tile([0.6, 0.4], len(rows))
    game.commit(x)  # the table's values at the mix, by sweeps
    oracle = solver._pay(game.table, solver.succ[rows])
    expected = np.concatenate([c @ pay for c, pay in zip(candidates, oracle, strict=True)])
    assert np.abs(np.concatenate(game.gains()) - expected).max() < 1e-15
    game.play(x)  # the same mix by the reduced stage
    assert np.abs(np.concatenate(game.gains()) - expected).max() < 1e-13
    own = np.concatenate([c @ game.table[solver.succ[r], layout.players - 1]
                          for c, r in zip(candidates, rows, strict=True)])
    if tie == "engine":
        assert np.array_equal(expected, own)
    else:  # the share is there, and far above the tolerances used
        assert np.abs(expected - own).min() > 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("tie", ["next", "previous"])
def test_settling_under_a_tie_rule_keeps_the_certificate(cycling, tie) -> None:
    """Under ``next`` and ``previous`` the mixing state is settled on the tie rule's payoff
    (the oracle's): the solve's regret, on that payoff, is as small as the engine rule's, and
    the certificate (regret(): the mover's own value alone, every turn solved again) stays
    below 1e-12; the mix moves from the engine rule's by no more than the share can."""
    _, engine = cycling
    dice, target, low = CYCLING
    solver = TableSolver(TableSpec.of(load_rules(("score-floor-zero",)).with_dice(dice), 3,
                                      target, low), tie=tie)
    solution = solver.solve(max_steps=12)
    assert solution.stats["converged"] and solution.stats["regret"] <= 1e-14
    assert regret(solution).max() <= 1e-12
    mixed = [m["scores"] for m in solution.stats["mixed"]]
    assert mixed == [m["scores"] for m in engine.stats["mixed"]]
    for ours, theirs in zip(solution.stats["mixed"], engine.stats["mixed"], strict=True):
        assert np.abs(np.array(ours["weights"]) - theirs["weights"]).max() < 1e-6
    assert np.abs(solution.values - engine.values).max() < 1e-9


@pytest.mark.slow
def test_the_residual_jacobian_is_the_residuals_derivative(cycling) -> None:
    """Newton's Jacobian of the equilibrium condition and of the logit path
    (RestrictedGame.residual_jacobian, exact) against central differences of the residual."""
    game, x = _blended_game(cycling)
    game.play(x)
    spread = max(float(np.ptp(q)) for q in game.gains())
    for tau in (0.0, spread, 0.1 * spread):
        game.play(x)
        jac = game.residual_jacobian(x, tau)
        h = 1e-7
        for i in range(len(x)):
            up, down = x.copy(), x.copy()
            up[i] += h
            down[i] -= h
            diff = (game.at(up, tau) - game.at(down, tau)) / (2 * h)
            assert np.abs(diff - jac[:, i]).max() < 1e-5 * max(1.0, np.abs(jac).max())
        if tau:
            assert np.abs(jac - np.eye(len(x))).max() > 1e-5  # the values answer the weights


@pytest.mark.slow
def test_settling_keeps_the_round_with_the_lowest_regret(monkeypatch) -> None:
    """A round whose regret is no lower than the lowest before ends settling, and the play of
    the lowest round is the answer, with its values: here the oracle's answer after round 1
    is spoiled (a state outside the mix made to play points play's turn), so round 2 is
    worse; the answer is round 1's play, certified from scratch, the spoiled state's turn
    restored."""
    from solver.sabords.game.table import equilibrium
    from solver.sabords.game.table import settle as settle_module

    dice, target, low = CYCLING
    solver = TableSolver(TableSpec.of(load_rules(("score-floor-zero",)).with_dice(dice), 3,
                                      target, low))
    points = points_play_outcomes(solver.layout.spec.rules)
    real_settle, real_adopt = settle_module.settle, settle_module.adopt_responses
    spoiled: dict[int, np.ndarray] = {}

    def spoil(dist, cands, switched, rows, gains, best_dist) -> bool:
        changed = real_adopt(dist, cands, switched, rows, gains, best_dist)
        if not spoiled:
            differ = np.abs(dist[rows] - points).max(axis=1) > 1e-6
            row = next(int(r) for r in rows[differ] if int(r) not in cands)
            spoiled[row] = dist[row].copy()
            dist[row] = points
        return changed

    def strict(values, dist, succ, order, respond, rows, seen, tol, *args):
        # round 1 reaches about 1e-16: below 1e-20 it goes on to round 2
        return real_settle(values, dist, succ, order, respond, rows, seen, 1e-20, *args)

    monkeypatch.setattr(settle_module, "adopt_responses", spoil)
    monkeypatch.setattr(equilibrium, "settle", strict)
    solution = solver.solve(max_steps=12)
    assert solution.stats["settle_rounds"] == 2 and len(spoiled) == 1
    (row, turn), = spoiled.items()
    assert np.array_equal(solution.dist[row], turn)
    assert solution.stats["regret"] <= 1e-14
    assert regret(solution).max() <= 1e-12
