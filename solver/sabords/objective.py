"""What a player maximises over one turn.

* ``points``: expected own points (risk-neutral);
* ``margin``: expected own points plus what each opponent loses (the change in the lead over
  an average opponent);
* ``reach:T``: probability that the turn scores at least ``T`` (an instant win counts).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.errors import InputError


@dataclass(frozen=True)
class Objective:
    kind: str  # "points" | "margin" | "reach"
    target: int = 0

    @property
    def name(self) -> str:
        return f"reach:{self.target}" if self.kind == "reach" else self.kind

    @property
    def label(self) -> str:
        """What a value under this objective is, for a column header."""
        return {"points": "E[points]", "margin": "E[margin]"}.get(self.kind,
                                                                  f"P(>={self.target})")

    @property
    def digits(self) -> tuple[int, int]:
        """Fewest and most decimals to show a value (probabilities get more)."""
        return (3, 6) if self.kind == "reach" else (2, 4)

    def payoff(self, own, opponents, win) -> np.ndarray:
        own = np.asarray(own)
        if self.kind == "points":
            return own.astype(np.int64)
        if self.kind == "margin":
            return (own + np.asarray(opponents)).astype(np.int64)
        return ((own >= self.target) | np.asarray(win, dtype=bool)).astype(np.int64)


def parse_objective(text: str) -> Objective:
    """``points``, ``margin`` or ``reach:T`` (T a whole number of points)."""
    text = text.strip().lower()
    if text in ("points", "margin"):
        return Objective(text)
    if text.startswith("reach:"):
        try:
            target = int(text.split(":", 1)[1])
        except ValueError:
            target = None
        if target is not None and target < 1:
            raise InputError(f"bad objective {text!r}: the target must be at least 1 point "
                             "(every turn reaches 0)")
        if target is not None:
            return Objective("reach", target)
    raise InputError(f"bad objective {text!r}: use points, margin or reach:T (e.g. reach:1000)")
