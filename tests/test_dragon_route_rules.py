"""Die Dracheninsel: rulebook situations checked by hand, on both route finders.

Around the blue boat of the reconstruction: landing fields 4,-4 (volcano) and 4,-3 (farmland);
3,-3 and 1,-2 are water (blue's own colour, free); 2,-2 is forest; 1,-1 farmland and 0,-1
mountain touch the treasure field, as does -1,1 (water).
"""

from __future__ import annotations

import pytest

from solver.dragon.board import default_island
from solver.dragon.cards import parse_hand
from solver.dragon.move import plan_cards
from solver.dragon.position import opening, position_from_data
from solver.dragon.route import RouteQuery
from solver.dragon.route_search import replay, search_route
from solver.dragon.router.rounds import cp_route
from solver.errors import InputError
from tests.dragon_pinned import pinned


@pytest.fixture(scope="module")
def island():
    return default_island()


def pair(a: str, b: str, at: str) -> dict:
    """Two hunters carrying a treasure together on one field."""
    return {a: {"at": at, "with": b}, b: {"at": at, "with": a}}


def both(pos, hunter, hand, goal=None, **variants):
    """Solve with CP-SAT and by exhaustive search; they must agree, the plan must replay."""
    q = RouteQuery(pos, hunter, parse_hand(hand), goal, variants)
    cp, bf = cp_route(q), search_route(q)
    assert cp.value == bf.value, (cp.plan, bf.plan)
    assert cp.reachable == bf.reachable
    assert replay(q, cp.plan) == (cp.value, cp.reachable)
    assert plan_cards(cp.plan) == cp.cards_used
    return cp


def test_three_terrain_cards_from_the_boat(island):
    r = both(opening(island), "blue", "volcano,forest,farmland")
    assert r.reachable and r.cards_used == 3 and r.remaining == 0
    assert r.plan[-1].to == "0,0"
    assert sorted(s.card for s in r.plan if s.card) == ["farmland", "forest", "volcano"]


def test_two_cards_short_ends_one_card_away(island):
    r = both(opening(island), "blue", "volcano,forest")
    assert not r.reachable and r.remaining == 1 and r.cards_used == 2


def test_own_colour_card_is_a_joker(island):
    r = both(opening(island), "blue", "water,water,water")
    assert r.reachable and r.cards_used == 3
    assert {s.use for s in r.plan if s.card} <= {"volcano", "farmland", "forest",
                                                     "mountain", "desert"}


def test_double_card_one_half_only(island):
    assert both(opening(island), "blue", "volcano+forest,farmland").remaining == 1
    r = both(opening(island), "blue", "volcano+forest,forest,farmland")
    assert r.reachable and r.cards_used == 3


def test_double_card_joker_is_a_named_variant(island):
    pos = opening(island)
    assert both(pos, "blue", "water+desert,forest,farmland").reachable
    r = both(pos, "blue", "water+desert,forest,farmland", **{"double-card-joker": "no-joker"})
    assert not r.reachable


def test_flight_lands_on_a_free_field_and_on_the_treasure_field(island):
    r = both(opening(island), "blue", "volcano,flight,flight")
    assert r.reachable and r.cards_used == 3
    flights = [s for s in r.plan if s.action == "flight"]
    assert len(flights) == 2 and flights[-1].to == "0,0"


def test_flight_never_over_a_dragon(island):
    # from 1,-2 a flight over 1,-1 or over 0,-1 lands on the treasure field
    pos = position_from_data({"hunters": {"blue": "1,-2"}}, island)
    r = both(pos, "blue", "flight")
    assert r.reachable and r.plan[-1].action == "flight" and r.plan[-1].to == "0,0"
    guarded = position_from_data({"hunters": {"blue": "1,-2"}, "dragons": ["1,-1", "0,-1"]},
                                 island)
    r = both(guarded, "blue", "flight")
    assert not r.reachable
    assert all(s.over not in ("1,-1", "0,-1") for s in r.plan)


def test_long_journey_makes_a_terrain_free_for_the_turn(island):
    pos = opening(island)
    tiles = list(pos.tiles)
    # make the blue path forest, forest, forest by swapping tiles from elsewhere
    path = [island.node(n) for n in ("4,-4", "2,-2", "1,-1")]
    spare = [v for v in island.fields if tiles[v] == "forest" and v not in path]
    for v, w in zip(path, spare, strict=False):
        tiles[v], tiles[w] = tiles[w], tiles[v]
    pos.tiles = tiles
    r = both(pos, "blue", "long-journey,forest")
    assert r.reachable and r.cards_used == 2
    assert r.plan[0].action == "long-journey" and r.plan[0].terrain == "forest"
    assert not both(pos, "blue", "forest").reachable


