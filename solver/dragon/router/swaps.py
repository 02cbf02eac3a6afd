"""Swapping tiles: which fields may be swapped (never under a hunter or a dragon), and the
tiles of each layer after the swap that leads into it.

Functions of the model being built (:class:`~solver.dragon.router.variables.RouterModel`);
see README.md for the rule each function enforces.
"""

from __future__ import annotations

from collections import defaultdict

from solver.dragon.router.variables import RouterModel, Var, add_and


def first_swap_exact(r: RouterModel, w: dict) -> None:
    """Redundant, for a tighter relaxation: after one swap of two neighbours (the first,
    made on the printed tiles) each tile is a linear function of the swapped pair."""
    m, isl, orig = r.m, r.isl, r.tiles0
    pairs = defaultdict(list)
    for (f, g), x in w.items():
        pairs[f].append((g, x))
        pairs[g].append((f, x))
    for f in isl.fields:
        for t in range(r.n_terrains):
            here = int(orig[f] == t)
            m.Add(r.tile[1][f, t]
                  == here + sum(x * (int(orig[g] == t) - here) for g, x in pairs[f]))


def swappable(r: RouterModel, e: int, a: Var, f: int) -> None:
    """Tiles under a hunter or a dragon may not be swapped."""
    m = r.m
    if f in r.dragons:
        m.Add(a <= r.patrol_moves.get(f, 0))
    elif f in r.lone:
        m.Add(a <= r.fright_lone.get(f, 0))
    elif f in r.pairs:
        raided = []
        if f in r.raid:
            raided = [x for k in range(e + 1) for x in r.layers[k].ins[f]]
        m.Add(a <= r.fright_pair.get(f, 0) + sum(raided))


def swap_tiles(r: RouterModel, e: int, a: dict) -> None:
    """Tiles of layer e+1: the same as layer e except at the swap's two fields, which
    trade their terrains. Written as plain linear constraints (a tight relaxation)."""
    m, nt = r.m, r.n_terrains
    cur, nxt = r.tile[e], r.tile[e + 1]
    for t in range(nt):
        before, after = [], []
        for f in a:
            q = m.NewBoolVar(f"q{e}_{f}_{t}")
            add_and(m, q, a[f], nxt[f, t])
            after.append(q)
            if isinstance(cur[f, t], int):
                if cur[f, t]:
                    before.append(a[f])
            else:
                p = m.NewBoolVar(f"p{e}_{f}_{t}")
                add_and(m, p, a[f], cur[f, t])
                before.append(p)
        m.Add(sum(before) == sum(after))
    for f in a:
        for t in range(nt):
            # unchanged unless swapped; a swapped field changes its terrain
            m.Add(nxt[f, t] - cur[f, t] <= a[f])
            m.Add(cur[f, t] - nxt[f, t] <= a[f])
            m.Add(nxt[f, t] + cur[f, t] <= 2 - a[f])
