"""How far apart the equilibria of one table can be: several selections, each certified.

With three or more players the equilibrium found is one of possibly many (see
:mod:`solver.sabords.game.table.equilibrium`). This module solves the same table from
legitimately different starting points and with each tie rule, and measures how much the seat
values move between the equilibria found:

- *starts*: policy iteration from points play (``points``, the report's solve) and from the
  four- and five-player rule's play (``leader``: the two-player table against the leader,
  :mod:`solver.sabords.game.table.rule`);
- *tie rules* (:data:`~solver.sabords.game.table.payoff.TIES`): the engine's order, or
  the mover's exact ties given to the player after or before the mover.

Settling's candidate order is not varied: its logit path starts from equal weights and treats
the candidates of a state alike, so an order is not a different selection.

**Certificates.** Two equilibria are the same (by play) when no state's outcome distribution
differs by more than ``SAME``. Each distinct one's regret is recomputed from scratch
(:func:`~solver.sabords.game.table.equilibrium.regret`). Another equilibrium with the same
play is certified by that one: a best turn's value moves by no more than the payoffs do, so
its regret is at most the certified one plus twice the largest difference of their values.

**Ties.** Each distinct equilibrium also counts its movers' exact ties that matter to another
player (:func:`~solver.sabords.game.table.ties.mover_ties`): where they are, the tie rules
could choose differently.
"""

from __future__ import annotations

import sys

import numpy as np

from solver.sabords.game.table.equilibrium import TableSolver, regret
from solver.sabords.game.table.payoff import TIES
from solver.sabords.game.table.rule import leader_play, rule_dist
from solver.sabords.game.table.solution import TableSolution
from solver.sabords.game.table.states import TableSpec
from solver.sabords.game.table.ties import mover_ties
from solver.sabords.game.two_player import GameTable

STARTS = ("points", "leader")
SAME = 1e-9  # two ways of playing whose outcome distributions differ by no more are the same


def start_play(start: str, solver: TableSolver, two: GameTable) -> np.ndarray | None:
    """The way of playing a start names (None: points play, the solver's own start)."""
    if start == "points":
        return None
    if start == "leader":
        return rule_dist(solver.layout, leader_play(two, solver.layout.players))
    raise ValueError(f"unknown start {start!r}: one of {', '.join(STARTS)}")


def equilibria(spec: TableSpec, two: GameTable, starts=STARTS, ties=tuple(TIES),
               given: TableSolution | None = None, progress: bool = False
               ) -> list[tuple[str, str, TableSolution]]:
    """The table solved from every start with every tie rule: ``(start, tie, solution)``.
    ``given``: the solve from points play with the engine's ties, already done."""
    found = []
    for tie in ties:
        solver = TableSolver(spec, tie=tie)
        for start in starts:
            if given is not None and (start, tie) == ("points", "engine"):
                found.append((start, tie, given))
                continue
            if progress:
                print(f"  [spread] start {start}, ties {tie}", file=sys.stderr, flush=True)
            found.append((start, tie, solver.solve(start=start_play(start, solver, two))))
    return found


def same_play(a: TableSolution, b: TableSolution) -> bool:
    return float(np.abs(a.dist - b.dist).max(initial=0.0)) <= SAME


def spread(found: list[tuple[str, str, TableSolution]]) -> dict:
    """The equilibria grouped by play, each certified, and the largest differences of values
    between them: at the opening by seat, and anywhere (any state, any player); ``ties``: the
    first run's equilibrium's ties that matter (:func:`mover_ties`; each run's count is in
    ``runs``)."""
    groups: list[list[int]] = []
    for i, (_, _, solution) in enumerate(found):
        group = next((g for g in groups if same_play(found[g[0]][2], solution)), None)
        if group is None:
            groups.append([i])
        else:
            group.append(i)
    runs: list[dict] = [{} for _ in found]
    ties: list[dict] = []
    for number, group in enumerate(groups):
        first = found[group[0]][2]
        certified = float(regret(first).max())
        ties.append(mover_ties(first))
        for i in group:
            start, tie, solution = found[i]
            apart = float(np.abs(solution.values - first.values).max())
            runs[i] = {"start": start, "tie": tie, "equilibrium": number + 1,
                       "regret": certified if i == group[0] else certified + 2 * apart,
                       "recomputed": i == group[0],
                       "seat_wins": solution.seat_values().tolist(),
                       "mixed": len(solution.stats["mixed"]), "ties": ties[number]["turns"]}
    solutions = [s for _, _, s in found]
    layout = solutions[0].layout
    opening = np.array([s.seat_values() for s in solutions])
    states = np.array([s.values[:layout.states] for s in solutions])
    apart = states.max(axis=0) - states.min(axis=0)
    row, column = np.unravel_index(int(np.argmax(apart)), apart.shape)
    name, scores = layout.state_of(int(row))
    return {
        "equilibria": len(groups), "runs": runs, "ties": ties[0],
        "regret": max(r["regret"] for r in runs),
        "opening": (opening.max(axis=0) - opening.min(axis=0)).tolist(),
        "anywhere": float(apart.max()),
        "where": {"phase": name, "scores": [int(x) * 100 for x in scores],
                  "player": int(column) + 1},
    }


def table_spread(spec: TableSpec, two: GameTable, given: TableSolution | None = None,
                 progress: bool = False) -> dict:
    """:func:`spread` of :func:`equilibria` (``two``: the two-player table of the same game,
    with its play)."""
    return spread(equilibria(spec, two, given=given, progress=progress))
