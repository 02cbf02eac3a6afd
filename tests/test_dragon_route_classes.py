"""Terrain classes: the router merges terrains no card of the hand tells apart, an exact
reformulation (same optimum, plans that replay as legal turns naming the real tiles)."""

from __future__ import annotations

import random

import pytest

from solver.dragon.board import default_island
from solver.dragon.cards import parse_hand
from solver.dragon.position import opening
from solver.dragon.randgen import random_hand, random_position
from solver.dragon.route import RouteQuery
from solver.dragon.route_search import replay
from solver.dragon.router.facts import terrain_classes
from solver.dragon.router.model import CpRouter


def _names(q: RouteQuery) -> list[list[str]]:
    terrains = q.position.island.model.terrains
    return [[terrains[t] for t in members] for members in terrain_classes(q)]


def test_classes_follow_the_cards_that_pay():
    pos = opening(default_island())
    # no terrain card: the own terrain and everything else
    q = RouteQuery(pos, "grey", parse_hand("swap-adjacent,swap-any,flight,curse"))
    assert _names(q) == [["water", "volcano", "farmland", "forest", "desert"], ["mountain"]]
    # a desert card sets desert apart; the own-colour card pays any terrain (a joker)
    q = RouteQuery(pos, "grey", parse_hand("desert,mountain,swap-adjacent"))
    assert _names(q) == [["water", "volcano", "farmland", "forest"], ["mountain"], ["desert"]]
    # a double card pays either half; Weite Reise can make a payable terrain free: alone
    q = RouteQuery(pos, "red", parse_hand("water+forest,long-journey,swap-any"))
    assert _names(q) == [["water"], ["volcano"], ["mountain", "farmland", "desert"], ["forest"]]
    # off: every terrain its own class
    assert len(terrain_classes(q, merge=False)) == 6


@pytest.mark.slow
def test_merged_and_separate_terrains_give_the_same_optimum():
    """Full models with one or two swap layers, solved with and without merging: the same
    objective, and the merged model's plan replays to its own value."""
    island = default_island()
    rng = random.Random(2611)
    compared = 0
    for i in range(14):
        pos, mover = random_position(island, rng)
        if pos.hunters[mover].at == island.treasure:
            continue
        must = ["swap-adjacent", "flight"] if i % 2 else ["swap-any", "swap-adjacent"]
        q = RouteQuery(pos, mover, random_hand(rng, 6, must=must))
        k = 1 + i % 2
        merged, separate = CpRouter(q, swaps=k), CpRouter(q, swaps=k, merge_terrains=False)
        result = merged.solve()
        separate.solve()
        assert merged.objective == separate.objective, [c.name for c in q.hand]
        assert merged.facts.n_terrains <= separate.facts.n_terrains == 6
        assert replay(q, result.plan)[0] == result.value
        compared += 1
    assert compared >= 10
