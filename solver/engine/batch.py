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

**How a lane is solved.** Modified policy iteration, as :func:`~solver.engine.stopping.solve`,
but on lattices rather than lists of actions, and compiled (:mod:`solver.engine.batch_kernels`):

* the legal keeps are the problem's :class:`~solver.engine.keeps.KeepRule` s, so a Bellman
  update is one expectation walk down the lattice and one max walk up it per rule, a few
  operations per node, instead of one per (state, keep) pair (36,000 for eight dice);
* the lattice is folded by the faces the problem cannot tell apart
  (:mod:`solver.engine.orbits`, found from the problem's own data): 603 nodes instead of 3003
  when coins and diamonds score alike and monkeys, parrots and sabres do;
* :data:`~solver.engine.batch_kernels.LANES` lanes of one problem are solved side by side,
  one SIMD column each; a lane freezes when it has converged, so its result does not depend on
  the other lanes of its group; groups run in parallel;
* each lane starts from the values and the policy stored for it (a *warm start*,
  :class:`WarmStart`): when a game solver sweeps its states again with slightly changed
  payoffs, the last sweep's policy mostly still holds, so the lane evaluates it at the new
  payoffs first and one Bellman update confirms it. Any start converges: every policy of these
  problems ends with probability one;
* a fixed-policy sweep sums each kept node's re-roll of itself at once (a geometric series),
  so what is left for the sweeps is how deep the nodes feed each other.

Besides the value before the first roll, a lane can report the probability of each outcome
under its optimal policy: the value is then linear in the payoffs, which is what a caller needs
to solve a fixed point through them by Newton steps (policy iteration).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from solver.engine.batch_arrays import (
    LaneGroups,
    LaneResult,
    ProblemArrays,
    PushArrays,
    PushMemo,
    Settings,
    WarmStart,
)
from solver.engine.batch_kernels import LANES, TIE, UNKNOWN, solve_groups
from solver.engine.orbits import OrbitSpace, face_swap, interchangeable
from solver.engine.outcomes import OutcomeMap

__all__ = ["LANES", "SWEEPS", "TIE", "LaneResult", "Packed", "PushMemo", "WarmStart",
           "solve_lanes", "reach_words", "twins"]

# Fixed-policy sweeps before the first Bellman update of a lane started from a stored policy
# (a lane stops sweeping as soon as its values settle): about 20 value that policy to the
# tolerance at new payoffs, so its first update confirms it; cut short, the update finds the
# values still moving and the lane pays a second round. Between updates (``SWEEPS``), a
# policy just changed is often changed again, and valuing it exactly is not worth the sweeps
# (nor is a policy stored as a guess: another state's, see DeckLanes.solve).
WARM_SWEEPS = 32
SWEEPS = 12


@dataclass(frozen=True, eq=False)
class Packed:
    """Several problems over one dice space, each on its orbit lattice, packed into flat
    arrays for the kernels (named structures, :mod:`solver.engine.batch_arrays`)."""

    maps: tuple[OutcomeMap, ...]
    orbits: tuple[OrbitSpace, ...]
    problems: ProblemArrays
    push: PushArrays  # acting states, kept nodes and their rolls (_push_data)
    twin: np.ndarray  # per problem, the first one equal to it up to a face swap (twins)

    @staticmethod
    def of(maps: list[OutcomeMap]) -> Packed:
        space = maps[0].problem.space
        if any(m.problem.space is not space for m in maps):
            raise ValueError("packed problems must share one dice space")
        parts = [_fold(om) for om in maps]
        modes = np.array([om.problem.modes for om in maps], dtype=np.int64)
        n_nodes = np.array([p["orbits"].count for p in parts], dtype=np.int64)
        n_full = np.array([len(p["live"][0]) for p in parts], dtype=np.int64)
        below = n_nodes - n_full
        node_off = np.r_[0, np.cumsum(n_nodes)].astype(np.int64)
        mn_off = np.r_[0, np.cumsum(modes * n_nodes)].astype(np.int64)
        f_off = np.r_[0, np.cumsum(n_full)].astype(np.int64)
        mf_off = np.r_[0, np.cumsum(modes * n_full)].astype(np.int64)
        width = int(modes.max())
        walk_all, walk_off = [], np.zeros((len(maps), width + 1), dtype=np.int64)
        first_idx, first_p, first_ptr = [], [], [0]
        rules = [r for p in parts for r in p["rules"]]
        r_off = np.r_[0, np.cumsum([len(p["rules"]) for p in parts])].astype(np.int64)
        allowed = [r["allowed"] for r in rules]
        smap = [r["smap"] for r in rules]
        for i, part in enumerate(parts):
            total = sum(len(w) for w in walk_all)
            for m, walk in enumerate(part["walks"]):
                walk_off[i, m] = total
                walk_all.append(walk)
                total += len(walk)
            walk_off[i, len(part["walks"]):] = total
            for row in part["first_rows"]:
                for out, prob in sorted(row.items()):
                    first_idx.append(out)
                    first_p.append(prob)
                first_ptr.append(len(first_idx))

        def flat(key, dtype):
            return np.ascontiguousarray(np.concatenate([np.ravel(p[key]) for p in parts])
                                        .astype(dtype))

        touched, touched_off = _offsets([r["touched"] for r in rules])
        edge_dst, edge_off = _offsets([r["dst"] for r in rules])
        problems = ProblemArrays(
            n_nodes=n_nodes, below=below.astype(np.int64), n_full=n_full, modes=modes,
            node_off=node_off, mn_off=mn_off, f_off=f_off, mf_off=mf_off,
            child=np.ascontiguousarray(np.concatenate([p["orbits"].child for p in parts])
                                       .clip(0).astype(np.int64)),
            dead=flat("dead", np.int64),
            walk=(np.concatenate(walk_all).astype(np.int64) if walk_all
                  else np.zeros(0, np.int64)),
            walk_off=walk_off,
            live=flat("live", np.bool_), acting=flat("acting", np.bool_),
            stop=flat("stop", np.int64), end=flat("end", np.int64),
            bonus_p=flat("bonus_p", np.float64), protect=flat("protect", np.int64),
            has_protect=np.array([p["has_protect"] for p in parts], dtype=np.bool_),
            base=np.array([p["base"] for p in parts], dtype=np.int64),
            rule_off=r_off,
            rule_mode=np.array([r["mode"] for r in rules], dtype=np.int64),
            rule_next=np.array([r["next"] for r in rules], dtype=np.int64),
            allowed=np.concatenate(allowed).astype(np.bool_),
            allowed_off=np.r_[0, np.cumsum([len(a) for a in allowed])].astype(np.int64),
            smap=np.concatenate(smap).astype(np.int64),
            smap_off=np.r_[0, np.cumsum([len(s) for s in smap])].astype(np.int64),
            touched=touched, touched_off=touched_off,
            edge_src=np.concatenate([r["src"] for r in rules]).astype(np.int64),
            edge_dst=edge_dst, edge_off=edge_off,
            locked=flat("locked", np.int64),
            first_prob=flat("first_prob", np.float64),
            first_ptr=np.array(first_ptr, dtype=np.int64),
            first_idx=np.array(first_idx, dtype=np.int64),
            first_p=np.array(first_p, dtype=np.float64),
        )
        return Packed(tuple(maps), tuple(p["orbits"] for p in parts), problems,
                      _push_data(parts), twins(tuple(maps)))

    @property
    def value_off(self) -> np.ndarray:
        """Each problem's first column in a slot's row of values (one per mode and full
        orbit)."""
        return self.problems.mf_off

    def storage(self, slots: int) -> WarmStart:
        """Empty warm-start storage for ``slots`` rows (see :class:`WarmStart`)."""
        width = int(self.value_off[-1])
        if int(np.max(self.problems.modes * self.problems.n_nodes)) > np.iinfo(np.int16).max:
            raise ValueError("too many lattice nodes for a 16-bit stored policy")
        return WarmStart(np.zeros((slots, width)),
                         np.full((slots, width), UNKNOWN, dtype=np.int16))

    def values(self, row: np.ndarray, p: int) -> np.ndarray:
        """Problem ``p``'s values in one slot's row, per (mode, full state of the dice space)."""
        orbits = self.orbits[p]
        n = int(self.problems.n_full[p])
        mine = row[self.value_off[p]:self.value_off[p + 1]].reshape(-1, n)
        return mine[:, orbits.orbit[orbits.space.full] - orbits.below_full]


def _offsets(items: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The arrays end to end, and where each starts (one more entry: the end)."""
    return (np.concatenate(items).astype(np.int64),
            np.r_[0, np.cumsum([len(x) for x in items])].astype(np.int64))


def _push_data(parts: list[dict]) -> PushArrays:
    """The push's arrays: the acting states (flat indices, offsets, each state's index or -1),
    the nodes a rule may keep (per problem, ascending; the index of every node among them, or
    -1) and each such node's roll over the full orbits (a dense row, and the same rows
    sparse)."""
    acts, act_index, keep_nodes, keep_index, roll_p = [], [], [], [], []
    for part in parts:
        acting = part["acting"].ravel()
        acts.append(np.flatnonzero(acting))
        index = np.full(len(acting), -1, dtype=np.int64)
        index[acting] = np.arange(int(acting.sum()))
        act_index.append(index)
        orbits = part["orbits"]
        keepable = np.zeros(orbits.count, dtype=bool)
        for rule in part["rules"]:
            keepable |= rule["allowed"]
        keepable[orbits.below_full:] = False
        nodes = np.flatnonzero(keepable)
        where = np.full(orbits.count, -1, dtype=np.int64)
        where[nodes] = np.arange(len(nodes))
        keep_nodes.append(nodes)
        keep_index.append(where)
        n_full = orbits.count - orbits.below_full
        roll_p.append(orbits.expect(np.eye(n_full)).T[nodes].ravel())  # (kept node, full orbit)

    def cat(items, dtype):
        return np.ascontiguousarray(np.concatenate(items).astype(dtype))

    offsets = [np.r_[0, np.cumsum([len(x) for x in items])].astype(np.int64)
               for items in (acts, keep_nodes, roll_p)]
    # the same rows sparse (a kept node's roll lands on few full orbits): row ``keep_off[p] +
    # keep index``, entries ``roll_ptr[row] .. roll_ptr[row + 1]``
    rows = [r.reshape(len(k), -1) for r, k in zip(roll_p, keep_nodes, strict=True)]
    nonzero = [np.nonzero(r) for r in rows]
    roll_ptr = np.r_[0, np.cumsum(np.concatenate(
        [np.count_nonzero(r, axis=1) for r in rows]))].astype(np.int64)
    return PushArrays(
        acts=cat(acts, np.int64), acts_off=offsets[0], act_index=cat(act_index, np.int64),
        keep_off=offsets[1], keep_nodes=cat(keep_nodes, np.int64),
        keep_index=cat(keep_index, np.int64), roll_p=cat(roll_p, np.float64),
        roll_off=offsets[2], roll_ptr=roll_ptr, roll_idx=cat([nz[1] for nz in nonzero], np.int64),
        roll_val=cat([r[nz] for r, nz in zip(rows, nonzero, strict=True)], np.float64))


def _acting(om: OutcomeMap) -> np.ndarray:
    """``(modes, full states)``: where the problem has an action besides stopping."""
    pr = om.problem
    _, states = pr.segments()
    has_action = np.zeros(pr.live.size, dtype=bool)
    has_action[states] = True
    return has_action.reshape(pr.live.shape)


def maps_onto(a: OutcomeMap, b: OutcomeMap, faces: np.ndarray, perm: np.ndarray) -> bool:
    """Whether relabelling face ``f`` as ``faces[f]`` (node ``n`` becomes ``perm[n]``) turns
    problem ``a`` into problem ``b``: same outcomes at the relabelled states, same keep rules on
    the relabelled faces. The dice are fair, so the roll probabilities follow. Then every value
    of ``a`` at ``S`` is ``b``'s at the relabelled ``S``, for any payoffs, and ``a``'s outcome
    distribution under its optimal policy is ``b``'s (ties aside)."""
    pa, pb = a.problem, b.problem
    if pa.space is not pb.space or pa.modes != pb.modes:
        return False
    full0 = int(pa.space.full[0])
    pos = perm[pa.space.full] - full0
    pairs = [(pa.live, pb.live), (_acting(a), _acting(b)), (a.stop_out, b.stop_out),
             (a.end_out, b.end_out)]
    if (pa.bonus_mask is None) != (pb.bonus_mask is None):
        return False
    if pa.bonus_mask is not None:
        pairs.append((pa.bonus_mask, pb.bonus_mask))
    if not all(np.array_equal(y[:, pos], x) for x, y in pairs):
        return False
    if any(b.first_rows[pos[s]] != row for s, row in enumerate(a.first_rows)):
        return False
    if (a.protect_out is None) != (b.protect_out is None) or a.base_out != b.base_out:
        return False
    if a.protect_out is not None and not np.array_equal(b.protect_out[perm], a.protect_out):
        return False
    if len(pa.keep_rules) != len(pb.keep_rules):
        return False
    for ra, rb in zip(pa.keep_rules, pb.keep_rules, strict=True):
        if (ra.mode, ra.next_mode, ra.min_keep, ra.max_keep, ra.min_free_keep) != (
                rb.mode, rb.next_mode, rb.min_keep, rb.max_keep, rb.min_free_keep):
            return False
        if not (np.array_equal(np.asarray(rb.forced)[faces], ra.forced)
                and np.array_equal(np.asarray(rb.free)[faces], ra.free)):
            return False
        for xa, xb in ((ra.shown_min, rb.shown_min), (ra.shown_max, rb.shown_max)):
            if len(xa) != len(xb) or (xa and not np.array_equal(np.asarray(xb)[faces], xa)):
                return False
    return True


