"""The folded lattice (engine.orbits) and keep rules (engine.keeps) against plain enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from solver.engine.keeps import KeepRule, expand
from solver.engine.multiset import DiceSpace
from solver.engine.orbits import OrbitSpace, canonical_counts, interchangeable

CASES = [
    (6, 5, ((0, 1), (2, 3, 4), (5,))),
    (6, 4, ((0,), (1,), (2, 3, 4), (5,))),
    (4, 6, ((0, 1, 2, 3),)),
    (5, 3, ((0,), (1,), (2,), (3,), (4,))),
]


def _symmetric_values(space: DiceSpace, blocks, rng) -> np.ndarray:
    """Random values of the full nodes that depend only on the orbit."""
    canon = space.index_many(canonical_counts(space.counts, blocks))
    table = rng.random(len(space.counts))
    return table[canon[space.full]]


@pytest.mark.parametrize("faces,dice,blocks", CASES)
def test_orbits_are_the_classes_of_face_swaps_within_blocks(faces, dice, blocks):
    space = DiceSpace.of(faces, dice)
    orbits = OrbitSpace.of(space, blocks)
    # brute force: two multisets share an orbit iff a permutation within blocks maps one to
    # the other
    perms = [p for p in itertools.permutations(range(faces))
             if all(sorted(p[f] for f in b) == list(b) for b in blocks)]
    classes = {}
    for node, counts in enumerate(space.counts.tolist()):
        key = min(tuple(counts[p[f]] for f in range(faces)) for p in perms)
        classes.setdefault(key, []).append(node)
    assert orbits.count == len(classes)
    for members in classes.values():
        assert len(set(orbits.orbit[members].tolist())) == 1
        assert orbits.rep[orbits.orbit[members[0]]] in members
    assert np.all(np.diff(orbits.size) >= 0)  # numbered level by level
    probs = orbits.full_probabilities()
    assert abs(probs.sum() - 1.0) < 1e-12 and np.all(probs > 0)


@pytest.mark.parametrize("faces,dice,blocks", CASES)
def test_the_walks_on_orbits_are_the_walks_on_multisets(faces, dice, blocks):
    """For values that do not tell interchangeable faces apart, the expectation walk and the
    max walk (along any faces closed under the blocks) give, on each orbit, what the plain
    lattice gives on each of its members."""
    rng = np.random.default_rng(faces * 10 + dice)
    space = DiceSpace.of(faces, dice)
    orbits = OrbitSpace.of(space, blocks)
    full = _symmetric_values(space, blocks, rng)
    plain = space.expect(full)
    folded = orbits.expect(full[orbits.full_positions()])
    assert np.max(np.abs(folded[orbits.orbit] - plain)) < 1e-14
    canon = space.index_many(canonical_counts(space.counts, blocks))
    values = rng.random(len(space.counts))[canon]
    free = np.ones(faces, dtype=bool)
    free[list(blocks[-1])] = False  # the last block's faces are never passed along
    best_plain = values.copy()
    for node in range(len(space.counts)):
        for other in range(len(space.counts)):
            diff = space.counts[node].astype(int) - space.counts[other]
            if (diff >= 0).all() and not diff[~free].any():
                best_plain[node] = max(best_plain[node], values[other])
    best_folded = orbits.best_below(values[orbits.rep], free)
    assert np.array_equal(best_folded[orbits.orbit], best_plain)


def test_interchangeable_finds_the_blocks_a_problem_cannot_tell_apart():
    space = DiceSpace.of(5, 4)
    weights = np.array([1, 1, 2, 2, 7])  # faces 0,1 alike, 2,3 alike, 4 alone
    score = space.counts @ weights

    def invariant(faces, perm):
        assert np.array_equal(space.counts[perm], space.counts[:, faces])
        return bool(np.array_equal(score[perm], score))

    assert interchangeable(space, invariant) == ((0, 1), (2, 3), (4,))


RULES = [
    KeepRule(0, 0, (0, 0, 0, 0), (True, True, True, False), 1, 3),
    KeepRule(0, 1, (0, 0, 0, 1), (True, True, True, False), 1, 3),
    KeepRule(1, 1, (0, 0, 0, 0), (True, False, True, False), 0, 4),
    # rules that hold only where the dice showing are within bounds (a turn that remembers)
    KeepRule(1, 0, (0, 0, 0, 0), (True, True, True, False), 0, 3, shown_min=(0, 2, 0, 0)),
    KeepRule(0, 1, (0, 0, 0, 0), (True, True, False, False), 2, 3,
             shown_min=(1, 0, 0, 0), shown_max=(5, 5, 1, 5)),
]


def test_keep_rules_list_exactly_the_legal_keeps():
    space = DiceSpace.of(4, 5)
    live = np.ones((2, len(space.full)), dtype=bool)
    live[:, ::3] = False
    mode, state, keep, nxt = expand(space, live, tuple(RULES))
    got = set(zip(mode.tolist(), state.tolist(), keep.tolist(), nxt.tolist(), strict=True))
    want = set()
    for rule in RULES:
        for pos, node in enumerate(space.full):
            if not live[rule.mode, pos]:
                continue
            for k in range(len(space.counts)):
                rolled = space.counts[node].astype(int) - space.counts[k]
                rest = rolled - np.array(rule.forced)
                shown = space.counts[node].astype(int)
                within = ((not rule.shown_min or (shown >= rule.shown_min).all())
                          and (not rule.shown_max or (shown <= rule.shown_max).all()))
                if ((rolled >= 0).all() and (rest >= 0).all()
                        and not rest[~np.array(rule.free)].any()
                        and rule.min_keep <= space.size[k] <= rule.max_keep and within):
                    want.add((rule.mode, pos, k, rule.next_mode))
    assert got == want
    order = list(zip(mode, state, -space.size[keep], keep, strict=True))
    assert order == sorted(order)


@pytest.mark.parametrize("faces,dice,blocks", CASES[:2])
def test_the_best_keep_is_a_max_walk_read_below_the_forced_dice(faces, dice, blocks):
    """What the batched solver does with a keep rule: the max walk along the free faces over
    the allowed keeps, read at the orbit of ``S - forced``, is the best of the listed legal
    keeps of ``S``."""
    rng = np.random.default_rng(3)
    space = DiceSpace.of(faces, dice)
    orbits = OrbitSpace.of(space, blocks)
    free = tuple(f != faces - 1 for f in range(faces))
    forced = tuple(1 if f == faces - 1 else 0 for f in range(faces))
    canon = space.index_many(canonical_counts(space.counts, blocks))
    q = rng.random(len(space.counts))[canon]
    for rule in (KeepRule(0, 0, (0,) * faces, free, 1, dice - 2),
                 KeepRule(0, 0, forced, free, 0, dice - 1)):
        live = np.ones((1, len(space.full)), dtype=bool)
        _, state, keep, _ = expand(space, live, (rule,))
        brute = np.full(len(space.full), -np.inf)
        np.maximum.at(brute, state, q[keep])
        allowed = (orbits.size >= rule.min_keep) & (orbits.size <= rule.max_keep)
        walked = orbits.best_below(np.where(allowed, q[orbits.rep], -np.inf), np.array(free))
        for pos, node in enumerate(space.full):
            rest = space.counts[node].astype(np.int64) - np.array(rule.forced)
            got = walked[orbits.orbit[space.index(rest)]] if (rest >= 0).all() else -np.inf
            assert got == brute[pos]
