"""A solved whole table: every state's value vector, the way of playing it is the value of,
and how it was found. Apart from the solver (:mod:`solver.sabords.game.table.equilibrium`), so
that reading a solved table does not start numba.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from solver.sabords.game.table.compact import Plays
from solver.sabords.game.table.states import NORMAL, Layout, TableSpec


@dataclass
class TableSolution:
    """A solved table: one value vector per state (:class:`Layout` rows), the outcome
    distribution each state plays (``plays``: a row per state, or kept compactly), and how it
    was found (``stats``)."""

    layout: Layout
    values: np.ndarray
    plays: np.ndarray | Plays
    stats: dict = field(default_factory=dict)

    @cached_property
    def dist(self) -> np.ndarray:
        """The outcome distribution of every state, a row each (written out when first
        read)."""
        return self.plays if isinstance(self.plays, np.ndarray) else self.plays.full()

    @property
    def spec(self) -> TableSpec:
        return self.layout.spec

    def wins(self, phase: str, scores) -> np.ndarray:
        """Every player's P(win) + shares of ties, by position (units of 100 in ``scores``)."""
        return self.values[self.layout.index(phase, scores)]

    def seat_values(self) -> np.ndarray:
        """Each seat's value from the opening (everyone at 0, seat 1 to move)."""
        return self.wins(NORMAL, [0] * self.layout.players)
