"""The game's linear equations for fixed ways of playing, swept in compiled code.

With every turn's outcome distribution fixed (a Newton step's evaluation, points play, a match
of two players, the lowest-score bound), a state's value is ``sum_o P(o) (const_o -
x[index_o])``: :meth:`solver.sabords.game.two_player.GameTable.successors` names, for
every outcome, a constant and the entry of the flat value buffer it reads (the last entry is
always 0). Two sweeps live here:

* :func:`sweep_pairs`: Gauss-Seidel over the both-below-target pairs of one phase, by
  decreasing total score, the pair ``(a, b)``, ``(b, a)`` solved together (see
  :mod:`solver.sabords.game.solve`);
* :func:`sweep_rows`: plain Gauss-Seidel over any list of equations, each writing one entry of
  a value vector and reading others (a match keeps both players' tables in one vector).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def sweep_pairs(flat, start, span, rows, level_ptr, first_level, last_level, const, index,
                dist, swap):
    """Levels ``first_level .. last_level - 1`` of ``rows`` (state ``a * span + b``, levels
    delimited by ``level_ptr``), each state's value written at ``flat[start + state]``;
    ``const``, ``index`` and ``dist`` are per state (rows of ``dist`` may all be the same
    one: pass it with one row). The ``swap`` outcome (no points, the other to move) leads to
    the partner ``(b, a)``: the two values are solved together. Returns the largest change."""
    moved = 0.0
    outcomes = const.shape[1]
    shared = dist.shape[0] == 1
    for level in range(first_level, last_level):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        c = np.empty(hi - lo)
        slope = np.empty(hi - lo)
        for i in range(lo, hi):
            state = rows[i]
            d = 0 if shared else state
            total = 0.0
            for o in range(outcomes):
                if o != swap:
                    total += dist[d, o] * (const[state, o] - flat[index[state, o]])
            c[i - lo] = total + dist[d, swap] * const[state, swap]
            slope[i - lo] = dist[d, swap]
        new = np.empty(hi - lo)
        for i in range(lo, hi):
            state = rows[i]
            partner = (state % span) * span + state // span
            j = i - lo
            if partner == state:
                new[j] = c[j] / (1.0 + slope[j])
            else:
                k = _find(rows, lo, hi, partner) - lo
                new[j] = (c[j] - slope[j] * c[k]) / (1.0 - slope[j] * slope[k])
        for i in range(lo, hi):  # written once the whole level is solved
            change = abs(new[i - lo] - flat[start + rows[i]])
            if change > moved:
                moved = change
            flat[start + rows[i]] = new[i - lo]
    return moved


@njit(cache=True)
def _find(rows, lo, hi, state):
    """The position of ``state`` in the sorted ``rows[lo:hi]``."""
    left, right = lo, hi
    while left < right:
        mid = (left + right) // 2
        if rows[mid] < state:
            left = mid + 1
        else:
            right = mid
    return left


@njit(cache=True)
def sweep_rows(x, target, succ, reads, dist_of, const, index, dist):
    """One Gauss-Seidel sweep over equations ``r`` in order: ``x[target[r]] = sum_o
    dist[dist_of[r], o] * (const[succ[r], o] - x[reads[r] + index[succ[r], o]])``. Returns
    the largest change."""
    moved = 0.0
    for r in range(target.shape[0]):
        s, d, base = succ[r], dist_of[r], reads[r]
        total = 0.0
        for o in range(const.shape[1]):
            total += dist[d, o] * (const[s, o] - x[base + index[s, o]])
        change = abs(total - x[target[r]])
        if change > moved:
            moved = change
        x[target[r]] = total
    return moved
