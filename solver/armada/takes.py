"""Which token a final roll takes: the rule, written once.

With the dice of the last roll, the player takes one token: the next doubloon of a pier the
dice qualify for (at the pier's current level), or a skull. Under the default rules a
qualifying pier is compulsory (``must_take``): a skull only when no pier qualifies; under
``may-take-skull`` the skull is always allowed. Among the allowed tokens the player takes the
best *option* (see :mod:`solver.armada.turn`); ties go to the first pier in board order, and
a skull is taken over a pier only when it is strictly better.

* :func:`legal_takes`: which tokens are allowed, for every final dice row (the command
  line's list of takes, the verifier's "is the default's choice allowed under a variant");
* :func:`solver.armada.take_kernel.choose`: the numba kernel that picks the best allowed
  token of one final dice set, used by the whole-game tables (:mod:`solver.armada.wholegame`)
  and the simulation (:func:`finals_batch`); a module of its own, so that importing this one
  does not import numba;
* :func:`finals`: the same choice in any number type (exact rationals for the tests and the
  exact solves, floats for one turn's answer), written as plainly as possible so that it can
  check the kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from solver.armada.game import SKULL, Game


def legal_takes(game: Game, levels: Sequence[int]) -> np.ndarray:
    """``(P + 1, F)`` booleans: may final dice row ``k`` take pier ``i``'s next doubloon (rows
    ``0..P-1``) or a skull (row ``P``)?"""
    piers = game.board.piers
    rows = np.array([game.qualify[i, min(levels[i], game.max_doubloons - 1)]
                     & (levels[i] < p.doubloons) for i, p in enumerate(piers)])
    skull = ~rows.any(axis=0) if game.rules.must_take else np.ones(rows.shape[1], dtype=bool)
    return np.vstack([rows, skull[None, :]])


def qualify_lists(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """CSR form of ``game.qualify`` for the kernel: ``rows[ptr[i*maxd + level]: ptr[...+1]]``
    are the final rows meeting pier ``i`` at ``level``."""
    flat = game.qualify.reshape(-1, game.qualify.shape[-1])
    counts = flat.sum(axis=1)
    ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    rows = np.concatenate([np.flatnonzero(r) for r in flat]).astype(np.int64)
    return ptr, rows


def finals_batch(
    game: Game, levels: np.ndarray, piers: np.ndarray, skull: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's choice for a batch in floats: ``levels`` and ``piers`` ``(B, P)`` (an empty
    pier's option is ``-inf``), ``skull`` ``(B,)`` -> final values and targets, ``(B, F)``
    each."""
    from solver.armada.take_kernel import choose_many

    ptr, rows = qualify_lists(game)
    b, n_full = piers.shape[0], game.qualify.shape[-1]
    final = np.empty((b, n_full))
    target = np.empty((b, n_full), dtype=np.int64)
    choose_many(final, target, np.ascontiguousarray(piers, dtype=np.float64),
                 np.ascontiguousarray(levels, dtype=np.int64),
                 np.ascontiguousarray(skull, dtype=np.float64), ptr, rows,
                 game.max_doubloons, game.rules.must_take)
    return final, target


def finals(
    game: Game, levels: tuple[int, ...], piers: Sequence[Any], skull: Any
) -> tuple[list[Any], list[int]]:
    """Final value and chosen target (pier index or ``SKULL``) of every full dice row, in any
    number type (``None`` for an empty pier's option)."""
    allowed = legal_takes(game, levels)
    n_full = allowed.shape[1]
    best: list[Any] = [None] * n_full
    target = [SKULL] * n_full
    for i, option in enumerate(piers):
        if option is None:
            continue
        for k in np.flatnonzero(allowed[i]).tolist():
            if best[k] is None or option > best[k]:
                best[k], target[k] = option, i
    for k in np.flatnonzero(allowed[-1]).tolist():
        if best[k] is None or skull > best[k]:
            best[k], target[k] = skull, SKULL
    return best, target
