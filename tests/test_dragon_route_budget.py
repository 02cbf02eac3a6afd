"""The route budget (``cp_route(budget=...)``, ``route.WORK_BUDGET``): CP-SAT's deterministic work
for a whole query. Not spent, it changes nothing; spent, the answer is a real route, no better
than the optimum, marked not proved optimal, and the same on every run. The deadline
(``cp_route(deadline=...)``, ``route.DEADLINE``), its wall-clock twin, the same but for the
last clause: where it falls depends on the machine."""

from __future__ import annotations

from solver.dragon.bench import three_swap_queries
from solver.dragon.route_search import replay
from solver.dragon.router.model import CpRouter
from solver.dragon.router.rounds import DEADLINE_RESERVE, cp_route

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


def test_a_deadline_not_reached_changes_nothing():
    exact = cp_route(HAND)
    late = cp_route(HAND, deadline=600.0)
    assert _same(late, exact) and not late.deadline_reached and not exact.deadline_reached


def test_a_deadline_past_at_once_answers_the_just_in_time_route():
    """A deadline within the reserve kept for the answer is past once the swap-free model is
    solved (that model always is: the answer needs a route): no round is started, and the
    just-in-time search's route is the answer, as when the budget is spent at once."""
    by_budget = cp_route(HAND, budget=1e-9)
    cut = cp_route(HAND, deadline=DEADLINE_RESERVE / 2)
    assert cut.deadline_reached and not cut.optimal
    assert replay(HAND, cut.plan) == (cut.value, cut.reachable)
    assert _same(cut, by_budget)
    assert cut.work == by_budget.work  # the swap-free model's work, and no other


def test_a_deadline_within_a_model_answers_a_real_route():
    """A deadline that may fall anywhere in the rounds (a few hundredths of a second after
    the reserve: within a model on most machines): whatever it cuts, the answer is a real
    route, no better than the optimum, and not claimed optimal once the deadline is reached;
    CP-SAT stops at the deadline (the answer comes within it, a generous allowance for the
    just-in-time search and a busy machine added)."""
    exact = cp_route(HAND)
    for extra in (0.02, 0.05, 0.1):
        cut = cp_route(HAND, deadline=DEADLINE_RESERVE + extra)
        assert replay(HAND, cut.plan) == (cut.value, cut.reachable)
        assert cut.value >= exact.value
        assert not (cut.deadline_reached and cut.optimal)
        assert cut.optimal or cut.deadline_reached
        assert cut.seconds < DEADLINE_RESERVE + extra + 5.0
