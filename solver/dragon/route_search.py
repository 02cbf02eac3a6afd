"""An exhaustive best-first search over one turn: the independent check of the CP-SAT router.

It knows nothing of the CP-SAT model: it walks the executable rulebook
(:mod:`solver.dragon.rulebook`), whose states hold everything the turn can change. Any card may
be played at any moment the rules allow; states are expanded in order of cards spent
(Dijkstra), so the first goal state taken is optimal, and when no goal state exists every
reachable state is scored by ``(remaining, cards)``.

``replay`` plays a plan from any source through the same rulebook.
"""

from __future__ import annotations

import heapq
import itertools
import time

from solver.dragon.distance import EntryCosts
from solver.dragon.move import Move
from solver.dragon.route import INF, RouteQuery, RouteResult
from solver.dragon.rulebook import CARRY, DONE, GUARD, SECOND, Turn, TurnState


class TurnSearch(Turn):
    """The rulebook of one route query, with the measure of what is left and the search."""

    def __init__(self, q: RouteQuery) -> None:
        super().__init__(q)
        self._dist_cache: dict = {}
        self._costs: dict = {}  # (partner, other hunters) -> their ``EntryCosts``

    # -- what is left after the turn -----------------------------------------------------
    def remaining(self, st: TurnState) -> int:
        """Fewest terrain cards from the state's place to the goal on the island it leaves."""
        if st.mode == DONE:
            return 0
        dist = self.goal_distances(st)
        return INF if dist is None else dist[st.at]

    def goal_distances(self, st: TurnState) -> list[int] | None:
        """The terrain cards from every node to the goal on the island the state leaves (None:
        the state cannot head for the goal)."""
        partner = st.partner
        if self.q.goal == "treasure":
            if st.mode == CARRY or (st.mode == GUARD and not st.leavable):
                return None
            partner = ""
        elif st.mode != CARRY or partner != self.partner0:
            return None
        key = (partner, st.tiles, st.dragons, st.others)
        dist = self._dist_cache.get(key)
        if dist is None:
            costs = self._costs.get((partner, st.others))
            if costs is None:
                occupied = {h[1] for h in st.others}
                costs = self._costs[partner, st.others] = EntryCosts(
                    self.isl, self.own, self.me, partner, occupied, self.treasure_left,
                    self.carriers_cross_empty)
            waiter = any(h[1] == self.treasure_field for h in st.others)
            dist = self._dist_cache[key] = costs.distances(st.tiles, st.dragons, waiter)
        return dist

    by_cards = True  # states taken in order of cards spent (Dijkstra): the search is exact

    def priority(self, st: TurnState, cards: int) -> int:
        """The order states are taken in: cards spent (a heuristic search may guess ahead,
        with ``by_cards`` False, and then finds good routes, not the best)."""
        return cards

    def end_value(self, st: TurnState, cards: int) -> tuple[int, int]:
        """What ending the turn in ``st`` after ``cards`` cards is worth: (remaining, cards),
        the less the better."""
        return self.remaining(st), cards

    # -- the search ----------------------------------------------------------------------
    def solve(self, time_limit: float | None = None,
              max_states: int | None = None, deadline: float | None = None) -> RouteResult:
        """The optimal turn; with ``max_states``, the best turn among the first states taken
        (``optimal`` False when the search stopped there); with ``deadline`` (a
        ``time.perf_counter()`` instant), likewise the best turn among the states taken by
        then (``deadline_reached`` True when it stopped there)."""
        t0 = time.perf_counter()
        if self.q.position.hunters[self.me].at == self.treasure_field:
            return RouteResult(True, 0, 0, [], "search", time.perf_counter() - t0)
        start = self.initial()
        best = {start: 0}
        parent: dict[TurnState, tuple[TurnState, Move] | None] = {start: None}
        tick = itertools.count()
        heap = [(self.priority(start, 0), next(tick), 0, start)]
        best_end: tuple | None = None
        taken, cut, late = 0, False, False
        while heap:
            _, _, c, st = heapq.heappop(heap)
            if c > best[st]:
                continue
            taken += 1
            if max_states is not None and taken > max_states:
                cut = True
                break
            if st.mode == DONE:  # on a tie it beats a state a free step short of the goal
                if best_end is None or (0, c) <= best_end[0]:
                    best_end = ((0, c), st)
                if self.by_cards:
                    break  # taken in order of cards: the first goal state is the best
                continue
            if st.mode != SECOND:
                value = self.end_value(st, c)
                if best_end is None or value < best_end[0]:
                    best_end = (value, st)
            if time_limit is not None and time.perf_counter() - t0 > time_limit:
                raise TimeoutError("route search ran out of time")
            if deadline is not None and time.perf_counter() >= deadline:
                cut = late = True
                break
            for move, nst, spent in self.successors(st):
                nc = c + spent
                if nc < best.get(nst, INF):
                    best[nst] = nc
                    parent[nst] = (st, move)
                    heapq.heappush(heap, (self.priority(nst, nc), next(tick), nc, nst))
        (rem, cards), st = best_end
        rem, cards = self.remaining(st), best[st]
        if rem >= INF:
            return RouteResult(False, 0, None, [], "search", time.perf_counter() - t0,
                               optimal=not cut, deadline_reached=late)
        plan = walk_back(parent, st)
        return RouteResult(rem == 0, cards, rem, plan, "search", time.perf_counter() - t0,
                           optimal=not cut, deadline_reached=late)


def walk_back(parent: dict[TurnState, tuple[TurnState, Move] | None],
              st: TurnState) -> list[Move]:
    """The moves from the search's start to ``st``, read back through ``parent``."""
    plan = []
    while parent[st] is not None:
        st, move = parent[st]
        plan.append(move)
    plan.reverse()
    return plan


def search_route(q: RouteQuery, time_limit: float | None = None) -> RouteResult:
    """The optimum by exhaustive best-first search."""
    return TurnSearch(q).solve(time_limit)


def replay(q: RouteQuery, plan: list[Move]) -> tuple[tuple[int, int], bool]:
    """Play a plan move by move through the rulebook; return ((remaining, cards), reached).

    Raises IllegalMove (a ValueError) naming the first move that is not legal.
    """
    ts = TurnSearch(q)
    st, spent = ts.play(plan)
    if st is None:
        return (0, 0), True
    return (ts.remaining(st), spent), st.mode == DONE
