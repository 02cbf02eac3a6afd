"""``make bench``'s query sets for Die Dracheninsel are what its report says they are: the
three-swap hands hold exactly three swap cards, the mixes in turn, and the same seed gives
the same queries; each route reports its CP-SAT work, and the bench its spread."""

from __future__ import annotations

from collections import Counter

import pytest

from solver.dragon.bench import THREE_SWAP_MIXES, THREE_SWAP_QUERIES, three_swap_queries, timed
from solver.dragon.router.model import CpRouter
from solver.dragon.router.rounds import cp_route


def _swaps(q) -> Counter:
    return Counter(use for card in q.hand for use in ("swap-adjacent", "swap-any")
                   if card.does(use))


def test_three_swap_hands_hold_exactly_three_swap_cards():
    queries = three_swap_queries()
    assert len(queries) == THREE_SWAP_QUERIES
    for i, q in enumerate(queries):
        assert len(q.hand) == 6
        assert _swaps(q) == Counter(THREE_SWAP_MIXES[i % len(THREE_SWAP_MIXES)])
        q.position.validate("bench position")


def test_the_same_seed_gives_the_same_queries():
    first, again = three_swap_queries(10, 7), three_swap_queries(10, 7)
    assert [(q.hunter, q.hand, q.position.tiles) for q in first] == [
        (q.hunter, q.hand, q.position.tiles) for q in again]
    other = three_swap_queries(10, 8)
    assert [q.hand for q in first] != [q.hand for q in other]


def test_a_routes_work_is_cp_sats_deterministic_time_over_its_models():
    """``RouteResult.work`` sums CP-SAT's deterministic time over every model a query solves:
    the same on a second run (so the bench's work figures compare across machines and loads),
    and more than the first model's alone when the query goes on to rounds with swaps. CP-SAT's
    own figure can differ in the last bit between runs in one process, hence the 1e-9."""
    q = three_swap_queries(2)[1]
    first, again = cp_route(q), cp_route(q)
    assert first.work > 0 and first.work == pytest.approx(again.work, rel=1e-9, abs=0)
    swapless = CpRouter(q, swaps=0)
    swapless.solve()
    assert first.work > swapless.work > 0


def test_the_bench_reports_wall_cpu_and_work_apart():
    figures = timed(three_swap_queries(2), "two hands")
    for key in ("wall_s", "cpu_s", "work"):
        spread = figures[key]
        assert 0 <= spread["median"] <= spread["p95"] <= spread["worst"]
    assert figures["work"]["worst"] > 0
    assert figures["proved"] == 2 and 0 <= figures["proved_within_2s"] <= 2


def test_the_bench_counts_the_routes_a_spent_budget_leaves_unproved():
    """Hand #0 is proved within 0.02 units of work, hand #1 needs more."""
    hands = three_swap_queries(2)
    assert [cp_route(q).work > 0.02 for q in hands] == [False, True]
    figures = timed(hands, "two hands within a small budget", budget=0.02)
    assert figures["proved"] == 1


def test_the_bench_counts_the_routes_a_deadline_cuts_short():
    """A deadline within the router's reserve is past once the swap-free model is solved: both
    hands, which go on to rounds with swaps, reach it and are answered unproved."""
    figures = timed(three_swap_queries(2), "two hands within a deadline past at once",
                    deadline=1e-3)
    assert figures["deadline_reached"] == 2 and figures["proved"] == 0
