"""The router's swap relaxation is a relaxation: its bound never exceeds the exact optimum of
the routes it bounds, with the joker sources named (one or two Zerstörende Kräfte) or not;
routes it leaves out are matched by routes with fewer swaps."""

from __future__ import annotations

import random

import pytest

from solver.dragon.board import default_island
from solver.dragon.randgen import random_hand, random_position
from solver.dragon.route import RouteQuery
from solver.dragon.route_cpsat import CpRouter


def _queries(seed: int, n: int, must: list[str]) -> list[RouteQuery]:
    island = default_island()
    rng = random.Random(seed)
    out = []
    swaps = must.count("swap-adjacent")
    for _ in range(n):
        pos, mover = random_position(island, rng)
        hand = random_hand(rng, 6, must=must, limit={"swap-adjacent": swaps, "swap-any": 0})
        out.append(RouteQuery(pos, mover, hand))
    return out


@pytest.mark.parametrize("must", [["swap-adjacent"], ["swap-adjacent", "flight"]])
def test_bound_never_exceeds_the_exact_one_swap_optimum(must):
    for q in _queries(77 if len(must) == 1 else 78, 12, must):
        if q.position.hunters[q.hunter].at == q.position.island.treasure:
            continue
        relaxed = CpRouter(q, relax_swaps=True, min_swaps=1)
        relaxed.solve()
        exact = CpRouter(q, swaps=1)
        exact.solve()
        fewer = CpRouter(q, swaps=0)
        fewer.solve()
        # every route with one swap is matched by the relaxation, or (a swap that only moves
        # payments around) by a route without swaps
        assert min(relaxed.bound, fewer.objective) <= exact.objective, [c.name for c in q.hand]


def test_two_card_bound_never_exceeds_the_exact_two_swap_optimum():
    for q in _queries(79, 5, ["swap-adjacent", "swap-adjacent", "flight"]):
        if q.position.hunters[q.hunter].at == q.position.island.treasure:
            continue
        relaxed = CpRouter(q, relax_swaps=True, min_swaps=2)
        relaxed.solve()
        exact = CpRouter(q, swaps=2)
        exact.solve()
        fewer = CpRouter(q, swaps=1)
        fewer.solve()
        assert min(relaxed.bound, fewer.objective) <= exact.objective, [c.name for c in q.hand]
