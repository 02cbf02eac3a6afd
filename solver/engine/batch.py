"""Many copies of one stopping problem that differ only in their payoffs, solved side by side.

A whole game made of press-your-luck turns (Mille Sabords) asks the same turn question tens of
thousands of times: the dice, the legal keeps and the roll probabilities are those of one
:class:`~solver.engine.stopping.StoppingProblem`; only what each way of ending the turn is
worth changes from one game state to the next. :func:`solve_many` takes the problem once and a
batch of payoffs (*lanes*), and solves every lane by the same modified policy iteration as
:func:`~solver.engine.stopping.solve`, compiled with numba and run in parallel over lanes.

Each lane starts from the values it is given (a *warm start*): when a game solver sweeps its
states again with slightly changed payoffs, the last sweep's turn values are a few updates away
from the new ones, so a lane costs one Bellman update and a handful of cheap fixed-policy
sweeps instead of a solve from scratch. Any start converges: every policy of the problems this
serves ends the turn with probability one.

Lane payoffs: ``stop_value`` and ``terminal_value`` as in the problem, per lane; and, where the
problem pays a bonus on landing in ``bonus_mask``, a bonus per *kept node* (``keep_bonus``),
so that action ``a`` pays ``keep_bonus[act_keep[a]]`` (a per-action array per lane would be
too large to batch).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from solver.engine.stopping import StoppingProblem

NEG = -1.0e300


@dataclass(frozen=True)
class LaneProblem:
    """The arrays of a :class:`StoppingProblem` that every lane shares, laid out for the
    kernel (contiguous, int64)."""

    problem: StoppingProblem
    live: np.ndarray  # (modes, F) bool
    fixed_live: np.ndarray  # (modes, F) bool: live, but no action (the value is the stop value)
    seg_start: np.ndarray  # (S + 1,) first action of each decision state, then len(actions)
    seg_state: np.ndarray  # (S,) flat index mode * F + position
    act_node: np.ndarray  # (A,) flat index next_mode * M + kept node, into the work array
    bonus_p: np.ndarray  # (modes * M,): P(landing in bonus_mask); zeros without a bonus
    child: np.ndarray  # (M, faces)
    below_full: int  # nodes 0 .. below_full-1 are the keeps smaller than a full roll

    @staticmethod
    def of(problem: StoppingProblem) -> LaneProblem:
        space = problem.space
        starts, seg_state = problem.segments()
        seg_start = np.r_[starts, len(problem.act_keep)].astype(np.int64)
        has_action = np.zeros(problem.live.size, dtype=bool)
        has_action[seg_state] = True
        fixed = problem.live & ~has_action.reshape(problem.live.shape)
        bonus_p = problem.bonus_expectation()
        if bonus_p is None:
            bonus_p = np.zeros((problem.modes, len(space.counts)))
        if int(space.full[0]) != len(space.counts) - len(space.full):
            raise ValueError("full nodes must be numbered last")
        return LaneProblem(
            problem=problem,
            live=np.ascontiguousarray(problem.live),
            fixed_live=np.ascontiguousarray(fixed),
            seg_start=seg_start,
            seg_state=np.ascontiguousarray(seg_state, dtype=np.int64),
            act_node=(problem.act_next * len(space.counts) + problem.act_keep).astype(np.int32),
            bonus_p=np.ascontiguousarray(bonus_p, dtype=np.float64).ravel(),
            child=np.ascontiguousarray(np.maximum(space.child, 0).astype(np.int64)),
            below_full=int(space.full[0]),
        )


def solve_many(
    lanes: LaneProblem,
    stop_value: np.ndarray,
    terminal_value: np.ndarray,
    value: np.ndarray,
    keep_bonus: np.ndarray | None = None,
    tol: float = 1e-13,
    sweeps: int = 12,
    max_rounds: int = 100_000,
) -> tuple[np.ndarray, np.ndarray]:
    """Solve every lane, updating ``value`` (``(B, modes, F)``, the warm start) in place.

    A lane stops when a full Bellman update moves no value by more than ``tol`` (absolute).
    Returns ``(rounds, residual)`` per lane: the Bellman updates made and the last update's
    largest change. Non-live entries of ``value`` are set to the terminal value.
    """
    batch = stop_value.shape[0]
    if keep_bonus is None:
        keep_bonus = np.zeros((batch, 1))
        has_bonus = False
    else:
        has_bonus = True
    rounds = np.zeros(batch, dtype=np.int64)
    residual = np.zeros(batch)
    _solve_lanes(
        lanes.live, lanes.fixed_live, np.ascontiguousarray(stop_value),
        np.ascontiguousarray(terminal_value), value, np.ascontiguousarray(keep_bonus),
        has_bonus, lanes.bonus_p, lanes.seg_start, lanes.seg_state, lanes.act_node,
        lanes.problem.act_keep.astype(np.int32), lanes.child, lanes.below_full, 1.0 / lanes.child.shape[1], tol, sweeps,
        max_rounds, rounds, residual,
    )
    return rounds, residual


@njit(cache=True, fastmath=False)
def _expect(work: np.ndarray, child: np.ndarray, below_full: int, inv: float) -> None:
    """Rows below the full nodes become the mean of their children (one more die rolled)."""
    faces = child.shape[1]
    for node in range(below_full - 1, -1, -1):
        total = 0.0
        for face in range(faces):
            total += work[child[node, face]]
        work[node] = total * inv


@njit(cache=True, fastmath=False)
def _landing(work, live, value, terminal, below_full):
    """``work[mode, full nodes]``: the value of landing on each full state, per mode."""
    modes, n_full = live.shape
    for m in range(modes):
        row = work[m]
        for s in range(n_full):
            row[below_full + s] = value[m, s] if live[m, s] else terminal[m, s]


@njit(cache=True, parallel=True, fastmath=False)
def _solve_lanes(live, fixed_live, stop, terminal, value, keep_bonus, has_bonus, bonus_p,
                 seg_start, seg_state, act_node, act_keep, child, below_full, inv, tol, sweeps,
                 max_rounds, rounds_out, residual_out):
    batch = stop.shape[0]
    modes, n_full = live.shape
    n_nodes = child.shape[0]
    n_seg = seg_state.shape[0]
    for b in prange(batch):
        flat_work = np.empty(modes * n_nodes)
        work = flat_work.reshape((modes, n_nodes))
        chosen = np.full(n_seg, -1, dtype=np.int64)
        val = value[b]
        for m in range(modes):
            for s in range(n_full):
                if not live[m, s]:
                    val[m, s] = terminal[b, m, s]
                elif fixed_live[m, s]:
                    val[m, s] = stop[b, m, s]
        resid = 0.0
        r = 0
        while r < max_rounds:
            r += 1
            _landing(work, live, val, terminal[b], below_full)
            for m in range(modes):
                _expect(work[m], child, below_full, inv)
            resid = 0.0
            for i in range(n_seg):
                flat = seg_state[i]
                m = flat // n_full
                s = flat - m * n_full
                best = NEG
                arg = -1
                if has_bonus:
                    for a in range(seg_start[i], seg_start[i + 1]):
                        q = flat_work[act_node[a]] + bonus_p[act_node[a]] * keep_bonus[b, act_keep[a]]
                        if q > best:
                            best = q
                            arg = a
                else:
                    for a in range(seg_start[i], seg_start[i + 1]):
                        q = flat_work[act_node[a]]
                        if q > best:
                            best = q
                            arg = a
                new = stop[b, m, s]
                if best > new:
                    new = best
                else:
                    arg = -1
                chosen[i] = arg
                change = abs(new - val[m, s])
                if change > resid:
                    resid = change
                val[m, s] = new
            if resid <= tol:
                break
            for _ in range(sweeps):
                _landing(work, live, val, terminal[b], below_full)
                for m in range(modes):
                    _expect(work[m], child, below_full, inv)
                moved = 0.0
                for i in range(n_seg):
                    a = chosen[i]
                    if a < 0:
                        continue
                    flat = seg_state[i]
                    m = flat // n_full
                    s = flat - m * n_full
                    q = flat_work[act_node[a]]
                    if has_bonus:
                        q += bonus_p[act_node[a]] * keep_bonus[b, act_keep[a]]
                    change = abs(q - val[m, s])
                    if change > moved:
                        moved = change
                    val[m, s] = q
                if moved <= 0.1 * tol:
                    break
        rounds_out[b] = r
        residual_out[b] = resid
