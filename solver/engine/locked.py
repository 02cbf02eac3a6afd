"""Finite-horizon keep problems where dice set aside stay aside (a *locked* keep).

:class:`~solver.engine.horizon.Horizon` lets every roll's keep be any sub-multiset of the dice
showing. Under a locked reading a die set aside after one roll stays aside for the rest of the
turn, so the state after a roll is the pair (dice set aside ``L``, dice showing ``S ⊇ L``) and
the next keep ``K`` must satisfy ``L ⊆ K ⊆ S``. Stages, for ``r`` rolls to come:

* ``keep[1][K]`` = the expected final value of rolling the dice not in ``K`` (as unlocked);
* ``keep[r][L]`` = the expectation, over the roll of the dice not in ``L`` showing ``S``, of
  ``max_{L ⊆ K ⊆ S, |K| <= cap} keep[r - 1][K]`` (and the final value of ``S`` too when the
  turn may stop early);
* the turn's value is ``keep[rolls][empty]``.

The first keep (nothing set aside yet) is as free as without the lock; every later keep is
bounded below by the earlier one. The pairs and triples are listed once per dice space.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from math import factorial

import numpy as np

from solver.engine.horizon import Horizon
from solver.engine.multiset import DiceSpace


@cache
def _pairs(space: DiceSpace, cap: int):
    """Every (kept ``L``, full ``S ⊇ L``) with ``|L| <= cap``: their nodes, the probability
    that rolling the dice not in ``L`` shows ``S``, and every (pair, ``K``) with
    ``L ⊆ K ⊆ S`` and ``|K| <= cap``."""
    pair_l, pair_s, pair_p, trip_pair, trip_k = [], [], [], [], []
    first = int(space.full[0])
    for s_node in space.full.tolist():
        s = space.counts[s_node].astype(int).tolist()
        for low in product(*(range(n + 1) for n in s)):
            if sum(low) > cap:
                continue
            rolled = [a - b for a, b in zip(s, low, strict=True)]
            n = sum(rolled)
            ways = factorial(n)
            for r in rolled:
                ways //= factorial(r)
            pair = len(pair_l)
            pair_l.append(space.index(np.array(low)))
            pair_s.append(s_node - first)
            pair_p.append(ways / space.faces**n)
            for k in product(*(range(a, b + 1) for a, b in zip(low, s, strict=True))):
                if sum(k) <= cap:
                    trip_pair.append(pair)
                    trip_k.append(space.index(np.array(k)))
    as_int = (np.array(x, dtype=np.int64) for x in (pair_l, pair_s, trip_pair, trip_k))
    pl, ps, tp, tk = as_int
    return pl, ps, np.array(pair_p), tp, tk


def locked_stages(h: Horizon, final: np.ndarray) -> list[np.ndarray | None]:
    """``keep[r]`` over all nodes for ``r = 1..rolls`` (``keep[0]`` is ``None``): the value of
    having set ``K`` aside, locked, with ``r`` rolls to come; nodes above the cap are
    ``-inf``. ``final`` is one problem's final values over ``space.full``."""
    sp = h.space
    final = np.asarray(final, dtype=np.float64)
    pl, ps, pp, tp, tk = _pairs(sp, h.cap)
    keep: list[np.ndarray | None] = [None, sp.expect(final)]
    too_big = sp.size > h.cap
    for _ in range(2, h.rolls + 1):
        best = np.full(len(pl), -np.inf)
        np.maximum.at(best, tp, keep[-1][tk])
        if h.stop_early:
            best = np.maximum(best, final[ps])
        value = np.bincount(pl, weights=pp * best, minlength=len(sp.counts))
        value[too_big] = -np.inf
        keep.append(value)
    return keep


def locked_value(h: Horizon, final: np.ndarray) -> float:
    """The turn's expected value from no dice when dice set aside stay aside."""
    return float(locked_stages(h, final)[h.rolls][0])
