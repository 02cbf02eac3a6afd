"""The finite-horizon keep engine (numpy, exact, numba lanes) against plain enumeration."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from solver.engine.horizon import Horizon, carry
from solver.engine.kernels import lane_args, lane_turn
from solver.engine.multiset import DiceSpace


def brute_value(h: Horizon, final: list[Fraction]) -> Fraction:
    """Enumerate keeps as sub-count vectors and rolls as multinomial outcomes."""
    sp = h.space
    full = [tuple(int(c) for c in sp.counts[n]) for n in sp.full]
    fin = dict(zip(full, final, strict=True))
    weights = sp.roll_weights()

    def outcomes(m):
        return [(tuple(int(c) for c in sp.counts[n]), Fraction(int(weights[n]), sp.faces**m))
                for n in sp.levels[m]]

    def shown(s, left):
        if left == 0:
            return fin[s]
        best = None
        for node in range(len(sp.counts)):
            k = tuple(int(c) for c in sp.counts[node])
            if any(a > b for a, b in zip(k, s, strict=True)) or sum(k) > h.cap:
                continue
            v = sum(p * shown(tuple(a + b for a, b in zip(k, r, strict=True)), left - 1)
                    for r, p in outcomes(sp.dice - sum(k)))
            best = v if best is None else max(best, v)
        return max(best, fin[s]) if h.stop_early else best

    return sum(p * shown(r, h.rolls - 1) for r, p in outcomes(sp.dice))


@pytest.mark.parametrize("min_reroll", [0, 1])
@pytest.mark.parametrize("stop_early", [False, True])
def test_small_space_all_implementations_agree(min_reroll, stop_early):
    rng = np.random.default_rng(5)
    h = Horizon(DiceSpace.of(3, 3), rolls=3, min_reroll=min_reroll, stop_early=stop_early)
    final = rng.integers(-3, 10, size=len(h.space.full))
    exact = h.exact_value([Fraction(int(v)) for v in final])
    assert exact == brute_value(h, [Fraction(int(v)) for v in final])
    assert float(exact) == pytest.approx(h.value(final.astype(float)), abs=1e-12)
    child, below, cap_end, inv, rolls, stop, prob = lane_args(h)
    lanes = np.stack([final, final * 2, -final], axis=1).astype(float)
    buf = np.empty((len(h.space.counts), 3))
    out = np.empty(3)
    lane_turn(buf, lanes, child, below, cap_end, inv, rolls, stop, prob, out)
    assert out == pytest.approx(h.value(lanes.T), abs=1e-12)


def test_forced_reroll_is_never_better():
    rng = np.random.default_rng(9)
    sp = DiceSpace.of(6, 5)
    final = rng.normal(size=(4, len(sp.full)))
    free = Horizon(sp, 3).value(final)
    forced = Horizon(sp, 3, min_reroll=1).value(final)
    assert np.all(forced <= free + 1e-12) and np.any(forced < free - 1e-6)


def test_best_keep_and_carry_are_consistent():
    """Carrying the final values themselves through the policy gives back the keep values."""
    rng = np.random.default_rng(3)
    h = Horizon(DiceSpace.of(6, 5), 3)
    final = rng.normal(size=len(h.space.full))
    _, keep = h.stages(final)
    out = carry(h, final, final[None, :])
    for r in (1, 2, 3):
        assert out[r][0] == pytest.approx(keep[r], abs=1e-12)
    rows = np.arange(len(h.space.full))
    best = h.best_keep(np.broadcast_to(keep[2], (len(rows), keep[2].shape[0])), rows)
    assert np.allclose(keep[2][best], h.best_sub(keep[2]))