def twins(maps: tuple[OutcomeMap, ...]) -> np.ndarray:
    """For each problem, the first problem that is the same up to swapping two faces (or to
    nothing), itself if none is (under a Gold card a coin is worth what a diamond is under a
    Diamond card): a caller can solve one problem of each class and read the others off it."""
    space = maps[0].problem.space
    swaps = [(np.arange(space.faces), np.arange(len(space.counts)))]
    swaps += [face_swap(space, x, y) for x, y in combinations(range(space.faces), 2)]
    twin = np.arange(len(maps))
    for q in range(len(maps)):
        for p in range(q):
            if twin[p] == p and any(maps_onto(maps[q], maps[p], f, n) for f, n in swaps):
                twin[q] = p
                break
    return twin


def _fold(om: OutcomeMap) -> dict:
    """One problem on its orbit lattice: every array the kernels read, as a dict."""
    pr = om.problem
    space = pr.space
    if not pr.keep_rules:
        raise ValueError("the batched solver needs the problem's keep rules (engine.keeps)")
    acting = _acting(om)

    def invariant(faces: np.ndarray, perm: np.ndarray) -> bool:
        return maps_onto(om, om, faces, perm)

    orbits = OrbitSpace.of(space, interchangeable(space, invariant))
    pos = orbits.full_positions()
    below = orbits.below_full
    live = pr.live[:, pos]
    end = om.end_out[:, pos]
    dead = np.full((pr.modes, orbits.count), -1, dtype=np.int64)
    dead[:, below:] = np.where(live, -1, end)
    for node in range(below - 1, -1, -1):  # a node whose every roll ends alike is dead
        kids = dead[:, orbits.child[node]]
        dead[:, node] = np.where((kids >= 0).all(axis=1) & (kids == kids[:, :1]).all(axis=1),
                                 kids[:, 0], -1)
    rules = []
    for rule in pr.keep_rules:
        rest = space.counts[orbits.rep[below:]].astype(np.int64) - np.asarray(rule.forced)
        ok = (rest >= 0).all(axis=1) & rule.applies(
            space.counts[orbits.rep[below:]].astype(np.int64))
        smap = np.full(len(pos), -1, dtype=np.int64)
        smap[ok] = orbits.orbit[space.index_many(rest[ok])]
        # the max walk of the rule's mode: its live nodes, and one edge per distinct child
        # along a free face (in orbits two faces often lead to the same child)
        alive = dead[rule.mode] < 0
        walk = np.flatnonzero(alive[:below])
        kids = orbits.child[walk][:, np.asarray(rule.free, dtype=bool)]
        src = np.repeat(walk, kids.shape[1])
        dst = kids.ravel()
        keep = alive[dst]
        edges = np.unique(np.stack([src[keep], dst[keep]], axis=1), axis=0)
        rules.append({"mode": rule.mode, "next": rule.next_mode, "smap": smap,
                      "allowed": rule.allowed_nodes(space.counts[orbits.rep].astype(np.int64)),
                      "touched": np.flatnonzero(alive), "src": edges[:, 0], "dst": edges[:, 1]})
    locked = np.ones(space.faces, dtype=bool)  # faces no rule lets a reroll move (skulls)
    for rule in pr.keep_rules:
        locked &= ~np.asarray(rule.free, dtype=bool)
    bonus_p = np.zeros((pr.modes, orbits.count))
    if pr.bonus_mask is not None:
        bonus_p = orbits.expect(pr.bonus_mask[:, pos].astype(np.float64))
    protect = np.zeros(orbits.count, dtype=np.int64)
    if om.protect_out is not None:
        protect = np.asarray(om.protect_out)[orbits.rep]
    return {
        "orbits": orbits, "live": live, "acting": acting[:, pos], "stop": om.stop_out[:, pos],
        "end": end, "dead": dead,
        "walks": [np.flatnonzero(dead[m, :below] < 0) for m in range(pr.modes)],
        "first_rows": [om.first_rows[s] for s in pos],
        "first_prob": orbits.full_probabilities(), "bonus_p": bonus_p, "protect": protect,
        "has_protect": om.protect_out is not None, "base": om.base_out, "rules": rules,
        "locked": space.counts[orbits.rep][:, locked].sum(axis=1),
    }


