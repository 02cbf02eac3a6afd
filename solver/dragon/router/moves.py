"""Who may enter a field, and the hunter's moves: each layer's steps, flights, teleports and
the pair leaving the treasure field, linked into one unit flow through the layers.

Part of :class:`~solver.dragon.router.model.CpRouter` (a mixin: the methods read the
router's state as ``self``); see README.md for the rule each method enforces.
"""

from __future__ import annotations

from collections import defaultdict

from solver.dragon.router.variables import Layer, closed


class Moves:
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
                if closed(self._open(v)):
                    continue
                L.steps[u, v] = m.NewBoolVar(f"s{e}_{u}_{v}")
            grounded = isl.kind[u] == "boat" and self.var["flight-from-boat"] == "forbidden"
            if flight_ok and not grounded:
                for b, land in isl.flights(u):
                    if b in self.dragons and b not in self.patrol_moves:
                        continue
                    if closed(self._open(land)):
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
                if isl.is_field(h) and not closed(self._open(h)):
                    L.leave_steps[h] = m.NewBoolVar(f"ls{e}_{h}")
            if flight_ok and self.var["treasure-leave-by-flight"] == "allowed":
                for b, land in isl.flights(self.treasure_field):
                    if b in self.dragons and b not in self.patrol_moves:
                        continue
                    if not isl.is_field(land) or closed(self._open(land)):
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
