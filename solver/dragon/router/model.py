"""One CP-SAT model of a turn, solved (:class:`CpRouter`): the cheapest legal turn to the goal,
else the turn that ends closest. The model (layers, the continuation, the objective) is
explained once, in README.md in this folder ("One model of a turn"); it is built by
:func:`solver.dragon.router.build.build_model` from the query's facts.
"""

from __future__ import annotations

import math
import time

from ortools.sat.python import cp_model

from solver.dragon.move import Move
from solver.dragon.route import INF, WORK_LIMIT, RouteQuery, RouteResult
from solver.dragon.router.budget import require_swaps
from solver.dragon.router.build import build_model, objective
from solver.dragon.router.decode import PlanReader
from solver.dragon.router.facts import Facts
from solver.dragon.router.hints import hint_from, hint_plan
from solver.dragon.router.variables import RouterModel
from solver.errors import SolveError

__all__ = ["CpRouter", "NotSolved"]

TRAVEL_PRESOLVE_PASSES = 2  # CP-SAT's presolve passes on the travel count's model (default 3)


class NotSolved(SolveError):
    """CP-SAT found no solution within the work limit."""


class OutOfTime(Exception):
    """The query's deadline passed before this model found a solution (``rounds.cp_route``:
    the best real route found so far is the answer)."""


