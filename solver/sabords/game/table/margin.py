"""A bound on each state's regret that needs no turn solved: which turns policy iteration
may leave as they are.

**The bound.** A state's best turn is worth ``best(p) = max_pi sum_o P_pi(o) p(o)`` to its
mover, ``p`` its payoff row (the mover's payoff of the state each outcome ``o`` leads to) and
``pi`` any way of playing the turn, whose outcome probabilities sum to one. So if the payoffs
move by ``Delta``, ``best(p + Delta) <= best(p) + max_o Delta(o)``, and over several steps
the maxima add up (``max(a + b) <= max a + max b``). A state whose turn was last solved to
``best`` keeps an accumulated *drift*, the sum of ``max_o Delta(o)`` over the changes of the
values since then, and its regret now is at most ``best + drift - own``, ``own`` its mover's
payoff of its current value (exact for the turn it plays, whatever that is: the turn found
then, or a mix settling chose since). The maximum runs over every outcome of the deck, those
no turn of this state reaches included: looser, never wrong.

**What it is worth.** Near the fixed point the values move little from one step to the next,
and most states' bounds fall below the tolerance: their turns need not be solved again (the
turn they play is within the tolerance of the best). A bound is an upper bound on the regret
as the turn solver would compute it (to its own tolerance, as any regret computed here);
:func:`~solver.sabords.game.table.equilibrium.regret` recomputes every turn from scratch.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.sabords.game.table.linear import Successors
from solver.sabords.game.table.payoff import mover_payoff


class RegretBound:
    """Per state of a stage (rows ``start`` to ``stop``, successors ``succ``): the best turn's
    payoff when last solved and the drift since (:meth:`track` after every change of the
    values). ``weights``: the mover's payoff (:func:`~solver.sabords.game.table.payoff.
    tie_weights`)."""

    def __init__(self, succ: Successors, start: int, stop: int, weights: np.ndarray) -> None:
        self.succ, self.start, self.stop = succ, start, stop
        self.weights = weights
        size = stop - start
        self.best = np.full(size, np.inf)  # never solved: no bound
        self.drift = np.zeros(size)
        self.seen: np.ndarray | None = None  # each row's worth to the mover who reaches it

    def reached(self, values: np.ndarray) -> np.ndarray:
        """Each row of the stage as an outcome: its worth to the mover whose turn leads there
        (the last position of its list; the tie rule's weights)."""
        players = values.shape[1]
        return mover_payoff(values[self.start:self.stop], self.weights, mover=players - 1)

    def track(self, values: np.ndarray) -> None:
        """Add to every state's drift the largest rise of its payoffs since the last call
        (successors outside the stage are solved before it and do not move)."""
        now = np.ascontiguousarray(self.reached(values))
        if self.seen is not None:
            _add_drift(self.drift, self.succ.rows, self.succ.first, self.start, now - self.seen)
        self.seen = now

    def bound(self, own: np.ndarray) -> np.ndarray:
        """Every state's regret bound, ``own`` its mover's payoff of its value now."""
        return self.best + self.drift - own

    def solved(self, at: np.ndarray, best: np.ndarray) -> None:
        """The states ``at`` (positions in the stage) had their best turns solved to ``best``
        at the values last tracked."""
        self.best[at] = best
        self.drift[at] = 0.0


@njit(cache=True)
def _add_drift(drift, succ, first, start, rise):
    """``drift[i] += max_o rise[succ[start + i, o] - start]``, a rise of 0 outside the stage."""
    size = len(drift)
    for i in range(size):
        top = -np.inf
        for o in range(succ.shape[1]):
            s = succ[start + i - first, o] - start
            r = rise[s] if 0 <= s < size else 0.0
            if r > top:
                top = r
        drift[i] += top
