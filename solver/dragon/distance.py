"""Cards still needed with terrain cards alone: the measure of "how far" a hunter is.

Every field not of the hunter's own terrain costs one terrain card; which nodes are closed is
the rulebook's rule (:func:`~solver.dragon.rulebook.entry_cost`), and dragons close fields
too. A hunter without treasure heads for the treasure field (if someone waits there, the pair
must then step off it, paying for that field too); a carrying pair heads for either carrier's
boat. Used by the exhaustive route search (its ``remaining``) and by the enumeration that
checks dragon patrols.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from solver.dragon.board import Island
from solver.dragon.rulebook import entry_cost

INF = 10**6


def entry_costs(isl: Island, tiles: Sequence, own: str, me: str, partner: str, occupied: set[int],
                treasure: bool, carriers_cross_empty: bool) -> Callable[[int], int | None]:
    """The rulebook's :func:`~solver.dragon.rulebook.entry_cost` of every node for one hunter
    with terrain cards alone (only its own terrain is free), dragons not counted."""
    free = (own,)
    return lambda v: entry_cost(isl, v, tiles, free, me, partner, occupied, treasure,
                                carriers_cross_empty)


def distances_to_goal(isl: Island, tiles: Sequence, own: str, me: str, partner: str,
                      dragons: Collection[int],
                      occupied: set[int], waiter: bool, treasure: bool,
                      carriers_cross_empty: bool) -> list[int]:
    """Backward 0-1 breadth-first search, a level of nodes per distance (each node's entry
    costs 0 or 1 cards, so no heap is needed): the cards needed from every node (INF: the goal
    is out of reach).

    ``tiles[v]`` is compared with ``own``; ``occupied`` holds the nodes of the other hunters;
    ``partner`` is "" for a hunter without treasure."""
    costs = EntryCosts(isl, own, me, partner, occupied, treasure, carriers_cross_empty)
    return costs.distances(tiles, dragons, waiter)


class EntryCosts:
    """The rulebook's :func:`~solver.dragon.rulebook.entry_cost` of every node for one hunter
    with terrain cards alone, worked out once for a tile of its own terrain and once for any
    other (the rule reads the tile only through that): a search asking for the distances on
    many islands of tiles, its hunters standing still, builds it once."""

    def __init__(self, isl: Island, own: str, me: str, partner: str, occupied: set[int],
                 treasure: bool, carriers_cross_empty: bool) -> None:
        n = len(isl.names)
        self.isl, self.own, self.partner = isl, own, partner
        # the goal: either carrier's boat for a carrying pair, else the treasure field
        self.goal = [isl.boat_node[c] for c in (me, partner)] if partner else [isl.treasure]
        other = object()  # a tile of no terrain the hunter holds free
        self.on_own, self.on_other = (
            [entry_cost(isl, v, tiles, (own,), me, partner, occupied, treasure,
                        carriers_cross_empty) for v in range(n)]
            for tiles in ([own] * n, [other] * n))
        self.by_tile = [v for v in range(n) if self.on_own[v] != self.on_other[v]]

    def distances(self, tiles: Sequence, dragons: Collection[int], waiter: bool) -> list[int]:
        """``distances_to_goal`` on the island of ``tiles``, with ``dragons`` closed."""
        own, cost = self.own, list(self.on_other)
        for v in self.by_tile:
            if tiles[v] == own:
                cost[v] = self.on_own[v]
        for v in dragons:
            cost[v] = None
        return _distances(self.isl, cost, self.goal, bool(self.partner), waiter)


def _distances(isl: Island, cost: list, goal: list[int], carrying: bool,
               waiter: bool) -> list[int]:
    """The 0-1 breadth-first search of ``distances_to_goal`` over each node's entry cost,
    from the ``goal`` nodes."""
    n = len(isl.names)
    T = isl.treasure
    dist = [INF] * n
    sources = list(goal)
    d = 0
    if not carrying:
        if waiter:
            exits = [cost[h] for h in isl.adj[T] if isl.is_field(h)]
            exits = [c for c in exits if c is not None]
            if not exits:
                return dist
            d = min(exits)
    for v in sources:
        dist[v] = d
    adj = isl.adj
    # (the treasure field is never crossed: a hunter without treasure starts there, at the
    # least distance, so no way back lowers it)
    level = sources  # the nodes at distance d; grows while entries cost nothing
    while level:
        farther: list[int] = []  # the nodes at distance d + 1 found so far
        for v in level:  # (the loop takes the nodes appended to ``level`` too)
            c = cost[v]
            if c is None or dist[v] < d:  # (closed, or reached closer since)
                continue
            nd = d + c
            reached = farther if c else level
            for u in adj[v]:
                if nd < dist[u]:
                    dist[u] = nd
                    reached.append(u)
        level = farther
        d += 1
    return dist
