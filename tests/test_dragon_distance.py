"""``distance.distances_to_goal`` against networkx's Dijkstra on random islands: the cards a
hunter still needs from every node, each entry costing the rulebook's ``entry_cost``."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from solver.dragon.board import default_island
from solver.dragon.distance import INF, distances_to_goal, entry_costs


def _reference(isl, tiles, own, me, partner, dragons, occupied, waiter, treasure, cross):
    """Shortest paths to a sink behind the goal: an arc u -> v costs entering v (closed
    nodes and dragons have no arc in), the treasure field is never crossed by a hunter
    heading for it, and a waiter there adds the cheapest field to step off onto."""
    cost = entry_costs(isl, tiles, own, me, partner, occupied, treasure, cross)
    T = isl.treasure
    g = nx.DiGraph()
    g.add_nodes_from(range(len(isl.names)))
    for u in range(len(isl.names)):
        if u == T and not partner:
            continue
        for v in isl.adj[u]:
            c = None if v in dragons else cost(v)
            if c is not None:
                g.add_edge(u, v, weight=c)
    sink = "sink"
    if partner:
        for colour in (me, partner):
            g.add_edge(isl.boat_node[colour], sink, weight=0)
    else:
        exits = [cost(h) for h in isl.adj[T] if isl.is_field(h) and h not in dragons]
        exits = [c for c in exits if c is not None]
        if waiter and not exits:
            return [INF] * len(isl.names)
        g.add_edge(T, sink, weight=min(exits) if waiter else 0)
    lengths = nx.single_source_dijkstra_path_length(g.reverse(), sink)
    return [lengths.get(v, INF) for v in range(len(isl.names))]


@pytest.mark.parametrize("seed", range(4))
def test_distances_match_a_plain_dijkstra(seed):
    isl = default_island()
    rng = random.Random(seed)
    terrains = len(isl.model.terrains)
    colours = sorted(isl.boat_node)
    for _ in range(150):
        tiles = [rng.randrange(terrains) for _ in isl.names]
        me = rng.choice(colours)
        partner = rng.choice([""] + [c for c in colours if c != me])
        args = (isl, tiles, rng.randrange(terrains), me, partner,
                set(rng.sample(sorted(isl.fields), rng.randrange(3))),
                set(rng.sample(range(len(isl.names)), rng.randrange(6))),
                rng.random() < 0.3, rng.random() < 0.5, rng.random() < 0.5)
        assert distances_to_goal(*args) == _reference(*args)
