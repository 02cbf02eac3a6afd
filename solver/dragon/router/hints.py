"""Starting a model's search: from an earlier round's solution or from a plan (a repaired
proposal), as hints, or with the plan's moves imposed.

Functions of a built model (:class:`~solver.dragon.router.variables.RouterModel`); see
README.md for where hints are used.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver.dragon.move import Move
from solver.dragon.router.variables import RouterModel


def hint_from(r: RouterModel, other: RouterModel, sol: cp_model.CpSolver) -> None:
    """Start from another model's solution ``sol`` (matched by variable name)."""
    values = {}
    proto = other.m.Proto()
    for i, var in enumerate(proto.variables):
        if var.name:
            values[var.name] = sol.Value(other.m.GetIntVarFromProtoIndex(i))
    proto = r.m.Proto()
    for i, var in enumerate(proto.variables):
        if var.name in values:
            r.m.AddHint(r.m.GetIntVarFromProtoIndex(i), values[var.name])


def hint_plan(r: RouterModel, plan: list[Move], fix: bool = False) -> None:
    """Suggest (or, with ``fix``, impose) a plan as written by ``decode.PlanReader.plan``,
    move by move."""
    isl = r.isl
    node = isl.node
    chosen = []
    e, at = 0, r.start
    L = r.layers[0]
    raided = None
    left = False  # the pair has left the treasure field: the flow ends there
    for entry in plan:
        action = entry.action
        if action == "long-journey":
            chosen.append(r.long_journey.get(r.terrain_class[entry.terrain]))
        elif action == "patrol" and entry.dragon:
            chosen.append(r.patrol_moves.get(node(entry.dragon)))
        elif action == "fright":
            who = entry.target
            if who == r.q.hunter:
                chosen.append(L.teleports.get(at))
                at = isl.boat_node[who]
            elif who == raided:
                pass
            elif who == r.waiter:
                chosen.append(r.fright_waiter)
            else:
                spot = r.q.position.hunters[who].at
                chosen.append(r.fright_lone.get(spot) if spot in r.lone
                              else r.fright_pair.get(spot))
        elif entry.enters():
            v = node(entry.to)
            b = node(entry.over) if action == "flight" else None
            if entry.leave:
                arc = L.leave_flights.get((b, v)) if b is not None else L.leave_steps.get(v)
            else:
                arc = L.flights.get((at, b, v)) if b is not None else L.steps.get((at, v))
            chosen.append(arc)
            left = left or entry.leave
            if entry.raid:
                chosen.append(r.raid.get(v))
                raided = [c for c in r.pairs.get(v, []) if c != entry.raid][0]
            at = v
        elif action == "swap":
            if e >= len(r.stay_swap):
                return
            sw_adj, sw_any, a = r.stay_swap[e]
            f, g = sorted(node(x) for x in entry.swap)
            chosen += [L.stay.get(at), a[f], a[g]]
            adjacent = g in isl.adj[f] and (sw_any is None or not r.kinds_any(entry.card))
            chosen.append(sw_adj if adjacent else sw_any)
            e += 1
            L = r.layers[e]
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
            r.m.AddHint(x, 1)
            if fix:
                r.m.Add(x == 1)
