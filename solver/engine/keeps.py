"""Which dice a player may keep, as lattice rules instead of a list of actions.

A press-your-luck dice game allows, in a given mode, every keep ``K`` of the dice showing ``S``
such that the dice rolled, ``S - K``, are some *forced* dice (a skull the Sorceress frees)
plus any number of *free* faces (any die but a skull), with ``|K|`` within bounds. A rule
may also hold only where the dice showing ``S`` are within face-count bounds (``shown_min`` /
``shown_max``): a turn that remembers something the dice have shown (a sea battle's sabres)
continues in another mode from such states. A :class:`KeepRule` says exactly that, and it is
all the engine needs:

* :func:`expand` lists the legal ``(mode, state, keep, next mode)`` actions for the explicit
  solver (:class:`~solver.engine.stopping.StoppingProblem`) and the exact certificates;
* the batched solver (:mod:`solver.engine.batch`) never lists them: the best keep of every
  state is one *max walk up* the lattice along the free faces (a node passes its best to the
  children that add a free die), read at ``S - forced``, so a Bellman update costs a few
  operations per lattice node instead of one per (state, keep) pair.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.engine.multiset import DiceSpace


@dataclass(frozen=True)
class KeepRule:
    """In mode ``mode``, keep ``K`` of the dice showing ``S`` when ``S - K`` is ``forced``
    plus any dice of the ``free`` faces, ``min_keep <= |K| <= max_keep`` and ``K`` holds at
    least ``min_free_keep`` dice of the free faces; the roll then continues in
    ``next_mode``. With ``shown_min`` / ``shown_max`` (face counts; empty for no bound) the
    rule holds only in states ``S`` with ``shown_min <= S <= shown_max`` face by face."""

    mode: int
    next_mode: int
    forced: tuple[int, ...]  # face counts every such roll moves
    free: tuple[bool, ...]  # faces that may be rolled besides the forced dice
    min_keep: int
    max_keep: int
    min_free_keep: int = 0  # kept dice of free faces (a kept die must not be a skull)
    shown_min: tuple[int, ...] = ()  # the dice showing hold at least these face counts
    shown_max: tuple[int, ...] = ()  # ... and at most these

    def applies(self, shown: np.ndarray) -> np.ndarray:
        """Which states (rows of face counts of the dice showing) the rule holds in."""
        shown = np.atleast_2d(shown)
        ok = np.ones(len(shown), dtype=bool)
        if self.shown_min:
            ok &= (shown >= np.asarray(self.shown_min)).all(axis=1)
        if self.shown_max:
            ok &= (shown <= np.asarray(self.shown_max)).all(axis=1)
        return ok

    def allowed_nodes(self, counts: np.ndarray) -> np.ndarray:
        """Which keep nodes (rows of face counts) the size bounds allow."""
        size = counts.sum(axis=1)
        free_kept = counts[:, np.asarray(self.free, dtype=bool)].sum(axis=1)
        return ((size >= self.min_keep) & (size <= self.max_keep)
                & (free_kept >= self.min_free_keep))

    def keeps(self, space: DiceSpace, state: np.ndarray, keep: np.ndarray,
              rolled: np.ndarray) -> np.ndarray:
        """Which of the ``(state, keep, rolled)`` triples of ``space`` this rule allows."""
        rest = space.counts[rolled].astype(np.int64) - np.asarray(self.forced)
        free = np.asarray(self.free, dtype=bool)
        return ((rest >= 0).all(axis=1) & (rest[:, ~free] == 0).all(axis=1)
                & self.allowed_nodes(space.counts[keep].astype(np.int64))
                & self.applies(space.counts[state].astype(np.int64)))


def expand(space: DiceSpace, live: np.ndarray, rules: tuple[KeepRule, ...]):
    """Every legal action of live states, as ``(act_mode, act_state, act_keep, act_next)``
    (``act_state`` a position in ``space.full``), sorted by mode, then state, then keep size
    (largest first), then keep node."""
    states, keeps, rolled = space.keep_pairs()
    pos = states - space.full[0]
    parts = []
    for rule in rules:
        ok = rule.keeps(space, states, keeps, rolled) & live[rule.mode, pos]
        n = int(ok.sum())
        parts.append((np.full(n, rule.mode), pos[ok], keeps[ok], np.full(n, rule.next_mode)))
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    mode, state, keep, nxt = (np.concatenate([p[i] for p in parts]).astype(np.int64)
                              for i in range(4))
    order = np.lexsort((keep, -space.size[keep], state, mode))
    return mode[order], state[order], keep[order], nxt[order]
