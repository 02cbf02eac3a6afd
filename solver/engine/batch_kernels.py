"""numba kernels of :mod:`solver.engine.batch`: a group of :data:`LANES` problems of one kind,
each with its own payoffs, solved side by side.

Work arrays hold one row per lattice node (an orbit, :mod:`solver.engine.orbits`) and one
column per lane, so every step of a walk is a row operation over ``LANES`` contiguous numbers
that the compiler turns into SIMD instructions. Lanes never exchange values and every lane
decides for itself when it has converged (its values are frozen from then on), so a lane's
result does not depend on which lanes share its group.

Problem data (see :meth:`solver.engine.batch.Packed.of`) is flat: node arrays start at
``node_off[p]``, (mode, node) arrays at ``mn_off[p]``, full-orbit arrays at ``f_off[p]``,
(mode, full orbit) arrays at ``mf_off[p]``; a problem's keep rules are ``r_off[p] ..
r_off[p + 1]``. A chosen action is coded ``next_mode * N + kept node``, ``-1`` for stopping.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solver.engine.batch_push import comes_back, push_lane

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
    branch per lane, but vectorises the arithmetic (measured: 20 instead of 54 us for the
    2,520 edges of a sea battle, 16 lanes)."""
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
def _fill(w, val, end_pay, live, m, below, n_full):
    """Mode ``m``'s full rows: the value of landing on each state."""
    for s in range(n_full):
        row = w[m, below + s]
        if live[m, s]:
            for lane in range(LANES):
                row[lane] = val[m, s, lane]
        else:
            for lane in range(LANES):
                row[lane] = end_pay[m, s, lane]


@njit(cache=True)
def _walk_all(w, val, end_pay, live, child, walk, walk_off, modes, below, n_full, inv):
    for m in range(modes):
        _fill(w, val, end_pay, live, m, below, n_full)
        _expect(w[m], child, walk, walk_off[m], walk_off[m + 1], inv)


