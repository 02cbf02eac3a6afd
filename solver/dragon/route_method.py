"""Which route finder answers a query: the one choice of method, for every caller.

Both finders are exact, and the tests compare them on every pinned and sampled query: the
exhaustive search (:mod:`solver.dragon.route_search`) is fast on hands without swap cards and
slow with them; the CP-SAT router (``solver/dragon/router/``, whose README explains the
algorithm) is the one that scales to swap cards. The simulations and the measurement of the
readings ask for ``auto``; the command line and the web page for CP-SAT unless told otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

from solver.dragon.cards import holds_swap
from solver.dragon.route import WORK_LIMIT, RouteQuery, RouteResult
from solver.dragon.route_search import search_route
from solver.dragon.router.model import NotSolved
from solver.dragon.router.rounds import cp_route
from solver.errors import InputError

METHODS = ("auto", "cp-sat", "search")


def best_route(q: RouteQuery, method: str = "auto", work_limit: float = WORK_LIMIT,
               progress: Callable[[str], None] | None = None,
               budget: float | None = None, deadline: float | None = None) -> RouteResult:
    """The optimal turn by ``method``: ``search`` (the exhaustive search), ``cp-sat`` (the
    CP-SAT router, each model within ``work_limit`` and the whole query within ``budget``
    if given (``route.WORK_BUDGET``) and ``deadline`` seconds (``route.DEADLINE``), ``progress``
    told which one is being solved), or ``auto``:
    the search when the hand holds no swap card, CP-SAT otherwise. A one-line InputError
    when CP-SAT finds no route within the work limit."""
    if method == "auto":
        method = "cp-sat" if holds_swap(q.hand, q.position.island.model) else "search"
    if method == "search":
        return search_route(q)
    if method != "cp-sat":
        raise InputError(f"unknown route method {method!r}; use {', '.join(METHODS)}")
    try:
        return cp_route(q, work_limit=work_limit, progress=progress, budget=budget,
                        deadline=deadline)
    except NotSolved:
        raise InputError(f"no route found within --work-limit {work_limit:g}; "
                         "raise it") from None
