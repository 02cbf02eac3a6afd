"""The hunter's moves: each layer's steps, flights, teleports and the pair leaving the
treasure field, linked into one unit flow through the layers (who may enter a field is
:meth:`~solver.dragon.router.variables.RouterModel.may_enter`).

Functions of the model being built (:class:`~solver.dragon.router.variables.RouterModel`);
see README.md for the rule each function enforces.
"""

from __future__ import annotations

from collections import defaultdict

from solver.dragon.router.payments import pay_entry
from solver.dragon.router.swaps import first_swap_exact, swap_tiles, swappable
from solver.dragon.router.variables import Layer, RouterModel, closed


def build_layer(r: RouterModel, e: int) -> Layer:
    """Layer e's moves (steps, flights, teleports, the pair's way out) and goal nodes."""
    m, isl = r.m, r.isl
    L = Layer()
    N = len(isl.names)
    flight_ok = r.count["flight"] > 0
    for u in range(N):
        if r.terminal(u):
            continue
        if (u == r.treasure_field and not r.treasure
                and r.may_enter(r.treasure_field) == 0):
            continue
        for v in isl.adj[u]:
            if closed(r.may_enter(v)):
                continue
            L.steps[u, v] = m.NewBoolVar(f"s{e}_{u}_{v}")
        grounded = isl.kind[u] == "boat" and r.var["flight-from-boat"] == "forbidden"
        if flight_ok and not grounded:
            for b, land in isl.flights(u):
                if b in r.dragons and b not in r.patrol_moves:
                    continue
                if closed(r.may_enter(land)):
                    continue
                var = m.NewBoolVar(f"f{e}_{u}_{b}_{land}")
                if b in r.patrol_moves:
                    m.Add(var <= r.patrol_moves[b])
                L.flights[u, b, land] = var
        if (r.count["fright"] and not r.carrying
                and u != isl.boat_node[r.q.hunter]):
            L.teleports[u] = m.NewBoolVar(f"tp{e}_{u}")
    if r.waiter and not r.carrying:
        for h in isl.adj[r.treasure_field]:
            if isl.is_field(h) and not closed(r.may_enter(h)):
                L.leave_steps[h] = m.NewBoolVar(f"ls{e}_{h}")
        if flight_ok and r.var["treasure-leave-by-flight"] == "allowed":
            for b, land in isl.flights(r.treasure_field):
                if b in r.dragons and b not in r.patrol_moves:
                    continue
                if not isl.is_field(land) or closed(r.may_enter(land)):
                    continue
                var = m.NewBoolVar(f"lf{e}_{b}_{land}")
                if b in r.patrol_moves:
                    m.Add(var <= r.patrol_moves[b])
                L.leave_flights[b, land] = var
    for g in r.goal_nodes():
        L.goal[g] = m.NewBoolVar(f"g{e}_{g}")
    return L


