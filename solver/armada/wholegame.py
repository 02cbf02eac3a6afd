"""Whole-game tables: the value of every board state, solved backward through tokens taken.

Every turn takes exactly one token (a doubloon or a skull), so the states with ``t`` tokens
taken depend only on states with ``t + 1``: the layers are solved from the last to the first,
each a batch of independent three-roll sub-problems run in parallel by a numba kernel.

Objectives (``sign`` is how the next state's value enters an option's value):

* ``turn``: this turn's token only (``sign = 0``);
* ``solo``: the expected final score, doubloons minus skulls (``sign = +1``);
* ``duel``: the expected final margin of the player to move over the other of two players
  who alternate turns, zero-sum: an option is worth ``token - value(next)`` (``sign = -1``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, prange

from solver.armada.game import OBJECTIVES, Game
from solver.engine.kernels import NEG, lane_args, lane_turn

LANES = 32


@njit(cache=True)
def _finals(
    fin, lane, code, skulls, table, sign, values, strides, radix, ptr, rows, maxd,
    skull_value, must_take,
):
    """Fill ``fin[:, lane]``: the value of ending the turn on each final dice multiset."""
    n_full = fin.shape[0]
    for k in range(n_full):
        fin[k, lane] = NEG
    for i in range(strides.shape[0]):
        level = (code // strides[i]) % radix[i]
        if level >= radix[i] - 1:
            continue
        option = values[i, level] + sign * table[skulls, code + strides[i]]
        slot = i * maxd + level
        for j in range(ptr[slot], ptr[slot + 1]):
            k = rows[j]
            if option > fin[k, lane]:
                fin[k, lane] = option
    skull = skull_value + sign * table[skulls + 1, code]
    for k in range(n_full):
        if must_take:
            if fin[k, lane] == NEG:
                fin[k, lane] = skull
        elif skull > fin[k, lane]:
            fin[k, lane] = skull


@njit(parallel=True, cache=True)
def _solve_layer(
    codes, skulls, table, sign, values, strides, radix, ptr, rows, maxd, skull_value,
    must_take, child, below_full, cap_end, inv, rolls, stop_early, full_prob, lanes,
):
    """Solve every state ``(skulls[j], codes[j])`` of one layer into ``table``."""
    n = codes.shape[0]
    n_full = full_prob.shape[0]
    n_nodes = below_full + n_full
    blocks = (n + lanes - 1) // lanes
    for b in prange(blocks):
        lo = b * lanes
        width = min(lanes, n - lo)
        buf = np.empty((n_nodes, width))
        fin = np.empty((n_full, width))
        out = np.empty(width)
        for lane in range(width):
            _finals(fin, lane, codes[lo + lane], skulls[lo + lane], table, sign, values,
                    strides, radix, ptr, rows, maxd, skull_value, must_take)
        lane_turn(buf, fin, child, below_full, cap_end, inv, rolls, stop_early, full_prob, out)
        for lane in range(width):
            table[skulls[lo + lane], codes[lo + lane]] = out[lane]


def qualify_lists(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """CSR form of ``game.qualify``: ``rows[ptr[i*maxd + level]: ptr[...+1]]`` are the final
    rows meeting pier ``i`` at ``level``."""
    flat = game.qualify.reshape(-1, game.qualify.shape[-1])
    counts = flat.sum(axis=1)
    ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    rows = np.concatenate([np.flatnonzero(r) for r in flat]).astype(np.int64)
    return ptr, rows


def layers(game: Game) -> list[tuple[np.ndarray, np.ndarray]]:
    """The non-terminal states grouped by tokens taken, last layer first:
    a list of ``(codes, skulls)`` arrays."""
    taken = game.taken
    live = np.flatnonzero(taken < game.total_doubloons)
    by_taken = {t: live[taken[live] == t] for t in range(game.total_doubloons)}
    out = []
    for t in range(game.total_doubloons + game.rules.skulls - 1, -1, -1):
        codes, skulls = [], []
        for s in range(game.rules.skulls):
            part = by_taken.get(t - s)
            if part is not None and len(part):
                codes.append(part)
                skulls.append(np.full(len(part), s, dtype=np.int64))
        if codes:
            out.append((np.concatenate(codes), np.concatenate(skulls)))
    return out


def solve_table(
    game: Game, objective: str, progress: Callable[[int], None] | None = None,
    lanes: int = LANES,
) -> np.ndarray:
    """The value of every state, ``table[skulls, code]``, under ``objective``."""
    sign = OBJECTIVES[objective]
    table = np.zeros((game.rules.skulls + 1, game.n_codes), dtype=np.float64)
    ptr, rows = qualify_lists(game)
    lattice = lane_args(game.horizon)
    r = game.rules
    for codes, skulls in layers(game):
        _solve_layer(codes, skulls, table, sign, game.values, game.strides, game.radix, ptr,
                     rows, game.max_doubloons, float(r.skull_value), r.must_take, *lattice,
                     lanes)
        if progress is not None:
            progress(len(codes))
    return table
