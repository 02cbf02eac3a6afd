"""The router's starting route (``router.primal``) and its reuse of models across rounds.

The just-in-time search is a heuristic: whatever it returns must be a real route (replayed
through the rulebook to the value it claims) and never better than the optimum; ``cp_route``
stays exact with it (its answers against the whole model and the exhaustive search). A
relaxation solved again with more swap cards required must bound as one built for them.
"""

from __future__ import annotations

import time

import pytest

from solver.dragon.bench import three_swap_queries
from solver.dragon.route_search import TurnSearch, replay
from solver.dragon.router.model import CpRouter
from solver.dragon.router.primal import JustInTimeSearch, primal_route
from solver.dragon.router.rounds import cp_route

QUERIES = three_swap_queries(31)  # make bench's three-swap hands


@pytest.mark.parametrize("index", [4, 6, 14, 25, 30])
def test_the_starting_route_is_real(index):
    """Hands #4 and #25 end with swap cards freeing the way on, then walk it for nothing."""
    q = QUERIES[index]
    found = primal_route(q)
    assert found is not None and not found.optimal
    assert replay(q, found.plan) == (found.value, found.reachable)


@pytest.mark.parametrize("index", range(6))
def test_swaps_just_in_time_are_legal_moves(index):
    """Every move the just-in-time search offers is one the rulebook offers, in the states
    after each first move."""
    q = QUERIES[index]
    rules, jit = TurnSearch(q), JustInTimeSearch(q)
    states = [rules.initial()] + [nst for _, nst, _ in rules.successors(rules.initial())][:20]
    for st in states:
        legal = {(m.key(), nst) for m, nst, _ in rules.successors(st)}
        offered = {(m.key(), nst) for m, nst, _ in jit.successors(st)}
        assert offered <= legal
        assert any(m.action == "swap" for m, _ in offered) or not any(
            m.action == "swap" for m, _ in legal)


@pytest.mark.parametrize("index", [6, 30])
@pytest.mark.parametrize("sources", [False, "strict"])
def test_a_model_solved_again_with_more_swaps_is_the_model_built_for_them(index, sources):
    """Round k solves round k-1's relaxation (or proposal) again, requiring k swap cards: the
    same optimum as the model built with ``min_swaps=k``."""
    q = QUERIES[index]
    strict = sources == "strict"
    reused = CpRouter(q, relax_swaps=True, min_swaps=1, sources=False, strict=strict)
    reused.solve()
    for k in (2, 3):
        reused.require_swaps(k)
        again = reused.solve(again=True)
        fresh = CpRouter(q, relax_swaps=True, min_swaps=k, sources=False, strict=strict)
        built = fresh.solve()
        assert again.optimal and built.optimal
        assert reused.objective == fresh.objective


@pytest.mark.slow
@pytest.mark.parametrize("index", [6, 14, 30])
def test_the_starting_route_is_no_better_than_the_optimum(index):
    """On #6, #14 and #30 it is the optimum: #14's round 1 then stops at the relaxation's
    bound."""
    q = QUERIES[index]
    found, best = primal_route(q), cp_route(q)
    assert best.optimal
    assert found.value == best.value
    assert replay(q, best.plan) == (best.value, best.reachable)


@pytest.mark.slow
def test_rounds_started_from_the_search_reach_the_whole_models_optimum():
    """Hand #14: the just-in-time route meets round 1's bound; the whole model (a layer for
    every swap card) agrees."""
    q = QUERIES[14]
    best = cp_route(q)
    exact = CpRouter(q).solve()
    assert best.optimal and exact.optimal
    assert best.value == exact.value


def test_a_deadline_cuts_the_just_in_time_search_to_a_real_route():
    """Stopped by a deadline already past, the search answers from the states taken by then
    (the start: the turn ended at once, the end's greedy swaps played), a real route marked
    so; a deadline far off changes nothing."""
    q = three_swap_queries(39)[38]
    cut = primal_route(q, deadline=time.perf_counter() - 1.0)
    assert cut.deadline_reached and replay(q, cut.plan) == (cut.value, cut.reachable)
    whole, late = primal_route(q), primal_route(q, deadline=time.perf_counter() + 600.0)
    assert not whole.deadline_reached and not late.deadline_reached
    assert (late.value, late.plan) == (whole.value, whole.plan)