class CpRouter:
    """Builds and solves the CP-SAT model of one route query: its facts (``facts``), and once
    solved its model (``model``), solution (``sol``), objective, proved lower ``bound`` and
    the deterministic ``work`` spent."""

    def __init__(self, q: RouteQuery, swaps: int | None = None, relax_swaps: bool = False,
                 min_swaps: int = 0, strict: bool = False, sources: bool = True,
                 merge_terrains: bool = True, exact_swaps: bool = False) -> None:
        """The options are those of :meth:`Facts.of <solver.dragon.router.facts.Facts.of>`."""
        self.facts = Facts.of(q, swaps=swaps, relax_swaps=relax_swaps, min_swaps=min_swaps,
                              strict=strict, sources=sources, merge_terrains=merge_terrains,
                              exact_swaps=exact_swaps)
        self.model: RouterModel | None = None
        self.sol: cp_model.CpSolver | None = None
        self.objective: int | None = None
        self.bound: int | None = None
        self.work = 0.0
        self.timed_out = False  # a solve stopped at its deadline, unfinished
        self.answer: RouteResult | None = None  # the last solve's, for ``unchanged``

    def solve(self, workers: int = 1, work_limit: float = WORK_LIMIT,
              hint: CpRouter | None = None, lower: int | None = None,
              plan_hint: list[Move] | None = None, fix_plan: bool = False,
              warm: CpRouter | None = None, upper: int | None = None,
              again: bool = False, deadline: float | None = None) -> RouteResult:
        """Solve to optimality. ``hint``: a solved router of a restriction of this model (fewer
        swap layers); its solution starts the search and its value bounds the objective.

        The limit is CP-SAT's deterministic time, so a cut-off falls at the same point of the
        search on every machine: the best route found is then returned with ``optimal`` False
        (and ``self.bound`` a proved lower bound on the objective). ``fix_plan``: the moves
        and plays of ``plan_hint`` are imposed, not suggested (payments are still chosen).
        ``warm``: a solved router whose values (matched by name) start the search, no more.
        ``upper``: only routes of at most this value are wanted (none: infeasible).
        ``again``: solve the model built for an earlier call once more, with the constraints
        added since (its bounds stay: they may only tighten); ``work`` adds up.
        ``deadline``: a ``time.perf_counter()`` instant; CP-SAT stops there too (wall time,
        so the cut-off depends on the machine and its load), and ``OutOfTime`` is raised when
        no solution was found by then."""
        t0 = time.perf_counter()
        self.answer = None
        if self.facts.start == self.facts.treasure_field:
            return RouteResult(True, 0, 0, [], "cp-sat", 0.0)
        if again and self.model is not None:
            r = self.model
            r.m.ClearHints()
        else:
            r = self.model = build_model(self.facts)
            self.work = 0.0
        if hint is not None:
            r.m.Add(objective(r) <= hint.objective)
            if plan_hint is None:
                hint_from(r, hint.model, hint.sol)
        if lower is not None:
            r.m.Add(objective(r) >= lower)
        if upper is not None:
            r.m.Add(objective(r) <= upper)
        if plan_hint is not None:
            hint_plan(r, plan_hint, fix_plan)
        if warm is not None:
            hint_from(r, warm.model, warm.sol)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        solver.parameters.max_deterministic_time = work_limit
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.random_seed = 0
        # a relaxation's proof runs on its LP: all of it from the start (the named relaxation
        # solves 25-50% faster; the full models gain little, and some lose)
        solver.parameters.add_lp_constraints_lazily = not r.relax
        if r.counts_travel:
            # the travel count's proof is mostly that no relaxed route lies below the best real
            # route: branching on the LP's solution settles that with less work (make bench)
            solver.parameters.search_branching = cp_model.LP_SEARCH
            # its model is large (tens of thousands of constraints): presolve's third pass
            # costs as much CPU as the second and finds next to nothing, and its time is not
            # CP-SAT's deterministic work, so the work budget does not see it (make bench)
            solver.parameters.max_presolve_iterations = TRAVEL_PRESOLVE_PASSES
        if r.exact_swaps:
            # a round's model (``rounds.cp_route``) mostly proves that no route with its swaps
            # beats the best so far; the LP of swap layers is weak, so it costs more than it
            # prunes there: propagation and search alone
            solver.parameters.linearization_level = 0
        if deadline is not None:
            seconds = deadline - time.perf_counter()
            if seconds <= 0:
                raise OutOfTime
            solver.parameters.max_time_in_seconds = seconds
        status = solver.Solve(r.m)
        self.work += solver.deterministic_time
        if (deadline is not None and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
                and time.perf_counter() >= deadline):
            self.timed_out = True
            if status == cp_model.UNKNOWN:
                raise OutOfTime
        if status == cp_model.INFEASIBLE:
            self.objective = self.bound = INF
            return RouteResult(False, 0, None, [], "cp-sat", time.perf_counter() - t0)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise NotSolved(f"route model not solved ({solver.StatusName(status)})")
        self.sol = solver
        self.objective = int(round(solver.ObjectiveValue()))
        self.bound = math.ceil(solver.BestObjectiveBound() - 1e-6)
        rem = int(solver.Value(r.rem))
        cards = int(solver.Value(r.cards_used))
        plan = PlanReader(r, solver).plan()
        reached = rem == 0 and any(
            solver.Value(x) for L in r.layers
            for x in list(L.goal.values()) + list(L.leave_steps.values())
            + list(L.leave_flights.values()))
        self.answer = RouteResult(reached, cards, rem if rem < INF else None, plan, "cp-sat",
                                  time.perf_counter() - t0, optimal=status == cp_model.OPTIMAL)
        return self.answer

    def continuation_nodes(self) -> list[int]:
        """The solved continuation's cells, in order (empty when the goal is reached)."""
        return PlanReader(self.model, self.sol).continuation()

    def unchanged(self, lower: int | None = None,
                  upper: int | None = None) -> RouteResult | None:
        """The answer solving this relaxation ``again`` would give, when known without
        solving: the last solve was optimal and its solution plays at least the swap cards
        now required (``require_swaps``), so it stays optimal within ``lower`` and
        ``upper`` (an empty answer when ``upper`` is below it, as ``solve`` gives); None
        when the model must be solved again."""
        r, last = self.model, self.answer
        if r is None or last is None or not last.optimal or self.objective is None:
            return None
        if self.objective >= INF or (lower is not None and self.objective < lower):
            return None
        played = sum(self.sol.Value(x) for (k, _key), x in r.use.items()
                     if k in r.swap_kinds)
        if played < r.min_swaps:
            return None
        if upper is not None and self.objective > upper:
            self.objective = self.bound = INF
            return RouteResult(False, 0, None, [], "cp-sat", 0.0)
        return last

    def require_swaps(self, n: int) -> None:
        """The built model (a relaxation) must now play at least ``n`` swap cards: solve it
        ``again`` for the next round."""
        require_swaps(self.model, n)
