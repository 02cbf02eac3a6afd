"""A real route to start the rounds from: the exhaustive search, its swaps played just in time.

``rounds.cp_route`` proves a route optimal when a relaxation's bound meets it; on hands with
several swap cards its own proposals can miss the best route for long. This search finds good
real routes quickly, by trying few swaps.

Why swaps just in time lose little: a swap (f, g) can be put off until just before the first
thing after it that touches f or g (the hunter entering f or g, another swap of f or g, or the
end of the turn). Nothing else reads the two tiles, and the swap stays legal then: the hunter
was not on f or g when swapping and has entered neither since, other hunters only ever leave
fields during a turn (sent home) or stay where the hunter stands, and dragons only leave. So
the swaps worth trying are onto a field the hunter may enter next (a neighbour, or a flight's
landing), chains of swaps aside.

This search goes further and is only a heuristic (the rounds keep the answer exact): a swap
onto the field f about to be entered is tried only when f's tile is not free and the tile
brought is free (or payable by a card in hand where f's was not); Tosende Elemente brings a
tile only from the few fields of each terrain farthest from the hunter's start; swap cards
left at the end are played greedily onto paid fields of the continuation (each a field closer
to the goal than the hunter, its new tile from a neighbour or from afar); and the search stops
after ``PRIMAL_STATES`` states taken (the same cut on every machine). Every route it returns
is real: the rulebook generates each move, and the caller replays the plan.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from solver.dragon.move import Move
from solver.dragon.route import INF, RouteQuery, RouteResult
from solver.dragon.route_search import TurnSearch, replay, walk_back
from solver.dragon.rulebook import DONE, TurnState

PRIMAL_STATES = 500  # states the search takes before it stops
FAR_SOURCES = 2  # a Tosende Elemente's sources: this many fields of each terrain, farthest first


class JustInTimeSearch(TurnSearch):
    """The rulebook with swaps offered just in time (see the module text)."""

    def __init__(self, q: RouteQuery) -> None:
        super().__init__(q)
        isl = self.isl
        hops = isl.hops(self.q.position.hunters[self.me].at)
        self.far_first = sorted((f for f in isl.fields), key=lambda f: (-hops.get(f, INF), f))
        self.swap_kinds = sorted(set(self.with_use["swap-adjacent"])
                                 | set(self.with_use["swap-any"]))
        self._offer: list | None = None  # the pairs offered instead (the end's greedy swaps)
        self._best_rem = INF  # the least continuation among the states valued so far
        self.end_swaps: dict[TurnState, list[Move]] = {}

    by_cards = False

    def priority(self, st: TurnState, cards: int) -> int:
        """Cards spent plus a guess of the cards still needed: the continuation, less a
        field for each swap card left (the weight of reaching the goal first)."""
        rem = self.remaining(st)
        left = sum(st.cards[k] for k in self.swap_kinds)
        return cards + max(0, rem - left) if rem < INF else cards + INF

    # -- which swaps are tried ---------------------------------------------------------
    def swap_pairs(self, st: TurnState) -> list[tuple[list[int], list[tuple[int, int]]]]:
        if self._offer is not None:
            return self._offer
        isl = self.isl
        targets = {v for v in isl.adj[st.at] if isl.is_field(v)}
        if self._held(st, "flight"):
            targets |= {land for _, land in isl.flights(st.at) if isl.is_field(land)}
        free = self.free_set(st)
        payable = {t for t in range(len(self.terrains))
                   if any(st.cards[k] for k in self.pays[t])}

        def brings(was: int, t: int) -> bool:
            return t in free or (was not in payable and t in payable)

        return self._pairs(st, targets, brings)

    def _pairs(self, st: TurnState, targets: set[int],
               brings: Callable[[int, int], bool]) -> list[tuple[list[int], list[tuple[int, int]]]]:
        """The swaps offered onto ``targets`` (fields whose tile is not free): from a
        neighbour, and with Tosende Elemente from afar, each bringing a tile that
        ``brings(tile there, tile brought)``; as ``swap_pairs`` gives them."""
        isl = self.isl
        free = self.free_set(st)
        taken = self.taken(st)
        near, far = set(), set()
        any_held = self._held(st, "swap-any")
        for f in sorted(targets - taken):
            was = st.tiles[f]
            if was in free:
                continue
            for g in isl.adj[f]:
                if isl.is_field(g) and g not in taken and brings(was, st.tiles[g]):
                    near.add((min(f, g), max(f, g)))
            if any_held:
                far |= self._far_sources(st, f, lambda t, was=was: brings(was, t), taken)
        return [(self._held(st, "swap-adjacent") + any_held, sorted(near)),
                (any_held, sorted(far - near))]

    def _far_sources(self, st: TurnState, f: int, brings: Callable[[int], bool],
                     taken: set[int]) -> set[tuple[int, int]]:
        """Pairs (f, g) with g among the few fields of each useful terrain farthest from the
        start."""
        per_terrain: dict[int, int] = {}
        out = set()
        for g in self.far_first:
            t = st.tiles[g]
            if g == f or g in taken or not brings(t) or per_terrain.get(t, 0) >= FAR_SOURCES:
                continue
            per_terrain[t] = per_terrain.get(t, 0) + 1
            out.add((min(f, g), max(f, g)))
        return out

    # -- the swap cards left at the end ------------------------------------------------
    def end_value(self, st: TurnState, cards: int) -> tuple[int, int]:
        """As the router weighs a route: the continuation, one more when the goal is not
        reached, then the cards, after the swap cards left are played greedily onto the
        continuation (those swaps kept in ``end_swaps``)."""
        rem = self.remaining(st)
        ended = int(st.mode != DONE)
        left = sum(st.cards[k] for k in self.swap_kinds)
        swaps: list[Move] = []
        if 0 < rem < INF and left and rem + ended - left < self._best_rem:
            now = st
            while left:
                tried = [(self.remaining(nst), i, move, nst)
                         for i, (move, nst, _) in enumerate(self._end_swaps(now))]
                if not tried:
                    break
                best, _, move, nst = min(tried, key=lambda x: x[:2])
                if best >= rem:
                    break
                rem, now = best, nst
                swaps.append(move)
                left -= 1
            self.end_swaps[st] = swaps
        self._best_rem = min(self._best_rem, rem + ended)
        return rem + ended, cards + len(swaps)

    def _end_swaps(self, st: TurnState) -> list:
        """Swaps bringing a free tile onto a paid field closer to the goal than the hunter."""
        dist = self.goal_distances(st)
        if dist is None:
            return []
        own = self.own
        paid = {f for f in self.isl.fields if dist[f] < dist[st.at]}
        self._offer = self._pairs(st, paid, lambda _was, t: t == own)
        try:
            return self._swaps(st)
        finally:
            self._offer = None


def primal_route(q: RouteQuery, max_states: int = PRIMAL_STATES,
                 deadline: float | None = None) -> RouteResult | None:
    """A good real route (swaps just in time, the end's swap cards greedily), checked by
    replaying it through the rulebook; None when it reaches no end. ``deadline`` (a
    ``time.perf_counter()`` instant) stops the search there too, the route then from the
    states taken by then (``deadline_reached`` True; the end's greedy swaps still played)."""
    search = JustInTimeSearch(q)
    found = search.solve(max_states=max_states, deadline=deadline)
    if found.remaining is None:
        return None
    plan = list(found.plan)
    end, _ = search.play(plan)
    if end is not None and search.end_swaps.get(end):
        plan += search.end_swaps[end]
        end, _ = TurnSearch(q).play(plan)  # (the end's swaps are not offered just in time)
        plan += _free_walk(search, end)
    (rem, cards), reached = replay(q, plan)
    if rem >= INF:
        return None
    return RouteResult(reached, cards, rem, plan, "cp-sat", found.seconds, optimal=False,
                       deadline_reached=found.deadline_reached)


def _free_walk(search: JustInTimeSearch, st: TurnState) -> list[Move]:
    """Steps that cost nothing from ``st`` to the goal (the end's swaps may have freed the
    way), or none when there are none."""
    parent: dict[TurnState, tuple[TurnState, Move] | None] = {st: None}
    queue = deque([st])
    while queue:
        now = queue.popleft()
        if now.mode == DONE:
            return walk_back(parent, now)
        for move, nst, spent in search.successors(now):
            if not spent and move.action == "step" and nst not in parent:
                parent[nst] = (now, move)
                queue.append(nst)
    return []
