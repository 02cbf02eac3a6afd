"""The route budget (``cp_route(budget=...)``, ``route.WORK_BUDGET``): CP-SAT's deterministic work
for a whole query. Not spent, it changes nothing; spent, the answer is a real route, no better
than the optimum, marked not proved optimal, and the same on every run."""

from __future__ import annotations

from solver.dragon.bench import three_swap_queries
from solver.dragon.route_search import replay
from solver.dragon.router.model import CpRouter
from solver.dragon.router.rounds import cp_route

# make bench's three-swap hand #38: proved optimal in about a quarter unit of work, by
# several models after the swap-free one
HAND = three_swap_queries(39)[38]


def _same(a, b) -> bool:
    return (a.value, a.reachable, a.optimal, [m.key() for m in a.plan]) == (
        b.value, b.reachable, b.optimal, [m.key() for m in b.plan])


def test_a_budget_not_spent_changes_nothing():
    exact = cp_route(HAND)
    assert exact.optimal and exact.work > 0.05
    assert _same(cp_route(HAND, budget=exact.work * 10), exact)


def test_a_spent_budget_answers_a_real_route_not_proved_optimal():
    exact = cp_route(HAND)
    cut = cp_route(HAND, budget=0.01)
    assert not cut.optimal
    assert cut.work < exact.work
    assert replay(HAND, cut.plan) == (cut.value, cut.reachable)
    assert cut.value >= exact.value
    assert _same(cp_route(HAND, budget=0.01), cut)  # deterministic: the same answer again


def test_a_budget_spent_at_once_still_answers_the_just_in_time_route():
    """The swap-free model has the whole work limit (the answer needs a route); the budget
    then spent before any round, the just-in-time search (no CP-SAT work) is still asked, and
    its route beats the swap-free one here (the goal reached with two cards, where the turn
    without swaps ends two terrain cards short)."""
    swap_free = CpRouter(HAND, swaps=0)
    swap_free.solve()
    cut = cp_route(HAND, budget=1e-9)
    assert not cut.optimal and cut.remaining is not None
    assert replay(HAND, cut.plan) == (cut.value, cut.reachable)
    assert cut.value < swap_free.answer.value
