"""Swapping tiles: which fields may be swapped (never under a hunter or a dragon), and the
tiles of each layer after the swap that leads into it.

Part of :class:`~solver.dragon.router.model.CpRouter` (a mixin: the methods read the
router's state as ``self``); see README.md for the rule each method enforces.
"""

from __future__ import annotations

from collections import defaultdict

from solver.dragon.router.variables import add_and


class Swaps:
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
