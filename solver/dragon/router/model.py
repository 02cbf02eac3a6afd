"""The CP-SAT router: the cheapest legal turn to the goal, else the turn that ends closest.

The turn is a path through layers. Inside a layer the tiles do not change, so the hunter's
moves form a unit flow over the island (steps, flights, the mover sent home); a swap of two
tiles is the move from one layer to the next, made while the hunter stands still. Weite
Reise, Drachenpatrouille and Angst & Schrecken on other hunters change no tile and can always
be played first in the turn, so they are single choices for the whole turn. Cards are counted,
not ordered: each paid entry, flight, swap, ... takes one card able to do it.

A last layer, the continuation, walks on from where the turn ends to the goal on the island the
turn leaves, paying one (imaginary) terrain card per field that is not free: its length is
``remaining``. The objective is ``(hand size + 1) * remaining + cards`` (a turn spends at most a
hand), so reaching the goal comes first, ending closest second and spending few cards third.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict

from ortools.sat.python import cp_model

from solver.dragon.route import INF, WORK_LIMIT, RouteQuery, RouteResult
from solver.dragon.router.decode import PlanReader
from solver.dragon.router.relax import (
    JOKERS,
    strict_sources,
    swap_sources,
)
from solver.dragon.router.travel import ANY_TILE, token_travel, travels
from solver.dragon.router.variables import Layer


def terrain_classes(q: RouteQuery, merge: bool = True) -> list[list[int]]:
    """The real terrains (indices into the model's terrains) grouped into classes a route
    cannot tell apart: the same cards of the hand pay for them, and neither is the hunter's
    own terrain or one Weite Reise could make free. Tiles of one class are interchangeable in
    every rule of the turn and its continuation, so the model keeps one tile variable per class
    and field, and swapping two tiles of a class is no move at all (fewer symmetric choices).
    Classes are ordered by their first terrain, so the grouping is deterministic."""
    model = q.position.island.model
    names = model.terrains
    joker = q.variants["double-card-joker"] == "joker"
    kinds = q.kinds()
    journey = any(card.does("long-journey", model) for card, _ in kinds)
    groups: dict[tuple, list[int]] = {}
    for t, name in enumerate(names):
        payers = tuple(k for k, (card, _) in enumerate(kinds) if card.pays(name, q.own, joker))
        alone = not merge or name == q.own or (journey and payers)
        key = ("alone", t) if alone else ("payers", payers)
        groups.setdefault(key, []).append(t)
    return sorted(groups.values())


class NotSolved(RuntimeError):
    """CP-SAT found no solution within the work limit."""


class CpRouter:
    """Builds and solves the CP-SAT model of one route query."""

    def __init__(self, q: RouteQuery, swaps: int | None = None, relax_swaps: bool = False,
                 min_swaps: int = 0, strict: bool = False, sources: bool = True,
                 merge_terrains: bool = True) -> None:
        """``swaps``: at most this many swap layers (a restriction). ``relax_swaps``: no swap
        layers, but each swap card may instead pay for a field near a free tile (a joker), take
        one field off the continuation, or be thrown away; ``min_swaps`` of them must be played
        so (a relaxation of the routes with at least that many swaps: see ``cp_route``).
        ``strict`` (with ``relax_swaps``): each joker takes its tile from a field of its own
        that the route never enters, as a real swap could; no longer a relaxation, it only
        proposes routes for ``repair`` to turn into starting points. ``sources``: with one or
        two swap cards, name where each joker's tile comes from (``router.relax``); tighter,
        but a larger model. ``merge_terrains``: terrains no card tells apart are one class
        (``terrain_classes``); off, every terrain is its own (the same routes, more tiles)."""
        self.q = q
        self.relax = relax_swaps
        self.sources = sources
        self.strict = strict and relax_swaps
        self.min_swaps = min_swaps
        pos = q.position
        isl = self.isl = pos.island
        self.model_data = isl.model
        self.dragons_in_play = int(isl.model.components["dragons_in_play"])
        self.treasure_field = isl.treasure
        self.var = q.variants
        me = pos.hunters[q.hunter]
        self.me = me
        self.carrying = me.partner is not None
        self.partner = me.partner
        self.start = me.at
        self.treasure = pos.treasure is not None
        self.kinds = q.kinds()
        self.can = {
            use: [k for k, (c, _) in enumerate(self.kinds) if c.does(use, isl.model)]
            for use in ("flight", "long-journey", "swap-adjacent", "swap-any", "patrol", "fright")
        }
        self.count = {use: sum(self.kinds[k][1] for k in ks) for use, ks in self.can.items()}
        # the model's terrains are classes of real terrains (see terrain_classes)
        names = isl.model.terrains
        classes = terrain_classes(q, merge_terrains)
        self.terrain_class = {names[t]: c for c, members in enumerate(classes) for t in members}
        self.terrains = [names[members[0]] for members in classes]  # a name for each class
        self.n_terrains = len(classes)
        self.own = self.terrain_class[q.own]
        self.tiles0 = [self.terrain_class[t] for t in pos.tiles]
        joker = self.var["double-card-joker"] == "joker"
        self.can_pay = {
            c: [k for k, (card, _) in enumerate(self.kinds)
                if card.pays(names[classes[c][0]], q.own, joker)]
            for c in range(self.n_terrains)
        }
        self.n_swaps = sum(
            n for k, (c, n) in enumerate(self.kinds)
            if k in self.can["swap-adjacent"] or k in self.can["swap-any"]
        )
        if swaps is not None:
            self.n_swaps = min(self.n_swaps, swaps)
        self.swap_kinds = sorted(set(self.can["swap-adjacent"]) | set(self.can["swap-any"]))
        if relax_swaps:
            self.n_swaps = 0
        # the relaxation's tighter form for three or more swap cards (``router.travel``)
        self.counts_travel = relax_swaps and sources and not self.strict and travels(self)
        # who stands where (the mover and its partner excepted)
        self.lone: dict[int, list[str]] = {}  # field -> a lone hunter or a guard
        self.pairs: dict[int, list[str]] = {}  # field -> the two carriers
        self.waiter: str | None = None
        self.in_boats: set[int] = set()
        for h in pos.hunters.values():
            if h.colour in (q.hunter, me.partner):
                continue
            if isl.kind[h.at] == "boat":
                self.in_boats.add(h.at)
            elif h.at == self.treasure_field:
                self.waiter = h.colour
            elif h.partner:
                self.pairs.setdefault(h.at, []).append(h.colour)
            else:
                self.lone[h.at] = [h.colour]
        self.dragons = sorted(pos.dragons)

    # -- static facts ---------------------------------------------------------------------
    def goal_nodes(self) -> list[int]:
        if self.carrying:
            return [self.isl.boat_node[self.q.hunter], self.isl.boat_node[self.partner]]
        return [self.treasure_field]

    def terminal(self, v: int) -> bool:
        """Entering v ends the turn (or, for the second hunter, forces the leaving move)."""
        if v == self.treasure_field:
            return self.treasure and not self.carrying
        return v in self.goal_nodes()

    # -- model ----------------------------------------------------------------------------
    def build(self) -> None:
        m = self.m = cp_model.CpModel()
        isl, nt, own = self.isl, self.n_terrains, self.own
        F = list(isl.fields)
        S = self.S = self.n_swaps
        # order-free choices --------------------------------------------------------------
        self.long_journey = {}
        if self.count["long-journey"]:
            for t in range(nt):
                if t != own and self.can_pay[t]:
                    self.long_journey[t] = m.NewBoolVar(f"lj{t}")
            if self.var["long-journey-stacking"] == "single":
                m.Add(sum(self.long_journey.values()) <= 1)
        self.patrol_moves = {}
        patrol_cost = 1 if len(self.dragons) == self.dragons_in_play else 2
        if self.count["patrol"] >= patrol_cost:
            for d in self.dragons:
                self.patrol_moves[d] = m.NewBoolVar(f"rm{d}")
        self.fright_lone, self.raid, self.fright_pair = {}, {}, {}
        self.fright_waiter = None
        if self.count["fright"]:
            for f in self.lone:
                self.fright_lone[f] = m.NewBoolVar(f"fo{f}")
            for p in self.pairs:
                if not self.carrying and self.var["raid-and-abandon"] == "allowed":
                    self.raid[p] = m.NewBoolVar(f"raid{p}")
                if self.count["fright"] >= 2:
                    self.fright_pair[p] = m.NewBoolVar(f"f2{p}")
            if self.waiter and not self.carrying:
                self.fright_waiter = m.NewBoolVar("fw")
        # tiles per layer -------------------------------------------------------------------
        self.tile = [{(f, t): int(self.tiles0[f] == t) for f in F for t in range(nt)}]
        for e in range(1, S + 1):
            lay = {(f, t): m.NewBoolVar(f"T{e}_{f}_{t}") for f in F for t in range(nt)}
            for f in F:
                m.AddExactlyOne(lay[f, t] for t in range(nt))
            self.tile.append(lay)
        # layers ------------------------------------------------------------------------------
        self.layers = [self._build_layer(e) for e in range(S + 1)]
        self._link_layers()
        self._build_continuation()
        self._cards()
        # refinements add constraints, and charge the continuation through charge_remaining
        if self.strict:
            strict_sources(self)
        elif self.relax and self.sources and self.names_sources():
            swap_sources(self)
        elif self.counts_travel:
            token_travel(self)
        # reaching the goal first, then ending closest, then spending few cards
        self.m.Minimize(self.objective_expr())

    def charge_remaining(self, cards) -> None:
        """The one way a refinement (``relax``, ``travel``) changes the objective: cards the
        continuation must pay on top of its own fields (a linear expression), added to
        ``remaining`` before the objective is set."""
        self.rem = self.rem + cards

    def names_sources(self) -> bool:
        """Can the relaxation name its jokers' sources (one or two swap cards, each of one
        kind)?"""
        n = self.swap_cards()
        return n in (1, 2) and self.count["swap-adjacent"] + self.count["swap-any"] == n

    def origin(self, f: int) -> bool:
        """Does f's printed tile start a free token (the own terrain, or one Weite Reise may
        make free)?"""
        return self.tiles0[f] == self.own or self.tiles0[f] in self.long_journey

    def refines_relaxation(self) -> bool:
        """Has the relaxation a tighter form for this hand: named sources (one or two swap
        cards) or the free tiles' travel (three or more, ``router.travel``)?"""
        return self.names_sources() or travels(self)

    def swap_cards(self) -> int:
        """How many cards in hand can swap two tiles."""
        return sum(self.kinds[k][1] for k in self.swap_kinds)

    def hand_count(self) -> int:
        return sum(n for _, n in self.kinds)

    def objective_expr(self):
        """Cards still needed first, cards spent second: a turn spends at most a hand's
        cards, so one card still needed weighs a hand plus one (the rules' hand size)."""
        weight = int(self.model_data.hand_size) + 1
        return weight * (self.rem + self.ended) + self.cards_used

    def _open(self, v: int):
        """May v be entered (by a move)? 0, 1, or a linear expression of choices.

        A carrying pair's field opens for two fright cards (both sent home) or, raided by a
        hunter who then sends its new partner home, for one; after the raid the field is empty.
        """
        isl = self.isl
        if isl.kind[v] == "boat":
            owner = isl.boat_owner[v]
            if self.carrying:
                return int(owner in (self.q.hunter, self.partner))
            return int(owner == self.q.hunter and v not in self.in_boats)
        if v == self.treasure_field:
            if self.treasure:
                return int(not self.carrying)
            if self.carrying:
                return int(self.var["empty-treasure-field-carriers"] == "open")
            return 1
        if v in self.dragons:
            return self.patrol_moves.get(v, 0)
        if v in self.lone:
            return self.fright_lone.get(v, 0)
        if v in self.pairs:
            return self.fright_pair.get(v, 0) + self.raid.get(v, 0)
        return 1

    def _build_layer(self, e: int) -> Layer:
        m, isl = self.m, self.isl
        L = Layer()
        N = len(isl.names)
        flight_ok = self.count["flight"] > 0
        for u in range(N):
            if self.terminal(u):
                continue
            if (u == self.treasure_field and not self.treasure
                    and self._open(self.treasure_field) == 0):
                continue
            for v in isl.adj[u]:
                if _closed(self._open(v)):
                    continue
                L.steps[u, v] = m.NewBoolVar(f"s{e}_{u}_{v}")
            grounded = isl.kind[u] == "boat" and self.var["flight-from-boat"] == "forbidden"
            if flight_ok and not grounded:
                for b, land in isl.flights(u):
                    if b in self.dragons and b not in self.patrol_moves:
                        continue
                    if _closed(self._open(land)):
                        continue
                    var = m.NewBoolVar(f"f{e}_{u}_{b}_{land}")
                    if b in self.patrol_moves:
                        m.Add(var <= self.patrol_moves[b])
                    L.flights[u, b, land] = var
            if (self.count["fright"] and not self.carrying
                    and u != isl.boat_node[self.q.hunter]):
                L.teleports[u] = m.NewBoolVar(f"tp{e}_{u}")
        if self.waiter and not self.carrying:
            for h in isl.adj[self.treasure_field]:
                if isl.is_field(h) and not _closed(self._open(h)):
                    L.leave_steps[h] = m.NewBoolVar(f"ls{e}_{h}")
            if flight_ok and self.var["treasure-leave-by-flight"] == "allowed":
                for b, land in isl.flights(self.treasure_field):
                    if b in self.dragons and b not in self.patrol_moves:
                        continue
                    if not isl.is_field(land) or _closed(self._open(land)):
                        continue
                    var = m.NewBoolVar(f"lf{e}_{b}_{land}")
                    if b in self.patrol_moves:
                        m.Add(var <= self.patrol_moves[b])
                    L.leave_flights[b, land] = var
        for g in self.goal_nodes():
            L.goal[g] = m.NewBoolVar(f"g{e}_{g}")
        return L

    def _link_layers(self) -> None:
        m, isl, S = self.m, self.isl, self.S
        N = len(isl.names)
        own_boat = isl.boat_node[self.q.hunter]
        F = list(isl.fields)
        self.stay_swap = []
        for e, L in enumerate(self.layers):
            ins, outs, ents = defaultdict(list), defaultdict(list), defaultdict(list)
            for (u, v), x in L.steps.items():
                outs[u].append(x)
                ins[v].append(x)
                ents[v].append(x)
            for (u, _b, v), x in L.flights.items():
                outs[u].append(x)
                ins[v].append(x)
                ents[v].append(x)
            for u, x in L.teleports.items():
                outs[u].append(x)
            lents = defaultdict(list)  # the pair leaving the treasure field (may go back)
            for h, x in L.leave_steps.items():
                outs[self.treasure_field].append(x)
                lents[h].append(x)
            for (_b, v), x in L.leave_flights.items():
                outs[self.treasure_field].append(x)
                lents[v].append(x)
            L.ins, L.ents = ins, ents
            for v in range(N):
                if self.terminal(v):
                    continue
                L.end[v] = m.NewBoolVar(f"end{e}_{v}")
                if e < S:
                    L.stay[v] = m.NewBoolVar(f"k{e}_{v}")
            home = list(L.teleports.values())
            for v in range(N):
                src = self.layers[e - 1].stay.get(v, 0) if e > 0 else int(v == self.start)
                arrive = ins[v] + (home if v == own_boat else [])
                out = sum(outs[v]) + L.stay.get(v, 0) + L.end.get(v, 0) + L.goal.get(v, 0)
                m.Add(src + sum(arrive) == out)
                every = ents[v] + (home if v == own_boat else [])  # teleports are not entries
                if every:
                    m.Add(src + sum(every) <= 1)
                for entries, leave in ((ents[v], False), (lents[v], True)):
                    if not entries:
                        continue
                    opened = self._open(v)
                    if not isinstance(opened, int):
                        m.Add(sum(entries) <= opened)
                    if isl.is_field(v):
                        self._pay_entry(e, L, v, sum(entries), leave)
            # the second hunter on the treasure field must leave it at once with the pair
            if self.treasure_field in L.goal and self.waiter:
                leaving = sum(L.leave_steps.values()) + sum(L.leave_flights.values())
                if self.fright_waiter is None:
                    m.Add(L.goal[self.treasure_field] == 0)
                else:
                    m.Add(L.goal[self.treasure_field] <= self.fright_waiter)
                    m.Add(leaving <= 1 - self.fright_waiter)
        # a raid must really happen for the fright card it costs
        for p, r in self.raid.items():
            m.Add(r <= sum(sum(L.ins[p]) for L in self.layers))
        # transitions: the hunter stands still while two tiles are swapped
        for e in range(S):
            L = self.layers[e]
            sw_adj = m.NewBoolVar(f"swa{e}")
            sw_any = m.NewBoolVar(f"swy{e}") if self.count["swap-any"] else None
            sw = sw_adj + (sw_any if sw_any is not None else 0)
            m.Add(sum(L.stay.values()) == sw)
            a = {f: m.NewBoolVar(f"a{e}_{f}") for f in F}
            w = {}
            for f in F:
                for g in isl.adj[f]:
                    if isl.is_field(g) and f < g:
                        w[f, g] = m.NewBoolVar(f"w{e}_{f}_{g}")
            m.Add(sum(w.values()) == sw_adj)
            b = {}
            if sw_any is not None:
                b = {f: m.NewBoolVar(f"b{e}_{f}") for f in F}
                m.Add(sum(b.values()) == 2 * sw_any)
            touching = defaultdict(list)
            for (f1, g1), x in w.items():
                touching[f1].append(x)
                touching[g1].append(x)
            for f in F:
                m.Add(a[f] == sum(touching[f]) + (b[f] if b else 0))
                m.Add(a[f] + L.stay.get(f, 0) <= 1)
                self._swappable(e, a[f], f)
            self._swap_tiles(e, a)
            if e == 0 and not b:
                self._first_swap_exact(w)
            self.stay_swap.append((sw_adj, sw_any, a))
            # redundant, for a tight relaxation: a tile moves only at a swap's two ends, and
            # every terrain keeps its number of tiles
            nxt_tiles = self.tile[e + 1]
            for f in F:
                changes = [s[2][f] for s in self.stay_swap]
                m.Add(1 - nxt_tiles[f, self.tiles0[f]] <= sum(changes))
            for t in range(self.n_terrains):
                m.Add(sum(nxt_tiles[f, t] for f in F) == sum(self.tiles0[f] == t for f in F))
            nxt = self.layers[e + 1]
            for x in (list(nxt.steps.values()) + list(nxt.flights.values())
                      + list(nxt.teleports.values()) + list(nxt.leave_steps.values())
                      + list(nxt.leave_flights.values())):
                m.Add(x <= sw)
            # Canonical order (it loses no route): a swap can always be put off until just
            # before the first move that enters one of its two fields, another swap, or the
            # end of the turn. So the first move after a swap enters one of its fields. Not
            # so for the second hunter on the treasure field, who must leave it at once: a
            # swap for the pair's way out is made before entering it.
            second = self.waiter and not self.carrying
            for p, here in L.stay.items():
                for x, target in self._first_moves(nxt, p):
                    if target == self.treasure_field and second:
                        continue
                    m.Add(x <= (a[target] if target in a else 0) + 1 - here)

    def _first_swap_exact(self, w: dict) -> None:
        """Redundant, for a tighter relaxation: after one swap of two neighbours (the first,
        made on the printed tiles) each tile is a linear function of the swapped pair."""
        m, isl, orig = self.m, self.isl, self.tiles0
        pairs = defaultdict(list)
        for (f, g), x in w.items():
            pairs[f].append((g, x))
            pairs[g].append((f, x))
        for f in isl.fields:
            for t in range(self.n_terrains):
                here = int(orig[f] == t)
                m.Add(self.tile[1][f, t]
                      == here + sum(x * (int(orig[g] == t) - here) for g, x in pairs[f]))

    def _first_moves(self, L: Layer, p: int) -> list[tuple]:
        """(arc, entered node) for every move out of node p in a layer."""
        out = [(x, v) for (u, v), x in L.steps.items() if u == p]
        out += [(x, v) for (u, _b, v), x in L.flights.items() if u == p]
        if p in L.teleports:
            out.append((L.teleports[p], self.isl.boat_node[self.q.hunter]))
        if p == self.treasure_field:
            out += [(x, h) for h, x in L.leave_steps.items()]
            out += [(x, v) for (_b, v), x in L.leave_flights.items()]
        return out

    def _swappable(self, e: int, a, f: int) -> None:
        """Tiles under a hunter or a dragon may not be swapped."""
        m = self.m
        if f in self.dragons:
            m.Add(a <= self.patrol_moves.get(f, 0))
        elif f in self.lone:
            m.Add(a <= self.fright_lone.get(f, 0))
        elif f in self.pairs:
            raided = []
            if f in self.raid:
                raided = [x for k in range(e + 1) for x in self.layers[k].ins[f]]
            m.Add(a <= self.fright_pair.get(f, 0) + sum(raided))

    def _swap_tiles(self, e: int, a: dict) -> None:
        """Tiles of layer e+1: the same as layer e except at the swap's two fields, which
        trade their terrains. Written as plain linear constraints (a tight relaxation)."""
        m, nt = self.m, self.n_terrains
        cur, nxt = self.tile[e], self.tile[e + 1]
        for t in range(nt):
            before, after = [], []
            for f in a:
                q = m.NewBoolVar(f"q{e}_{f}_{t}")
                _and(m, q, a[f], nxt[f, t])
                after.append(q)
                if isinstance(cur[f, t], int):
                    if cur[f, t]:
                        before.append(a[f])
                else:
                    p = m.NewBoolVar(f"p{e}_{f}_{t}")
                    _and(m, p, a[f], cur[f, t])
                    before.append(p)
            m.Add(sum(before) == sum(after))
        for f in a:
            for t in range(nt):
                # unchanged unless swapped; a swapped field changes its terrain
                m.Add(nxt[f, t] - cur[f, t] <= a[f])
                m.Add(cur[f, t] - nxt[f, t] <= a[f])
                m.Add(nxt[f, t] + cur[f, t] <= 2 - a[f])

    def _pay_entry(self, e: int, L: Layer, f: int, entered, leave: bool = False) -> None:
        """An entry into field f is free (own terrain, Weite Reise) or paid by one card.
        The pair leaving the treasure field pays apart (it may step back where it came from)."""
        m, own = self.m, self.own
        tile = self.tile[e]
        tag = "l" if leave else "e"
        free = m.NewBoolVar(f"{tag}f{e}_{f}")
        (L.lfree if leave else L.efree)[f] = free
        paid = []
        for t in range(self.n_terrains):
            if t == own or isinstance(tile[f, t], int) and not tile[f, t]:
                continue
            if not self.can_pay[t]:
                continue
            x = m.NewBoolVar(f"{tag}p{e}_{f}_{t}")
            if not isinstance(tile[f, t], int):
                m.Add(x <= tile[f, t])
            (L.lpaid if leave else L.epaid)[f, t] = x
            paid.append(x)
        if not leave and self.counts_travel and self.origin(f):
            # a free printed tile whose token has left (``router.travel``): a card pays for
            # whatever tile came in its place
            x = m.NewBoolVar(f"ea{e}_{f}")
            L.epaid[f, ANY_TILE] = x
            paid.append(x)
        if self.relax and self.swap_kinds:
            free_near, pay_near = self._joker_reasons(f)
            for kind, near in (("swap", free_near), ("swap-pay", pay_near)):
                if near is None:
                    continue
                x = m.NewBoolVar(f"{tag}j{kind}{e}_{f}")
                if not isinstance(near, int):
                    m.Add(x <= near)
                (L.lpaid if leave else L.epaid)[f, kind] = x
                paid.append(x)
        m.Add(entered == free + sum(paid))
        # free only on the own terrain or a terrain made free by Weite Reise
        reasons = []
        for t in range(self.n_terrains):
            if isinstance(tile[f, t], int):
                if not tile[f, t]:
                    continue
                if t == own:
                    return  # always free
                if t in self.long_journey:
                    reasons.append(self.long_journey[t])
            else:
                if t == own:
                    reasons.append(tile[f, t])
                elif t in self.long_journey:
                    z = m.NewBoolVar(f"{tag}z{e}_{f}_{t}")
                    m.Add(z <= tile[f, t])
                    m.Add(z <= self.long_journey[t])
                    reasons.append(z)
        m.Add(free <= sum(reasons))

    def _joker_reasons(self, f: int) -> tuple:
        """When may a swap card stand in for the payment of field f in the relaxation?

        A swap pays off only by bringing a free tile (own terrain, or one made free by Weite
        Reise) or a tile that another card in hand then pays for. With no Tosende Elemente in
        hand a tile moves one field per swap, so it must lie within as many fields of f as
        there are Zerstörende Kräfte. Returns the reasons for (a free tile, a payable tile):
        each None (impossible), 1 (possible) or an expression of the Weite Reise choices."""
        isl = self.isl
        if self.count["swap-any"]:
            reach = set(isl.fields)
        else:
            reach, frontier = {f}, [f]
            for _ in range(self.count["swap-adjacent"]):
                frontier = [g for v in frontier for g in isl.adj[v]
                            if isl.is_field(g) and g not in reach]
                reach |= set(frontier)
        terrains = {self.tiles0[g] for g in reach}
        if self.own in terrains:
            free = 1
        else:
            lits = [self.long_journey[t] for t in sorted(terrains) if t in self.long_journey]
            free = sum(lits) if lits else None
        payable = any(t != self.own and self.can_pay[t] for t in terrains)
        return free, (1 if payable else None)

    def _build_continuation(self) -> None:
        """After the turn: the cheapest walk to the goal with terrain cards alone."""
        m, isl = self.m, self.isl
        N = len(isl.names)
        tile = self.tile[-1]  # no swap after the turn's end, so the last layer's tiles
        C = self.cont = Layer()
        for u in range(N):
            if self.terminal(u):
                continue
            for v in isl.adj[u]:
                if not _closed(self._open(v)):
                    C.steps[u, v] = m.NewBoolVar(f"cs_{u}_{v}")
        if self.waiter and not self.carrying:
            for h in isl.adj[self.treasure_field]:
                if isl.is_field(h) and not _closed(self._open(h)):
                    C.leave_steps[h] = m.NewBoolVar(f"cl_{h}")
        for g in self.goal_nodes():
            C.goal[g] = m.NewBoolVar(f"cg_{g}")
        ins, outs = defaultdict(list), defaultdict(list)
        for (u, v), x in C.steps.items():
            outs[u].append(x)
            ins[v].append(x)
        C.ins = ins
        for x in C.leave_steps.values():
            outs[self.treasure_field].append(x)
        self.ended = sum(x for L in self.layers for x in L.end.values())
        rem_terms = []
        for v in range(N):
            src = sum(L.end[v] for L in self.layers if v in L.end)
            m.Add(src + sum(ins[v]) == sum(outs[v]) + C.goal.get(v, 0))
            leaving = [C.leave_steps[v]] if v in C.leave_steps else []
            for entries in (ins[v], leaving):
                if not entries:
                    continue
                opened = self._open(v)
                if not isinstance(opened, int):
                    m.Add(sum(entries) <= opened)
                if not isl.is_field(v):
                    continue
                free_ok = tile[v, self.own]
                if isinstance(free_ok, int):
                    if not free_ok:
                        rem_terms.append(sum(entries))
                else:
                    paid = m.NewIntVar(0, 2, f"cp_{v}_{len(rem_terms)}")
                    m.Add(sum(entries) <= paid + free_ok)
                    rem_terms.append(paid)
        if self.treasure_field in C.goal and self.waiter:
            if self.fright_waiter is None:
                m.Add(C.goal[self.treasure_field] == 0)
            else:
                m.Add(C.goal[self.treasure_field] <= self.fright_waiter)
                m.Add(sum(C.leave_steps.values()) <= 1 - self.fright_waiter)
        self.rem = sum(rem_terms)

    def _cards(self) -> None:
        """Every card play of the route takes one card of the hand that can make it."""
        m = self.m
        demand: dict[tuple, object] = {}
        credit_needed = 0
        if self.relax:
            jokers = [(k[1], x) for L in self.layers for k, x in L.paid_items()
                      if k[1] in JOKERS]
            # One swap frees one field; only a field next to the treasure field is entered
            # twice (in, and back out with the waiting hunter) on the same tile: a joker on
            # the way out needs no swap of its own if the way in had one on that field.
            inward: dict[int, list] = defaultdict(list)
            for L in self.layers:
                for (f, kind), x in L.epaid.items():
                    if kind in JOKERS:
                        inward[f].append(x)
            credit_needed = sum(x for xs in inward.values() for x in xs)
            for L in self.layers:
                for (f, kind), x in L.lpaid.items():
                    if kind in JOKERS:
                        extra = m.NewBoolVar(f"xtra_{f}")
                        m.Add(extra >= x - sum(inward[f]))
                        credit_needed += extra
            # a swap that brings a payable (not free) tile still needs a card to pay it, as
            # does a free printed tile whose token has left (``router.travel``)
            demand["pay-any"] = sum(x for kind, x in jokers if kind == "swap-pay") + sum(
                x for L in self.layers for (_f, kind), x in L.paid_items() if kind == ANY_TILE)
            demand["waste"] = self.waste = m.NewIntVar(0, self.hand_count(), "waste")
        for t in range(self.n_terrains):
            if t == self.own:
                continue
            paid = [x for L in self.layers for key, x in L.paid_items() if key[1] == t]
            demand["pay", t] = sum(paid)
            if t in self.long_journey:
                demand["ljw", t] = self.long_journey[t]
        demand["long-journey"] = sum(self.long_journey.values())
        demand["flight"] = sum(
            sum(L.flights.values()) + sum(L.leave_flights.values()) for L in self.layers)
        demand["swap-any"] = sum(s[1] for s in self.stay_swap if s[1] is not None)
        demand["swap-adjacent"] = sum(s[0] for s in self.stay_swap)
        patrol_cost = 1 if len(self.dragons) == self.dragons_in_play else 2
        demand["patrol"] = patrol_cost * sum(self.patrol_moves.values())
        if self.relax:
            # a swap card may take one paid field off the continuation instead
            most = self.count["swap-adjacent"] + self.count["swap-any"]
            twice = 2 if self.waiter and not self.carrying else 1  # (the same, after the turn)
            tokens = self.m.NewIntVar(0, twice * most, "tok")
            self.tokens = tokens
            self.m.Add(tokens <= self.rem)
            self.rem = self.rem - tokens
            credit = self.m.NewIntVar(0, most, "credit")
            for_tokens = self.m.NewIntVar(0, most, "credit_tokens")
            self.m.Add(tokens <= twice * for_tokens)
            self.cont_twice = {}  # field -> "the continuation enters it twice"
            if twice == 2:  # a second token needs a field the continuation enters twice
                self.cont_twice = self._entered_twice_after()
                self.m.Add(tokens <= for_tokens + sum(self.cont_twice.values()))
            self.m.Add(credit_needed + for_tokens <= credit)
            demand["credit"] = credit
        demand["fright"] = (sum(self.fright_lone.values()) + sum(self.raid.values())
                            + 2 * sum(self.fright_pair.values())
                            + (self.fright_waiter if self.fright_waiter is not None else 0)
                            + sum(sum(L.teleports.values()) for L in self.layers))
        self.use = {}
        supply = defaultdict(list)
        for k, (_card, n) in enumerate(self.kinds):
            mine = []
            for t in range(self.n_terrains):
                if t != self.own and k in self.can_pay[t]:
                    for key in (("pay", t), ("ljw", t)):
                        if key in demand:
                            mine.append(key)
            for use in ("long-journey", "flight", "patrol", "fright", "swap-any"):
                if k in self.can[use]:
                    mine.append(use)
            if self.relax and k in self.swap_kinds:
                mine += ["credit", "waste"]
            if self.relax and _card.terrains:
                mine.append("pay-any")
            if k in self.can["swap-adjacent"] or k in self.can["swap-any"]:
                mine.append("swap-adjacent")
            xs = []
            for key in mine:
                x = m.NewIntVar(0, n, f"u{k}_{key}")
                self.use[k, key] = x
                supply[key].append(x)
                xs.append(x)
            if xs:
                m.Add(sum(xs) <= n)
        for key, need in demand.items():
            m.Add(sum(supply[key]) == need)
        if self.relax and self.min_swaps:
            m.Add(sum(x for (k, _key), x in self.use.items() if k in self.swap_kinds)
                  >= self.min_swaps)
        self.cards_used = sum(self.use.values())

    def _entered_twice_after(self) -> dict:
        """The fields the continuation enters twice, each with its literal: in, then out with
        the pair leaving the treasure field (freeing one of them saves two cards)."""
        m = self.m
        into = self.cont.ins
        both = {}
        for h, x in self.cont.leave_steps.items():
            if into[h]:
                b = m.NewBoolVar(f"twice_{h}")
                m.Add(b <= x)
                m.Add(b <= sum(into[h]))
                both[h] = b
        return both

    # -- solve and read the plan -------------------------------------------------------
    def solve(self, workers: int = 1, work_limit: float = WORK_LIMIT,
              hint: CpRouter | None = None, lower: int | None = None,
              plan_hint: list[dict] | None = None, fix_plan: bool = False,
              warm: CpRouter | None = None, upper: int | None = None) -> RouteResult:
        """Solve to optimality. ``hint``: a solved router of a restriction of this model (fewer
        swap layers); its solution starts the search and its value bounds the objective.

        The limit is CP-SAT's deterministic time, so a cut-off falls at the same point of the
        search on every machine: the best route found is then returned with ``optimal`` False
        (and ``self.bound`` a proved lower bound on the objective). ``fix_plan``: the moves
        and plays of ``plan_hint`` are imposed, not suggested (payments are still chosen).
        ``warm``: a solved router whose values (matched by name) start the search, no more.
        ``upper``: only routes of at most this value are wanted (none: infeasible)."""
        t0 = time.perf_counter()
        if self.start == self.treasure_field:
            return RouteResult(True, 0, 0, [], "cp-sat", 0.0)
        self.build()
        if hint is not None:
            self.m.Add(self.objective_expr() <= hint.objective)
            if plan_hint is None:
                self._hint_from(hint)
        if lower is not None:
            self.m.Add(self.objective_expr() >= lower)
        if upper is not None:
            self.m.Add(self.objective_expr() <= upper)
        if plan_hint is not None:
            self._hint_plan(plan_hint, fix_plan)
        if warm is not None:
            self._hint_from(warm)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        solver.parameters.max_deterministic_time = work_limit
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.random_seed = 0
        # a relaxation's proof runs on its LP: all of it from the start (the named relaxation
        # solves 25-50% faster; the full models gain little, and some lose)
        solver.parameters.add_lp_constraints_lazily = not self.relax
        status = solver.Solve(self.m)
        if status == cp_model.INFEASIBLE:
            self.objective = self.bound = INF
            return RouteResult(False, 0, None, [], "cp-sat", time.perf_counter() - t0)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise NotSolved(f"route model not solved ({solver.StatusName(status)})")
        self.sol = solver
        self.objective = int(round(solver.ObjectiveValue()))
        self.bound = math.ceil(solver.BestObjectiveBound() - 1e-6)
        rem = int(solver.Value(self.rem))
        cards = int(solver.Value(self.cards_used))
        plan = PlanReader(self).plan()
        reached = rem == 0 and any(
            solver.Value(x) for L in self.layers
            for x in list(L.goal.values()) + list(L.leave_steps.values())
            + list(L.leave_flights.values()))
        return RouteResult(reached, cards, rem if rem < INF else None, plan, "cp-sat",
                           time.perf_counter() - t0, optimal=status == cp_model.OPTIMAL)

    def _hint_from(self, other: CpRouter) -> None:
        """Start from another model's solution (matched by variable name)."""
        values = {}
        proto = other.m.Proto()
        for i, var in enumerate(proto.variables):
            if var.name:
                values[var.name] = other.sol.Value(other.m.GetIntVarFromProtoIndex(i))
        proto = self.m.Proto()
        for i, var in enumerate(proto.variables):
            if var.name in values:
                self.m.AddHint(self.m.GetIntVarFromProtoIndex(i), values[var.name])

    def _hint_plan(self, plan: list[dict], fix: bool = False) -> None:
        """Suggest (or, with ``fix``, impose) a plan as written by ``_plan``, move by move."""
        isl = self.isl
        node = isl.node
        chosen = []
        e, at = 0, self.start
        L = self.layers[0]
        raided = None
        left = False  # the pair has left the treasure field: the flow ends there
        for entry in plan:
            action = entry["action"]
            if action == "long-journey":
                chosen.append(self.long_journey.get(self.terrain_class[entry["terrain"]]))
            elif action == "patrol" and entry.get("dragon"):
                chosen.append(self.patrol_moves.get(node(entry["dragon"])))
            elif action == "fright":
                who = entry["target"]
                if who == self.q.hunter:
                    chosen.append(L.teleports.get(at))
                    at = isl.boat_node[who]
                elif who == raided:
                    pass
                elif who == self.waiter:
                    chosen.append(self.fright_waiter)
                else:
                    spot = self.q.position.hunters[who].at
                    chosen.append(self.fright_lone.get(spot) if spot in self.lone
                                  else self.fright_pair.get(spot))
            elif action in ("step", "flight"):
                v = node(entry["to"])
                b = node(entry["over"]) if action == "flight" else None
                if entry.get("leave"):
                    arc = L.leave_flights.get((b, v)) if b is not None else L.leave_steps.get(v)
                else:
                    arc = L.flights.get((at, b, v)) if b is not None else L.steps.get((at, v))
                chosen.append(arc)
                left = left or bool(entry.get("leave"))
                if entry.get("raid"):
                    chosen.append(self.raid.get(v))
                    raided = [c for c in self.pairs.get(v, []) if c != entry["raid"]][0]
                at = v
            elif action == "swap":
                if e >= len(self.stay_swap):
                    return
                sw_adj, sw_any, a = self.stay_swap[e]
                f, g = sorted(node(x) for x in entry["swap"])
                chosen += [L.stay.get(at), a[f], a[g]]
                adjacent = g in isl.adj[f] and (sw_any is None or not self.kinds_any(entry["card"]))
                chosen.append(sw_adj if adjacent else sw_any)
                e += 1
                L = self.layers[e]
        if left:  # the flow ended with the pair leaving the treasure field
            pass
        elif at in L.goal:
            chosen.append(L.goal[at])
        elif at in L.end:
            chosen.append(L.end[at])
        seen = set()
        for x in chosen:
            if x is not None and not isinstance(x, int) and x.Index() not in seen:
                seen.add(x.Index())
                self.m.AddHint(x, 1)
                if fix:
                    self.m.Add(x == 1)

    def kinds_any(self, card_name: str) -> bool:
        """Is the named card a Tosende Elemente (any two tiles)?"""
        return any(self.kinds[k][0].name == card_name for k in self.can["swap-any"])

    def continuation_nodes(self) -> list[int]:
        """The solved continuation's cells, in order (empty when the goal is reached)."""
        return PlanReader(self).continuation()

def _closed(x) -> bool:
    """An openness that is the constant 0 (never a model expression)."""
    return isinstance(x, int) and x == 0


def _and(m: cp_model.CpModel, z, x, y) -> None:
    """z == x and y, as three linear inequalities."""
    m.Add(z <= x)
    m.Add(z <= y)
    m.Add(z >= x + y - 1)
