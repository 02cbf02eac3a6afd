"""Cards still needed with terrain cards alone: the measure of "how far" a hunter is.

Every field not of the hunter's own terrain costs one terrain card; which nodes are closed is
the rulebook's rule (:func:`~solver.dragon.rulebook.entry_cost`), and dragons close fields
too. A hunter without treasure heads for the treasure field (if someone waits there, the pair
must then step off it, paying for that field too); a carrying pair heads for either carrier's
boat. Used by the exhaustive route search (its ``remaining``) and by the enumeration that
checks dragon patrols.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Container, Sequence

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
                      dragons: Container[int],
                      occupied: set[int], waiter: bool, treasure: bool,
                      carriers_cross_empty: bool) -> list[int]:
    """Backward 0-1 breadth-first search (each node's entry costs 0 or 1 cards, so a deque
    ordered by distance replaces a heap): the cards needed from every node (INF: the goal is
    out of reach).

    ``tiles[v]`` is compared with ``own``; ``occupied`` holds the nodes of the other hunters;
    ``partner`` is "" for a hunter without treasure."""
    n = len(isl.names)
    T = isl.treasure
    base = entry_costs(isl, tiles, own, me, partner, occupied, treasure, carriers_cross_empty)
    cost = [None if v in dragons else base(v) for v in range(n)]
    dist = [INF] * n
    queue: deque[tuple[int, int]] = deque()
    if partner:
        for c in (me, partner):
            dist[isl.boat_node[c]] = 0
            queue.append((0, isl.boat_node[c]))
    else:
        if waiter:
            exits = [cost[h] for h in isl.adj[T] if isl.is_field(h)]
            exits = [c for c in exits if c is not None]
            if not exits:
                return dist
            dist[T] = min(exits)
        else:
            dist[T] = 0
        queue.append((dist[T], T))
    adj = isl.adj
    while queue:
        d, v = queue.popleft()
        if d > dist[v]:
            continue
        c = cost[v]
        if c is None:
            continue
        nd = d + c
        for u in adj[v]:
            if u == T and not partner:
                continue  # the treasure field is never crossed
            if nd < dist[u]:
                dist[u] = nd
                if c:
                    queue.append((nd, u))
                else:
                    queue.appendleft((nd, u))
    return dist
