"""The continuation: the walk from where the turn ends to the goal on the island the turn
leaves, one imaginary terrain card per field that is not free (its length is ``remaining``).

Functions of the model being built (:class:`~solver.dragon.router.variables.RouterModel`);
see README.md for the rule each function enforces.
"""

from __future__ import annotations

from collections import defaultdict

from solver.dragon.router.variables import Layer, RouterModel, closed


def build_continuation(r: RouterModel) -> None:
    """After the turn: the cheapest walk to the goal with terrain cards alone."""
    m, isl = r.m, r.isl
    N = len(isl.names)
    tile = r.tile[-1]  # no swap after the turn's end, so the last layer's tiles
    C = r.cont = Layer()
    for u in range(N):
        if r.terminal(u):
            continue
        for v in isl.adj[u]:
            if not closed(r.may_enter(v)):
                C.steps[u, v] = m.NewBoolVar(f"cs_{u}_{v}")
    if r.waiter and not r.carrying:
        for h in isl.adj[r.treasure_field]:
            if isl.is_field(h) and not closed(r.may_enter(h)):
                C.leave_steps[h] = m.NewBoolVar(f"cl_{h}")
    for g in r.goal_nodes():
        C.goal[g] = m.NewBoolVar(f"cg_{g}")
    ins, outs = defaultdict(list), defaultdict(list)
    for (u, v), x in C.steps.items():
        outs[u].append(x)
        ins[v].append(x)
    C.ins = ins
    for x in C.leave_steps.values():
        outs[r.treasure_field].append(x)
    r.ended = sum(x for L in r.layers for x in L.end.values())
    rem_terms = []
    for v in range(N):
        src = sum(L.end[v] for L in r.layers if v in L.end)
        m.Add(src + sum(ins[v]) == sum(outs[v]) + C.goal.get(v, 0))
        leaving = [C.leave_steps[v]] if v in C.leave_steps else []
        for entries in (ins[v], leaving):
            if not entries:
                continue
            opened = r.may_enter(v)
            if not isinstance(opened, int):
                m.Add(sum(entries) <= opened)
            if not isl.is_field(v):
                continue
            free_ok = tile[v, r.own]
            if isinstance(free_ok, int):
                if not free_ok:
                    rem_terms.append(sum(entries))
            else:
                paid = m.NewIntVar(0, 2, f"cp_{v}_{len(rem_terms)}")
                m.Add(sum(entries) <= paid + free_ok)
                rem_terms.append(paid)
    if r.treasure_field in C.goal and r.waiter:
        if r.fright_waiter is None:
            m.Add(C.goal[r.treasure_field] == 0)
        else:
            m.Add(C.goal[r.treasure_field] <= r.fright_waiter)
            m.Add(sum(C.leave_steps.values()) <= 1 - r.fright_waiter)
    r.rem = sum(rem_terms)


def entered_twice_after(r: RouterModel) -> dict:
    """The fields the continuation enters twice, each with its literal: in, then out with
    the pair leaving the treasure field (freeing one of them saves two cards)."""
    m = r.m
    into = r.cont.ins
    both = {}
    for h, x in r.cont.leave_steps.items():
        if into[h]:
            b = m.NewBoolVar(f"twice_{h}")
            m.Add(b <= x)
            m.Add(b <= sum(into[h]))
            both[h] = b
    return both
