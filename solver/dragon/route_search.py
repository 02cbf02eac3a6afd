"""An exhaustive best-first search over one turn: the independent check of the CP-SAT router.

It knows nothing of the CP-SAT model. A state is everything the turn can change: the mover's
place and mode, the cards left, the terrains made free by Weite Reise, every tile, the dragons,
and every other hunter. Any card may be played at any moment the rules allow; states are
expanded in order of cards spent (Dijkstra), so the first goal state taken is optimal, and when
no goal state exists every reachable state is scored by ``(remaining, cards)``.

The same move generator replays a plan (``replay``), which checks plans from any source.
"""

from __future__ import annotations

import heapq
import itertools
import time

from solver.dragon.distance import distances_to_goal
from solver.dragon.route import INF, RouteQuery, RouteResult, step

FREE, CARRY, GUARD, SECOND, DONE = range(5)
# other hunters: (colour, node, status, partner); status one of
LONE, WAIT, BOAT, GUARDING, PAIR = "lone", "wait", "boat", "guard", "pair"


class TurnSearch:
    """The move generator and the search for one route query."""

    def __init__(self, q: RouteQuery) -> None:
        pos = q.position
        isl = pos.island
        model = isl.model
        self.q, self.isl = q, isl
        self.dragons_in_play = int(isl.model.components["dragons_in_play"])
        self.T = isl.treasure
        self.me = q.hunter
        self.terrains = model.terrains
        self.own = self.terrains.index(q.own)
        self.treasure = pos.treasure is not None
        self.var = q.variants
        self.kinds = q.kinds()
        joker = self.var["double-card-joker"] == "joker"
        self.pays = {
            t: [k for k, (c, _) in enumerate(self.kinds) if c.pays(name, q.own, joker)]
            for t, name in enumerate(self.terrains)
        }
        self.with_use = {
            use: [k for k, (c, _) in enumerate(self.kinds) if c.does(use, model)]
            for use in ("flight", "long-journey", "swap-adjacent", "swap-any", "patrol", "fright")
        }
        self.fields = list(isl.fields)
        self.adj_pairs = [(f, g) for f in self.fields for g in isl.adj[f]
                          if isl.is_field(g) and f < g]
        self.any_pairs = list(itertools.combinations(self.fields, 2))
        self._dist_cache: dict = {}
        self.partner0 = pos.hunters[q.hunter].partner  # the treasure this turn is about

    # -- states --------------------------------------------------------------------------
    def initial(self) -> tuple:
        pos = self.q.position
        me = pos.hunters[self.me]
        others = []
        for h in pos.hunters.values():
            if h.colour in (self.me, me.partner):
                continue
            others.append((h.colour, h.at, self._status(h), h.partner or ""))
        mode = CARRY if me.partner else GUARD if me.guarding else FREE
        tiles = tuple(self.terrains.index(t) for t in pos.tiles)
        cards = tuple(n for _, n in self.kinds)
        return (me.at, mode, me.partner or "", True, cards, 0, tiles,
                tuple(sorted(pos.dragons)), 0, tuple(sorted(others)))

    def _status(self, h) -> str:
        if self.isl.kind[h.at] == "boat":
            return BOAT
        if h.at == self.T:
            return WAIT
        if h.partner:
            return PAIR
        return GUARDING if h.guarding else LONE

    # -- entering a node -----------------------------------------------------------------
    def _entries(self, st: tuple, v: int) -> list[tuple[dict, tuple, int | None]]:
        """Ways to enter ``v`` now: (description, new (pos, mode, partner, leavable, hunters),
        terrain to pay for or None)."""
        pos, mode, partner, leav, cards, lj, tiles, dragons, harmless, hunters = st
        carrying = mode == CARRY
        isl = self.isl
        if v in dragons:
            return []
        keep_mode = CARRY if carrying else FREE
        if v == self.T:
            if self.treasure:
                if carrying or self.q.goal != "treasure":
                    return []  # (a hunter that set out carrying has no business here)
                waiting = [h for h in hunters if h[1] == self.T]
                if waiting:
                    rest = tuple(h for h in hunters if h[1] != self.T)
                    return [({}, (v, SECOND, waiting[0][0], True, rest), None)]
                return [({}, (v, DONE, "", True, hunters), None)]
            if carrying and self.var["empty-treasure-field-carriers"] == "closed":
                return []
            return [({}, (v, keep_mode, partner, True, hunters), None)]
        if isl.kind[v] == "boat":
            owner = isl.boat_owner[v]
            if carrying:
                # delivering ends the turn; the route is about the treasure the mover set out
                # with (a treasure picked up by a raid on the way is a different errand)
                if owner in (self.me, partner) and partner == self.partner0:
                    return [({}, (v, DONE, partner, True, hunters), None)]
                return []
            if owner == self.me and not any(h[1] == v for h in hunters):
                return [({}, (v, FREE, "", True, hunters), None)]
            return []
        free = tiles[v] == self.own or (lj >> tiles[v]) & 1
        pay = None if free else tiles[v]
        occ = [h for h in hunters if h[1] == v]
        if not occ:
            return [({}, (v, keep_mode, partner, True, hunters), pay)]
        if carrying:
            return []
        rest = tuple(h for h in hunters if h[1] != v)
        if len(occ) == 1 and occ[0][2] == GUARDING:
            return [({"join": occ[0][0]}, (v, CARRY, occ[0][0], True, rest), pay)]
        if len(occ) == 2:
            out = []
            for home, stay in ((occ[0], occ[1]), (occ[1], occ[0])):
                sent = (home[0], isl.boat_node[home[0]], BOAT, "")
                new = tuple(sorted(rest + (sent,)))
                out.append(({"raid": home[0]}, (v, CARRY, stay[0], True, new), pay))
            return out
        return []

    def _payments(self, cards: tuple, terrain: int | None) -> list[tuple[int | None, tuple]]:
        if terrain is None:
            return [(None, cards)]
        return [(k, _take(cards, k)) for k in self.pays[terrain] if cards[k] > 0]

    def _moves_into(self, st, v, desc_base, spent, extra_cards=None):
        """Successors entering ``v``: a step, or a flight's landing (one card already taken)."""
        pos, mode, partner, leav, cards, lj, tiles, dragons, harmless, hunters = st
        cards = extra_cards if extra_cards is not None else cards
        out = []
        for extra, (nv, nmode, npartner, nleav, nhunters), terrain in self._entries(st, v):
            for k, ncards in self._payments(cards, terrain):
                desc = dict(desc_base)
                desc.update(extra)
                key = "pay" if desc_base["action"] == "flight" else "card"
                if k is not None:
                    desc[key] = self.kinds[k][0].name
                    desc["use"] = self.terrains[terrain]
                nst = (nv, nmode, npartner, nleav, ncards, lj, tiles, dragons, harmless, nhunters)
                out.append((desc, nst, spent + (k is not None)))
        return out

    # -- the move generator --------------------------------------------------------------
    def successors(self, st: tuple) -> list[tuple[dict, tuple, int]]:
        """Every legal action from ``st``: (plan entry, new state, cards spent)."""
        pos, mode, partner, leav, cards, lj, tiles, dragons, harmless, hunters = st
        isl = self.isl
        out: list[tuple[dict, tuple, int]] = []
        if mode == DONE:
            return out
        if mode == SECOND:
            return self._leave_moves(st)
        can_move = mode != GUARD or leav
        if can_move:
            for v in isl.adj[pos]:
                base = {"action": "step", "card": None, "to": isl.names[v]}
                out += self._moves_into(st, v, base, 0)
            if not (isl.kind[pos] == "boat" and self.var["flight-from-boat"] == "forbidden"):
                for k in self.with_use["flight"]:
                    if cards[k] == 0:
                        continue
                    left = _take(cards, k)
                    for b, land in isl.flights(pos):
                        if b in dragons:
                            continue
                        base = {"action": "flight", "card": self.kinds[k][0].name,
                                "over": isl.names[b], "to": isl.names[land]}
                        out += self._moves_into(st, land, base, 1, left)
        here = isl.names[pos]
        # Weite Reise with a terrain card
        stack_ok = self.var["long-journey-stacking"] == "stack" or lj == 0
        for k in self.with_use["long-journey"]:
            if cards[k] == 0 or not stack_ok:
                continue
            left = _take(cards, k)
            for t in range(len(self.terrains)):
                if t == self.own or (lj >> t) & 1:
                    continue
                for k2 in self.pays[t]:
                    if left[k2] == 0:
                        continue
                    desc = step("long-journey", here, self.kinds[k][0].name,
                                **{"with": self.kinds[k2][0].name, "terrain": self.terrains[t]})
                    nst = (pos, mode, partner, leav, _take(left, k2), lj | (1 << t), tiles,
                           dragons, harmless, hunters)
                    out.append((desc, nst, 2))
        # swapping two tiles
        taken = {h[1] for h in hunters} | {pos} | set(dragons)
        for use, pairs in (("swap-adjacent", self.adj_pairs), ("swap-any", self.any_pairs)):
            kinds = self.with_use[use] if use == "swap-any" else sorted(
                set(self.with_use["swap-adjacent"]) | set(self.with_use["swap-any"]))
            for k in kinds:
                if cards[k] == 0:
                    continue
                left = _take(cards, k)
                for f, g in pairs:
                    if f in taken or g in taken or tiles[f] == tiles[g]:
                        continue
                    nt = list(tiles)
                    nt[f], nt[g] = nt[g], nt[f]
                    desc = step("swap", here, self.kinds[k][0].name,
                                swap=[isl.names[f], isl.names[g]])
                    out.append((desc, (pos, mode, partner, leav, left, lj, tuple(nt), dragons,
                                       harmless, hunters), 1))
        # Drachenpatrouille: the first cards place dragons (two in play), later ones move one
        for k in self.with_use["patrol"]:
            if cards[k] == 0:
                continue
            left = _take(cards, k)
            if len(dragons) + harmless < self.dragons_in_play:
                desc = step("patrol", here, self.kinds[k][0].name)
                out.append((desc, (pos, mode, partner, leav, left, lj, tiles, dragons,
                                   harmless + 1, hunters), 1))
            else:
                for d in dragons:
                    desc = step("patrol", here, self.kinds[k][0].name, dragon=isl.names[d])
                    nd = tuple(x for x in dragons if x != d)
                    out.append((desc, (pos, mode, partner, leav, left, lj, tiles, nd,
                                       harmless + 1, hunters), 1))
        # Angst & Schrecken
        for k in self.with_use["fright"]:
            if cards[k] == 0:
                continue
            left = _take(cards, k)
            name = self.kinds[k][0].name
            for desc, npos, nmode, npartner, nleav, nhunters in self._frights(st):
                out.append((dict(desc, card=name, to=isl.names[npos]),
                            (npos, nmode, npartner, nleav, left, lj, tiles, dragons, harmless,
                             nhunters), 1))
        return out

    def _frights(self, st):
        pos, mode, partner, leav, cards, lj, tiles, dragons, harmless, hunters = st
        isl = self.isl
        home = isl.boat_node[self.me]
        out = []
        # the mover itself goes home
        if mode == CARRY:
            left = tuple(sorted(hunters + ((partner, pos, GUARDING, ""),)))
            out.append(({"action": "fright", "target": self.me}, home, FREE, "", True, left))
            sent = (partner, isl.boat_node[partner], BOAT, "")
            out.append(({"action": "fright", "target": partner}, pos, GUARD, "",
                        self.var["raid-and-abandon"] == "allowed",
                        tuple(sorted(hunters + (sent,)))))
        else:
            out.append(({"action": "fright", "target": self.me}, home, FREE, "", True, hunters))
        for h in hunters:
            colour, at, status, mate = h
            if status == BOAT:
                continue
            new = [x for x in hunters if x[0] != colour]
            new.append((colour, isl.boat_node[colour], BOAT, ""))
            if status == PAIR:
                new = [x for x in new if x[0] != mate] + [(mate, at, GUARDING, "")]
            out.append(({"action": "fright", "target": colour}, pos, mode, partner, leav,
                        tuple(sorted(new))))
        return out

    def _leave_moves(self, st):
        """The second hunter on the treasure field leaves it at once with the pair."""
        pos, mode, partner, leav, cards, lj, tiles, dragons, harmless, hunters = st
        isl = self.isl
        occupied = {h[1] for h in hunters} | set(dragons)
        out = []

        def land(v, base, spent, cards_now):
            if not isl.is_field(v) or v in occupied:
                return
            free = tiles[v] == self.own or (lj >> tiles[v]) & 1
            for k, ncards in self._payments(cards_now, None if free else tiles[v]):
                desc = dict(base, leave=True)
                if k is not None:
                    desc["pay" if base["action"] == "flight" else "card"] = self.kinds[k][0].name
                    desc["use"] = self.terrains[tiles[v]]
                nst = (v, DONE, partner, True, ncards, lj, tiles, dragons, harmless, hunters)
                out.append((desc, nst, spent + (k is not None)))

        for v in isl.adj[pos]:
            land(v, {"action": "step", "card": None, "to": isl.names[v]}, 0, cards)
        if self.var["treasure-leave-by-flight"] == "allowed":
            for k in self.with_use["flight"]:
                if cards[k] == 0:
                    continue
                for b, v in isl.flights(pos):
                    if b in dragons:
                        continue
                    base = {"action": "flight", "card": self.kinds[k][0].name,
                            "over": isl.names[b], "to": isl.names[v]}
                    land(v, base, 1, _take(cards, k))
        return out

    # -- what is left after the turn -----------------------------------------------------
    def remaining(self, st: tuple) -> int:
        """Fewest terrain cards from the state's place to the goal on the island it leaves."""
        pos, mode, partner, leav, cards, lj, tiles, dragons, harmless, hunters = st
        if mode == DONE:
            return 0
        if self.q.goal == "treasure":
            if mode == CARRY or (mode == GUARD and not leav):
                return INF
            partner = ""
        elif mode != CARRY or partner != self.partner0:
            return INF
        key = (partner, tiles, dragons, hunters)
        dist = self._dist_cache.get(key)
        if dist is None:
            dist = self._distances(partner, tiles, dragons, hunters)
            self._dist_cache[key] = dist
        return dist[pos]

    def _distances(self, partner, tiles, dragons, hunters) -> list[int]:
        occupied = {h[1] for h in hunters}
        return distances_to_goal(
            self.isl, tiles, self.own, self.me, partner, set(dragons), occupied,
            self.T in occupied, self.treasure,
            self.var["empty-treasure-field-carriers"] == "open")

    # -- the search ----------------------------------------------------------------------
    def solve(self, time_limit: float | None = None) -> RouteResult:
        t0 = time.perf_counter()
        me = self.q.position.hunters[self.me]
        if me.at == self.T:
            return RouteResult(True, 0, 0, [], "search", time.perf_counter() - t0)
        start = self.initial()
        best = {start: 0}
        parent: dict = {start: None}
        tick = itertools.count()
        heap = [(0, next(tick), start)]
        best_end: tuple | None = None
        while heap:
            c, _, st = heapq.heappop(heap)
            if c > best[st]:
                continue
            if st[1] == DONE:
                best_end = ((0, c), st)
                break
            if st[1] != SECOND:
                value = (self.remaining(st), c)
                if best_end is None or value < best_end[0]:
                    best_end = (value, st)
            if time_limit is not None and time.perf_counter() - t0 > time_limit:
                raise TimeoutError("route search ran out of time")
            for desc, nst, spent in self.successors(st):
                nc = c + spent
                if nc < best.get(nst, INF):
                    best[nst] = nc
                    parent[nst] = (st, desc)
                    heapq.heappush(heap, (nc, next(tick), nst))
        (rem, cards), st = best_end
        if rem >= INF:
            return RouteResult(False, 0, None, [], "search", time.perf_counter() - t0)
        plan = []
        while parent[st] is not None:
            st, desc = parent[st]
            plan.append(desc)
        plan.reverse()
        return RouteResult(rem == 0, cards, rem, plan, "search", time.perf_counter() - t0)


