"""The continuation: the walk from where the turn ends to the goal on the island the turn
leaves, one imaginary terrain card per field that is not free (its length is ``remaining``).

Part of :class:`~solver.dragon.router.model.CpRouter` (a mixin: the methods read the
router's state as ``self``); see README.md for the rule each method enforces.
"""

from __future__ import annotations

from collections import defaultdict

from solver.dragon.router.variables import Layer, closed


class Continuation:
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
                if not closed(self._open(v)):
                    C.steps[u, v] = m.NewBoolVar(f"cs_{u}_{v}")
        if self.waiter and not self.carrying:
            for h in isl.adj[self.treasure_field]:
                if isl.is_field(h) and not closed(self._open(h)):
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
