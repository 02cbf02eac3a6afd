"""Stopping problems whose payoffs are given per *outcome*, solved for many payoffs at once.

A whole game made of press-your-luck turns (Mille Sabords) asks the same turn question tens of
thousands of times: the dice, the legal keeps and the roll probabilities are those of a few
:class:`~solver.engine.stopping.StoppingProblem` s (one per card); only what each way of ending
the turn is worth changes from one game state to the next. So a problem here names, for every
way a turn can end, an *outcome* index, and a *lane* is one problem with one payoff per outcome:

* stopping in live state ``(m, s)`` ends in outcome ``stop_out[m, s]``;
* landing on a non-live state ends in ``end_out[m, s]``;
* a *protect bonus* (optional): landing on a non-live state after keeping node ``K`` pays the
  best payoff of the outcomes ``protect_out[P]`` over the sub-multisets ``P`` of ``K``, instead of
  ``base_out``'s (the dice put aside on a card score even when the roll busts);
* a *first roll* may end the turn at once with a distribution over outcomes (``first_*``, a
  sparse row per full state; empty where the first roll is an ordinary state).

:func:`solve_lanes` solves every lane by modified policy iteration, as
:func:`~solver.engine.stopping.solve` does, compiled with numba and parallel over lanes. Each
lane starts from the values stored for it (a *warm start*): when a game solver sweeps its states
again with slightly changed payoffs, the last sweep's turn values are a few updates away from
the new ones, so a lane costs one Bellman update and a few cheap fixed-policy sweeps instead of
a solve from scratch. Any start converges: every policy of these problems ends with probability
one. Besides the value before the first roll, a lane can report the probability of each outcome
under its optimal policy: the value is then linear in the payoffs, which is what a caller needs
to solve a fixed point through them by Newton steps (policy iteration).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from solver.engine.outcomes import OutcomeMap

NEG = -1.0e300
# Actions whose values differ by less than this (relative) are ties: the first one listed (or
# stopping) is kept. Symmetric keeps (a monkey or a parrot) are worth the same up to rounding,
# and a tie broken by rounding noise would change the policy, and the outcome distribution's
# push, on every solve; the value lost is at most this much per decision.
TIE = 4e-15
# Fixed-policy sweeps move each value this many times its change (over-relaxation): the error
# of a sweep shrinks about as fast as the chance of rolling on, and over-relaxing takes out
# more of it per sweep. Measured on warm lanes of the game at 6000 (payoffs moved by 1e-9 to
# 1e-1): 1.3 or 1.4 do 9 to 27 % less work than 1.0, 1.6 no less; a lane whose sweeps stop
# shrinking goes back to 1.0, and every round ends with a full Bellman update, so the values
# solved are the same.
RELAX = 1.3


@dataclass(frozen=True, eq=False)
class Packed:
    """Several problems over one dice space, packed into flat arrays for the kernel."""

    maps: tuple[OutcomeMap, ...]
    arrays: tuple  # the kernel's problem arguments, in order
    mode_off: np.ndarray  # first stacked mode row of each problem
    modes: np.ndarray
    total_modes: int
    n_full: int

    @staticmethod
    def of(maps: list[OutcomeMap]) -> Packed:
        space = maps[0].problem.space
        if any(m.problem.space is not space for m in maps):
            raise ValueError("packed problems must share one dice space")
        if int(space.full[0]) != len(space.counts) - len(space.full):
            raise ValueError("full nodes must be numbered last")
        n_nodes, n_full = len(space.counts), len(space.full)
        modes = np.array([m.problem.modes for m in maps], dtype=np.int64)
        mode_off = np.r_[0, np.cumsum(modes)].astype(np.int64)
        live, fixed, stop_out, end_out, bonus_p = [], [], [], [], []
        seg_start, seg_state, act_node, act_keep = [], [], [], []
        seg_off, act_total = [0], 0
        protect = np.zeros((len(maps), n_nodes), dtype=np.int32)
        has_protect = np.zeros(len(maps), dtype=np.bool_)
        base = np.zeros(len(maps), dtype=np.int64)
        first_ptr = np.zeros((len(maps), n_full + 1), dtype=np.int64)
        first_idx, first_p = [], []
        for i, om in enumerate(maps):
            pr = om.problem
            starts, states = pr.segments()
            has_action = np.zeros(pr.live.size, dtype=bool)
            has_action[states] = True
            live.append(pr.live)
            fixed.append(pr.live & ~has_action.reshape(pr.live.shape))
            stop_out.append(om.stop_out)
            end_out.append(om.end_out)
            bp = pr.bonus_expectation()
            bonus_p.append(np.zeros((pr.modes, n_nodes)) if bp is None else bp)
            seg_start.append(starts + act_total)
            seg_state.append(states)
            act_node.append(pr.act_next * n_nodes + pr.act_keep)
            act_keep.append(pr.act_keep)
            act_total += len(pr.act_keep)
            seg_off.append(seg_off[-1] + len(states))
            if om.protect_out is not None:
                protect[i] = om.protect_out
                has_protect[i] = True
                base[i] = om.base_out
            count = 0
            for s, row in enumerate(om.first_rows):
                for out, p in sorted(row.items()):
                    first_idx.append(out)
                    first_p.append(p)
                    count += 1
                first_ptr[i, s + 1] = count
            first_ptr[i] += len(first_idx) - count
        arrays = (
            np.ascontiguousarray(np.concatenate(live)),
            np.ascontiguousarray(np.concatenate(fixed)),
            np.ascontiguousarray(np.concatenate(stop_out).astype(np.int64)),
            np.ascontiguousarray(np.concatenate(end_out).astype(np.int64)),
            np.ascontiguousarray(np.concatenate(bonus_p).ravel()),
            np.array(seg_off, dtype=np.int64),
            np.r_[np.concatenate(seg_start), act_total].astype(np.int64),
            np.concatenate(seg_state).astype(np.int64),
            np.concatenate(act_node).astype(np.int32),
            np.concatenate(act_keep).astype(np.int32),
            protect, has_protect, base, first_ptr,
            np.array(first_idx, dtype=np.int64), np.array(first_p, dtype=np.float64),
            np.ascontiguousarray(np.maximum(space.child, 0).astype(np.int64)),
            int(space.full[0]),
            np.ascontiguousarray(space.roll_probabilities(space.dice)[1]),
            mode_off, modes,
        )
        return Packed(tuple(maps), arrays, mode_off, modes, int(mode_off[-1]), n_full)

    def storage(self, slots: int) -> np.ndarray:
        """Zeroed warm-start storage for ``slots`` rows, ``(slots, total modes, F)``; a lane of
        problem ``p`` uses the rows of its slot from ``mode_off[p]``."""
        return np.zeros((slots, self.total_modes, self.n_full))


def solve_lanes(packed: Packed, problem: np.ndarray, slot: np.ndarray, pay: np.ndarray,
                value: np.ndarray, tol: float = 1e-13, sweeps: int = 12,
                max_rounds: int = 100_000, distribution: bool = False,
                known: tuple | None = None, push_tol: float = 1e-16, relax: float = RELAX):
    """Solve lanes (``problem[l]``, payoffs ``pay[l, outcome]``) warm-started from and stored
    into ``value[slot[l]]`` (see :meth:`Packed.storage`).

    A lane stops when a Bellman update moves no value by more than ``tol``; between updates,
    up to ``sweeps`` fixed-policy sweeps, over-relaxed by ``relax`` (:data:`RELAX`). With
    ``max_rounds=0`` nothing is solved or stored: each lane's start value is computed from the
    values stored in its slot (solved for other payoffs that agree on every outcome but the first
    roll's), so lanes may then share slots freely. Returns per lane
    ``(start, rounds, residual)``: the value before the first roll, the Bellman updates made and
    the last one's largest change. Two lanes may share a slot only
    if they are of different problems. With ``distribution=True`` a fifth result gives, per lane,
    the probability of ending in each outcome under the lane's optimal policy (``(lanes,
    outcomes)``; the turn's value for any other payoffs, under that policy, is then a dot
    product): the mass of the first roll is pushed through the policy, roll after roll, until
    less than ``push_tol`` of it is still in play (what is left is dropped: a Newton step far
    from the solution needs fewer digits of its distributions than the last ones do). A sixth
    and seventh result give, per lane, a hash of the policy *on the states that push reached*
    and those states (a bit per acting state,
    :func:`reach_words` words). ``known = (dist, hashes, reached)`` passes them back: a lane
    whose policy agrees with the last one on every state the last push reached would push the
    same mass along the same paths, so it keeps its row exactly and skips the push (which costs
    as much as a solve). A policy that changes only where no mass goes (exact ties, dice the
    policy never keeps) is the common case late in a game solve. The hash also records
    ``push_tol``: a row pushed to another precision is pushed again.
    """
    lanes = len(problem)
    start = np.zeros(lanes)
    rounds = np.zeros(lanes, dtype=np.int64)
    residual = np.zeros(lanes)
    words = reach_words(packed)
    if known is not None:
        dist = np.ascontiguousarray(known[0], dtype=np.float64).copy()
        hashes = np.ascontiguousarray(known[1], dtype=np.int64).copy()
        reached = np.ascontiguousarray(known[2], dtype=np.uint64).copy()
    else:
        dist = np.zeros((lanes, pay.shape[1]) if distribution else (1, 1))
        hashes = np.zeros(lanes, dtype=np.int64)
        reached = np.zeros((lanes if distribution else 1, words), dtype=np.uint64)
    _kernel(*packed.arrays, np.ascontiguousarray(problem, dtype=np.int64),
            np.ascontiguousarray(slot, dtype=np.int64), np.ascontiguousarray(pay), value,
            tol, sweeps, max_rounds, start, rounds, residual,
            distribution, dist, known is not None, hashes, reached, push_tol, relax)
    if distribution:
        return start, rounds, residual, dist, hashes, reached
    return start, rounds, residual


def reach_words(packed: Packed) -> int:
    """64-bit words per lane of :func:`solve_lanes`' reached-state bits: one bit per acting
    state of the largest problem."""
    seg_off = packed.arrays[5]
    return max(1, (int(np.max(np.diff(seg_off))) + 63) // 64)


@njit(cache=True)
def _digest(chosen: np.ndarray, mask: np.ndarray, protect: bool,
            bonus_out: np.ndarray, push_tol: float) -> np.int64:
    """A hash of what a push follows: the actions chosen on the states whose bits are set in
    ``mask`` and, with a protect bonus, which outcome each kept node's protected dice end in
    (that too depends on the payoffs); and how far it went (``push_tol``)."""
    step = np.int64(1099511628211)
    digest = np.int64(1469598103934665603)
    digest = digest * step + np.int64(np.round(-np.log10(push_tol) * 1000.0))
    for i in range(chosen.shape[0]):
        if (mask[i >> 6] >> np.uint64(i & 63)) & np.uint64(1):
            digest = digest * step + np.int64(chosen[i] + 2)
    if protect:
        for node in range(bonus_out.shape[0]):
            digest = digest * step + np.int64(bonus_out[node])
    return digest


@njit(cache=True)
def _expect(work: np.ndarray, base: int, child: np.ndarray, below_full: int, inv: float):
    """Nodes below the full ones (of the mode whose rows start at ``base``) become the mean of
    their children: the value of keeping them and rolling one more die."""
    faces = child.shape[1]
    for node in range(below_full - 1, -1, -1):
        total = 0.0
        for face in range(faces):
            total += work[base + child[node, face]]
        work[base + node] = total * inv


@njit(cache=True, parallel=True)
def _kernel(live, fixed, stop_out, end_out, bonus_p, seg_off, seg_start, seg_state, act_node,
            act_keep, protect, has_protect, base_out, first_ptr, first_idx, first_p,
            child, below_full, first_roll, mode_off, n_modes, lane_problem, lane_slot, pay, store,
            tol, sweeps, max_rounds, start_out, rounds_out,
            residual_out, want_dist, dist, reuse, hashes, reached, push_tol, relax):
    n_full = live.shape[1]
    n_nodes = child.shape[0]
    inv = 1.0 / child.shape[1]
    for lane in prange(lane_problem.shape[0]):
        p = lane_problem[lane]
        off = mode_off[p]
        modes = n_modes[p]
        u = pay[lane]
        val = store[lane_slot[lane]]
        work = np.empty(modes * n_nodes)
        s0, s1 = seg_off[p], seg_off[p + 1]
        chosen = np.full(s1 - s0, -1, dtype=np.int64)
        bonus = np.zeros(n_nodes)
        bonus_out = np.zeros(n_nodes, dtype=np.int64)
        if has_protect[p]:
            for node in range(n_nodes):
                bonus[node] = u[protect[p, node]]
                bonus_out[node] = protect[p, node]
            for node in range(below_full):  # best over sub-multisets: pass the max up
                for face in range(child.shape[1]):
                    kid = child[node, face]
                    if bonus[node] > bonus[kid]:
                        bonus[kid] = bonus[node]
                        bonus_out[kid] = bonus_out[node]
            for node in range(n_nodes):
                bonus[node] -= u[base_out[p]]
        if max_rounds > 0:
            for m in range(modes):
                for s in range(n_full):
                    if not live[off + m, s]:
                        val[off + m, s] = u[end_out[off + m, s]]
                    elif fixed[off + m, s]:
                        val[off + m, s] = u[stop_out[off + m, s]]
        protects = has_protect[p]
        bonus_off = off * n_nodes
        resid = 0.0
        r = 0
        while r < max_rounds:
            r += 1
            _fill(work, val, live, end_out, u, off, modes, below_full, n_nodes, child, inv)
            resid = 0.0
            for i in range(s0, s1):
                flat = seg_state[i]
                m = flat // n_full
                s = flat - m * n_full
                best = NEG
                beat = NEG  # what an action must exceed to replace the best (see TIE)
                arg = -1
                for a in range(seg_start[i], seg_start[i + 1]):
                    q = work[act_node[a]]
                    if protects:
                        q += bonus_p[bonus_off + act_node[a]] * bonus[act_keep[a]]
                    if q > beat:
                        best = q
                        beat = q + TIE * (1.0 + abs(q))
                        arg = a
                new = u[stop_out[off + m, s]]
                if best > new + TIE * (1.0 + abs(new)):
                    new = best
                else:
                    arg = -1
                chosen[i - s0] = arg
                change = abs(new - val[off + m, s])
                if change > resid:
                    resid = change
                val[off + m, s] = new
            if resid <= tol:
                break
            w = relax
            before = 1e300
            for _ in range(sweeps):
                _fill(work, val, live, end_out, u, off, modes, below_full, n_nodes, child, inv)
                moved = _policy_step(work, val, chosen, s0, s1, seg_state, act_node, act_keep,
                                     has_protect[p], bonus_p, bonus, off, n_nodes, n_full, w)
                if moved <= 0.1 * tol:
                    break
                if moved > before:  # not contracting: plain sweeps from here on
                    w = 1.0
                before = moved
        rounds_out[lane] = r
        residual_out[lane] = resid
        # the value before the first roll (a first roll may end the turn at once)
        total = 0.0
        for s in range(n_full):
            lo, hi = first_ptr[p, s], first_ptr[p, s + 1]
            if hi > lo:
                v = 0.0
                for k in range(lo, hi):
                    v += first_p[k] * u[first_idx[k]]
            elif fixed[off, s]:
                v = u[stop_out[off, s]]
            elif live[off, s]:
                v = val[off, s]
            else:
                v = u[end_out[off, s]]
            total += first_roll[s] * v
        start_out[lane] = total
        if want_dist and not (reuse and hashes[lane] == _digest(
                chosen, reached[lane], has_protect[p], bonus_out, push_tol)):
            dist[lane, :] = 0.0
            reached[lane, :] = 0
            _push_mass(dist[lane], chosen, s0, s1, seg_state, act_node, act_keep, live, fixed,
                       stop_out, end_out, off, modes, has_protect[p], bonus_p, bonus_out,
                       first_ptr[p], first_idx, first_p, first_roll, child, below_full, n_nodes,
                       reached[lane], push_tol)
            hashes[lane] = _digest(chosen, reached[lane], has_protect[p], bonus_out, push_tol)


@njit(cache=True)
def _fill(work, val, live, end_out, u, off, modes, below_full, n_nodes, child, inv):
    """The work array: landing values on the full nodes, expectations below, per mode."""
    n_full = live.shape[1]
    for m in range(modes):
        row = m * n_nodes + below_full
        for s in range(n_full):
            if live[off + m, s]:
                work[row + s] = val[off + m, s]
            else:
                work[row + s] = u[end_out[off + m, s]]
        _expect(work, m * n_nodes, child, below_full, inv)


@njit(cache=True)
def _policy_step(work, val, chosen, s0, s1, seg_state, act_node, act_keep, has_protect, bonus_p,
                 bonus, off, n_nodes, n_full, relax):
    """One fixed-policy update of the acting states, each moved ``relax`` times its change;
    returns the largest change."""
    moved = 0.0
    for i in range(s0, s1):
        a = chosen[i - s0]
        if a < 0:
            continue
        flat = seg_state[i]
        m = flat // n_full
        s = flat - m * n_full
        q = work[act_node[a]]
        if has_protect:
            q += bonus_p[off * n_nodes + act_node[a]] * bonus[act_keep[a]]
        change = abs(q - val[off + m, s])
        if change > moved:
            moved = change
        if relax == 1.0:
            val[off + m, s] = q
        else:
            val[off + m, s] += relax * (q - val[off + m, s])
    return moved


@njit(cache=True)
def _push_mass(dist, chosen, s0, s1, seg_state, act_node, act_keep, live, fixed, stop_out,
               end_out, off, modes, has_protect, bonus_p, bonus_out, first_ptr, first_idx,
               first_p, first_roll, child, below_full, n_nodes, reached, push_tol):
    """Add to ``dist`` the probability of ending in each outcome under the chosen actions, and
    set in ``reached`` the bit of every acting state that some mass reaches, until less than
    ``push_tol`` of the mass is still in play.

    The first roll's mass sits on the full states; each pass ends the turn where it stops (or
    busts), moves the rest to the kept nodes and rolls it down the lattice to the next full
    states. With a protect bonus, a bust after keeping ``K`` ends in ``K``'s best protected
    outcome: that mass is taken when the dice are kept (``bonus_p``), not when it lands."""
    n_full = live.shape[1]
    inv = 1.0 / child.shape[1]
    action_of = np.full(modes * n_full, -1, dtype=np.int64)
    index_of = np.full(modes * n_full, -1, dtype=np.int64)
    for i in range(s0, s1):
        action_of[seg_state[i]] = chosen[i - s0]
        index_of[seg_state[i]] = i - s0
    mass = np.zeros(modes * n_nodes)
    for s in range(n_full):
        lo, hi = first_ptr[s], first_ptr[s + 1]
        if hi > lo:
            for k in range(lo, hi):
                dist[first_idx[k]] += first_roll[s] * first_p[k]
        else:
            mass[below_full + s] = first_roll[s]
    first = True
    for _ in range(100_000):
        left = 0.0
        for m in range(modes):
            for s in range(n_full):
                w = mass[m * n_nodes + below_full + s]
                if w == 0.0:
                    continue
                mass[m * n_nodes + below_full + s] = 0.0
                if not live[off + m, s]:
                    if first or not has_protect:
                        dist[end_out[off + m, s]] += w
                    continue
                a = action_of[m * n_full + s]
                j = index_of[m * n_full + s]
                if j >= 0:
                    reached[j >> 6] |= np.uint64(1) << np.uint64(j & 63)
                if fixed[off + m, s] or a < 0:
                    dist[stop_out[off + m, s]] += w
                    continue
                node = act_node[a]
                mass[node] += w
                left += w
                if has_protect:
                    dist[bonus_out[act_keep[a]]] += w * bonus_p[off * n_nodes + node]
        first = False
        if left < push_tol:
            break
        for m in range(modes):
            base = m * n_nodes
            for node in range(below_full):
                w = mass[base + node]
                if w == 0.0:
                    continue
                mass[base + node] = 0.0
                share = w * inv
                for face in range(child.shape[1]):
                    mass[base + child[node, face]] += share
