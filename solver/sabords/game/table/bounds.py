"""How low scores go at the whole table: a bound on the chance that the lowest score matters.

The two-player proof (:mod:`solver.sabords.game.bounds`) generalised: the table keeps scores
down to a lowest score ``L`` and raises a lower one to it. Until the first turn that would take
some score below ``L`` (a *hit*: the mover's own points, or an Island's loss for any opponent),
the truncated game and the real one are the same game, played the same way; so the chance of a
hit under the table's play bounds how far any value of the table can be from the value of that
play in the real game. That chance ``h`` solves linear equations over the states (each turn's
outcome distribution is the table's): a hit counts 1, an outcome that ends the game 0, any
other outcome ``h`` of the next state. Iterated from ``h = 1`` the numbers only decrease and
never fall below ``h``: every iterate is an upper bound, and the one reached when they stop
moving is reported.
"""

from __future__ import annotations

import numpy as np

from solver.sabords.game.table.equilibrium import TableSolver
from solver.sabords.game.table.solution import TableSolution


def hit_probability(solution: TableSolution, solver: TableSolver, sweeps: int = 100_000,
                    tol: float = 1e-15) -> dict:
    """Upper bounds on the chance of ever taking a score below the table's lowest score under
    its play (``solution.dist``, a solve's own; ``solver``: the same table's successors): the
    largest over the states with every score at least zero, and from the opening."""
    layout = solution.layout
    if layout.spec.rules.score_floor == "zero":  # raising a score to the floor is the game
        return {"lowest_score": layout.spec.game.low, "from_zero": 0.0, "opening": 0.0,
                "sweeps": 0}
    if solution.dist.shape != (layout.states, layout.deck.count):
        raise ValueError("the bound needs the solve's outcome distributions")
    deck = layout.deck
    hit = np.zeros((layout.states, deck.count), dtype=bool)
    above_zero = np.zeros(layout.states, dtype=bool)
    for name, phase in layout.phases.items():
        scores = layout.scores(name)
        rows = slice(phase.start, phase.start + phase.size)
        mover = scores[:, :1] + deck.own[None, :] < layout.low
        others = (scores[:, 1:].min(axis=1, keepdims=True) - deck.loss[None, :]) < layout.low
        hit[rows] = (mover | others) & ~deck.win[None, :].astype(bool)
        above_zero[rows] = scores.min(axis=1) >= 0
    h = np.ones(layout.rows)
    h[layout.states:] = 0.0  # the game is over
    stay = solution.dist * ~hit
    struck = (solution.dist * hit).sum(axis=1)
    done = 0
    while done < sweeps:
        done += 1
        new = struck + (stay * h[solver.succ]).sum(axis=1)
        moved = float(np.max(h[:layout.states] - new))
        h[:layout.states] = new
        if moved <= tol:
            break
    opening = float(h[layout.index("normal", [0] * layout.players)])
    return {"lowest_score": layout.spec.game.low, "from_zero": float(h[:layout.states][
        above_zero].max()), "opening": opening, "sweeps": done}