def solve_lanes(packed: Packed, problem: np.ndarray, slot: np.ndarray, pay: np.ndarray,
                value: WarmStart, tol: float = 1e-13, sweeps: int = SWEEPS,
                max_rounds: int = 100_000, distribution: bool = False,
                known: PushMemo | None = None, push_tol: float = 1e-16,
                start_slot: np.ndarray | None = None,
                warm_sweeps: int = WARM_SWEEPS) -> LaneResult:
    """Solve lanes (``problem[l]``, payoffs ``pay[l, outcome]``) warm-started from and stored
    into ``value``'s slot ``slot[l]`` (see :class:`WarmStart`); with ``start_slot``, started
    from slot ``start_slot[l]`` instead (another state's turn, solved before).

    A lane stops when a Bellman update moves no value by more than ``tol``; before the first
    (with a stored policy) up to ``warm_sweeps`` fixed-policy sweeps, between updates up to
    ``sweeps``, each self-loop summed at once. With ``max_rounds=0`` nothing is solved or
    stored: each lane's start value is computed from the values stored in its slot (solved for
    other payoffs that agree on every outcome but the first roll's), so lanes may then share
    slots freely. Two lanes may share a slot only if they are of different problems.

    Returns a :class:`LaneResult`: per lane the value before the first roll, the Bellman
    updates made and the last one's largest change. With ``distribution=True`` also, per lane,
    the probability of ending in each outcome under the lane's optimal policy (``(lanes,
    outcomes)``; the turn's value for any other payoffs, under that policy, is then a dot
    product): the mass of the first roll is pushed through the policy, roll after roll, until
    less than ``push_tol`` of it is still in play (what is left is dropped); and a hash of the
    policy *on the states that push reached* and those states (a bit per acting state,
    :func:`reach_words` words). ``known`` (a :class:`PushMemo`, ``LaneResult.memo()``) passes
    them back: a lane whose policy agrees with the last one on every state the last push
    reached would push the same mass along the same paths, so it keeps its row exactly and
    skips the push. The hash also records ``push_tol``: a row pushed to another precision is
    pushed again.
    """
    problem = np.asarray(problem, dtype=np.int64)
    lanes = len(problem)
    if known is not None:
        dist, hashes, reached = known
        memo = PushMemo(np.ascontiguousarray(dist, dtype=np.float64).copy(),
                        np.ascontiguousarray(hashes, dtype=np.int64).copy(),
                        np.ascontiguousarray(reached, dtype=np.uint64).copy())
    else:
        memo = PushMemo(np.zeros((lanes, pay.shape[1]) if distribution else (1, 1)),
                        np.zeros(lanes, dtype=np.int64),
                        np.zeros((lanes if distribution else 1, reach_words(packed)),
                                 dtype=np.uint64))
    result = LaneResult(np.zeros(lanes), np.zeros(lanes, dtype=np.int64), np.zeros(lanes),
                        *memo)
    group_problem, group_lanes = _groups(problem, len(packed.maps))
    slot = np.ascontiguousarray(slot, dtype=np.int64)
    start_slot = slot if start_slot is None else np.ascontiguousarray(start_slot, np.int64)
    groups = LaneGroups(group_problem, group_lanes, slot, start_slot,
                        np.ascontiguousarray(pay, dtype=np.float64))
    settings = Settings(float(tol), int(sweeps), int(warm_sweeps), int(max_rounds),
                        bool(distribution), known is not None, float(push_tol))
    solve_groups(groups, value, settings, result, packed.problems, packed.push)
    if distribution:
        return result
    return LaneResult(result.start, result.rounds, result.residual)