def test_the_second_hunter_leaves_the_treasure_field_with_the_pair(island):
    pos = position_from_data({"hunters": {"blue": "boat", "red": "0,0"}}, island)
    r = both(pos, "blue", "volcano,forest,farmland")
    assert r.reachable and r.cards_used == 3
    assert r.plan[-2].to == "0,0"
    assert r.plan[-1].leave and r.plan[-1].to == "-1,1"  # the only free way out


def test_the_second_hunter_may_not_enter_unless_it_can_leave(island):
    data = {"dragons": ["0,-1", "1,0"],
            "hunters": {"blue": "1,-1", "red": "0,0", "grey": "-1,0", "brown": "-1,1",
                        "green": "0,1"}}
    pos = position_from_data(data, island)
    r = both(pos, "blue", "")
    assert not r.reachable and r.remaining == 1 and r.plan == []
    r = both(pos, "blue", "farmland")  # in, and back out to 1,-1 paying farmland
    assert r.reachable and r.cards_used == 1
    assert r.plan[-1].to_json() == {"action": "step", "card": "farmland", "to": "1,-1",
                                    "use": "farmland", "leave": True}
    r = both(pos, "blue", "fright")  # or send the waiting hunter home and be first
    assert r.reachable and r.plan[-1].to == "0,0"


def test_a_blocked_boat_is_left_by_fright_or_not_at_all(island):
    data = {"hunters": {"blue": "boat", "red": "4,-4", "grey": "4,-3"}}
    pos = position_from_data(data, island)
    stuck = both(pos, "blue", "volcano,forest,farmland", **{"flight-from-boat": "forbidden"})
    assert not stuck.reachable and stuck.remaining is None  # no way out, ever (cards alone)
    r = both(pos, "blue", "fright,volcano,forest,farmland")
    assert r.reachable and r.cards_used == 4
    assert r.plan[0].action == "fright" and r.plan[0].target in ("red", "grey")


def test_a_carrying_pair_may_enter_the_partners_boat_free(island):
    data = {"hunters": pair("blue", "red", "4,0")}
    r = both(position_from_data(data, island), "blue", "", goal="boat")
    assert r.reachable and r.cards_used == 0 and r.plan[-1].to == "boat:red"


def test_a_carrying_pair_never_enters_the_treasure_field(island):
    data = {"hunters": pair("blue", "red", "1,-1")}
    r = both(position_from_data(data, island), "blue", "flight,water,water,water", goal="boat")
    assert all(s.to != "0,0" for s in r.plan)


def test_a_swap_can_open_the_way(island):
    # from 3,-3 (water) the way on is 2,-2 (forest); a swap with a water neighbour of 2,-2
    # makes it free, so the swap card stands in for the forest card
    pos = position_from_data({"hunters": {"blue": "3,-3"}}, island)
    base = both(pos, "blue", "forest,farmland")
    swapped = both(pos, "blue", "swap-adjacent,farmland")
    assert base.reachable and swapped.reachable and swapped.cards_used == 2
    assert any(s.action == "swap" for s in swapped.plan)


def test_query_errors(island):
    with pytest.raises(InputError, match="carries no treasure"):
        RouteQuery(opening(island), "blue", [], "boat")
    with pytest.raises(InputError, match="at most 6 cards, got 7"):
        RouteQuery(opening(island), "blue", parse_hand("water") * 7)


def test_goal_errors(island):
    data = {"hunters": pair("blue", "red", "1,-1")}
    pos = position_from_data(data, island)
    with pytest.raises(InputError, match="its goal is a boat"):
        RouteQuery(pos, "blue", [], "treasure")
    with pytest.raises(InputError, match="not on the board"):
        RouteQuery(pos, "green", [])
    empty = position_from_data({"treasure": 0}, island)
    with pytest.raises(InputError, match="no treasure is left"):
        RouteQuery(empty, "blue", [])


def test_progress_names_each_model_solved():
    """``progress`` hears of the swap-free turn, then each round's models in order."""

    q = pinned("bench-4242-4")  # one swap card, and the optimum needs the swap
    heard: list[str] = []
    cp_route(q, progress=heard.append)
    assert heard[0] == "the turn without swaps"
    assert heard[1] == "round 1 of 1: relaxation bound"
    assert all(text.startswith("round 1 of 1: ") for text in heard[1:])


@pytest.mark.slow
def test_work_limit_gives_a_legal_deterministic_route_marked_unproved():
    """A cut-off (deterministic work, not wall time) returns the best route found, legal and
    the same on every run, flagged as not proved optimal."""

    q = pinned("bench-4242-4")  # the optimum needs the swap; a cut that still happens at 0.05
    first, second = cp_route(q, work_limit=0.05), cp_route(q, work_limit=0.05)
    assert not first.optimal
    assert first.plan == second.plan and first.value == second.value
    value, _ = replay(q, first.plan)
    assert value == first.value
    full = cp_route(q)
    assert full.optimal and first.value >= full.value
