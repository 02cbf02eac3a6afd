"""Stopping problems whose payoffs are given per *outcome* (see :mod:`solver.engine.batch`):
the map from a problem's states to its outcomes, and one lane written out as a plain
:class:`~solver.engine.stopping.StoppingProblem` for a single solve in NumPy (no compilation:
what a command line answering one question needs)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.engine.stopping import StoppingProblem


@dataclass(frozen=True)
class OutcomeMap:
    """How one problem's turn ends, by outcome index (see the module docstring)."""

    problem: StoppingProblem
    stop_out: np.ndarray  # (modes, F)
    end_out: np.ndarray  # (modes, F)
    first_rows: list[dict[int, float]]  # per full state: {outcome: probability}, or {}
    protect_out: np.ndarray | None = None  # (M,)
    base_out: int = -1



    def explicit(self, pay: np.ndarray) -> StoppingProblem:
        """The problem with this payoff per outcome written out state by state."""
        pr = self.problem
        bonus = None
        if self.protect_out is not None:
            best = pr.space.best_below(pay[self.protect_out])
            bonus = best[pr.act_keep] - pay[self.base_out]
        return StoppingProblem(pr.space, pr.live, pay[self.stop_out], pay[self.end_out],
                               pr.act_mode, pr.act_state, pr.act_keep, pr.act_next, bonus,
                               pr.bonus_mask, pr.keep_rules)

    def first_roll_value(self, value: np.ndarray, pay: np.ndarray) -> float:
        """The value before the first roll, from the solved values of ``explicit(pay)``."""
        space = self.problem.space
        first = space.roll_probabilities(space.dice)[1]
        landing = np.where(self.problem.live[0], value[0], pay[self.end_out[0]])
        for s, row in enumerate(self.first_rows):
            if row:
                landing[s] = sum(q * pay[o] for o, q in row.items())
        return float(first @ landing)
