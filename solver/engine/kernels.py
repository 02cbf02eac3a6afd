"""numba kernels for :mod:`solver.engine.horizon`, many problems at once.

The problems of a batch are *lanes*: a work array ``buf`` of shape ``(M, L)`` holds one value per
lattice node (row) and lane (column), so every step of a walk is a row operation over
contiguous lanes that the compiler turns into SIMD instructions. Nodes must be numbered level
by level (all nodes of size ``m`` before those of size ``m + 1``), as :class:`DiceSpace` does;
``level_start[m]`` is the first node of size ``m`` and ``level_start[dice + 1] == M``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.engine.horizon import Horizon

NEG = -1.0e300


@njit(cache=True, fastmath=True)
def lane_expect(buf: np.ndarray, child: np.ndarray, below_full: int, inv: float) -> None:
    """Rows ``0 .. below_full-1`` become the mean of their children (the roll of one more die),
    walking down from the full rows, which hold the values to average."""
    lanes = buf.shape[1]
    faces = child.shape[1]
    for node in range(below_full - 1, -1, -1):
        row = buf[node]
        first = buf[child[node, 0]]
        for lane in range(lanes):
            row[lane] = first[lane]
        for face in range(1, faces):
            other = buf[child[node, face]]
            for lane in range(lanes):
                row[lane] += other[lane]
        for lane in range(lanes):
            row[lane] *= inv


@njit(cache=True, fastmath=True)
def lane_best_sub(buf: np.ndarray, child: np.ndarray, below_full: int, cap_end: int) -> None:
    """Every row becomes the maximum of the rows of its sub-multisets; rows from ``cap_end``
    on (keeps too large to be allowed) take part only as receivers."""
    lanes = buf.shape[1]
    faces = child.shape[1]
    for node in range(cap_end, buf.shape[0]):
        for lane in range(lanes):
            buf[node, lane] = NEG
    for node in range(below_full):
        row = buf[node]
        for face in range(faces):
            kid = buf[child[node, face]]
            for lane in range(lanes):
                kid[lane] = max(kid[lane], row[lane])


@njit(cache=True, fastmath=True)
def lane_turn(
    buf: np.ndarray,
    final: np.ndarray,
    child: np.ndarray,
    below_full: int,
    cap_end: int,
    inv: float,
    rolls: int,
    stop_early: bool,
    full_prob: np.ndarray,
    out: np.ndarray,
) -> None:
    """The value of a turn of ``rolls`` rolls from no dice, per lane, into ``out`` (``L``).

    ``final`` ``(F, L)``: the value of ending on each full node (full nodes are the last ``F``
    rows of ``buf``). ``cap_end``: the first node of a size above the largest allowed keep."""
    lanes = buf.shape[1]
    n_full = final.shape[0]
    for k in range(n_full):
        for lane in range(lanes):
            buf[below_full + k, lane] = final[k, lane]
    for _ in range(rolls - 1):
        lane_expect(buf, child, below_full, inv)
        lane_best_sub(buf, child, below_full, cap_end)
        if stop_early:
            for k in range(n_full):
                row = buf[below_full + k]
                for lane in range(lanes):
                    row[lane] = max(row[lane], final[k, lane])
    for lane in range(lanes):
        out[lane] = 0.0
    for k in range(n_full):
        p = full_prob[k]
        row = buf[below_full + k]
        for lane in range(lanes):
            out[lane] += p * row[lane]


def lane_args(h: Horizon) -> tuple:
    """The lattice arguments of :func:`lane_turn` for a horizon:
    ``(child, below_full, cap_end, inv, rolls, stop_early, full_prob)``."""
    sp = h.space
    starts = [int(level[0]) for level in sp.levels] + [len(sp.counts)]
    child = np.ascontiguousarray(np.maximum(sp.child, 0).astype(np.int64))
    return (
        child,
        starts[sp.dice],
        starts[h.cap + 1],
        1.0 / sp.faces,
        h.rolls,
        h.stop_early,
        np.ascontiguousarray(h.full_prob),
    )
