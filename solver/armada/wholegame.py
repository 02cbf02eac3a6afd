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
from solver.armada.take_kernel import choose
from solver.armada.takes import qualify_lists
from solver.engine.kernels import NEG, lane_args, lane_turn

LANES = 32


@njit(cache=True)
def _finals(
    fin, tgt, options, levels, lane, code, skulls, table, sign, values, strides, radix, ptr,
    rows, maxd, skull_value, must_take,
):
    """Fill ``fin[:, lane]``: the value of ending the turn on each final dice multiset, from
    the state's options (each pier's next doubloon, a skull) as
    :func:`solver.armada.take_kernel.choose` picks among them."""
    for i in range(strides.shape[0]):
        level = (code // strides[i]) % radix[i]
        levels[i] = level
        if level >= radix[i] - 1:
            options[i] = NEG
        else:
            options[i] = values[i, level] + sign * table[skulls, code + strides[i]]
    skull = skull_value + sign * table[skulls + 1, code]
    choose(fin[:, lane], tgt, options, levels, skull, ptr, rows, maxd, must_take)


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
        tgt = np.empty(n_full, dtype=np.int64)
        options = np.empty(strides.shape[0])
        levels = np.empty(strides.shape[0], dtype=np.int64)
        for lane in range(width):
            _finals(fin, tgt, options, levels, lane, codes[lo + lane], skulls[lo + lane], table,
                    sign, values, strides, radix, ptr, rows, maxd, skull_value, must_take)
        lane_turn(buf, fin, child, below_full, cap_end, inv, rolls, stop_early, full_prob, out)
        for lane in range(width):
            table[skulls[lo + lane], codes[lo + lane]] = out[lane]


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
