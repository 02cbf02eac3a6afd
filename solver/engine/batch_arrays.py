"""The named structures the batched solver's kernels read and write (:mod:`solver.engine.batch`).

Each is a :class:`typing.NamedTuple` of NumPy arrays (or numbers): numba compiles one as a
tuple whose fields are read by name, so a kernel takes a few structures instead of dozens of
arrays in an order it must agree on with its caller.

Several problems are packed end to end (:meth:`solver.engine.batch.Packed.of`): problem ``p``'s
node arrays start at ``node_off[p]``, its (mode, node) arrays at ``mn_off[p]``, its full-orbit
arrays at ``f_off[p]`` and its (mode, full orbit) arrays at ``mf_off[p]``; its keep rules are
``rule_off[p] .. rule_off[p + 1]``. An ``*_off`` array of a ragged list has one more entry
than the list (the end). A chosen action is coded ``next_mode * N + kept node``, ``-1`` for
stopping.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class ProblemArrays(NamedTuple):
    """Every packed problem on its orbit lattice (:mod:`solver.engine.orbits`)."""

    n_nodes: np.ndarray  # per problem: lattice nodes N
    below: np.ndarray  # per problem: nodes below the full ones (full orbits come last)
    n_full: np.ndarray  # per problem: full orbits F
    modes: np.ndarray  # per problem
    node_off: np.ndarray
    mn_off: np.ndarray
    f_off: np.ndarray
    mf_off: np.ndarray  # also where a problem's columns start in a warm-start row
    child: np.ndarray  # (nodes, faces): the node with one more die of each face
    dead: np.ndarray  # (mode, node): the outcome every roll of the node ends in, or -1
    walk: np.ndarray  # per problem and mode, the live nodes below the full ones, ascending
    walk_off: np.ndarray  # (problems, max modes + 1): where each mode's walk starts
    live: np.ndarray  # (mode, full orbit)
    acting: np.ndarray  # (mode, full orbit): an action besides stopping exists
    stop: np.ndarray  # (mode, full orbit): the outcome of stopping
    end: np.ndarray  # (mode, full orbit): the outcome of landing there when not live
    bonus_p: np.ndarray  # (mode, node): chance that the node's roll lands on a protected bust
    protect: np.ndarray  # per node: the outcome of its dice protected
    has_protect: np.ndarray  # per problem
    base: np.ndarray  # per problem: the plain bust's outcome a protect bonus is counted from
    rule_off: np.ndarray
    rule_mode: np.ndarray  # per rule: the mode it acts in
    rule_next: np.ndarray  # per rule: the mode the roll continues in
    allowed: np.ndarray  # per rule and node: the rule may keep it
    allowed_off: np.ndarray
    smap: np.ndarray  # per rule and full orbit: the node its best keep is read at, or -1
    smap_off: np.ndarray
    touched: np.ndarray  # per rule: the nodes its max walk touches
    touched_off: np.ndarray
    edge_src: np.ndarray  # per rule: the max walk's edges (sources ascending)
    edge_dst: np.ndarray
    edge_off: np.ndarray
    locked: np.ndarray  # per node: its dice of faces no rule lets a reroll move
    first_prob: np.ndarray  # per full orbit: the first roll's chance of it
    first_ptr: np.ndarray  # per full orbit: its first-roll outcomes, when the roll ends it
    first_idx: np.ndarray  # ... their outcomes
    first_p: np.ndarray  # ... and probabilities


class PushArrays(NamedTuple):
    """What the push of an outcome distribution reads (:mod:`solver.engine.batch_push`)."""

    acts: np.ndarray  # per problem, the flat (mode, full orbit) indices of acting states
    acts_off: np.ndarray
    act_index: np.ndarray  # per (mode, full orbit): its index among the acting states, or -1
    keep_off: np.ndarray  # per problem: where its keepable nodes start
    keep_nodes: np.ndarray  # per problem, the nodes some rule may keep, ascending
    keep_index: np.ndarray  # per node: its index among them, or -1
    roll_p: np.ndarray  # per keepable node, its roll over the full orbits (dense rows)
    roll_off: np.ndarray
    roll_ptr: np.ndarray  # the same rows sparse: row ``keep_off[p] + keep index``
    roll_idx: np.ndarray
    roll_val: np.ndarray


class Lattice(NamedTuple):
    """Problem ``p`` of the packed arrays, sliced out once per group (inside the kernels)."""

    p: int
    n: int  # nodes
    below: int  # nodes below the full ones
    n_full: int
    modes: int
    mn: int  # where the problem's (mode, node) arrays start
    mf: int  # where its (mode, full orbit) arrays start
    inv: float  # 1 / faces
    protects: bool
    child: np.ndarray  # (n, faces)
    live: np.ndarray  # (modes, n_full)
    acting: np.ndarray  # (modes, n_full)
    walk: np.ndarray  # every problem's walks (absolute offsets in walk_off)
    walk_off: np.ndarray  # (max modes + 1,)
    keep_index: np.ndarray  # (n,)
    roll_p: np.ndarray  # (keepable nodes, n_full)


class SweepWork(NamedTuple):
    """The fixed-policy sweeps' work space, one row per acting state (see
    ``batch_kernels._evaluate``)."""

    rho: np.ndarray  # (modes * n, lanes), zero between calls
    at: np.ndarray
    read: np.ndarray
    add: np.ndarray
    step: np.ndarray
    mask: np.ndarray


class Settings(NamedTuple):
    """How far lanes are solved (see :func:`solver.engine.batch.solve_lanes`)."""

    tol: float
    sweeps: int  # fixed-policy sweeps between Bellman updates, at most
    warm_sweeps: int  # ... and before the first, of a lane started from a stored policy
    max_rounds: int
    distribution: bool  # push each lane's outcome distribution
    reuse: bool  # keep a lane's distribution where its policy hash says nothing changed
    push_tol: float


class LaneGroups(NamedTuple):
    """The lanes to solve, in groups of :data:`~solver.engine.batch_kernels.LANES` of one
    problem each (``-1`` pads a group), with their payoffs and warm-start slots."""

    problem: np.ndarray  # per group
    lanes: np.ndarray  # (groups, LANES): lane indices
    slot: np.ndarray  # per lane: where its solution is stored
    start_slot: np.ndarray  # per lane: where its warm start is read
    pay: np.ndarray  # (lanes, outcomes)


class WarmStart(NamedTuple):
    """What each slot's lanes were last solved to: a lane of problem ``p`` keeps its values
    and its policy (mode by mode, one per full orbit) in its slot's columns from
    ``mf_off[p]``. A lane that finds a policy evaluates it at its new payoffs before its first
    Bellman update: where the payoffs moved a little, that update only confirms it (one
    update per lane instead of two). ``policy`` holds
    :data:`~solver.engine.batch_kernels.UNKNOWN` until a lane is solved."""

    values: np.ndarray  # (slots, columns) float64
    policy: np.ndarray  # (slots, columns) int16: next_mode * nodes + kept node, -1 to stop

    def copy(self) -> WarmStart:
        return WarmStart(self.values.copy(), self.policy.copy())


class PushMemo(NamedTuple):
    """Per lane, what its last push found: the outcome distribution, its policy's hash and the
    acting states it reached (a bit each, :func:`~solver.engine.batch.reach_words` words)."""

    dist: np.ndarray
    hashes: np.ndarray
    reached: np.ndarray


class LaneResult(NamedTuple):
    """Per lane: the value before the first roll, the Bellman updates made, the last one's
    largest change and, when the distributions were asked for (else ``None``), its
    :class:`PushMemo` fields."""

    start: np.ndarray
    rounds: np.ndarray
    residual: np.ndarray
    dist: np.ndarray | None = None
    hashes: np.ndarray | None = None
    reached: np.ndarray | None = None

    def memo(self) -> PushMemo:
        """The distributions and what reusing them needs (``known`` of a later solve)."""
        return PushMemo(self.dist, self.hashes, self.reached)
