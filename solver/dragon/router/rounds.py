"""The exact route: CP-SAT router models solved in rounds of swap layers, each round closed
by a relaxation bound, with relaxed routes made real (``router.repair``) to reach that bound
early."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from solver.dragon.move import Move
from solver.dragon.route import INF, WORK_LIMIT, RouteQuery, RouteResult
from solver.dragon.router.facts import Facts
from solver.dragon.router.model import CpRouter, NotSolved, OutOfTime
from solver.dragon.router.primal import primal_route
from solver.dragon.router.repair import repair

PRIMAL_SWAPS = 3  # hands with this many swap cards start from the just-in-time search's route
STRICT_WORK = 1.0  # the strict proposal is only a heuristic: a short search
# shorter still on hands of PRIMAL_SWAPS or more swap cards, where the just-in-time search
# proposes a route too and the travel count's relaxation is what proves it
STRICT_WORK_PRIMAL = 0.2
# seconds kept back from a query's deadline for what follows the last model: the just-in-time
# search when it has not run yet (its first half; it stops there) and the answer
DEADLINE_RESERVE = 0.2
_STAGE_NAMES = {False: "relaxation bound", "strict": "strict proposal",
                True: "relaxation naming the swapped tiles' sources (or their travel)"}


def cp_route(q: RouteQuery, workers: int = 1, work_limit: float = WORK_LIMIT,
             progress: Callable[[str], None] | None = None,
             budget: float | None = None, deadline: float | None = None) -> RouteResult:
    """The optimum by CP-SAT, solved in rounds k = 0, 1, ... swap layers, each closed by a
    relaxation bound (README.md in this folder explains the rounds, the relaxation and why it
    is a bound, once).

    Should a model reach the work limit (``WORK_LIMIT``, deterministic), the best route found
    so far is returned with ``optimal`` False; the same query always gives the same answer.
    ``budget``, if given, caps the deterministic work of the whole query (``route.WORK_BUDGET``
    says why): the swap-free model still has the whole work limit (the answer needs a
    route), the others share what is left, and once it is spent no further model is solved:
    the best real route found (the just-in-time search is asked for one if it was not yet)
    is returned with ``optimal`` False. ``deadline``, if given, is the same in seconds of wall
    time from the call (``route.DEADLINE``: the answer's latency at the table, whatever the
    machine and its load): no model but the swap-free one, and no just-in-time search, is
    started or runs past it, and the answer is the best real route found by then, with
    ``optimal`` False and ``deadline_reached`` True. Only then does the answer depend on the
    machine. ``progress``, if given, is told which model is being solved (for a status line:
    a hand of three swap cards may solve many models; ``make bench`` measures how long).
    """
    t0 = time.perf_counter()
    say = progress or (lambda _text: None)
    full = Facts.of(q)
    most = full.n_swaps
    stages = (False, "strict", True) if full.refines_relaxation() else (False, "strict")
    say("the turn without swaps")
    prev = CpRouter(q, swaps=0)
    solved = [prev]  # every router solved, for the work spent
    result = prev.solve(workers, work_limit)
    proved = result.optimal
    stop = None if deadline is None else t0 + deadline - DEADLINE_RESERVE
    limit = _Budget(solved, work_limit, budget, stop).left  # what each further model may take
    out_of_time = False  # a _Spent or OutOfTime past the stop: the deadline, not the budget
    mixed = any(len(c.actions) > 1 and c.swaps(q.position.island.model)
                for c in q.hand)
    named_bound = None  # the named relaxation's bound of the round before
    built: dict = {}  # each stage's model, built in the first round and solved again after
    tried: set = set()  # the proposals completed so far
    started = False  # the just-in-time search has been asked for a route
    completed = None  # a proposal completed into a real route (round k's, when set)
    try:
        for k in range(1, most + 1):
            if result.remaining is None:
                break
            if named_bound is not None and named_bound >= prev.objective:
                break  # round k-1's named bound covers every route with at least k-1 swaps
            lower, plan, done, completed, plain = None, None, False, None, None
            # the plain relaxation first (small, fast), then a strict proposal that may meet its
            # bound, then the relaxation naming the jokers' sources (tighter, larger)
            for stage in (stages if not mixed else ()):
                if stage == "strict" and lower is None:
                    break
                say(f"round {k} of {most}: {_STAGE_NAMES[stage]}")
                if stage == "strict":
                    strict, again = _stage_model(q, stage, k, built, solved)
                    cap = STRICT_WORK if most < PRIMAL_SWAPS else STRICT_WORK_PRIMAL
                    strict_result = _attempt(strict, workers, limit(cap), again=again,
                                             deadline=stop)
                    proposal = None
                    if strict_result is not None and strict_result.remaining is not None:
                        proposal = _repaired(strict, strict_result)
                else:
                    if stage and most >= PRIMAL_SWAPS and not started:
                        # the plain relaxation and the proposal did not settle round 1: before the
                        # large relaxation, a real route to look below
                        started = True
                        found = _started(q, prev, say, stop)
                        if found is not None:
                            result, prev = found
                            if lower >= prev.objective:
                                done = True
                                break
                        _check(stop)
                    # The named relaxation is a restriction of the plain one: it starts from the
                    # plain route, cannot go below the plain bound, and looks only below the best
                    # real route so far (finding none proves that route optimal).
                    best = prev
                    if completed is not None and completed[1].objective <= prev.objective:
                        best = completed[1]
                    relaxed, again = _stage_model(q, stage, k, built, solved)
                    floor = lower
                    if stage and named_bound is not None:
                        # (round k's named relaxation restricts round k-1's: its bound holds too)
                        floor = max(lower or 0, named_bound)
                    relaxed_result = _attempt(relaxed, workers, limit(), lower=floor, warm=plain,
                                              upper=best.objective - 1 if stage else None,
                                              again=again, deadline=stop)
                    if relaxed_result is None:
                        continue
                    plain = relaxed
                    if relaxed.objective == INF:  # no relaxed route (better than the best)
                        if stage and best is not prev:
                            result, prev = completed
                        done = True
                        break
                    lower = max(lower or 0, relaxed.bound)
                    if stage:
                        named_bound = relaxed.bound
                    if lower >= prev.objective:
                        done = True
                        break
                    proposal = _repaired(relaxed, relaxed_result)
                if proposal is not None:
                    plan = proposal
                    key = tuple(move.key() for move in plan)
                    if (proved and key not in tried
                            and (completed is None or completed[1].objective > lower)):
                        tried.add(key)  # (a proposal met again completes as it did before)
                        say(f"round {k} of {most}: completing a proposed route")
                        completed = (_completed(q, k, plan, lower, workers, limit(), solved,
                                                stop) or completed)
                if completed is not None and completed[1].objective == lower:
                    # a real route at the relaxation's bound is optimal over every route (fewer
                    # swaps cannot beat round k-1, more cannot beat the bound)
                    result, prev = completed
                    done = True
                    break
            if done:
                break
            if completed is not None and completed[1].objective < prev.objective:
                # a real route better than the best so far, whatever its swaps, is the bar for
                # round k: every route with fewer swaps is no better (the rounds before), so the
                # best with k swaps stands only if it beats that route too
                result, prev = completed
            elif completed is not None:
                plan = None  # the proposal is no better than the route in hand: start from that
            if most >= PRIMAL_SWAPS and not started:
                started = True
                found = _started(q, prev, say, stop)
                if found is not None:
                    (result, prev), plan = found, None
                    if lower is not None and prev.objective <= lower:
                        break  # a real route at the relaxation's bound is optimal
                _check(stop)
            say(f"round {k} of {most}: every route with {k} swap(s) better than the best so far")
            router = CpRouter(q, swaps=k, exact_swaps=True)
            solved.append(router)
            try:
                found = router.solve(workers, limit(), lower=lower, plan_hint=plan,
                                     upper=prev.objective - 1, deadline=stop)
            except NotSolved:  # none found within the work limit: the best so far, unproved
                proved = False
                break
            if router.objective == INF:
                continue  # no route with k swaps beats the best with fewer: that one stands
            proved = proved and found.optimal
            result, prev = found, router
    except (_Spent, OutOfTime):  # the best real route found, unproved
        proved = False
        out_of_time = stop is not None and time.perf_counter() >= stop
        if completed is not None and completed[1].objective < prev.objective:
            result, prev = completed
        if not started:  # (no CP-SAT work: a fixed number of states, or till the deadline)
            found = _started(q, prev, say,
                             None if stop is None else stop + DEADLINE_RESERVE / 2)
            if found is not None:
                result, prev = found
    result.optimal = proved
    # (a model cut at the deadline whose bound still proved the route cost the answer nothing)
    result.deadline_reached = not proved and (out_of_time or any(r.timed_out for r in solved))
    result.seconds = time.perf_counter() - t0
    result.work = sum(r.work for r in solved)
    return result


class _Spent(Exception):
    """The query's work budget is spent, or its deadline has passed: no further model is
    solved."""


class _Budget:
    """The work each model may take: the work limit per model (or a smaller cap of its
    own), and within ``total`` (if given) what the query's models (``solved``) have not
    spent yet; none once the ``stop`` instant (``time.perf_counter()``, if given) has
    passed."""

    def __init__(self, solved: list[CpRouter], per_model: float, total: float | None,
                 stop: float | None = None) -> None:
        self.solved, self.per_model, self.total, self.stop = solved, per_model, total, stop

    def left(self, cap: float | None = None) -> float:
        """The work the next model may take: ``cap``, else the work limit, within what is
        left of the budget; raises ``_Spent`` when nothing is left."""
        _check(self.stop)
        limit = self.per_model if cap is None else cap
        if self.total is None:
            return limit
        rest = self.total - sum(r.work for r in self.solved)
        if rest <= 0:
            raise _Spent
        return min(limit, rest)


def _check(stop: float | None) -> None:
    """Raise ``_Spent`` once the ``stop`` instant (if any) has passed: the just-in-time search
    may have been cut there."""
    if stop is not None and time.perf_counter() >= stop:
        raise _Spent


def _started(q: RouteQuery, prev: CpRouter, say: Callable[[str], None],
             deadline: float | None = None) -> tuple[RouteResult, _Incumbent] | None:
    """The just-in-time search's route (``primal``, stopped at ``deadline`` if given) and its
    weight, when it beats ``prev``: a real route, the bar for every round (as a completed
    proposal is); else None."""
    say("a route with swaps played just in time")
    found = primal_route(q, deadline=deadline)
    if found is None or _Incumbent(q, found).objective >= prev.objective:
        return None
    return found, _Incumbent(q, found)


class _Incumbent:
    """A real route found outside the models, weighed as the models weigh it
    (``CpRouter.objective_expr``): cards still needed (one more when the goal is not
    reached) times a hand plus one, plus the cards spent."""

    def __init__(self, q: RouteQuery, result: RouteResult) -> None:
        weight = int(q.position.island.model.hand_size) + 1
        self.objective = weight * (result.remaining + (not result.reachable)) + result.cards_used


def _completed(q: RouteQuery, k: int, plan: list[Move], lower: int, workers: int,
               work_limit: float, solved: list[CpRouter],
               deadline: float | None = None) -> tuple[RouteResult, CpRouter] | None:
    """The proposed route's moves and plays, completed by CP-SAT (payments, end): the best
    such route of value at least ``lower``, or None. The model is added to ``solved``."""
    fixed = CpRouter(q, swaps=max(k, sum(e.action == "swap" for e in plan)))
    solved.append(fixed)
    fixed_result = _attempt(fixed, workers, work_limit, lower=lower, plan_hint=plan,
                            fix_plan=True, deadline=deadline)
    if fixed_result is not None and fixed_result.optimal and fixed_result.remaining is not None:
        return fixed_result, fixed
    return None


def _stage_model(q: RouteQuery, stage: bool | str, k: int, built: dict,
                 solved: list[CpRouter]) -> tuple[CpRouter, bool]:
    """Round ``k``'s model of a stage (plain relaxation False, proposal "strict", named
    relaxation True) and whether it was built before: the models of two rounds differ only in
    the swap cards they must play (``require_swaps``), so round k solves round k-1's model
    again with that raised, and with the bounds it was solved under, which hold for round k
    too (a lower bound of the routes with at least k-1 swaps bounds those with k; the bar
    only falls from round to round)."""
    router = built.get(stage)
    if router is not None and getattr(router, "objective", None) is not None:
        router.require_swaps(k)
        return router, True
    if stage == "strict":
        router = CpRouter(q, relax_swaps=True, min_swaps=k, strict=True)
    else:
        router = CpRouter(q, relax_swaps=True, min_swaps=k, sources=stage)
    built[stage] = router
    solved.append(router)
    return router, False


def _attempt(router: CpRouter, *args: Any, **kwargs: Any) -> RouteResult | None:
    """``router.solve(...)``, or None when the work limit passed before any solution. A
    model solved ``again`` whose answer cannot change (``CpRouter.unchanged``) is not."""
    if kwargs.get("again"):
        known = router.unchanged(kwargs.get("lower"), kwargs.get("upper"))
        if known is not None:
            return known
    try:
        return router.solve(*args, **kwargs)
    except NotSolved:
        return None


def _repaired(relaxed: CpRouter, result: RouteResult) -> list[Move] | None:
    """A relaxed router's route made real (its jokers and tokens become swaps), or None."""
    args = (relaxed.facts, result.plan, relaxed.sol.Value(relaxed.model.tokens),
            relaxed.continuation_nodes())
    return repair(*args) or repair(*args, free_first=True)
