"""Seeded Monte-Carlo self-play of the whole-game policies (checks the tables' values).

Many games run in lockstep: each turn every live game's state gives option values from the
table, the keep values follow from :meth:`Horizon.stages`, and real dice are rolled.
"""

from __future__ import annotations

import numpy as np

from solver.armada.game import OBJECTIVES, SKULL, Game
from solver.armada.takes import finals_batch


def _roll(rng: np.random.Generator, game: Game, n: np.ndarray) -> np.ndarray:
    """Face counts of rolling ``n[b]`` dice in game ``b``."""
    faces = rng.integers(0, game.space.faces, size=(len(n), game.rules.dice))
    live = np.arange(game.rules.dice)[None, :] < n[:, None]
    counts = np.zeros((len(n), game.space.faces), dtype=np.int64)
    for f in range(game.space.faces):
        counts[:, f] = ((faces == f) & live).sum(axis=1)
    return counts


def _turn(game: Game, table: np.ndarray, sign: float, levels: np.ndarray, skulls: np.ndarray,
          rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Play one turn in each game: (target taken, token value). Games in the same state share
    one solve of the turn. With no skull token left (a turn after the end, when the round is
    played out) a skull is nothing: worth 0, and taken only when no doubloon qualifies."""
    sp, h = game.space, game.horizon
    b = len(skulls)
    codes = levels @ game.strides
    _, pick, back = np.unique(codes * (game.rules.skulls + 1) + skulls, return_index=True,
                              return_inverse=True)
    u_levels, u_codes, u_skulls = levels[pick], codes[pick], skulls[pick]
    full_level = u_levels >= game.radix[None, :] - 1
    nxt = table[u_skulls[:, None], np.where(full_level, u_codes[:, None],
                                            u_codes[:, None] + game.strides[None, :])]
    u_vals = game.values[np.arange(levels.shape[1])[None, :],
                         np.minimum(u_levels, game.max_doubloons - 1)]
    piers = np.where(full_level, -np.inf, u_vals + sign * nxt)
    left = u_skulls < game.rules.skulls
    skull = np.where(left, game.rules.skull_value
                     + sign * table[np.minimum(u_skulls + 1, game.rules.skulls), u_codes], 0.0)
    final, target = finals_batch(game, u_levels, piers, skull)
    _, keep = h.stages(final)
    keep = [None if k is None else k[back] for k in keep]
    target, vals = target[back], u_vals[back]
    first = int(sp.full[0])
    counts = _roll(rng, game, np.full(b, game.rules.dice))
    for r in range(game.rules.rolls - 1, 0, -1):
        kept = h.best_keep(keep[r], sp.index_many(counts) - first)
        counts = sp.counts[kept].astype(np.int64) + _roll(rng, game, game.rules.dice
                                                           - sp.size[kept].astype(np.int64))
    rows = sp.index_many(counts) - first
    taken = target[np.arange(b), rows]
    token = np.where(taken == SKULL, np.where(skulls < game.rules.skulls,
                                              game.rules.skull_value, 0),
                     vals[np.arange(b), np.maximum(taken, 0)])
    return taken, token


def self_play(game: Game, table: np.ndarray, objective: str, games: int, seed: int) -> np.ndarray:
    """Final results of ``games`` seeded games under the table's policy: the player's score
    (``solo``) or the first player's margin over the second (``duel``)."""
    rng = np.random.default_rng(seed)
    sign = OBJECTIVES[objective]
    n_piers = len(game.board.piers)
    levels = np.zeros((games, n_piers), dtype=np.int64)
    skulls = np.zeros(games, dtype=np.int64)
    result = np.zeros(games)
    mover = np.ones(games)  # +1: first player's turn (duel), always +1 in solo
    live = np.ones(games, dtype=bool)
    while live.any():
        idx = np.flatnonzero(live)
        taken, token = _turn(game, table, sign, levels[idx], skulls[idx], rng)
        result[idx] += mover[idx] * token
        if sign < 0:
            mover[idx] = -mover[idx]
        pier = taken != SKULL
        levels[idx[pier], taken[pier]] += 1
        skulls[idx[~pier]] += 1
        done = (skulls[idx] >= game.rules.skulls) | (levels[idx].sum(axis=1)
                                                     >= game.total_doubloons)
        live[idx[done]] = False
    return result
