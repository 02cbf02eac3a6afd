"""The rounds of ``cp_route`` against the whole model: round k asks only for routes with
exactly k swaps, strictly better than the best so far, so its answer must be the optimum of
the model with a layer for every swap card (exact by itself, and slow)."""

from __future__ import annotations

import pytest

from solver.dragon.bench import three_swap_queries
from solver.dragon.route import INF
from solver.dragon.route_search import replay
from solver.dragon.router.model import CpRouter
from solver.dragon.router.rounds import cp_route

QUERIES = three_swap_queries(6)  # make bench's three-swap hands, the first six


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(QUERIES)))
def test_rounds_reach_the_whole_models_optimum(index):
    q = QUERIES[index]
    best = cp_route(q)
    whole = CpRouter(q)
    assert whole.facts.n_swaps == 3
    exact = whole.solve()
    assert best.optimal and exact.optimal
    assert best.value == exact.value, [c.name for c in q.hand]
    assert replay(q, best.plan) == (best.value, best.reachable)


@pytest.mark.slow
def test_a_round_with_no_better_route_has_none():
    """The exactly-k model below the best value is infeasible when round k cannot improve;
    with the bar one higher it finds a route with exactly k swaps, or is infeasible too."""
    q = QUERIES[0]
    best = cp_route(q)
    weight = int(q.position.island.model.hand_size) + 1
    objective = weight * best.value[0] + best.value[1]
    for k in (1, 2, 3):
        model = CpRouter(q, swaps=k, exact_swaps=True)
        model.solve(upper=objective - 1)
        assert model.objective > objective - 1
        found = CpRouter(q, swaps=k, exact_swaps=True)
        result = found.solve()
        if result.remaining is not None:
            assert sum(move.action == "swap" for move in result.plan) == k


@pytest.mark.slow
def test_a_completed_proposal_is_the_bar_for_the_round():
    """Hand #25 of the bench: round 1's proposal, completed, is a real route of three cards
    (better than the best without swaps, above the bound of 2), so round 1 asks only for
    routes with one swap that beat it. The answer is still the whole model's optimum."""
    q = three_swap_queries(26)[25]
    best = cp_route(q)
    exact = CpRouter(q).solve()
    assert best.optimal and exact.optimal
    assert best.value == exact.value == (0, 3)
    assert replay(q, best.plan) == (best.value, best.reachable)


@pytest.mark.parametrize("index", [0, 2, 6])
def test_a_relaxation_not_solved_again_answers_as_a_fresh_solve(index):
    """A relaxation raised to k swap cards is not solved again when its last solution
    already plays k (``CpRouter.unchanged``): its answer must be a fresh model's. Hand 2's
    plain bound rises with each swap card required (1, 2, 3), so reusing an answer that
    plays too few would fail here; hand 6's solution plays all three, so it is reused."""
    q = three_swap_queries(7)[index]
    router = CpRouter(q, relax_swaps=True, min_swaps=1, sources=False)
    router.solve()
    reused = 0
    for k in (2, 3):
        router.require_swaps(k)
        known = router.unchanged()
        fresh = CpRouter(q, relax_swaps=True, min_swaps=k, sources=False)
        fresh_result = fresh.solve()
        if known is None:
            router.solve(again=True)
        else:
            reused += 1
            assert known.value == fresh_result.value
        assert router.objective == fresh.objective
    assert reused == {0: 1, 2: 0, 6: 2}[index]
    # below the bar it would be solved under, the answer is "no route", as solve says
    if reused:
        assert router.unchanged(upper=router.objective - 1).remaining is None
        assert router.objective == INF
