"""Die Dracheninsel: the CP-SAT router against the exhaustive search on random positions.

Several hundred seeded positions (hunters on fields, in boats, waiting on the treasure field,
carrying pairs, guards; dragons; shuffled tiles) and hands: both must find the same optimum
(remaining cards, then cards spent), and the CP-SAT plan must replay move by move through the
search's move generator to exactly that value. The exhaustive search is slow with many swap
cards, so most hands hold at most one.
"""

from __future__ import annotations

import random

import pytest

from solver.dragon.board import default_island
from solver.dragon.move import plan_cards
from solver.dragon.randgen import random_hand, random_position
from solver.dragon.route import RouteQuery
from solver.dragon.route_method import best_route
from solver.dragon.route_search import replay, search_route
from solver.dragon.router.rounds import cp_route
from solver.errors import InputError

NO_SWAP = {"swap-adjacent": 0, "swap-any": 0}


def instances(seed: int, n: int, sizes: tuple[int, int], limit=None, must=None,
              variants=None) -> list[RouteQuery]:
    """Seeded queries; ``must(i)`` names cards hand i must hold; ``limit`` caps card uses."""
    island = default_island()
    rng = random.Random(seed)
    out = []
    for i in range(n):
        pos, mover = random_position(island, rng)
        want = must(i) if must else None
        hand = random_hand(rng, rng.randint(*sizes), must=want, limit=limit)
        out.append(RouteQuery(pos, mover, hand, None, dict(variants or {})))
    return out


def agree(queries: list[RouteQuery]) -> None:
    for q in queries:
        cp, bf = cp_route(q), search_route(q)
        where = (q.hunter, [c.name for c in q.hand], q.variants)
        assert cp.value == bf.value, (where, cp.plan, bf.plan)
        assert cp.reachable == bf.reachable, where
        assert replay(q, cp.plan) == (cp.value, cp.reachable), (where, cp.plan)
        assert plan_cards(cp.plan) == cp.cards_used, where


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_hands_without_swaps(seed):
    agree(instances(100 + seed, 20, (0, 6), limit=NO_SWAP))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_hands_with_one_swap_adjacent(seed):
    agree(instances(200 + seed, 20, (2, 6), limit={"swap-adjacent": 1, "swap-any": 0},
                    must=lambda i: ["swap-adjacent"] + (["flight"] if i % 2 else [])))


