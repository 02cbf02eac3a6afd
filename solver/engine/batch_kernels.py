"""numba kernels of :mod:`solver.engine.batch`: a group of :data:`LANES` problems of one kind,
each with its own payoffs, solved side by side.

Work arrays hold one row per lattice node (an orbit, :mod:`solver.engine.orbits`) and one
column per lane, so every step of a walk is a row operation over ``LANES`` contiguous numbers
that the compiler turns into SIMD instructions. Lanes never exchange values and every lane
decides for itself when it has converged (its values are frozen from then on), so a lane's
result does not depend on which lanes share its group.

The kernels read the named structures of :mod:`solver.engine.batch_arrays` (their layout is
described there).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solver.engine import batch_arrays as arrays
from solver.engine.batch_push import comes_back, push_group

LANES = 16
NEG = -1.0e300
UNKNOWN = -2  # a stored policy's first action before the lane was ever solved
SETTLED = 0.1  # a lane's fixed-policy sweeps stop when no value moves by SETTLED * tol
RHO_MAX = 0.99  # a kept node rolled back into itself more often is swept plainly
# Actions whose values differ by less than this (relative) are ties: the larger keep, or
# stopping, is kept. Symmetric keeps are worth the same up to rounding, and a tie broken by
# rounding noise would change the policy (and the outcome distribution's push) on every solve.
TIE = 4e-15


@njit(cache=True)
def _lattice(pr, push, p):
    """Problem ``p``'s part of the packed arrays (an :class:`~solver.engine.batch_arrays.
    Lattice`)."""
    n, nf, modes = pr.n_nodes[p], pr.n_full[p], pr.modes[p]
    mf = pr.mf_off[p]
    child = pr.child[pr.node_off[p]:pr.node_off[p] + n]
    nkeep = push.keep_off[p + 1] - push.keep_off[p]
    roll_off = push.roll_off[p]
    return arrays.Lattice(
        p, n, pr.below[p], nf, modes, pr.mn_off[p], mf, 1.0 / child.shape[1],
        pr.has_protect[p], child, pr.live[mf:mf + modes * nf].reshape(modes, nf),
        pr.acting[mf:mf + modes * nf].reshape(modes, nf), pr.walk, pr.walk_off[p],
        push.keep_index[pr.node_off[p]:pr.node_off[p] + n],
        push.roll_p[roll_off:roll_off + nkeep * nf].reshape(nkeep, nf))


@njit(cache=True)
def _tie(x: float) -> float:
    return TIE * (1.0 + abs(x))


@njit(cache=True)
def _expect(w, child, walk, lo, hi, inv):
    """The walk's nodes (``walk[lo:hi]``, ascending) become the mean of their children,
    largest first (their children are full nodes, fixed nodes or walk nodes done before).

    The lane loops run to ``w.shape[1]``, not to the constant :data:`LANES`: a loop the
    compiler cannot unroll is one its loop vectoriser takes (with a run-time check that the
    rows do not overlap); six-sided dice get one expression per lane, summed in face order."""
    faces = child.shape[1]
    lanes = w.shape[1]
    for i in range(hi - 1, lo - 1, -1):
        node = walk[i]
        row = w[node]
        kids = child[node]
        if faces == 6:
            a, b, c = w[kids[0]], w[kids[1]], w[kids[2]]
            d, e, f = w[kids[3]], w[kids[4]], w[kids[5]]
            for lane in range(lanes):
                row[lane] = (a[lane] + b[lane] + c[lane] + d[lane] + e[lane] + f[lane]) * inv
            continue
        first = w[kids[0]]
        for lane in range(lanes):
            row[lane] = first[lane]
        for face in range(1, faces):
            other = w[kids[face]]
            for lane in range(lanes):
                row[lane] += other[lane]
        for lane in range(lanes):
            row[lane] *= inv


@njit(cache=True)
def _best_keeps(best, arg, q, allowed, nodes, src, dst):
    """``best[node]``: the largest ``q`` over the allowed nodes below ``node`` along the rule's
    free faces (ties to the larger keep, then the first met); ``arg``: where it is. ``nodes``:
    every node the walk touches; ``src -> dst``: its edges (one per distinct child along a free
    face, alive children only), sources in ascending order.

    The choice of ``arg`` is written as arithmetic (``arg += take * (other - arg)``, exact on
    integers) rather than as a conditional: the compiler keeps a conditional on integers as a
    branch per lane, but vectorises the arithmetic."""
    lanes = best.shape[1]
    for i in range(nodes.shape[0]):
        node = nodes[i]
        row, q_row, arg_row = best[node], q[node], arg[node]
        if allowed[node]:
            for lane in range(lanes):
                row[lane] = q_row[lane]
                arg_row[lane] = node
        else:
            for lane in range(lanes):
                row[lane] = NEG
                arg_row[lane] = -1
    for e in range(src.shape[0]):
        from_row, from_arg = best[src[e]], arg[src[e]]
        to_row, to_arg = best[dst[e]], arg[dst[e]]
        for lane in range(lanes):
            d = to_row[lane]
            f = from_row[lane]
            take = f > d + TIE * (1.0 + abs(d))
            to_row[lane] = f if take else d
            to_arg[lane] += np.int32(take) * (from_arg[lane] - to_arg[lane])


@njit(cache=True)
def _walk_all(w, val, end_pay, lat):
    """Every mode's walk: its full rows (the value of landing on each state), then each node
    below them the mean of its children."""
    for m in range(lat.modes):
        for s in range(lat.n_full):
            row = w[m, lat.below + s]
            if lat.live[m, s]:
                for lane in range(LANES):
                    row[lane] = val[m, s, lane]
            else:
                for lane in range(LANES):
                    row[lane] = end_pay[m, s, lane]
        _expect(w[m], lat.child, lat.walk, lat.walk_off[m], lat.walk_off[m + 1], lat.inv)


@njit(cache=True)
def _evaluate(lat, w, val, end_pay, chosen, sweeping, settings, bonus_p, bonus, work,
              sweeps):
    """Up to ``sweeps`` fixed-policy sweeps of the ``sweeping`` lanes (their
    ``chosen`` actions); a lane stops when no value moves by more than ``SETTLED * tol``.

    A sweep is a Jacobi step, and a fixed policy's only cycles are a kept node rolled into
    states that keep it again (see :mod:`solver.engine.batch_push`): with ``rho`` the chance
    of that, the node is worth ``a + rho q`` after a step from ``q`` (``a`` the rest of its roll)
    and ``a / (1 - rho)`` in the end, so each value moves ``1 / (1 - rho)`` times its step and
    the self-loop is summed at once. What is left is the order in which the nodes feed each
    other, a few sweeps deep. A lane whose sweeps stop contracting goes back to plain steps.

    The policy is fixed for the call, so each acting state's step is laid out once per lane
    (``work``, one row per acting state): where in the walk its value is read (``chosen *
    LANES + lane`` in the flat work array), the protect bonus added to it, its step factor,
    and whether it moves (1.0) or not (0.0, a stopping state or a lane not sweeping). A
    sweep's update is then the same few operations on every lane, without a branch or a
    division. ``work.rho`` comes in zeroed and leaves zeroed (a full reset per call would
    cost as much as a sweep)."""
    modes, nf, n = lat.modes, lat.n_full, lat.n
    rho, at, read, add, step, mask = work
    for m in range(modes):
        for s in range(nf):
            if not lat.acting[m, s]:
                continue
            for lane in range(LANES):
                a = chosen[m, s, lane]
                if sweeping[lane] and a >= 0:
                    rho[a, lane] += comes_back(a, m, s, n, lat.roll_p, lat.keep_index)
    k = 0
    for m in range(modes):  # each acting state's step
        for s in range(nf):
            if not lat.acting[m, s]:
                continue
            at[k] = m * nf + s
            for lane in range(LANES):
                a = chosen[m, s, lane]
                if sweeping[lane] and a >= 0:
                    read[k, lane] = a * LANES + lane
                    node = a - (a // n) * n
                    add[k, lane] = (bonus_p[lat.mn + a] * bonus[node, lane] if lat.protects
                                    else 0.0)
                    step[k, lane] = 1.0
                    if rho[a, lane] < RHO_MAX:
                        step[k, lane] = 1.0 / (1.0 - rho[a, lane])
                    mask[k, lane] = 1.0
                else:
                    read[k, lane] = lane
                    add[k, lane] = 0.0
                    step[k, lane] = 0.0
                    mask[k, lane] = 0.0
            k += 1
    states = k
    for m in range(modes):  # rho zeroed again, once every state has read it
        for s in range(nf):
            for lane in range(LANES):
                if chosen[m, s, lane] >= 0:
                    rho[chosen[m, s, lane], lane] = 0.0
    flat_w = w.reshape(-1)
    flat_val = val.reshape(modes * nf, LANES)
    moved = np.zeros(LANES)
    before = np.full(LANES, 1e300)
    for _ in range(sweeps):
        _walk_all(w, val, end_pay, lat)
        for lane in range(LANES):
            moved[lane] = 0.0
        for k in range(states):
            row, rd, ad, st, mk = flat_val[at[k]], read[k], add[k], step[k], mask[k]
            for lane in range(LANES):
                d = flat_w[rd[lane]] + ad[lane] - row[lane]
                moved[lane] = max(moved[lane], abs(d) * mk[lane])
                row[lane] += st[lane] * d
        going = False
        for lane in range(LANES):
            if not sweeping[lane]:
                continue
            if moved[lane] <= SETTLED * settings.tol:
                sweeping[lane] = False
                for k in range(states):
                    step[k, lane] = 0.0
                    mask[k, lane] = 0.0
                continue
            if moved[lane] > before[lane]:  # not contracting: plain sweeps from here on
                for k in range(states):
                    step[k, lane] = mask[k, lane]
            before[lane] = moved[lane]
            going = True
        if not going:
            break


@njit(cache=True)
def _protect_bonus(lat, pr, u, bonus, bonus_out):
    """Per node, what its best protected sub-multiset pays over a plain bust (``bonus``) and
    its outcome (``bonus_out``): each node's protected outcome, then the max passed up."""
    n, p = lat.n, lat.p
    for node in range(n):
        o = pr.protect[pr.node_off[p] + node]
        for lane in range(LANES):
            bonus[node, lane] = u[lane, o]
            bonus_out[node, lane] = o
    for node in range(lat.below):
        for face in range(lat.child.shape[1]):
            kid = lat.child[node, face]
            for lane in range(LANES):
                if bonus[node, lane] > bonus[kid, lane]:
                    bonus[kid, lane] = bonus[node, lane]
                    bonus_out[kid, lane] = bonus_out[node, lane]
    for node in range(n):
        for lane in range(LANES):
            bonus[node, lane] -= u[lane, pr.base[p]]


@njit(cache=True)
def _best_actions(lat, pr, w, m, bonus, best, barg, best_node, with_bonus, arg_node):
    """Mode ``m``'s best keep per full orbit and lane (``best``, ``barg``; ``NEG`` and -1
    where no rule applies), one max walk per rule of the mode."""
    n, nf, p = lat.n, lat.n_full, lat.p
    for s in range(nf):
        for lane in range(LANES):
            best[s, lane] = NEG
            barg[s, lane] = -1
    for rule in range(pr.rule_off[p], pr.rule_off[p + 1]):
        if pr.rule_mode[rule] != m:
            continue
        nx = pr.rule_next[rule]
        allowed = pr.allowed[pr.allowed_off[rule]:pr.allowed_off[rule + 1]]
        smap = pr.smap[pr.smap_off[rule]:pr.smap_off[rule + 1]]
        touched = pr.touched[pr.touched_off[rule]:pr.touched_off[rule + 1]]
        src = pr.edge_src[pr.edge_off[rule]:pr.edge_off[rule + 1]]
        dst = pr.edge_dst[pr.edge_off[rule]:pr.edge_off[rule + 1]]
        q = w[nx]
        if lat.protects:  # a bust after the keep pays its best protected dice instead
            for node in range(n):
                bp = pr.bonus_p[lat.mn + nx * n + node]
                for lane in range(LANES):
                    with_bonus[node, lane] = q[node, lane] + bp * bonus[node, lane]
            q = with_bonus
        _best_keeps(best_node, arg_node, q, allowed, touched, src, dst)
        for s in range(nf):
            node = smap[s]
            if node < 0 or not lat.acting[m, s]:
                continue
            for lane in range(LANES):
                q = best_node[node, lane]
                if q > best[s, lane] + _tie(best[s, lane]):
                    best[s, lane] = q
                    barg[s, lane] = nx * n + arg_node[node, lane]


@njit(cache=True)
def solve_group(lat, pr, u, val, w, chosen, known, bonus, bonus_out, active, rounds, residual,
                settings):
    """Solve one group in place: ``val`` ``(modes, F, LANES)`` warm start in, values out;
    ``w`` the work array (its last walk is left in it); ``chosen`` the policy (where
    ``known``, the lane's last policy comes in: it is evaluated at the new payoffs before the
    first Bellman update, which then only confirms it if it still holds);
    ``bonus``/``bonus_out`` the protect bonus per node (filled here)."""
    n, nf, modes, mf, mn = lat.n, lat.n_full, lat.modes, lat.mf, lat.mn
    live, acting = lat.live, lat.acting
    stop_pay = np.empty((modes, nf, LANES))
    end_pay = np.empty((modes, nf, LANES))
    for m in range(modes):
        for s in range(nf):
            so = pr.stop[mf + m * nf + s]
            eo = pr.end[mf + m * nf + s]
            for lane in range(LANES):
                stop_pay[m, s, lane] = u[lane, so]
                end_pay[m, s, lane] = u[lane, eo]
                if not live[m, s]:
                    val[m, s, lane] = end_pay[m, s, lane]
                elif not acting[m, s]:
                    val[m, s, lane] = stop_pay[m, s, lane]
    for m in range(modes):
        for node in range(n):
            d = pr.dead[mn + m * n + node]
            if d >= 0:
                for lane in range(LANES):
                    w[m, node, lane] = u[lane, d]
    if lat.protects:
        _protect_bonus(lat, pr, u, bonus, bonus_out)
    best_node = np.empty((n, LANES))
    with_bonus = np.zeros((n, LANES))
    arg_node = np.empty((n, LANES), dtype=np.int32)
    best = np.empty((nf, LANES))
    barg = np.empty((nf, LANES), dtype=np.int64)
    resid = np.zeros(LANES)
    sweeping = np.zeros(LANES, dtype=np.bool_)
    work = arrays.SweepWork(np.zeros((modes * n, LANES)), np.empty(modes * nf, dtype=np.int64),
                     np.empty((modes * nf, LANES), dtype=np.int64),
                     np.empty((modes * nf, LANES)), np.empty((modes * nf, LANES)),
                     np.empty((modes * nf, LANES)))
    first = False
    for lane in range(LANES):  # a lane that knows its last policy evaluates it first
        sweeping[lane] = active[lane] and known[lane]
        first = first or sweeping[lane]
    if first:
        for m in range(modes):
            for s in range(nf):
                if acting[m, s]:
                    for lane in range(LANES):
                        if sweeping[lane] and chosen[m, s, lane] < 0:
                            val[m, s, lane] = stop_pay[m, s, lane]
        _evaluate(lat, w, val, end_pay, chosen, sweeping, settings, pr.bonus_p, bonus, work,
                  settings.warm_sweeps)
    r = 0
    while r < settings.max_rounds:
        r += 1
        _walk_all(w, val, end_pay, lat)
        for lane in range(LANES):
            resid[lane] = 0.0
        for m in range(modes):
            _best_actions(lat, pr, w, m, bonus, best, barg, best_node, with_bonus, arg_node)
            for s in range(nf):
                if not acting[m, s]:
                    continue
                for lane in range(LANES):
                    if not active[lane]:
                        continue
                    new = stop_pay[m, s, lane]
                    if best[s, lane] > new + _tie(new):
                        new = best[s, lane]
                        chosen[m, s, lane] = barg[s, lane]
                    else:
                        chosen[m, s, lane] = -1
                    change = abs(new - val[m, s, lane])
                    if change > resid[lane]:
                        resid[lane] = change
                    val[m, s, lane] = new
        more = False
        for lane in range(LANES):
            if active[lane]:
                rounds[lane] = r
                residual[lane] = resid[lane]
                if resid[lane] <= settings.tol:
                    active[lane] = False
                else:
                    more = True
            sweeping[lane] = active[lane]
        if not more:
            break
        _evaluate(lat, w, val, end_pay, chosen, sweeping, settings, pr.bonus_p, bonus, work,
                  settings.sweeps)
    return r


@njit(cache=True)
def _start_value(lat, pr, u, val, lane):
    """The lane's value before the first roll: its values (or payoffs) on the first roll's
    states, by the chance of each (a first roll that ends the turn at once pays its
    outcomes)."""
    total = 0.0
    f0, mf = pr.f_off[lat.p], lat.mf
    for s in range(lat.n_full):
        lo, hi = pr.first_ptr[f0 + s], pr.first_ptr[f0 + s + 1]
        so = pr.stop[mf + s]
        if hi > lo:
            v = 0.0
            for k in range(lo, hi):
                v += pr.first_p[k] * u[lane, pr.first_idx[k]]
        elif lat.live[0, s] and not lat.acting[0, s]:
            v = u[lane, so]
        elif lat.live[0, s]:
            v = val[0, s, lane]
        else:
            v = u[lane, pr.end[mf + s]]
        total += pr.first_prob[f0 + s] * v
    return total


@njit(cache=True, parallel=True)
def solve_groups(groups: arrays.LaneGroups, store: arrays.WarmStart, settings: arrays.Settings,
                 result: arrays.LaneResult, pr: arrays.ProblemArrays,
                 push: arrays.PushArrays) -> None:
    """Every group: load its lanes' warm starts (from ``groups.start_slot``), solve, store (in
    ``groups.slot``), start values into ``result``, and (``settings.distribution``) outcome
    distributions, reused where a lane's policy hash says nothing changed."""
    # a parallel loop loses stores made straight into a structure's field (numba 0.68: an
    # inner function's, or a row view's, are kept): the result arrays are taken out first
    start_out, rounds_out, residual_out = result.start, result.rounds, result.residual
    for g in prange(groups.problem.shape[0]):
        p = groups.problem[g]
        lanes = groups.lanes[g]
        lat = _lattice(pr, push, p)
        n, nf, modes, off = lat.n, lat.n_full, lat.modes, lat.mf
        u = np.zeros((LANES, groups.pay.shape[1]))
        val = np.zeros((modes, nf, LANES))
        active = np.zeros(LANES, dtype=np.bool_)
        known = np.zeros(LANES, dtype=np.bool_)
        chosen = np.full((modes, nf, LANES), -1, dtype=np.int64)
        solving = settings.max_rounds > 0
        for lane in range(LANES):
            if lanes[lane] < 0:
                continue
            u[lane] = groups.pay[lanes[lane]]
            row = store.values[groups.start_slot[lanes[lane]]]
            for m in range(modes):
                for s in range(nf):
                    val[m, s, lane] = row[off + m * nf + s]
            active[lane] = solving
            if solving:
                actions = store.policy[groups.start_slot[lanes[lane]]]
                known[lane] = actions[off] != UNKNOWN
                if known[lane]:
                    for m in range(modes):
                        for s in range(nf):
                            chosen[m, s, lane] = actions[off + m * nf + s]
        w = np.zeros((modes, n, LANES))
        bonus = np.zeros((n, LANES))
        bonus_out = np.zeros((n, LANES), dtype=np.int64)
        rounds = np.zeros(LANES, dtype=np.int64)
        residual = np.zeros(LANES)
        if solving:
            solve_group(lat, pr, u, val, w, chosen, known, bonus, bonus_out, active, rounds,
                        residual, settings)
        for lane in range(LANES):
            row_id = lanes[lane]
            if row_id < 0:
                continue
            rounds_out[row_id] = rounds[lane]
            residual_out[row_id] = residual[lane]
            if solving:
                row = store.values[groups.slot[row_id]]
                actions = store.policy[groups.slot[row_id]]
                for m in range(modes):
                    for s in range(nf):
                        row[off + m * nf + s] = val[m, s, lane]
                        actions[off + m * nf + s] = chosen[m, s, lane]
            start_out[row_id] = _start_value(lat, pr, u, val, lane)
        if settings.distribution:
            push_group(lat, pr, push, lanes, chosen.reshape(modes * nf, LANES), w, bonus_out,
                       result, settings)