@njit(cache=True)
def _evaluate(w, val, end_pay, live, child, walk_all, walk_off, modes, bf, nf, inv, n, acting,
              chosen, sweeping, sweeps, relax, tol, protects, bonus_p_all, mn, bonus, roll_p,
              keep_index, rho, at, read, add, step, mask):
    """Up to ``sweeps`` fixed-policy sweeps of the ``sweeping`` lanes (their ``chosen``
    actions); a lane stops when no value moves by more than ``SETTLED * tol``.

    A sweep is a Jacobi step, and a fixed policy's only cycles are a kept node rolled into
    states that keep it again (see :mod:`solver.engine.batch_push`): with ``rho`` the chance
    of that, the node is worth ``a + rho q`` after a step from ``q`` (``a`` the rest of its roll)
    and ``a / (1 - rho)`` in the end, so each value moves ``1 / (1 - rho)`` times its step and
    the self-loop is summed at once. What is left is the order in which the nodes feed each
    other, a few sweeps deep. A lane whose sweeps stop contracting goes back to plain steps.
    ``relax`` over-relaxes on top. ``rho`` ``(modes * N, LANES)`` comes in zeroed and leaves
    zeroed (a full reset per call would cost as much as a sweep).

    The policy is fixed for the call, so each acting state's step is laid out once per lane
    (work arrays ``at``, ``read``, ``add``, ``step``, ``mask``, one row per acting state):
    where in the walk its value is read (``chosen * LANES + lane`` in the flat work array),
    the protect bonus added to it, its step factor, and whether it moves (1.0) or not (0.0,
    a stopping state or a lane not sweeping). A sweep's update is then the same few
    operations on every lane, without a branch or a division."""
    for m in range(modes):
        for s in range(nf):
            if not acting[m, s]:
                continue
            for lane in range(LANES):
                a = chosen[m, s, lane]
                if sweeping[lane] and a >= 0:
                    rho[a, lane] += comes_back(a, m, s, n, roll_p, keep_index)
    k = 0
    for m in range(modes):  # each acting state's step
        for s in range(nf):
            if not acting[m, s]:
                continue
            at[k] = m * nf + s
            for lane in range(LANES):
                a = chosen[m, s, lane]
                if sweeping[lane] and a >= 0:
                    read[k, lane] = a * LANES + lane
                    node = a - (a // n) * n
                    add[k, lane] = bonus_p_all[mn + a] * bonus[node, lane] if protects else 0.0
                    step[k, lane] = relax
                    if rho[a, lane] < RHO_MAX:
                        step[k, lane] = relax / (1.0 - rho[a, lane])
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
        _walk_all(w, val, end_pay, live, child, walk_all, walk_off, modes, bf, nf, inv)
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
            if moved[lane] <= SETTLED * tol:
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
def solve_group(p, u, val, w, chosen, known, bonus, bonus_out, active, rounds, residual, tol,
                sweeps, max_rounds, relax, n_nodes, below, n_full, n_modes, node_off, mn_off,
                f_off, mf_off, child_all, dead_all, walk_all, walk_off_all, live_all, acting_all,
                stop_all, end_all, bonus_p_all, protect_all, has_protect, base_out,
                r_off, r_mode, r_next, allowed_all, allowed_off, smap_all, smap_off, touch_all,
                touch_off, edge_src, edge_dst, edge_off, keep_off, keep_index_all, roll_p_all,
                roll_off):
    """Solve one group in place: ``val`` ``(modes, F, LANES)`` warm start in, values out;
    ``w`` the work array (its last walk is left in it); ``chosen`` the policy (where
    ``known``, the lane's last policy comes in: it is evaluated at the new payoffs before the
    first Bellman update, which then only confirms it if it still holds);
    ``bonus``/``bonus_out`` the protect bonus per node (filled here)."""
    n = n_nodes[p]
    bf = below[p]
    nf = n_full[p]
    modes = n_modes[p]
    child = child_all[node_off[p]:node_off[p] + n]
    mf = mf_off[p]
    live = live_all[mf:mf + modes * nf].reshape(modes, nf)
    acting = acting_all[mf:mf + modes * nf].reshape(modes, nf)
    walk_off = walk_off_all[p]
    inv = 1.0 / child.shape[1]
    stop_pay = np.empty((modes, nf, LANES))
    end_pay = np.empty((modes, nf, LANES))
    for m in range(modes):
        for s in range(nf):
            so = stop_all[mf + m * nf + s]
            eo = end_all[mf + m * nf + s]
            for lane in range(LANES):
                stop_pay[m, s, lane] = u[lane, so]
                end_pay[m, s, lane] = u[lane, eo]
                if not live[m, s]:
                    val[m, s, lane] = end_pay[m, s, lane]
                elif not acting[m, s]:
                    val[m, s, lane] = stop_pay[m, s, lane]
    mn = mn_off[p]
    for m in range(modes):
        for node in range(n):
            d = dead_all[mn + m * n + node]
            if d >= 0:
                for lane in range(LANES):
                    w[m, node, lane] = u[lane, d]
    protects = has_protect[p]
    if protects:
        for node in range(n):
            o = protect_all[node_off[p] + node]
            for lane in range(LANES):
                bonus[node, lane] = u[lane, o]
                bonus_out[node, lane] = o
        for node in range(bf):  # the best protected sub-multiset: pass the max up
            for face in range(child.shape[1]):
                kid = child[node, face]
                for lane in range(LANES):
                    if bonus[node, lane] > bonus[kid, lane]:
                        bonus[kid, lane] = bonus[node, lane]
                        bonus_out[kid, lane] = bonus_out[node, lane]
        for node in range(n):
            for lane in range(LANES):
                bonus[node, lane] -= u[lane, base_out[p]]
    best_node = np.empty((n, LANES))
    with_bonus = np.zeros((n, LANES))
    arg_node = np.empty((n, LANES), dtype=np.int32)
    best = np.empty((nf, LANES))
    barg = np.empty((nf, LANES), dtype=np.int64)
    resid = np.zeros(LANES)
    sweeping = np.zeros(LANES, dtype=np.bool_)
    nkeep = keep_off[p + 1] - keep_off[p]
    keep_index = keep_index_all[node_off[p]:node_off[p] + n]
    roll_p = roll_p_all[roll_off[p]:roll_off[p] + nkeep * nf].reshape(nkeep, nf)
    rho = np.zeros((modes * n, LANES))
    at = np.empty(modes * nf, dtype=np.int64)  # _evaluate's work space
    read = np.empty((modes * nf, LANES), dtype=np.int64)
    add = np.empty((modes * nf, LANES))
    step = np.empty((modes * nf, LANES))
    mask = np.empty((modes * nf, LANES))
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
        _evaluate(w, val, end_pay, live, child, walk_all, walk_off, modes, bf, nf, inv, n,
                  acting, chosen, sweeping, sweeps, relax, tol, protects, bonus_p_all, mn,
                  bonus, roll_p, keep_index, rho, at, read, add, step, mask)
    r = 0
    while r < max_rounds:
        r += 1
        _walk_all(w, val, end_pay, live, child, walk_all, walk_off, modes, bf, nf, inv)
        for lane in range(LANES):
            resid[lane] = 0.0
        for m in range(modes):
            for s in range(nf):
                for lane in range(LANES):
                    best[s, lane] = NEG
                    barg[s, lane] = -1
            for rule in range(r_off[p], r_off[p + 1]):
                if r_mode[rule] != m:
                    continue
                nx = r_next[rule]
                allowed = allowed_all[allowed_off[rule]:allowed_off[rule + 1]]
                smap = smap_all[smap_off[rule]:smap_off[rule + 1]]
                touched = touch_all[touch_off[rule]:touch_off[rule + 1]]
                src = edge_src[edge_off[rule]:edge_off[rule + 1]]
                dst = edge_dst[edge_off[rule]:edge_off[rule + 1]]
                q = w[nx]
                if protects:  # a bust after the keep pays its best protected dice instead
                    for node in range(n):
                        bp = bonus_p_all[mn + nx * n + node]
                        for lane in range(LANES):
                            with_bonus[node, lane] = q[node, lane] + bp * bonus[node, lane]
                    q = with_bonus
                _best_keeps(best_node, arg_node, q, allowed, touched, src, dst)
                for s in range(nf):
                    node = smap[s]
                    if node < 0 or not acting[m, s]:
                        continue
                    for lane in range(LANES):
                        q = best_node[node, lane]
                        if q > best[s, lane] + _tie(best[s, lane]):
                            best[s, lane] = q
                            barg[s, lane] = nx * n + arg_node[node, lane]
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
                if resid[lane] <= tol:
                    active[lane] = False
                else:
                    more = True
            sweeping[lane] = active[lane]
        if not more:
            break
        _evaluate(w, val, end_pay, live, child, walk_all, walk_off, modes, bf, nf, inv, n,
                  acting, chosen, sweeping, sweeps, relax, tol, protects, bonus_p_all, mn,
                  bonus, roll_p, keep_index, rho, at, read, add, step, mask)
    return r


@njit(cache=True)
def _same_policy(chosen, acts, protect, bonus_out, walk, pushing):
    """For each lane to push, the first such lane of the group with the same policy on every
    acting state (and, with a protect bonus, the same protected outcome on every node): its
    push is the same, so only the first is pushed (``pushing`` is cleared for the others)."""
    leader = np.arange(LANES)
    for lane in range(LANES):
        if not pushing[lane]:
            continue
        for other in range(lane):
            if not pushing[other] or leader[other] != other:
                continue
            same = True
            for j in range(acts.shape[0]):
                if chosen[acts[j], lane] != chosen[acts[j], other]:
                    same = False
                    break
            if same and protect:
                for i in range(walk.shape[0]):
                    if bonus_out[walk[i], lane] != bonus_out[walk[i], other]:
                        same = False
                        break
            if same:
                leader[lane] = other
                break
    for lane in range(LANES):
        if leader[lane] != lane:
            pushing[lane] = False
    return leader


@njit(cache=True)
def _digest(chosen, mask, acts, protect, bonus_out, walk, lane, push_tol):
    """A hash of what a push follows (the actions chosen on the acting states whose bits are
    set in ``mask``, and with a protect bonus which outcome each kept node's protected dice
    end in) and how far it went (``push_tol``)."""
    step = np.int64(1099511628211)
    digest = np.int64(1469598103934665603)
    digest = digest * step + np.int64(np.round(-np.log10(push_tol) * 1000.0))
    for j in range(acts.shape[0]):
        if (mask[j >> 6] >> np.uint64(j & 63)) & np.uint64(1):
            digest = digest * step + np.int64(chosen[acts[j], lane] + 2)
    if protect:
        for i in range(walk.shape[0]):
            digest = digest * step + np.int64(bonus_out[walk[i], lane])
    return digest


@njit(cache=True, parallel=True)
def solve_groups(group_problem, group_lanes, lane_slot, start_slot, pay, store, policy, value_off,
                 tol, sweeps, max_rounds, relax, want_dist, reuse, push_tol, start_out, rounds_out,
                 residual_out, dist, hashes, reached, acts_all, acts_off, act_index, keep_off,
                 keep_nodes, keep_index, roll_p, roll_off, roll_ptr, roll_idx, roll_val, n_nodes,
                 below, n_full, n_modes, node_off, mn_off, f_off, mf_off, child_all, dead_all,
                 walk_all, walk_off_all, live_all, acting_all, stop_all, end_all, bonus_p_all,
                 protect_all, has_protect, base_out, r_off, r_mode, r_next, allowed_all,
                 allowed_off, smap_all, smap_off, touch_all, touch_off, edge_src, edge_dst,
                 edge_off, locked_all, first_prob, first_ptr, first_idx, first_p):
    """Every group: load its lanes' warm starts (from ``start_slot``), solve, store (in
    ``lane_slot``), start values, and (``want_dist``) outcome distributions, reused where a
    lane's policy hash says nothing changed."""
    for g in prange(group_problem.shape[0]):
        p = group_problem[g]
        lanes = group_lanes[g]
        n = n_nodes[p]
        nf = n_full[p]
        modes = n_modes[p]
        u = np.zeros((LANES, pay.shape[1]))
        val = np.zeros((modes, nf, LANES))
        active = np.zeros(LANES, dtype=np.bool_)
        known = np.zeros(LANES, dtype=np.bool_)
        chosen = np.full((modes, nf, LANES), -1, dtype=np.int64)
        off = value_off[p]
        for lane in range(LANES):
            if lanes[lane] < 0:
                continue
            u[lane] = pay[lanes[lane]]
            row = store[start_slot[lanes[lane]]]
            for m in range(modes):
                for s in range(nf):
                    val[m, s, lane] = row[off + m * nf + s]
            active[lane] = max_rounds > 0
            if max_rounds > 0:
                actions = policy[start_slot[lanes[lane]]]
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
        mf = mf_off[p]
        live = live_all[mf:mf + modes * nf].reshape(modes, nf)
        acting = acting_all[mf:mf + modes * nf].reshape(modes, nf)
        if max_rounds > 0:
            solve_group(p, u, val, w, chosen, known, bonus, bonus_out, active, rounds, residual,
                        tol, sweeps, max_rounds, relax, n_nodes, below, n_full, n_modes, node_off,
                        mn_off, f_off, mf_off, child_all, dead_all, walk_all, walk_off_all,
                        live_all, acting_all, stop_all, end_all, bonus_p_all, protect_all,
                        has_protect, base_out, r_off, r_mode, r_next, allowed_all,
                        allowed_off, smap_all, smap_off, touch_all, touch_off, edge_src, edge_dst,
                        edge_off, keep_off, keep_index, roll_p, roll_off)
        for lane in range(LANES):
            row_id = lanes[lane]
            if row_id < 0:
                continue
            rounds_out[row_id] = rounds[lane]
            residual_out[row_id] = residual[lane]
            if max_rounds > 0:
                row = store[lane_slot[row_id]]
                actions = policy[lane_slot[row_id]]
                for m in range(modes):
                    for s in range(nf):
                        row[off + m * nf + s] = val[m, s, lane]
                        actions[off + m * nf + s] = chosen[m, s, lane]
            total = 0.0
            for s in range(nf):
                lo, hi = first_ptr[f_off[p] + s], first_ptr[f_off[p] + s + 1]
                so = stop_all[mf + s]
                if hi > lo:
                    v = 0.0
                    for k in range(lo, hi):
                        v += first_p[k] * u[lane, first_idx[k]]
                elif live[0, s] and not acting[0, s]:
                    v = u[lane, so]
                elif live[0, s]:
                    v = val[0, s, lane]
                else:
                    v = u[lane, end_all[mf + s]]
                total += first_prob[f_off[p] + s] * v
            start_out[row_id] = total
        if not want_dist:
            continue
        acts = acts_all[acts_off[p]:acts_off[p + 1]]
        flat_chosen = chosen.reshape(modes * nf, LANES)
        pushing = np.zeros(LANES, dtype=np.bool_)
        walk = walk_all[walk_off_all[p][0]:walk_off_all[p][modes]]
        for lane in range(LANES):
            row_id = lanes[lane]
            if row_id < 0:
                continue
            if reuse and hashes[row_id] == _digest(flat_chosen, reached[row_id], acts,
                                                   has_protect[p], bonus_out, walk, lane,
                                                   push_tol):
                continue
            pushing[lane] = True
            dist[row_id, :] = 0.0
            reached[row_id, :] = 0
        flags = pushing.copy()
        leader = _same_policy(flat_chosen, acts, has_protect[p], bonus_out, walk, pushing)
        for lane in range(LANES):
            if pushing[lane]:
                push_lane(p, lane, lanes[lane], flat_chosen, w, bonus_out, dist, reached,
                          push_tol, n_nodes, n_full, n_modes, node_off, mn_off, f_off, mf_off,
                          live_all, act_index, stop_all, end_all, bonus_p_all, has_protect,
                          first_prob, first_ptr, first_idx, first_p, keep_off, keep_nodes,
                          keep_index, roll_p, roll_off, roll_ptr, roll_idx, roll_val,
                          locked_all)
        for lane in range(LANES):
            if flags[lane]:
                row_id = lanes[lane]
                if leader[lane] != lane:  # the same policy: the same push
                    dist[row_id, :] = dist[lanes[leader[lane]], :]
                    reached[row_id, :] = reached[lanes[leader[lane]], :]
                hashes[row_id] = _digest(flat_chosen, reached[row_id], acts, has_protect[p],
                                         bonus_out, walk, lane, push_tol)
