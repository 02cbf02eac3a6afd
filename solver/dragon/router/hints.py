"""Solving a built model: CP-SAT under the deterministic work limit, started from an earlier
round's route or a repaired proposal (hints), and the answer read back.

Part of :class:`~solver.dragon.router.model.CpRouter` (a mixin: the methods read the
router's state as ``self``); see README.md for the rule each method enforces.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from solver.dragon.route import INF, WORK_LIMIT, RouteResult
from solver.dragon.router.decode import PlanReader
from solver.errors import SolveError

if TYPE_CHECKING:
    from solver.dragon.move import Move
    from solver.dragon.router.model import CpRouter


class NotSolved(SolveError):
    """CP-SAT found no solution within the work limit."""


class Solving:
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
        if self.exact_swaps:
            # a round's model (``rounds.cp_route``) mostly proves that no route with its swaps
            # beats the best so far; the LP of swap layers is weak, so it costs more than it
            # prunes there: propagation and search alone
            solver.parameters.linearization_level = 0
        status = solver.Solve(self.m)
        self.work = solver.deterministic_time
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

    def _hint_plan(self, plan: list[Move], fix: bool = False) -> None:
        """Suggest (or, with ``fix``, impose) a plan as written by ``_plan``, move by move."""
        isl = self.isl
        node = isl.node
        chosen = []
        e, at = 0, self.start
        L = self.layers[0]
        raided = None
        left = False  # the pair has left the treasure field: the flow ends there
        for entry in plan:
            action = entry.action
            if action == "long-journey":
                chosen.append(self.long_journey.get(self.terrain_class[entry.terrain]))
            elif action == "patrol" and entry.dragon:
                chosen.append(self.patrol_moves.get(node(entry.dragon)))
            elif action == "fright":
                who = entry.target
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
                    chosen.append(self.raid.get(v))
                    raided = [c for c in self.pairs.get(v, []) if c != entry.raid][0]
                at = v
            elif action == "swap":
                if e >= len(self.stay_swap):
                    return
                sw_adj, sw_any, a = self.stay_swap[e]
                f, g = sorted(node(x) for x in entry.swap)
                chosen += [L.stay.get(at), a[f], a[g]]
                adjacent = g in isl.adj[f] and (sw_any is None or not self.kinds_any(entry.card))
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