def test_one_swap_freeing_a_field_twice():
    """Found by a wider run: one Zerstörende Kräfte at the end of the turn frees the field
    beside the treasure field that the pair enters and leaves, saving two cards (the
    relaxation once allowed only one)."""
    queries = instances(1003, 3, (2, 6), limit={"swap-adjacent": 1, "swap-any": 0},
                        must=lambda i: ["swap-adjacent"] + (["flight"] if i % 2 else []))
    q = queries[2]
    assert [c.name for c in q.hand] == ["swap-adjacent", "long-journey+slumber"]
    agree([q])
    assert cp_route(q).value == (2, 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_hands_with_one_swap_any(seed):
    agree(instances(250 + seed, 15, (2, 4), limit={"swap-adjacent": 0, "swap-any": 1},
                    must=lambda i: ["swap-any"] + (["flight"] if i % 2 else [])))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_hands_with_two_swap_cards(seed):
    agree(instances(300 + seed, 5, (3, 3), limit={"swap-adjacent": 2, "swap-any": 0},
                    must=lambda i: ["swap-adjacent", "swap-adjacent"]))


@pytest.mark.slow
def test_hands_with_both_swap_kinds():
    """A Zerstörende Kräfte and a Tosende Elemente: the relaxation names the last swap's source
    by its kind (the exhaustive search is slow here, so two positions only)."""
    agree(instances(320, 2, (2, 2), limit={"swap-adjacent": 1, "swap-any": 1},
                    must=lambda i: ["swap-adjacent", "swap-any"]))


@pytest.mark.slow
def test_hands_of_three_swap_cards():
    """Three Zerstörende Kräfte: the relaxation counts how far free tiles travel (the
    exhaustive search takes 15-50 s a position here, so two only)."""
    three = {"limit": {"swap-adjacent": 3, "swap-any": 0},
             "must": lambda i: ["swap-adjacent"] * 3}
    agree([instances(330, 3, (3, 3), **three)[1], instances(331, 3, (3, 3), **three)[2]])


@pytest.mark.slow
@pytest.mark.parametrize("variant", [
    ("double-card-joker", "no-joker"),
    ("flight-from-boat", "forbidden"),
    ("treasure-leave-by-flight", "forbidden"),
    ("empty-treasure-field-carriers", "open"),
    ("raid-and-abandon", "forbidden"),
    ("long-journey-stacking", "single"),
])
def test_variants(variant):
    name, choice = variant
    agree(instances(400 + len(name), 20, (2, 6), limit={"swap-adjacent": 1, "swap-any": 0},
                    variants={name: choice}))


def test_the_instances_cover_the_rules():
    """The random positions really exercise pairs, waiting hunters, guards and dragons."""
    qs = instances(100, 240, (0, 6), limit=NO_SWAP)
    seen = set()
    for q in qs:
        pos = q.position
        seen |= {"pair" for h in pos.hunters.values() if h.partner}
        seen |= {"waiter" for h in pos.hunters.values() if h.at == pos.island.treasure}
        seen |= {"guard" for h in pos.hunters.values() if h.guarding}
        seen |= {"dragons"} if pos.dragons else set()
        seen |= {"carrying mover"} if pos.hunters[q.hunter].partner else set()
        seen |= {"empty treasure field"} if pos.treasure is None else set()
    assert seen == {"pair", "waiter", "guard", "dragons", "carrying mover",
                    "empty treasure field"}


def test_a_swap_for_the_way_out_comes_before_entering_the_treasure_field():
    """Red stands on -1,0 beside the treasure field, where blue waits; no field around the
    treasure field is volcano (the start layout with -1,0 and 0,-4 traded). With one
    Zerstörende Kräfte, red swaps volcano from 0,2 onto 0,1, joins blue and leaves with the
    pair onto 0,1 at once: the goal with one card. The swap must come before red enters the
    treasure field (the second hunter leaves it at once), and the first move after it enters
    neither swapped field; the router's canonical order once forbade that, and it ended on
    -1,0 short of the goal."""
    from solver.dragon.cards import parse_hand
    from solver.dragon.position import Hunter, Position

    island = default_island()
    tiles = island.start_tiles()
    a, b = island.node("-1,0"), island.node("0,-4")
    tiles[a], tiles[b] = tiles[b], tiles[a]
    hunters = {"red": Hunter("red", a), "blue": Hunter("blue", island.treasure)}
    pos = Position(island, tiles, [], hunters, 100).validate()
    q = RouteQuery(pos, "red", parse_hand("swap-adjacent"))
    agree([q])
    best = cp_route(q)
    assert best.reachable and best.value == (0, 1)
    assert [e.action for e in best.plan] == ["swap", "step", "step"]


def test_best_route_auto_searches_without_swap_cards_and_asks_cp_sat_with_them():
    """The one choice of method: ``auto`` takes the search for a hand without swap cards and
    CP-SAT for one with them, with the same optimum as the method forced; a method that does
    not exist is a one-line error."""
    queries = instances(700, 6, (2, 6), limit={"swap-adjacent": 1, "swap-any": 0},
                        must=lambda i: ["swap-adjacent"] if i % 2 else ["water"])
    methods = set()
    for q in queries:
        swaps = any(c.name == "swap-adjacent" for c in q.hand)
        auto = best_route(q)
        methods.add(auto.method)
        assert auto.method == ("cp-sat" if swaps else "search")
        other = best_route(q, "search" if swaps else "cp-sat")
        assert other.method != auto.method and other.value == auto.value
    assert methods == {"search", "cp-sat"}
    with pytest.raises(InputError, match="unknown route method 'fast'"):
        best_route(queries[0], "fast")
