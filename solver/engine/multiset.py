"""Multisets of dice faces and the lattice of kept sub-multisets.

A roll of ``n`` identical ``k``-sided dice is a multiset: a vector of face counts summing to
``n``. Every multiset of size ``0..n`` is a *node* of one lattice; a node of size ``m`` has a
child per face (the node with one more die showing that face). Two facts make the lattice the
right data structure for dice games:

* the value of keeping ``K`` and rolling the other ``n - |K|`` dice is the average over the
  next die's face of the value of keeping ``K + face`` (dice are independent), so the
  expectations for *every* keep follow from the full-size values in ``k`` additions per node;
* the pairs (state ``S``, keep ``K ⊆ S``) are exactly the pairs (``K``, rolled ``R``) with
  ``|K| + |R| = n``, which lets every legal decision be listed with array operations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from math import factorial

import numpy as np


def compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """All count vectors of ``parts`` non-negative entries summing to ``total``, in
    lexicographically decreasing order (so ``(total, 0, ..., 0)`` first)."""
    if parts == 1:
        return [(total,)]
    out = []
    for first in range(total, -1, -1):
        for rest in compositions(total - first, parts - 1):
            out.append((first, *rest))
    return out


def multinomial(counts: tuple[int, ...] | np.ndarray) -> int:
    """Number of ordered rolls giving this multiset: ``n! / prod(c_i!)``."""
    result = factorial(int(sum(counts)))
    for c in counts:
        result //= factorial(int(c))
    return result


@dataclass(frozen=True, eq=False)
class DiceSpace:
    """Every multiset of size ``0..dice`` over ``faces`` faces, with lattice links.

    Attributes:
        counts: ``(M, faces)`` int8 array, one row per node.
        size: ``(M,)`` number of dice in each node.
        levels: ``levels[m]`` is the array of node ids of size ``m`` (ascending).
        child: ``(M, faces)`` id of ``node + face`` (``-1`` at full size).
        full: node ids of size ``dice`` (the states a roll can show), same as ``levels[dice]``.
    """

    faces: int
    dice: int
    counts: np.ndarray = field(repr=False)
    size: np.ndarray = field(repr=False)
    levels: tuple[np.ndarray, ...] = field(repr=False)
    child: np.ndarray = field(repr=False)
    _lookup: np.ndarray = field(repr=False)

    # ---- construction -------------------------------------------------------------------
    @staticmethod
    @cache
    def of(faces: int, dice: int) -> DiceSpace:
        """The (cached) space of ``dice`` dice with ``faces`` faces."""
        rows: list[tuple[int, ...]] = []
        starts = []
        for m in range(dice + 1):
            starts.append(len(rows))
            rows.extend(compositions(m, faces))
        counts = np.array(rows, dtype=np.int8)
        size = counts.sum(axis=1).astype(np.int16)
        levels = tuple(np.flatnonzero(size == m) for m in range(dice + 1))
        base = dice + 1
        weights = base ** np.arange(faces, dtype=np.int64)
        lookup = np.full(base**faces, -1, dtype=np.int32)
        lookup[counts.astype(np.int64) @ weights] = np.arange(len(rows), dtype=np.int32)
        child = np.full((len(rows), faces), -1, dtype=np.int32)
        not_full = size < dice
        codes = counts[not_full].astype(np.int64) @ weights
        child[not_full] = lookup[codes[:, None] + weights[None, :]]
        return DiceSpace(faces, dice, counts, size, levels, child, lookup)

    # ---- lookups ------------------------------------------------------------------------
    @property
    def full(self) -> np.ndarray:
        return self.levels[self.dice]

    def _weights(self) -> np.ndarray:
        return (self.dice + 1) ** np.arange(self.faces, dtype=np.int64)

    def index(self, counts) -> int:
        """Node id of a count vector (raises ``KeyError`` if it is not in the space)."""
        arr = np.asarray(counts, dtype=np.int64)
        if arr.shape != (self.faces,) or arr.min() < 0 or arr.sum() > self.dice:
            raise KeyError(tuple(int(c) for c in arr))
        return int(self._lookup[arr @ self._weights()])

    def index_many(self, counts: np.ndarray) -> np.ndarray:
        """Node ids of many count vectors (rows); entries must be valid."""
        return self._lookup[np.asarray(counts, dtype=np.int64) @ self._weights()]

    # ---- probability ----------------------------------------------------------------------
    @cache  # noqa: B019 - the space is immutable and cached itself
    def roll_weights(self) -> np.ndarray:
        """For every node, the number of ordered rolls showing it (``multinomial``), as int64.

        Rolling ``m`` dice shows the node ``R`` of size ``m`` with probability
        ``roll_weights[R] / faces**m``.
        """
        return np.array([multinomial(tuple(row)) for row in self.counts], dtype=np.int64)

    def roll_probabilities(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        """Outcomes of rolling ``m`` dice: (node ids of size ``m``, float probabilities)."""
        ids = self.levels[m]
        return ids, self.roll_weights()[ids] / float(self.faces**m)

    # ---- the lattice walk -------------------------------------------------------------------
    def expect(self, full_values: np.ndarray) -> np.ndarray:
        """Extend values on full-size nodes to every node: the expected value of keeping the
        node and rolling the remaining dice. ``full_values`` has shape ``(..., len(full))``
        (leading axes are batched); the result has shape ``(..., M)``."""
        full_values = np.asarray(full_values, dtype=np.float64)
        out = np.empty(full_values.shape[:-1] + (len(self.counts),), dtype=np.float64)
        out[..., self.full] = full_values
        for m in range(self.dice - 1, -1, -1):
            ids = self.levels[m]
            out[..., ids] = out[..., self.child[ids]].mean(axis=-1)
        return out

    def best_below(self, values: np.ndarray) -> np.ndarray:
        """For every node, the largest of ``values`` over its sub-multisets (itself included),
        batched over leading axes: a max walk up the lattice, each node passing its best to its
        children (a node's sub-multisets are itself and those of its parents)."""
        best = np.array(values, dtype=np.float64, copy=True)
        for m in range(self.dice):
            ids = self.levels[m]
            for face in range(self.faces):
                kids = self.child[ids, face]
                best[..., kids] = np.maximum(best[..., kids], best[..., ids])
        return best

    def expect_exact(self, full_numerators: list[int]) -> list[int]:
        """Exact lattice walk on integers: given numerators ``v[S]`` of full-size values over a
        common denominator ``D``, return for every node ``K`` the integer ``u[K]`` with
        ``E[value | keep K] = u[K] / (D * faces**(dice - |K|))``."""
        values: list[int] = [0] * len(self.counts)
        for node, v in zip(self.full.tolist(), full_numerators, strict=True):
            values[node] = int(v)
        child = self.child.tolist()
        for m in range(self.dice - 1, -1, -1):
            for node in self.levels[m].tolist():
                values[node] = sum(values[c] for c in child[node])
        return values

    # ---- decisions ------------------------------------------------------------------------
    @cache  # noqa: B019
    def keep_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every (state, keep, rolled) triple with ``state = keep + rolled`` and ``|state| =
        dice``, as three node-id arrays sorted by state then keep size (largest keep first)."""
        states, keeps, rolled = [], [], []
        for m in range(self.dice + 1):
            k_ids = self.levels[m]
            r_ids = self.levels[self.dice - m]
            summed = self.counts[k_ids][:, None, :].astype(np.int64) + self.counts[r_ids][None]
            s_ids = self.index_many(summed.reshape(-1, self.faces))
            states.append(s_ids)
            keeps.append(np.repeat(k_ids, len(r_ids)))
            rolled.append(np.tile(r_ids, len(k_ids)))
        s = np.concatenate(states)
        k = np.concatenate(keeps)
        r = np.concatenate(rolled)
        order = np.lexsort((k, -self.size[k], s))
        return s[order], k[order], r[order]
