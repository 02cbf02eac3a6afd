"""The executable rulebook of Die Dracheninsel: typed moves, legal_moves, apply, play.

Hand-checked against the reconstruction's board around the blue boat (see
test_dragon_route_rules): its landing fields are 4,-4 (volcano) and 4,-3 (farmland); blue's
own terrain is water.
"""

from __future__ import annotations

import random

import pytest

from solver.dragon.board import default_island
from solver.dragon.cards import parse_hand
from solver.dragon.move import Move, plan_cards
from solver.dragon.position import opening
from solver.dragon.randgen import random_hand, random_position
from solver.dragon.route import RouteQuery
from solver.dragon.route_search import search_route
from solver.dragon.rulebook import DONE, IllegalMove, Turn, dragon_sites, entry_cost, may_swap
from solver.errors import InputError


@pytest.fixture(scope="module")
def island():
    return default_island()


def turn(pos, hunter: str, hand: str, **variants) -> Turn:
    return Turn(RouteQuery(pos, hunter, parse_hand(hand), None, variants))


def test_the_only_legal_move_with_one_volcano_card(island):
    t = turn(opening(island), "blue", "volcano")
    assert t.legal_moves(t.initial()) == [Move("step", "4,-4", "volcano", use="volcano")]


def test_a_fright_card_in_the_opening_can_only_send_the_mover_home(island):
    """Every other hunter is in its boat (nobody to frighten); the mover may still play it."""
    t = turn(opening(island), "blue", "fright")
    assert t.legal_moves(t.initial()) == [Move("fright", "boat:blue", "fright", target="blue")]


def test_apply_and_play(island):
    pos = opening(island)
    t = turn(pos, "blue", "volcano,water")
    step = Move("step", "4,-4", "volcano", use="volcano")
    st, spent = t.apply(t.initial(), step)
    assert spent == 1 and island.names[st.at] == "4,-4"
    with pytest.raises(IllegalMove, match="not legal here"):
        t.apply(t.initial(), Move("step", "4,-3", "volcano", use="volcano"))
    with pytest.raises(IllegalMove, match="step 2 is not legal"):
        t.play([step, step])
    after, delivered = t.position(t.play([step])[0])
    assert delivered == 0 and after.hunters["blue"].at == island.node("4,-4")
    after.validate()


def test_json_round_trip_and_the_key_that_ignores_the_dragons_landing(island):
    rng = random.Random(5)
    seen = 0
    for _ in range(20):
        pos, mover = random_position(island, rng)
        hand = random_hand(rng, 6)
        t = Turn(RouteQuery(pos, mover, hand))
        for move in t.legal_moves(t.initial()):
            assert Move.from_json(move.to_json()) == move
            seen += 1
    assert seen > 100
    a = Move("patrol", "1,1", "patrol", dragon="2,2", place="0,3")
    assert a.key() == Move("patrol", "1,1", "patrol", dragon="2,2").key() != a
    assert Move("swap", "1,1", "swap-any", swap=("2,2", "0,3")).key() \
        == Move("swap", "1,1", "swap-any", swap=("0,3", "2,2")).key()


@pytest.mark.parametrize("data, message", [
    ({"action": "teleport", "to": "1,1"}, "action 'teleport' is not one of"),
    ({"action": "step"}, "names the field it ends on"),
    ({"action": "step", "to": "1,1", "colour": "red"}, "unknown key 'colour'"),
    ({"action": "swap", "to": "1,1", "card": "swap-any", "swap": ["1,1"]}, "'swap' names two"),
    ({"action": "step", "to": "1,1", "leave": "yes"}, "'leave' is true or false"),
    ({"action": "step", "to": "1,1", "card": 3}, "'card' is a name"),
    ("step", "a move is a JSON object"),
])
def test_a_malformed_move_is_one_line_error(data, message):
    with pytest.raises(InputError, match=message):
        Move.from_json(data)


def test_every_searched_plan_plays_through_the_rulebook(island):
    """The search's plans are lists of the rulebook's moves: they play back to the same
    cards, a route that reaches the goal ends on it (not a free step short of it), and the
    position after the turn obeys every rule of a position."""
    rng = random.Random(11)
    reached = 0
    for _ in range(15):
        pos, mover = random_position(island, rng)
        hand = [c for c in random_hand(rng, 5)
                if not c.does("swap-any", island.model)]  # (fast: no Tosende Elemente)
        q = RouteQuery(pos, mover, hand)
        result = search_route(q)
        t = Turn(q)
        st, spent = t.play(result.plan)
        if st is None:
            continue
        assert spent == plan_cards(result.plan) == result.cards_used
        assert (st.mode == DONE) == result.reachable
        reached += result.reachable
        after, _ = t.position(st, rng.sample(dragon_sites(island, st.dragons), st.dragons_off)
                              if st.dragons_off else ())
        assert sorted(after.tiles) == sorted(pos.tiles)
        assert set(after.hunters) == set(pos.hunters)
    assert reached > 0


def test_entry_and_swap_rules(island):
    """A boat takes its owner only; a carrying pair crosses the empty treasure field only
    under the reading that opens it; equal tiles and tiles under pieces are not swapped."""
    tiles = opening(island).tiles
    blue, red = island.boat_node["blue"], island.boat_node["red"]
    T = island.treasure
    args = (tiles, {"water"})
    assert entry_cost(island, blue, *args, "blue", "", set(), True, False) == 0
    assert entry_cost(island, red, *args, "blue", "", set(), True, False) is None
    assert entry_cost(island, red, *args, "blue", "red", set(), True, False) == 0
    assert entry_cost(island, T, *args, "blue", "red", set(), False, False) is None
    assert entry_cost(island, T, *args, "blue", "red", set(), False, True) == 0
    assert entry_cost(island, T, *args, "blue", "red", set(), True, True) is None
    v = island.node("4,-4")
    assert entry_cost(island, v, *args, "blue", "", set(), True, False) == 1
    assert entry_cost(island, v, *args, "blue", "", {v}, True, False) is None
    f, g = island.node("4,-4"), island.node("4,-3")
    assert may_swap(tiles, f, g, set()) and not may_swap(tiles, f, g, {g})
    assert not may_swap(tiles, f, f, set())
    assert not set(dragon_sites(island, [])) & set(island.fronts)
