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


@pytest.mark.parametrize("seed, n, must", [
    (77, 12, ["swap-adjacent"]),
    (78, 12, ["swap-adjacent", "flight"]),
    (79, 5, ["swap-adjacent", "swap-adjacent", "flight"]),
])
def test_bound_never_exceeds_the_exact_optimum(seed, n, must):
    """Every route with k swaps (k = the swap cards in hand) is matched by the relaxation or,
    when its last swap only moves payments around, by a route with fewer swaps."""
    k = must.count("swap-adjacent")
    for q in _queries(seed, n, must):
        if q.position.hunters[q.hunter].at == q.position.island.treasure:
            continue
        relaxed = CpRouter(q, relax_swaps=True, min_swaps=k)
        relaxed.solve()
        exact = CpRouter(q, swaps=k)
        exact.solve()
        fewer = CpRouter(q, swaps=k - 1)
        fewer.solve()
        assert min(relaxed.bound, fewer.objective) <= exact.objective, [c.name for c in q.hand]
