"""Speed-ups of the router's model building and of the just-in-time search that must change
nothing: the same moves indexed per node, the same flights computed once, the same moves
replayed, and the same answers on the bench's slowest three-swap hands within the route budget."""

from __future__ import annotations

import hashlib
import json

import pytest

from solver.dragon.bench import three_swap_queries
from solver.dragon.board import default_island
from solver.dragon.move import plan_json
from solver.dragon.route import WORK_BUDGET
from solver.dragon.router.build import build_model
from solver.dragon.router.facts import Facts
from solver.dragon.router.moves import first_moves
from solver.dragon.router.rounds import cp_route
from solver.dragon.rulebook import Turn

QUERIES = three_swap_queries()


def _scanned(r, L, p):
    """The moves out of p, found by scanning the whole layer (what the index replaces)."""
    out = [(x, v) for (u, v), x in L.steps.items() if u == p]
    out += [(x, v) for (u, _b, v), x in L.flights.items() if u == p]
    if p in L.teleports:
        out.append((L.teleports[p], r.isl.boat_node[r.q.hunter]))
    if p == r.treasure_field:
        out += [(x, h) for h, x in L.leave_steps.items()]
        out += [(x, v) for (_b, v), x in L.leave_flights.items()]
    return out


@pytest.mark.parametrize("index", [0, 33, 68])
def test_first_moves_per_node_are_a_scan_of_the_layer(index):
    r = build_model(Facts.of(QUERIES[index], swaps=3, exact_swaps=True))
    assert len(r.layers) == 4
    for L in r.layers:
        firsts = first_moves(r, L)
        for p in range(len(r.isl.names)):
            expected = _scanned(r, L, p)
            got = firsts.get(p, [])
            assert [v for _, v in got] == [v for _, v in expected]
            assert all(a is b for (a, _), (b, _) in zip(got, expected, strict=True))


def test_flights_are_computed_once_each_as_the_board_gives_them():
    isl = default_island()
    for u in range(len(isl.names)):
        first = isl.flights(u)
        assert list(first) == isl._flights_from(u)
        assert isl.flights(u) is first


@pytest.mark.parametrize("index", [1, 2, 33])
def test_the_moves_of_one_action_are_all_moves_of_that_action_in_order(index):
    """``apply`` lists only the moves of the action it replays (swaps, or all but swaps):
    the same moves in the same order as the full list, so it finds the same first match."""
    turn = Turn(QUERIES[index])
    seen, queue, checked = set(), [turn.initial()], 0
    while queue and checked < 150:
        st = queue.pop(0)
        every = turn.successors(st)
        for action in ("step", "flight", "swap", "fright"):
            kept = [(m, n, c) for m, n, c in every
                    if (m.action == "swap") == (action == "swap")]
            assert turn.successors(st, action) == kept
        checked += 1
        for _move, nst, _spent in every:
            if nst not in seen:
                seen.add(nst)
                queue.append(nst)
    assert checked == 150


# make bench's three-swap hands that took the longest within the budget: (remaining, cards),
# proved optimal, and a digest of the plan's JSON, as the router answered before the
# speed-ups (any change to a model built or to the just-in-time search may change these;
# #68's route is now proved within the budget by the travel count's order of a tile's places,
# its value the full proof's; #58's is another optimal route since the strict proposal's
# shorter search on these hands, replayed by the rulebook to the same value)
SLOWEST = {33: ((0, 3), True, "faa0a88e2d42"), 43: ((1, 4), False, "340a642725af"),
           58: ((0, 3), True, "82b430d4fc67"), 68: ((0, 4), True, "4c50c3e0efea"),
           105: ((1, 3), False, "23428bad9e7f"), 111: ((1, 4), False, "1544560cc2c8")}


@pytest.mark.slow
@pytest.mark.parametrize("index", sorted(SLOWEST))
def test_the_slowest_hands_answer_as_before_within_the_budget(index):
    result = cp_route(QUERIES[index], budget=WORK_BUDGET)
    digest = hashlib.sha256(json.dumps(plan_json(result.plan), sort_keys=True).encode())
    assert (result.value, result.optimal, digest.hexdigest()[:12]) == SLOWEST[index]
