"""The router's swap relaxation is a relaxation: its bound never exceeds the exact optimum of
the routes it bounds, with the joker sources named (one or two swap cards of either kind) or
the free tiles' travel counted (three or more); routes it leaves out are matched by routes
with fewer swaps."""

from __future__ import annotations

import random

import pytest

from solver.dragon.board import default_island
from solver.dragon.randgen import random_hand, random_position
from solver.dragon.route import RouteQuery
from solver.dragon.route_search import replay
from solver.dragon.router.model import CpRouter
from solver.dragon.router.rounds import cp_route
from tests.dragon_pinned import pinned
from tests.test_dragon_route_vs_search import instances


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


def _assert_bounds(q: RouteQuery, k: int, optimum: int) -> None:
    """For j = 1..k, the bound on routes with at least j swaps, or else the best route with
    fewer swaps, is no more than the optimum."""
    for j in range(1, k + 1):
        relaxed = CpRouter(q, relax_swaps=True, min_swaps=j)
        relaxed.solve()
        fewer = CpRouter(q, swaps=j - 1)
        fewer.solve()
        assert min(relaxed.bound, fewer.objective) <= optimum, (j, [c.name for c in q.hand])


@pytest.mark.slow
@pytest.mark.parametrize("seed, n, must", [
    (77, 12, ["swap-adjacent"]),
    (78, 12, ["swap-adjacent", "flight"]),
    (79, 5, ["swap-adjacent", "swap-adjacent", "flight"]),
    (80, 6, ["swap-any", "flight"]),
    (81, 3, ["swap-adjacent", "swap-any", "flight"]),
    # three swap cards: the free tiles' travel (``router.travel``)
    (83, 4, ["swap-adjacent", "swap-adjacent", "swap-adjacent", "flight"]),
    (84, 4, ["swap-adjacent", "swap-adjacent", "swap-any", "flight"]),
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
        _assert_bounds(q, k, exact.objective)


@pytest.mark.slow
def test_a_token_whose_source_ends_the_turn_was_paid_for_there():
    """The turn ends on the token's source g, so the swap came before the hunter entered g,
    which then held the continuation's tile: that entry is paid. Entering g free (as the
    relaxation once allowed) put its bound at 17 (two fields still to go, three cards) where
    the best route with a swap is worth 18 (four cards)."""
    q = pinned("bench-1-71")  # grey hunter: flight, two Zerstörende Kräfte, forest+desert
    relaxed = CpRouter(q, relax_swaps=True, min_swaps=1)
    relaxed.solve()
    best = cp_route(q)  # a real route with two swaps, worth 18: the bound cannot exceed it
    assert replay(q, best.plan) == ((1, 4), False)
    assert sum(e.action == "swap" for e in best.plan) == 2
    assert relaxed.bound == 18


@pytest.mark.slow
def test_a_chained_source_leaves_no_joker_off_its_first_swap():
    """Brown (farmland) flies from its boat onto -3,2 and pays the landing with a joker whose
    tile comes by a chain: farmland from -1,2 onto -2,2 by the first swap, then onto -3,2 by
    the last. That first swap touches -2,2 and -1,2 only, so it cannot also serve a joker on
    -1,1 (water). The relaxation once let it, because -1,1 is another field beside -2,2 that
    could have been the first swap's partner: its bound on routes with two swaps was 3, below
    the real optimum 4."""
    q = pinned("bench-11-187")  # flight, two Zerstörende Kräfte, Weite Reise, water, fright
    relaxed = CpRouter(q, relax_swaps=True, min_swaps=2)
    relaxed.solve()
    best = cp_route(q)
    assert replay(q, best.plan) == ((0, 4), True)  # the treasure field, four cards
    assert relaxed.bound == 4


@pytest.mark.slow
def test_the_first_field_is_no_source_for_the_step_straight_off_it():
    """Grey carries a treasure with red from 1,-4 (mountain, grey's own terrain). The
    relaxation let the first swap take 1,-4's tile for a joker on 2,-4 and the pair step
    there straight from 1,-4: but the pair stands on 1,-4 until that step, so no swap can
    touch it before. Its bound on routes with a swap was 18 where the optimum is 25 (two
    fields short, four cards; the exhaustive search agrees, in about a minute), and CP-SAT's
    full model reached its work limit without proving that route (seed 8 #164 of the bench's
    generator)."""
    q = pinned("bench-8-164")  # flight, Tosende Elemente, volcano, Zerstörende Kräfte, ...
    relaxed = CpRouter(q, relax_swaps=True, min_swaps=1)
    relaxed.solve()
    best = cp_route(q)
    assert best.optimal
    assert replay(q, best.plan) == ((2, 4), False)
    assert relaxed.bound == 25


@pytest.mark.slow
def test_free_tiles_travel_one_field_per_swap():
    """Red carries a treasure with brown from 3,-4 and holds two Zerstörende Kräfte, a Tosende
    Elemente and a flight but no terrain card, so every field not of volcano needs a swap.
    With three swap cards the relaxation names no sources: it bounded the routes with a swap
    at 4 (the boat, four cards) where the best is 17 (one field short, three cards), and
    CP-SAT's full model took a minute to prove it (seed 2 #43). Counting how far free tiles
    must travel (``router.travel``) puts the bound at 17."""
    assert _bounds_and_best(pinned("bench-2-43")) == (4, 17, ((1, 3), False))


@pytest.mark.slow
def test_a_free_tile_that_left_leaves_its_field_unfree():
    """Red and blue carry a treasure from -1,0 with three Zerstörende Kräfte, a flight and a
    mountain card (seed 13 #125); the best route home takes five cards. Relaxed, the
    volcano tile of 1,-3 paid for jokers on 1,-2 and 2,-3 while the pair walked 1,-2, 1,-3,
    2,-3 and entered 1,-3 free: but once its tile has left, 1,-3 holds another. Counting
    that, the bound on routes with a swap rises from 4 to 5."""
    assert _bounds_and_best(pinned("bench-13-125")) == (4, 5, ((0, 5), True))


@pytest.mark.slow
def test_no_tosende_elemente_is_left_for_a_second_jump():
    """Grey (mountain) sails from its boat with a Zerstörende Kräfte, two Tosende Elemente and
    two forest cards; the best route to the treasure takes four cards (bench three-swap hand
    #29). Relaxed, one teleported free tile served jokers on 1,3 and 1,0, three fields apart,
    counted as one move between them (the count asked for more only with a single Tosende
    Elemente in hand), while the other Tosende Elemente brought 0,4's tile. Between two jumps
    a tile moves by neighbour swaps only, and a tile jumped again counts as a new one, with a
    Tosende Elemente of its own: so three swaps between 1,3 and 1,0, or a third Tosende
    Elemente. Counting that, the bound on routes with a swap rises from 3 to 4, the
    optimum."""
    assert _bounds_and_best(pinned("three-swap-4343-29"))[1:] == (4, ((0, 4), True))


@pytest.mark.slow
def test_a_free_tile_serves_its_jokers_in_the_route_order():
    """Red (volcano) flies from its boat with three Zerstörende Kräfte; the best route ends a
    field short of the treasure with three cards (bench three-swap hand #30). Relaxed, the
    volcano tile of 0,2 paid for the flight's landing on 2,1 and for 1,1, counted as one swap
    to 1,1 (its nearer joker) and one on to 2,1. But the hunter lands on 2,1 first, so the
    tile is there first: two swaps to get there and one back to 1,1, and with the swap the
    joker on 1,0 needs, four swaps for three cards. Counting the route's order, the bound on
    routes with a swap rises from 4 to 17, the optimum."""
    assert _bounds_and_best(pinned("three-swap-4343-30"))[1:] == (17, ((1, 3), False))


@pytest.mark.slow
def test_a_free_tile_goes_around_a_pair_that_stays_and_a_brought_tile_takes_a_swap():
    """Red (volcano) sails from its boat with three Zerstörende Kräfte, a water card, a
    counterspell and Angst & Schrecken; the best route ends a field short of the treasure
    with three cards, its swaps all made from the boat (bench three-swap hand #75). Relaxed,
    the volcano tile of 1,3 served a joker on 3,1 in two swaps through 2,2, where blue and
    yellow carry a treasure and stay unless sent away: around them it takes three. The
    relaxed route then paid for a water tile brought onto 4,0 by a swap that moved no free
    tile, and, counted, paid a side entry with a terrain card the hand does not hold. Each
    counted, the bound on routes with a swap rises from 4 to 17, the optimum."""
    assert _bounds_and_best(pinned("three-swap-4343-75"))[1:] == (17, ((1, 3), False))


@pytest.mark.slow
def test_a_free_tile_under_the_hunter_serves_its_first_step_only_after_a_side_entry():
    """Brown carries a treasure with green from 1,-1 (farmland, brown's own terrain) with two
    Zerstörende Kräfte, a Tosende Elemente and three terrain cards, and reaches green's boat
    with three cards (bench three-swap hand #25). Relaxed, the farmland tile of 1,-1 paid for
    the first step, onto 1,-2: but that tile cannot leave 1,-1 while the pair stands there,
    so a real route first steps aside and comes back to 1,-1 on another tile (or its first
    entry into 1,-2 is not the one the tile serves).
    Charged for that side entry, the bound on routes with a swap rises from 2 to 3, the
    optimum."""
    assert _bounds_and_best(pinned("three-swap-4343-25"))[1:] == (3, ((0, 3), True))


@pytest.mark.slow
def test_a_side_entry_is_charged_not_forbidden():
    """Hand #25's relaxed route whose first step takes the tile of the field the hunter stands
    on stays in the relaxation, one card dearer than before the charge (2): a real route may
    step aside and come back, so forbidding it would be no relaxation (the model would have
    no route at all here)."""
    q = pinned("three-swap-4343-25")
    relaxed = CpRouter(q, relax_swaps=True, min_swaps=1)
    relaxed.solve()
    r, names = relaxed.model, [v.name for v in relaxed.model.m.Proto().variables]
    start, first = (q.position.island.names.index(name) for name in ("1,-1", "1,-2"))
    assert r.start == start
    serves = r.m.GetBoolVarFromProtoIndex(names.index(f"serves_{first}_in_{start}"))
    r.m.Add(serves == 1)  # the tile of 1,-1 serves the entry into 1,-2 ...
    r.m.Add(r.layers[0].steps[start, first] == 1)  # ... made straight from 1,-1
    forced = relaxed.solve(again=True)
    assert forced.remaining == 0 and relaxed.objective == 3


def _bounds_and_best(q: RouteQuery) -> tuple:
    """The bounds on routes with a swap without and with the travel count, and the optimum
    (proved) as the move generator replays it."""
    plain = CpRouter(q, relax_swaps=True, min_swaps=1, sources=False)
    plain.solve()
    travel = CpRouter(q, relax_swaps=True, min_swaps=1)
    travel.solve()
    best = cp_route(q)
    assert best.optimal
    return plain.bound, travel.bound, replay(q, best.plan)


def _waiting_position() -> RouteQuery:
    """Red in its boat with two Zerstörende Kräfte and a flight; blue waits alone on the
    treasure field, out of reach this turn."""
    must = ["swap-adjacent", "swap-adjacent"]
    return instances(301, 10, (3, 6), limit={"swap-adjacent": 2, "swap-any": 0},
                     must=lambda i: must + (["flight"] if i % 2 else []))[7]


@pytest.mark.slow
def test_a_token_beside_a_waiting_hunter_saves_two_with_one_source():
    """With a hunter waiting on the treasure field the continuation enters 1,0 twice (in, and
    out with the pair), so one swap freeing it saves two cards; its only own-terrain
    neighbour 2,-1 is the one source, named now. Unnamed, the bound on routes with a swap
    was 10; counting a field entered twice as two uses of its source (an error once made
    here) put it at 17, above the real route's 16."""
    q = _waiting_position()
    assert q.position.hunters["blue"].at == q.position.island.treasure
    relaxed = CpRouter(q, relax_swaps=True, min_swaps=1)
    relaxed.solve()
    best = cp_route(q)  # flight to 3,0, then swap 2,-1 with 1,0: two cards, one paid field
    assert replay(q, best.plan) == ((1, 2), False)
    assert [set(e.swap) for e in best.plan if e.action == "swap"] == [{"2,-1", "1,0"}]
    assert relaxed.bound == 16


@pytest.mark.slow
@pytest.mark.parametrize("seed, n, must, size", [
    (21000, 3, ["swap-adjacent", "curse", "ambush"], 6),
    (22000, 2, ["swap-any", "curse"], 4),
    (23000, 2, ["swap-adjacent", "swap-adjacent", "curse"], 4),
])
def test_bound_with_a_waiting_hunter_out_of_reach(seed, n, must, size):
    """Positions with a hunter waiting on the treasure field and the goal out of reach, where
    tokens count twice: the bound never exceeds the exact optimum."""
    island = default_island()
    rng = random.Random(seed)
    k = must.count("swap-adjacent") + must.count("swap-any")
    limit = {use: must.count(use) for use in ("swap-adjacent", "swap-any")}
    checked = 0
    while checked < n:
        pos, mover = random_position(island, rng)
        hand = random_hand(rng, size, must=must, limit=limit)
        me = pos.hunters[mover]
        waiting = [h for c, h in pos.hunters.items() if c != mover and h.at == island.treasure]
        if not waiting or me.at == island.treasure or me.partner is not None:
            continue
        q = RouteQuery(pos, mover, hand)
        if CpRouter(q, swaps=0).solve().remaining == 0:
            continue  # in reach without a swap (a quick test)
        exact = CpRouter(q, swaps=k)
        if exact.solve().remaining == 0:
            continue
        checked += 1
        _assert_bounds(q, k, exact.objective)
