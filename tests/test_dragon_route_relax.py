"""The router's swap relaxation is a relaxation: its bound never exceeds the exact optimum of
the routes it bounds, with the joker sources named (one or two swap cards of either kind) or
not (three); routes it leaves out are matched by routes with fewer swaps."""

from __future__ import annotations

import random

import pytest

from solver.dragon.bench import queries
from solver.dragon.board import default_island
from solver.dragon.randgen import random_hand, random_position
from solver.dragon.route import RouteQuery
from solver.dragon.route_cpsat import CpRouter
from solver.dragon.route_rounds import cp_route
from solver.dragon.route_search import replay


def _queries(seed: int, n: int, must: list[str]) -> list[RouteQuery]:
    island = default_island()
    rng = random.Random(seed)
    out = []
    limit = {use: must.count(use) for use in ("swap-adjacent", "swap-any")}
    for _ in range(n):
        pos, mover = random_position(island, rng)
        hand = random_hand(rng, 6, must=must, limit=limit)
        out.append(RouteQuery(pos, mover, hand))
    return out


@pytest.mark.parametrize("seed, n, must", [
    (77, 12, ["swap-adjacent"]),
    (78, 12, ["swap-adjacent", "flight"]),
    (79, 5, ["swap-adjacent", "swap-adjacent", "flight"]),
    (80, 6, ["swap-any", "flight"]),
    (81, 3, ["swap-adjacent", "swap-any", "flight"]),
    # few cards that move: the goal is often out of reach, and tokens count
    (82, 10, ["swap-adjacent", "curse", "ambush", "slumber"]),
])
def test_bound_never_exceeds_the_exact_optimum(seed, n, must):
    """Every route with k swaps (k = the swap cards in hand) is matched by the relaxation or,
    when its last swap only moves payments around, by a route with fewer swaps."""
    k = must.count("swap-adjacent") + must.count("swap-any")
    for q in _queries(seed, n, must):
        if q.position.hunters[q.hunter].at == q.position.island.treasure:
            continue
        exact = CpRouter(q, swaps=k)
        exact.solve()
        for j in range(1, k + 1):  # the bound on routes with at least j swaps
            relaxed = CpRouter(q, relax_swaps=True, min_swaps=j)
            relaxed.solve()
            fewer = CpRouter(q, swaps=j - 1)
            fewer.solve()
            assert min(relaxed.bound, fewer.objective) <= exact.objective, (
                j, [c.name for c in q.hand])


def test_a_token_whose_source_ends_the_turn_was_paid_for_there():
    """The turn ends on the token's source g, so the swap came before the hunter entered g,
    which then held the continuation's tile: that entry is paid. Entering g free (as the
    relaxation once allowed) put its bound at 17 (two fields still to go, three cards) where
    the best route with a swap is worth 18 (four cards)."""
    q = queries(200, 1)[71]  # grey hunter: flight, two Zerstörende Kräfte, forest+desert
    relaxed = CpRouter(q, relax_swaps=True, min_swaps=1)
    relaxed.solve()
    best = cp_route(q)  # a real route with two swaps, worth 18: the bound cannot exceed it
    assert replay(q, best.plan) == ((1, 4), False)
    assert sum(e["action"] == "swap" for e in best.plan) == 2
    assert relaxed.bound == 18
