"""Finite-horizon keep problems: roll, keep any dice, roll the rest, a fixed number of times.

A turn of ``rolls`` rolls ends with a *final value* ``f[S]`` for every full-size multiset ``S``.
With ``r`` rolls still to come, the value of showing ``S`` is the best over the keeps ``K ⊆ S``
of the expected value of keeping ``K`` and rolling the rest; that expectation is one
:meth:`DiceSpace.expect` walk, and "best over sub-multisets" is one *max walk up* the lattice
(every node passes its value to its children, so a full node ends with the maximum over all of
its sub-multisets). Stages:

* ``shown[0] = f``;
* ``keep[r] = expect(shown[r - 1])`` -- the value of keeping ``K`` with ``r`` rolls to come;
* ``shown[r][S] = max_{K ⊆ S} keep[r][K]`` (and ``f[S]`` too when the turn may stop early);
* the turn's value is ``keep[rolls][empty]``.

The numpy methods batch over leading axes; :meth:`Horizon.exact` does the same with exact
rationals (any field type: ``fractions.Fraction`` or ``flint.fmpq``) for certificates and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from solver.engine.multiset import DiceSpace


@dataclass(frozen=True)
class Horizon:
    """The keep problem of one turn: ``rolls`` rolls of the dice of ``space``.

    ``min_reroll``: dice every roll after the first must move (0: keeping all is allowed).
    ``stop_early``: the turn may end with the dice shown, before its last roll.
    """

    space: DiceSpace
    rolls: int
    min_reroll: int = 0
    stop_early: bool = False

    @cached_property
    def cap(self) -> int:
        """The largest keep allowed."""
        return self.space.dice - self.min_reroll

    @cached_property
    def full_prob(self) -> np.ndarray:
        """Probability of each full node on a roll of every die."""
        return self.space.roll_probabilities(self.space.dice)[1]

    # ---- float, batched ---------------------------------------------------------------------
    def best_sub(self, keep_values: np.ndarray) -> np.ndarray:
        """For every full node ``S``: the best ``keep_values[..., K]`` over allowed ``K ⊆ S``."""
        sp = self.space
        best = np.array(keep_values, dtype=np.float64, copy=True)
        best[..., sp.size > self.cap] = -np.inf
        return sp.best_below(best)[..., sp.full]

    def stages(self, final: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """``(shown, keep)``: ``shown[r]`` over full nodes for ``r = 0..rolls-1`` and
        ``keep[r]`` over all nodes for ``r = 1..rolls`` (``keep[0]`` is ``None``)."""
        final = np.asarray(final, dtype=np.float64)
        shown = [final]
        keep: list[Any] = [None]
        for r in range(1, self.rolls + 1):
            keep.append(self.space.expect(shown[r - 1]))
            if r == self.rolls:
                break
            best = self.best_sub(keep[r])
            shown.append(np.maximum(best, final) if self.stop_early else best)
        return shown, keep

    def value(self, final: np.ndarray) -> np.ndarray:
        """The turn's expected value from no dice, for every leading index."""
        shown, _ = self.stages(final)
        return shown[-1] @ self.full_prob

    # ---- exact ---------------------------------------------------------------------------------
    def exact(
        self, final: Sequence[Any], one: Any = Fraction(1)
    ) -> tuple[list[list[Any]], list[list[Any] | None]]:
        """:meth:`stages` in exact arithmetic; ``final`` lists full-node values (same order),
        ``one`` is the number type's one (``Fraction(1)``, ``flint.fmpq(1)``)."""
        sp = self.space
        child = sp.child.tolist()
        size = sp.size.tolist()
        full = sp.full.tolist()
        inv = one / sp.faces
        shown: list[list[Any]] = [list(final)]
        keep: list[list[Any] | None] = [None]
        for r in range(1, self.rolls + 1):
            vals: list[Any] = [None] * len(size)
            for node, v in zip(full, shown[r - 1], strict=True):
                vals[node] = v
            for m in range(sp.dice - 1, -1, -1):
                for node in sp.levels[m].tolist():
                    vals[node] = sum((vals[c] for c in child[node]), 0 * one) * inv
            keep.append(vals)
            if r == self.rolls:
                break
            best: list[Any] = [v if size[n] <= self.cap else None for n, v in enumerate(vals)]
            for m in range(sp.dice):
                for node in sp.levels[m].tolist():
                    if best[node] is None:
                        continue
                    for c in child[node]:
                        if best[c] is None or best[node] > best[c]:
                            best[c] = best[node]
            row = [best[n] for n in full]
            if self.stop_early:
                row = [max(a, b) for a, b in zip(row, final, strict=True)]
            shown.append(row)
        return shown, keep

    def exact_value(self, final: Sequence[Any], one: Any = Fraction(1)) -> Any:
        """The turn's exact expected value from no dice."""
        _, keep = self.exact(final, one)
        return keep[self.rolls][0]

    # ---- decisions -------------------------------------------------------------------------------
    @cached_property
    def keeps_of(self) -> np.ndarray:
        """``(len(full), W)`` node ids of the allowed keeps ``K ⊆ S`` of each full node (row
        order of ``space.full``), largest keeps first, padded with ``-1``."""
        sp = self.space
        states, keeps, _ = sp.keep_pairs()
        ok = sp.size[keeps] <= self.cap
        states, keeps = states[ok], keeps[ok]
        row_of = np.full(len(sp.counts), -1, dtype=np.int64)
        row_of[sp.full] = np.arange(len(sp.full))
        rows = row_of[states]
        width = int(np.bincount(rows).max())
        out = np.full((len(sp.full), width), -1, dtype=np.int64)
        pos = np.zeros(len(sp.full), dtype=np.int64)
        for r, k in zip(rows.tolist(), keeps.tolist(), strict=True):
            out[r, pos[r]] = k
            pos[r] += 1
        return out

    def best_keep(self, keep_values: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The best keep node for shown full rows ``rows`` given ``keep_values`` ``(B, M)``;
        ties go to the keep listed first (the largest)."""
        cand = self.keeps_of[rows]
        vals = np.take_along_axis(keep_values, np.maximum(cand, 0), axis=1)
        vals[cand < 0] = -np.inf
        return cand[np.arange(len(rows)), np.argmax(vals, axis=1)]



def carry(h: Horizon, final: np.ndarray, payload: np.ndarray) -> list[np.ndarray | None]:
    """Follow the optimal policy of ``final`` (one problem, ``(F,)``) and carry ``payload``
    ``(P, F)`` (e.g. indicators of how the turn ends) back through it: ``out[r]`` ``(P, M)`` is
    the expected payload of keeping each node with ``r`` rolls to come, then playing on
    optimally (ties go to the larger keep; stopping early only when strictly better)."""
    shown, keep = h.stages(final)
    rows = np.arange(len(h.space.full))
    pay = np.asarray(payload, dtype=np.float64)
    out: list[np.ndarray | None] = [None]
    for r in range(1, h.rolls + 1):
        out.append(h.space.expect(pay))
        if r == h.rolls:
            break
        best = h.best_keep(np.broadcast_to(keep[r], (len(rows), keep[r].shape[-1])), rows)
        nxt = out[r][:, best]
        if h.stop_early:
            stop = final > keep[r][best]
            nxt[:, stop] = payload[:, stop]
        pay = nxt
    return out