def _take(cards: tuple, k: int) -> tuple:
    return cards[:k] + (cards[k] - 1,) + cards[k + 1:]


def search_route(q: RouteQuery, time_limit: float | None = None) -> RouteResult:
    """The optimum by exhaustive best-first search."""
    return TurnSearch(q).solve(time_limit)


def _norm(desc: dict) -> tuple:
    out = {k: v for k, v in desc.items() if k != "place" and v is not None}
    if "swap" in out:
        out["swap"] = tuple(sorted(out["swap"]))
    return tuple(sorted(out.items()))


def replay(q: RouteQuery, plan: list[dict]) -> tuple[tuple[int, int], bool]:
    """Play a plan move by move through the move generator; return ((remaining, cards), reached).

    Raises ValueError naming the first step that is not a legal action.
    """
    ts, st, spent = play_out(q, plan)
    if st is None:
        return (0, 0), True
    return (ts.remaining(st), spent), st[1] == DONE


def play_out(q: RouteQuery, plan: list[dict]) -> tuple[TurnSearch, tuple | None, int]:
    """Play a plan move by move through the move generator: (the search, the state the turn
    ends in, cards spent); the state is None for a hunter waiting on the treasure field, who
    has no route. Raises ValueError naming the first step that is not a legal action."""
    ts = TurnSearch(q)
    me = q.position.hunters[q.hunter]
    if me.at == ts.T:
        if plan:
            raise ValueError("a hunter waiting on the treasure field has no route to play")
        return ts, None, 0
    st, spent = ts.initial(), 0
    for i, entry in enumerate(plan):
        want = _norm(entry)
        for desc, nst, cost in ts.successors(st):
            if _norm(desc) == want:
                st, spent = nst, spent + cost
                break
        else:
            raise ValueError(f"step {i + 1} is not legal here: {entry}")
    if st[1] == SECOND:
        raise ValueError("the plan leaves the mover on the treasure field as second hunter")
    return ts, st, spent
