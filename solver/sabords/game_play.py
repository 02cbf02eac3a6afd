"""Two fixed ways of playing against each other: the exact chance each wins.

A way of playing is, per phase and state, the probability of each turn outcome (over the
deck's outcome table, :func:`solver.sabords.turn_lanes.deck_turns`): the optimal policy's, as
the solver records it on its last pass, or points play's, the same in every state. With both
fixed, the game's values solve linear equations: ``A(x) = sum_o P_A(x, o) pay(o)``, where a turn
that leaves the game going pays ``1 - B(next)`` (the other player moves next, playing B), and
the same for ``B`` against ``A``. Sweeps over every state converge because every game ends.
"""

from __future__ import annotations

import numpy as np

from solver.sabords.game import GameTable
from solver.sabords.turn_lanes import deck_turns

Play = dict[str, np.ndarray]  # phase -> (states, outcomes) probabilities, or (outcomes,)


def _tables(like: GameTable) -> GameTable:
    return GameTable(like.spec, np.zeros_like(like.normal), np.zeros_like(like.last),
                     np.zeros_like(like.sudden), np.zeros_like(like.tiebreak), like.gap_low)


def _row(play: Play, phase: str, count: int, width: int) -> np.ndarray:
    if phase not in play:  # a phase this reading never enters (its values stay unused)
        return np.zeros((count, width))
    dist = play[phase]
    return np.broadcast_to(dist, (count, dist.shape[-1])) if dist.ndim == 1 else dist


def match(like: GameTable, play_a: Play, play_b: Play, tol: float = 1e-14,
          max_sweeps: int = 100_000) -> tuple[GameTable, GameTable]:
    """Values of the mover playing A against B, and of the mover playing B against A, in
    every state (tables shaped like ``like``). Gauss-Seidel sweeps: the last turn and the
    tie-break in full, then the both-below-target pairs by decreasing total score, A's then
    B's, so that most of what a state needs is already updated."""
    deck = deck_turns(like.spec.rules)
    low, top = like.spec.bottom, like.spec.top
    span = top - low
    a_all, b_all = np.divmod(np.arange(span * span), span)
    levels = [np.flatnonzero(a_all + b_all == s) for s in range(2 * span - 2, -1, -1)]
    m, t = np.divmod(np.arange(like.last.size), like.last.shape[1])
    m, t = m + low, t + top
    gaps = np.arange(like.gap_low, like.gap_low + len(like.tiebreak) - 1)
    tables = {"A": _tables(like), "B": _tables(like)}
    plays = {"A": play_a, "B": play_b}
    outcomes = (deck.own, deck.loss, deck.win)
    sides = (("A", "B"), ("B", "A"))

    def value(pay: np.ndarray, play: Play, phase: str, rows=None) -> np.ndarray:
        dist = _row(play, phase, len(pay) if rows is None else len(a_all), deck.count)
        return (pay * (dist if rows is None else dist[rows])).sum(1)

    for _ in range(max_sweeps):
        moved = 0.0
        for me, other in sides:
            view, mine, play = tables[other], tables[me], plays[me]
            new = value(view.pay_last(m, t, *outcomes), play, "last").reshape(mine.last.shape)
            moved = max(moved, float(np.max(np.abs(new - mine.last))))
            mine.last[...] = new
            if like.spec.rules.ties != "shared":
                second = value(view.pay_tiebreak_second(gaps, *outcomes), play,
                               "tiebreak-second")
                first = value(view.pay_tiebreak_first(1, *outcomes), play, "tiebreak-first")
                new = np.r_[first, second]
                moved = max(moved, float(np.max(np.abs(new - mine.tiebreak))))
                mine.tiebreak[...] = new
        for rows in levels:
            a, b = a_all[rows] + low, b_all[rows] + low
            for me, other in sides:
                view, mine, play = tables[other], tables[me], plays[me]
                for name, pay, phase in (("normal", view.pay_normal, "normal"),
                                         ("sudden", view.pay_sudden, "sudden-death")):
                    new = value(pay(a, b, *outcomes), play, phase, rows)
                    old = getattr(mine, name)
                    moved = max(moved, float(np.max(np.abs(new - old[a - low, b - low]))))
                    old[a - low, b - low] = new
        if moved <= tol:
            return tables["A"], tables["B"]
    raise RuntimeError("the match did not converge")


def seats(a_first: GameTable, b_first: GameTable) -> dict:
    """How often A beats B from the opening, per seat and averaged (ties count 1/2)."""
    first = a_first.win(0, 0)
    second = 1.0 - b_first.win(0, 0)
    return {"a_first": first, "a_second": second, "a_average": (first + second) / 2}
