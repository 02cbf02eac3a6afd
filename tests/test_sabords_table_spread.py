"""How far apart the equilibria found are (solver/sabords/game/table/spread.py), on a small
table: three dice, three players, target 500, scores floored at zero. Every equilibrium the
spread is computed from is certified again here from scratch, each start is checked to be the
play it names, and the tie rules' payoffs are checked against the state layout's columns."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from solver.sabords.game.points import points_play_outcomes
from solver.sabords.game.solved import load_game, with_play
from solver.sabords.game.table.equilibrium import TableSolver, regret
from solver.sabords.game.table.payoff import TIE_SHARE, TIES
from solver.sabords.game.table.rule import leader_play, rule_dist
from solver.sabords.game.table.spread import SAME, STARTS, equilibria, spread, start_play
from solver.sabords.game.table.states import NORMAL, TableSpec
from solver.sabords.game.table.ties import mover_ties
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules

RULES = load_rules(("score-floor-zero",)).with_dice(3)
SPEC = TableSpec.of(RULES, 3, 500)


@pytest.fixture(scope="module")
def found():
    two = with_play(load_game(GameSpec(RULES, 500)))
    runs = equilibria(SPEC, two)
    return two, runs, spread(runs)


def test_every_equilibrium_is_certified_from_scratch(found) -> None:
    """Each run's regret recomputed with regret() is below 1e-9 and within what the spread
    reports for it; the spread's numbers are the runs' own."""
    _, runs, sp = found
    assert [(r["start"], r["tie"]) for r in sp["runs"]] == [
        (start, tie) for tie in TIES for start in STARTS]
    for (start, tie, solution), row in zip(runs, sp["runs"], strict=True):
        assert (row["start"], row["tie"]) == (start, tie)
        recomputed = float(regret(solution).max())
        assert recomputed < 1e-9
        assert recomputed <= row["regret"] + 1e-15  # the reported certificate bounds it
        assert row["seat_wins"] == solution.seat_values().tolist()
    assert sp["regret"] == max(r["regret"] for r in sp["runs"]) < 1e-9
    opening = np.array([s.seat_values() for *_, s in runs])
    assert sp["opening"] == (opening.max(axis=0) - opening.min(axis=0)).tolist()
    states = np.array([s.values[:s.layout.states] for *_, s in runs])
    assert sp["anywhere"] == float((states.max(axis=0) - states.min(axis=0)).max())


def test_equilibria_are_counted_by_their_play(found) -> None:
    """Two runs share an equilibrium number exactly when their plays agree to SAME."""
    _, runs, sp = found
    numbers = [r["equilibrium"] for r in sp["runs"]]
    assert sp["equilibria"] == len(set(numbers))
    for i, j in itertools.combinations(range(len(runs)), 2):
        apart = float(np.abs(runs[i][2].dist - runs[j][2].dist).max())
        assert (numbers[i] == numbers[j]) == (apart <= SAME)
    assert [r["recomputed"] for r in sp["runs"]].count(True) == sp["equilibria"]


def test_each_start_is_the_play_it_names(found) -> None:
    """Stopped after its first step, policy iteration keeps the play it started from (the
    stages that repeat: normal play and the race): points play, or the rule's play, which
    differ; the two starts' iterations differ from the first step."""
    two, runs, _ = found
    solver = TableSolver(SPEC)
    layout = solver.layout
    rows = np.concatenate([np.arange(p.start, p.start + p.size)
                           for name, p in layout.phases.items() if name in (NORMAL, "race")])
    points = np.broadcast_to(points_play_outcomes(RULES), (layout.states, layout.deck.count))
    rule = rule_dist(layout, leader_play(two, layout.players))
    assert np.abs(rule[rows] - points[rows]).max() > 0.1  # the two starts are not the same play
    for start, play in (("points", points), ("leader", rule)):
        first = solver.solve(max_steps=1, settle_rounds=0, start=start_play(start, solver, two))
        assert np.array_equal(first.dist[rows], play[rows]), start
    by = {(start, tie): solution for start, tie, solution in runs}
    assert by["points", "engine"].stats["history"] != by["leader", "engine"].stats["history"]


def test_the_tie_rules_favour_the_player_they_name() -> None:
    """The mover's payoff of a next state: its last column (the mover), plus TIE_SHARE of its
    first (the player after the mover) under ``next``, of its second (the player before the
    mover, at three players) under ``previous``."""
    rng = np.random.default_rng(3)
    values = rng.random((50, 3))
    succ = rng.integers(0, 50, size=(7, 11))
    expected = {"engine": values[succ, 2], "next": values[succ, 2] + TIE_SHARE * values[succ, 0],
                "previous": values[succ, 2] + TIE_SHARE * values[succ, 1]}
    for tie in TIES:
        solver = TableSolver(SPEC, tie=tie)
        assert np.allclose(solver._pay(values, succ), expected[tie], rtol=0, atol=1e-16), tie


def test_each_equilibrium_counts_its_ties(found) -> None:
    """The spread's ties are the first run's equilibrium's (ties.mover_ties), and each run
    carries its equilibrium's count."""
    _, runs, sp = found
    assert sp["ties"] == mover_ties(runs[0][2])
    firsts = {}
    for (_, _, solution), row in zip(runs, sp["runs"], strict=True):
        firsts.setdefault(row["equilibrium"], mover_ties(solution)["turns"])
        assert row["ties"] == firsts[row["equilibrium"]]