def link_layers(r: RouterModel) -> None:
    """The layers' moves as one unit flow from the start, each entry paid, and the swaps
    between layers (``r.stay_swap``) with the tiles they leave."""
    m, isl, S = r.m, r.isl, r.n_swaps
    N = len(isl.names)
    own_boat = isl.boat_node[r.q.hunter]
    F = list(isl.fields)
    r.stay_swap = []
    for e, L in enumerate(r.layers):
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
            outs[r.treasure_field].append(x)
            lents[h].append(x)
        for (_b, v), x in L.leave_flights.items():
            outs[r.treasure_field].append(x)
            lents[v].append(x)
        L.ins, L.ents = ins, ents
        for v in range(N):
            if r.terminal(v):
                continue
            L.end[v] = m.NewBoolVar(f"end{e}_{v}")
            if e < S:
                L.stay[v] = m.NewBoolVar(f"k{e}_{v}")
        home = list(L.teleports.values())
        for v in range(N):
            src = r.layers[e - 1].stay.get(v, 0) if e > 0 else int(v == r.start)
            arrive = ins[v] + (home if v == own_boat else [])
            out = sum(outs[v]) + L.stay.get(v, 0) + L.end.get(v, 0) + L.goal.get(v, 0)
            m.Add(src + sum(arrive) == out)
            every = ents[v] + (home if v == own_boat else [])  # teleports are not entries
            if every:
                m.Add(src + sum(every) <= 1)
            for entries, leave in ((ents[v], False), (lents[v], True)):
                if not entries:
                    continue
                opened = r.may_enter(v)
                if not isinstance(opened, int):
                    m.Add(sum(entries) <= opened)
                if isl.is_field(v):
                    pay_entry(r, e, L, v, sum(entries), leave)
        # the second hunter on the treasure field must leave it at once with the pair
        if r.treasure_field in L.goal and r.waiter:
            leaving = sum(L.leave_steps.values()) + sum(L.leave_flights.values())
            if r.fright_waiter is None:
                m.Add(L.goal[r.treasure_field] == 0)
            else:
                m.Add(L.goal[r.treasure_field] <= r.fright_waiter)
                m.Add(leaving <= 1 - r.fright_waiter)
    # a raid must really happen for the fright card it costs
    for p, x in r.raid.items():
        m.Add(x <= sum(sum(L.ins[p]) for L in r.layers))
    # transitions: the hunter stands still while two tiles are swapped
    for e in range(S):
        L = r.layers[e]
        sw_adj = m.NewBoolVar(f"swa{e}")
        sw_any = m.NewBoolVar(f"swy{e}") if r.count["swap-any"] else None
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
            swappable(r, e, a[f], f)
        swap_tiles(r, e, a)
        if e == 0 and not b:
            first_swap_exact(r, w)
        r.stay_swap.append((sw_adj, sw_any, a))
        # redundant, for a tight relaxation: a tile moves only at a swap's two ends, and
        # every terrain keeps its number of tiles
        nxt_tiles = r.tile[e + 1]
        for f in F:
            changes = [s[2][f] for s in r.stay_swap]
            m.Add(1 - nxt_tiles[f, r.tiles0[f]] <= sum(changes))
        for t in range(r.n_terrains):
            m.Add(sum(nxt_tiles[f, t] for f in F) == sum(r.tiles0[f] == t for f in F))
        nxt = r.layers[e + 1]
        for x in (list(nxt.steps.values()) + list(nxt.flights.values())
                  + list(nxt.teleports.values()) + list(nxt.leave_steps.values())
                  + list(nxt.leave_flights.values())):
            m.Add(x <= sw)
        # Canonical order (it loses no route): a swap can always be put off until just
        # before the first move that enters one of its two fields, another swap, or the
        # end of the turn. So the first move after a swap enters one of its fields. Not
        # so for the second hunter on the treasure field, who must leave it at once: a
        # swap for the pair's way out is made before entering it.
        second = r.waiter and not r.carrying
        firsts = first_moves(r, nxt)
        for p, here in L.stay.items():
            for x, target in firsts.get(p, ()):
                if target == r.treasure_field and second:
                    continue
                m.Add(x <= (a[target] if target in a else 0) + 1 - here)


def first_moves(r: RouterModel, L: Layer) -> dict[int, list[tuple]]:
    """For every node p, (arc, entered node) for every move out of p in a layer: steps,
    flights, the mover sent home, the pair leaving the treasure field, in that order (one
    pass over the layer's moves, not one per node)."""
    out: dict[int, list[tuple]] = defaultdict(list)
    for (u, v), x in L.steps.items():
        out[u].append((x, v))
    for (u, _b, v), x in L.flights.items():
        out[u].append((x, v))
    for p, x in L.teleports.items():
        out[p].append((x, r.isl.boat_node[r.q.hunter]))
    leaving = out[r.treasure_field]
    leaving += [(x, h) for h, x in L.leave_steps.items()]
    leaving += [(x, v) for (_b, v), x in L.leave_flights.items()]
    return out
