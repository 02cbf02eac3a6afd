"""Die Dracheninsel: Drachenpatrouille, CP-SAT against enumeration, and its rules."""

from __future__ import annotations

import random

import pytest

from solver.dragon.board import default_island
from solver.dragon.patrol import Patrol, cp_patrol, enumerate_patrol
from solver.dragon.position import opening, position_from_data
from solver.dragon.randgen import random_position
from solver.errors import InputError


@pytest.fixture(scope="module")
def island():
    return default_island()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_cp_sat_matches_enumeration(island, seed):
    rng = random.Random(500 + seed)
    compared = 0
    for _ in range(15):
        pos, player = random_position(island, rng)
        for against in ["all"] + sorted(c for c in pos.hunters if c != player)[:1]:
            try:
                enum = enumerate_patrol(pos, player, against)
            except InputError:
                continue
            assert cp_patrol(pos, player, against).to_json() == enum.to_json()
            compared += 1
    assert compared >= 10


def test_never_on_boats_fronts_treasure_or_occupied_fields(island):
    pos = position_from_data({"dragons": ["1,1"], "hunters": {"blue": "2,-2", "red": "boat"}},
                             island)
    p = Patrol(pos, "red")
    banned = set(island.fronts) | {island.treasure, island.node("1,1"), island.node("2,-2")}
    assert not banned & set(p.sites)
    assert all(island.is_field(v) for v in p.sites)
    assert len(p.sites) == 60 - 12 - 2


def test_first_patrol_sets_a_dragon_later_ones_move_one(island):
    one = position_from_data({"dragons": ["1,1"]}, island)
    assert all(moved is None for moved, _ in Patrol(one, "blue").options)
    two = position_from_data({"dragons": ["1,1", "-1,-1"]}, island)
    options = Patrol(two, "blue").options
    assert {moved for moved, _ in options} == {island.node("1,1"), island.node("-1,-1")}
    result = cp_patrol(two, "blue", "all")
    assert result.moved_from in ("1,1", "-1,-1")


def test_a_dragon_on_the_free_stepping_stone_costs_a_card(island):
    # blue's cheapest way from its boat crosses 3,-3, the water field behind both landing
    # fields: three cards; with a dragon there, four
    pos = opening(island)
    result = cp_patrol(pos, "red", "blue")
    assert (result.to, result.before, result.after) == ("3,-3", {"blue": 3}, {"blue": 4})
    assert result.own_before == result.own_after == 3
    assert result.to_json() == enumerate_patrol(pos, "red", "blue").to_json()


def test_patrol_errors(island):
    pos = opening(island)
    with pytest.raises(InputError, match="against itself"):
        cp_patrol(pos, "blue", "blue")
    with pytest.raises(InputError, match="not on the board"):
        cp_patrol(position_from_data({"hunters": {"blue": "boat"}}, island), "blue", "red")
    waiting = position_from_data({"hunters": {"blue": "boat", "red": "0,0"}}, island)
    with pytest.raises(InputError, match="waiting for a partner"):
        cp_patrol(waiting, "blue", "red")
