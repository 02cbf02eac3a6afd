"""The whole table's values for fixed ways of playing, swept in compiled code.

With every state's turn outcome distribution fixed, a state's value vector is linear in the
values of the rows its outcomes lead to
(:meth:`solver.sabords.game.table.states.Layout.successors`): the player at position ``j``
gets column ``(j - 1) mod N`` of the next row. Gauss-Seidel sweeps in the layout's order
converge because every way of playing ends the game with probability one
(a turn can end on no points, but every turn has a chance to score).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit

from solver.sabords.game.table.compact import Plays


class Successors(NamedTuple):
    """The successor rows (:meth:`~solver.sabords.game.table.states.Layout.successors`) of the
    state rows ``first`` onwards only (one stage's), indexed by state row like the whole
    table's."""

    rows: np.ndarray
    first: int

    def __getitem__(self, rows) -> np.ndarray:
        return self.rows[np.asarray(rows) - self.first]


@njit(cache=True)
def sweep(values, order, succ, first, index, table):
    """One Gauss-Seidel sweep over the state rows ``order``: ``values[r, j] = sum_o dist[r, o]
    values[succ[r - first, o], (j - 1) mod N]`` (outcomes of zero probability skipped),
    ``dist[r]`` the distribution ``table[index[r]]``. Returns the largest change."""
    players = values.shape[1]
    moved = 0.0
    new = np.empty(players)
    for r in order:
        new[:] = 0.0
        d = index[r]
        for o in range(succ.shape[1]):
            p = table[d, o]
            if p != 0.0:
                row = succ[r - first, o]
                for j in range(players):
                    new[j] += p * values[row, (j + players - 1) % players]
        for j in range(players):
            change = abs(new[j] - values[r, j])
            if change > moved:
                moved = change
            values[r, j] = new[j]
    return moved


def evaluate(values: np.ndarray, order: np.ndarray, succ: np.ndarray | Successors,
             dist: np.ndarray | Plays, tol: float = 1e-15, max_sweeps: int = 1_000_000) -> int:
    """Sweep ``values`` in place until no entry moves by more than ``tol`` (``succ``: the whole
    table's successors or those of the rows swept; ``dist``: a row per state, or
    :class:`~solver.sabords.game.table.compact.Plays`); returns the sweeps made."""
    index, table = _rows(dist)
    succ, first = _from(succ)
    return _converge(lambda: sweep(values, order, succ, first, index, table), tol, max_sweeps)


def _converge(one_sweep: Callable[[], float], tol: float, max_sweeps: int) -> int:
    """Sweeps (``one_sweep`` returns its largest change) until one moves nothing by more than
    ``tol``; the sweeps made."""
    for sweeps in range(1, max_sweeps + 1):
        if one_sweep() <= tol:
            return sweeps
    raise RuntimeError("the whole table's values did not converge")


def _from(succ: np.ndarray | Successors) -> tuple[np.ndarray, int]:
    """A successor table and the first state row it holds."""
    return (succ.rows, succ.first) if isinstance(succ, Successors) else (succ, 0)


def _rows(dist: np.ndarray | Plays) -> tuple[np.ndarray, np.ndarray]:
    """Each state's row of a table of distributions."""
    if isinstance(dist, Plays):
        return dist.index, dist.table
    return np.arange(len(dist), dtype=np.int32), dist


@njit(cache=True)
def sweep_columns(local, order, succ, first, index, table, start):
    """One Gauss-Seidel sweep of many value tables at once: ``local[r - start, j, k]`` is
    table ``k``'s entry for row ``r`` (the rows ``start`` onwards; every row outside them is
    0 in every table), updated as :func:`sweep` over ``order``. Returns the largest change."""
    players, columns = local.shape[1], local.shape[2]
    size = local.shape[0]
    moved = 0.0
    new = np.empty((players, columns))
    for r in order:
        new[:, :] = 0.0
        d = index[r]
        for o in range(succ.shape[1]):
            p = table[d, o]
            s = succ[r - first, o] - start
            if p != 0.0 and 0 <= s < size:
                for j in range(players):
                    src = (j + players - 1) % players
                    for k in range(columns):
                        new[j, k] += p * local[s, src, k]
        at = r - start
        for j in range(players):
            for k in range(columns):
                change = abs(new[j, k] - local[at, j, k])
                if change > moved:
                    moved = change
                local[at, j, k] = new[j, k]
    return moved


def evaluate_columns(local: np.ndarray, order: np.ndarray, succ: np.ndarray | Successors,
                     dist: np.ndarray | Plays, start: int, tol: float = 1e-15,
                     max_sweeps: int = 1_000_000) -> int:
    """:func:`evaluate` for many tables on the rows ``start`` onwards at once
    (:func:`sweep_columns`: zero outside them), in place; returns the sweeps made."""
    index, table = _rows(dist)
    succ, first = _from(succ)
    return _converge(lambda: sweep_columns(local, order, succ, first, index, table, start), tol,
                     max_sweeps)
