"""The keep lattice folded by interchangeable faces.

Under most Mille Sabords cards a coin and a diamond score alike, and so do a monkey, a parrot
and a sabre: swapping the two faces of such a pair changes no payoff, no legal keep and no
roll probability. Then every value of the turn is the same at ``S`` and at ``S`` with those
faces swapped, and the dice process is *lumpable*: the chance that keeping ``K`` and rolling
shows some dice of an orbit (a class of multisets equal up to such swaps) is the same for
every ``K`` of one orbit. So the whole lattice can be walked on orbits instead of multisets:

* a node is an orbit, named by its *canonical* member (the counts of each block of
  interchangeable faces in decreasing order); its children are the orbits of canonical + face,
  one per face, so the expectation walk (``E[K] = mean over faces of E[K + face]``) is
  unchanged;
* the sub-multisets of ``S`` fall into exactly the orbits reachable from ``S``'s orbit by
  removing dice, so the max walk up the lattice ("best keep of a roll") is unchanged too;
* a first roll shows an orbit with the summed probability of its members.

Eight dice of six faces have 3003 multisets; with coin = diamond and monkey = parrot = sabre
they fold into 603 orbits, with only monkey = parrot and coin = diamond into 1190.
:func:`interchangeable` finds the blocks from a problem's own data (a face swap is kept
only if it maps the problem onto itself), so a game states no symmetry of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from solver.engine.multiset import DiceSpace


@dataclass(frozen=True, eq=False)
class OrbitSpace:
    """The orbits of a :class:`DiceSpace` under permutations within ``blocks`` of faces.

    Attributes (``Q`` orbits, numbered level by level like the space's nodes):
        rep: ``(Q,)`` the canonical node of each orbit.
        orbit: ``(M,)`` the orbit of every node of the space.
        child: ``(Q, faces)`` the orbit of ``rep + face`` (``-1`` at full size).
        size: ``(Q,)`` dice in each orbit's multisets.
    """

    space: DiceSpace
    blocks: tuple[tuple[int, ...], ...]
    rep: np.ndarray = field(repr=False)
    orbit: np.ndarray = field(repr=False)
    child: np.ndarray = field(repr=False)
    size: np.ndarray = field(repr=False)

    @staticmethod
    @cache
    def of(space: DiceSpace, blocks: tuple[tuple[int, ...], ...]) -> OrbitSpace:
        """The (cached) folding of ``space`` by ``blocks`` (a partition of the faces)."""
        if sorted(f for b in blocks for f in b) != list(range(space.faces)):
            raise ValueError("blocks must partition the faces")
        canonical = canonical_counts(space.counts, blocks)
        canon_node = space.index_many(canonical)
        rep = np.flatnonzero(canon_node == np.arange(len(space.counts)))
        number = np.full(len(space.counts), -1, dtype=np.int64)
        number[rep] = np.arange(len(rep))
        orbit = number[canon_node]
        kids = space.child[rep]
        child = np.where(kids >= 0, orbit[np.maximum(kids, 0)], -1)
        return OrbitSpace(space, tuple(tuple(b) for b in blocks), rep, orbit, child,
                          space.size[rep].astype(np.int64))

    @property
    def count(self) -> int:
        return len(self.rep)

    @property
    def below_full(self) -> int:
        """Orbits of fewer dice than the space's (they come first)."""
        return int(np.searchsorted(self.size, self.space.dice))

    @property
    def full(self) -> np.ndarray:
        """Orbit ids of full size (the last ones)."""
        return np.arange(self.below_full, self.count)

    def full_positions(self) -> np.ndarray:
        """For each full orbit, the position of its canonical member in ``space.full``."""
        return self.rep[self.full] - int(self.space.full[0])

    def full_probabilities(self) -> np.ndarray:
        """P(a roll of every die shows each full orbit)."""
        space = self.space
        out = np.zeros(self.count - self.below_full)
        np.add.at(out, self.orbit[space.full] - self.below_full,
                  space.roll_probabilities(space.dice)[1])
        return out

    # ---- the two walks, in NumPy (the batched solver has them compiled) ---------------------
    def expect(self, full_values: np.ndarray) -> np.ndarray:
        """:meth:`DiceSpace.expect` on orbits: values of the full orbits (last axis) extended
        to every orbit."""
        full_values = np.asarray(full_values, dtype=np.float64)
        out = np.empty(full_values.shape[:-1] + (self.count,))
        below = self.below_full
        out[..., below:] = full_values
        for node in range(below - 1, -1, -1):
            out[..., node] = out[..., self.child[node]].mean(axis=-1)
        return out

    def best_below(self, values: np.ndarray, faces: np.ndarray | None = None) -> np.ndarray:
        """:meth:`DiceSpace.best_below` on orbits, passing values along ``faces`` only (a bool
        mask; all faces by default)."""
        best = np.array(values, dtype=np.float64, copy=True)
        use = np.ones(self.space.faces, dtype=bool) if faces is None else np.asarray(faces)
        for node in range(self.below_full):
            for face in np.flatnonzero(use):
                kid = self.child[node, face]
                best[..., kid] = np.maximum(best[..., kid], best[..., node])
        return best


def canonical_counts(counts: np.ndarray, blocks) -> np.ndarray:
    """Rows of face counts with each block's counts sorted in decreasing order (the block's
    faces in ascending order take them)."""
    out = np.array(counts, dtype=np.int64, copy=True)
    for block in blocks:
        cols = list(block)
        out[:, cols] = -np.sort(-out[:, cols], axis=1)
    return out


def face_swap(space: DiceSpace, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """Faces ``a`` and ``b`` swapped: ``(faces, perm)``, face ``f`` becoming ``faces[f]`` and
    node ``n`` becoming ``perm[n]``."""
    faces = np.arange(space.faces)
    faces[[a, b]] = [b, a]
    counts = space.counts.astype(np.int64)
    counts[:, [a, b]] = counts[:, [b, a]]
    return faces, space.index_many(counts)


def interchangeable(space: DiceSpace, invariant: Callable[[np.ndarray, np.ndarray], bool]
                    ) -> tuple[tuple[int, ...], ...]:
    """The blocks of faces a problem cannot tell apart: ``invariant(faces, perm)`` says whether
    the problem maps onto itself when face ``f`` becomes ``faces[f]`` (so node ``n`` becomes
    ``perm[n]``); faces whose swap it accepts share a block (swaps compose, so the blocks are
    the classes of that relation)."""
    faces = space.faces
    parent = list(range(faces))

    def root(f: int) -> int:
        while parent[f] != f:
            f = parent[f]
        return f

    for a in range(faces):
        for b in range(a + 1, faces):
            if root(a) != root(b) and invariant(*face_swap(space, a, b)):
                parent[root(b)] = root(a)
    groups: dict[int, list[int]] = {}
    for f in range(faces):
        groups.setdefault(root(f), []).append(f)
    return tuple(tuple(g) for g in sorted(groups.values()))
