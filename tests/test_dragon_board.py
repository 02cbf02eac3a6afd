"""Die Dracheninsel: the hex grid, board files, the reconstruction and position files."""

from __future__ import annotations

import copy
import tomllib
from collections import Counter

import pytest

from solver.dragon import geometry as geo
from solver.dragon.board import BOARD_FILE, default_island, island_from_data, load_island
from solver.dragon.layout import same_colour_pairs, solve_layout
from solver.dragon.position import load_position, position_from_data, position_toml
from solver.errors import InputError


@pytest.fixture(scope="module")
def island():
    return default_island()


@pytest.fixture(scope="module")
def board_data():
    with open(BOARD_FILE, "rb") as handle:
        return tomllib.load(handle)


def test_hexagon_of_radius_four_has_61_cells():
    cells = geo.disc(4)
    assert len(cells) == 61
    assert geo.CENTRE in cells
    assert len([c for c in cells if geo.radius(c) == 4]) == 24


def test_flight_lands_behind_the_overflown_cell():
    assert sorted(geo.behind((0, 0), (1, 0))) == sorted([(2, -1), (2, 0), (1, 1)])
    for a in geo.disc(3):
        for b in geo.neighbours(a):
            for land in geo.behind(a, b):
                assert geo.distance(a, land) == 2 and geo.distance(b, land) == 1


def test_corners_clockwise_and_rotation():
    corners = geo.corners(4)
    assert corners[0] == (4, -4)
    for k in range(6):
        assert geo.rotate_cw(corners[k]) == corners[(k + 1) % 6]


def test_each_boat_touches_its_corner_and_the_clockwise_neighbour(island):
    assert len(island.boat_colours) == 6
    for colour in island.boat_colours:
        v = island.boat_node[colour]
        landing = sorted(island.names[u] for u in island.adj[v])
        assert len(landing) == 2
        corner, cw = island.boats[colour]
        assert sorted([geo.fmt_hex(corner), geo.fmt_hex(cw)]) == landing
        assert geo.is_clockwise_of(corner, cw)
    assert len(island.fronts) == 12


def test_reconstruction_counts_symmetry_and_spread(island):
    assert island.reconstruction
    counts = Counter(island.start.values())
    assert sorted(counts.values()) == [10] * 6
    assert same_colour_pairs(island, 1) == 0
    colour_terrain = {island.model.colour_of[t]: t for t in island.model.terrains}
    order = island.boat_colours
    # every boat sees the same island: turning by 60 degrees maps each boat to the next
    # clockwise and each terrain to that boat's terrain
    clockwise = [c for corner in geo.corners(4) for c in order if island.boats[c][0] == corner]
    sigma = {colour_terrain[clockwise[k]]: colour_terrain[clockwise[(k + 1) % 6]]
             for k in range(6)}
    for h, t in island.start.items():
        assert island.start[geo.rotate_cw(h)] == sigma[t]


@pytest.mark.slow
def test_layout_model_reproduces_the_optimum():
    layout, figures = solve_layout()
    assert figures["same_colour_pairs_touching"] == 0
    assert len(layout) == 60
    island = default_island()
    assert layout == island.start  # the tie-break makes the answer unique


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["fields"].__setitem__("0,-4", "volcano"), "water: 9 fields, expected 10"),
    (lambda d: d["fields"].__setitem__("0,-4", "lava"), "unknown terrain 'lava'"),
    (lambda d: d["fields"].pop("0,-4"), "field 0,-4 has no terrain"),
    (lambda d: d["fields"].__setitem__("5,0", "water"), "not on the island"),
    (lambda d: d["fields"].__setitem__("0,0", "water"), "treasure field 0,0 carries no"),
    (lambda d: d["boats"].__setitem__("blue", ["4,-4", "4,-2"]), "does not touch two neighbouring"),
    (lambda d: d["boats"].__setitem__("blue", ["4,-4"]), "must touch exactly two fields"),
    (lambda d: d["boats"].__setitem__("blue", ["3,-3", "2,-2"]), "not on the coast"),
    (lambda d: d["boats"].pop("blue"), "no boat for colour blue"),
    (lambda d: d["boats"].__setitem__("blue", ["4,0", "3,1"]), "already belongs"),
])
def test_board_file_breaking_a_rule_is_one_clear_error(board_data, mutate, message):
    data = copy.deepcopy(board_data)
    mutate(data)
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        island_from_data(data, "board")


def test_board_file_errors_from_disk(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_island(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("fields = [", encoding="utf-8")
    with pytest.raises(InputError, match="malformed TOML"):
        load_island(bad)


def test_opening_position_and_round_trip(island, tmp_path):
    pos = load_position(None, island)
    assert all(h.at == island.boat_node[c] for c, h in pos.hunters.items())
    assert pos.treasure == 100 and not pos.dragons
    hunters = {"blue": {"at": "2,-1", "with": "red"}, "red": {"at": "2,-1", "with": "blue"},
               "grey": "0,0", "Grün": "boat:red", "yellow": {"at": "-2,1", "guarding": True}}
    data = {"treasure": 150, "dragons": ["1,1"], "hunters": hunters}
    pos = position_from_data(data, island)
    path = tmp_path / "p.toml"
    path.write_text(position_toml(pos), encoding="utf-8")
    again = load_position(path, island)
    assert again.hunters == pos.hunters and again.dragons == pos.dragons
    assert again.tiles == pos.tiles and again.treasure == 150


@pytest.mark.parametrize("data, message", [
    ({"hunters": {"blue": "1,1", "red": "1,1"}}, "without carrying together"),
    ({"hunters": {"blue": {"at": "1,1", "with": "red"}, "red": "2,2"}}, "must stand on the same"),
    ({"dragons": ["4,-4"]}, "in front of a boat"),
    ({"dragons": ["0,0"]}, "may not stand on 0,0"),
    ({"dragons": ["1,1", "2,2", "3,-1"]}, "at most 2 play"),
    ({"dragons": ["1,1"], "hunters": {"blue": "1,1"}}, "and a dragon"),
    ({"hunters": {"blue": "0,0", "red": "0,0"}}, "second leaves with the pair"),
    ({"treasure": 0, "hunters": {"blue": "0,0"}}, "empty treasure field"),
    ({"treasure": 99}, "no coin of value 99"),
    ({"hunters": {"purple": "boat"}}, "unknown hunter colour"),
    ({"hunters": {"blue": {"at": "boat", "with": "red"}, "red": {"at": "boat", "with": "blue"}}},
     "must stand on the same"),
    ({"tiles": {"0,-4": "water"}}, "must give all 60 fields"),
    ({"colour": 1}, "unknown key 'colour'"),
])
def test_position_breaking_a_rule_is_one_clear_error(island, data, message):
    with pytest.raises(InputError, match=message):
        position_from_data(data, island)