def _groups(problem: np.ndarray, problems: int) -> tuple[np.ndarray, np.ndarray]:
    """Lanes in groups of :data:`LANES` of one problem each (``-1`` pads the last group of a
    problem), the groups of the problems interleaved so that parallel chunks get a mix: the
    ``k``-th groups of every problem come before the ``k + 1``-th."""
    order = np.argsort(problem, kind="stable")  # each problem's lanes, in order
    counts = np.bincount(problem, minlength=problems)
    first = np.r_[0, np.cumsum(counts)]
    per_problem = -(-counts // LANES)
    k, group_problem = np.nonzero(np.arange(per_problem.max(initial=0))[:, None]
                                  < per_problem[None, :])
    at = first[group_problem][:, None] + k[:, None] * LANES + np.arange(LANES)[None, :]
    inside = at < first[group_problem + 1][:, None]
    group_lanes = np.where(inside, order[np.minimum(at, max(len(order) - 1, 0))], -1)
    return group_problem.astype(np.int64), group_lanes.astype(np.int64)


def reach_words(packed: Packed) -> int:
    """64-bit words per lane of :func:`solve_lanes`' reached-state bits: one bit per acting
    state of the largest problem."""
    return max(1, (int(np.max(np.diff(packed.push.acts_off))) + 63) // 64)
