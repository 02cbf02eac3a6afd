"""Two fixed ways of playing against each other: the exact chance each wins.

A way of playing is, per phase and state, the probability of each turn outcome (over the
deck's outcome table, :func:`solver.sabords.turn.lanes.deck_turns`): the optimal policy's, as
the solver records it on its last pass, or points play's, the same in every state. With both
fixed, the game's values solve linear equations: ``A(x) = sum_o P_A(x, o) pay(o)``, where a turn
that leaves the game going pays ``1 - B(next)`` (the other player moves next, playing B), and
the same for ``B`` against ``A``. Sweeps over every state converge because every game ends.
"""

from __future__ import annotations

import numpy as np

from solver.sabords.game.linear import sweep_rows
from solver.sabords.game.two_player import GameTable
from solver.sabords.turn.lanes import deck_turns

Play = dict[str, np.ndarray]  # phase -> (states, outcomes) probabilities, or (outcomes,)


def _tables(like: GameTable) -> GameTable:
    return GameTable(like.spec, np.zeros_like(like.normal), np.zeros_like(like.last),
                     np.zeros_like(like.sudden), np.zeros_like(like.tiebreak), like.gap_low)


def match(like: GameTable, play_a: Play, play_b: Play, tol: float = 1e-14,
          max_sweeps: int = 100_000) -> tuple[GameTable, GameTable]:
    """Values of the mover playing A against B, and of the mover playing B against A, in
    every state (tables shaped like ``like``). Gauss-Seidel sweeps (compiled,
    :func:`solver.sabords.game.linear.sweep_rows`): the last turn and the tie-break in full,
    then the both-below-target pairs by decreasing total score, A's then B's, so that most of
    what a state needs is already updated. Both tables live in one vector, A's then B's; each
    player's turn reads the other's values."""
    deck = deck_turns(like.spec.rules)
    low, top = like.spec.bottom, like.spec.top
    span = top - low
    size = like.flat.size
    a_all, b_all = (x + low for x in np.divmod(np.arange(span * span), span))
    m, t = np.divmod(np.arange(like.last.size), like.last.shape[1])
    blocks = {"last": (m + low, t + top, "last")}
    if like.spec.rules.ties != "shared":
        gaps = np.arange(like.gap_low, like.gap_low + len(like.tiebreak) - 1)
        blocks["tiebreak-first"] = (np.zeros(1, dtype=np.int64), None, "tiebreak")
        blocks["tiebreak-second"] = (gaps, gaps, "tiebreak")
    blocks["normal"] = (a_all, b_all, "normal")
    blocks["sudden-death"] = (a_all, b_all, "sudden")
    outcomes = (deck.own, deck.loss, deck.win)
    consts, indexes, first_row, targets = [], [], {}, {}
    for phase, (x, y, name) in blocks.items():
        const, index = like.successors(phase, x, y, *outcomes)
        first_row[phase] = sum(len(c) for c in consts)
        consts.append(const)
        indexes.append(index)
        start = like._start[name] + (1 if phase == "tiebreak-second" else 0)
        targets[phase] = start + np.arange(len(const))
    dists, dist_row = [], {}  # (side, phase) -> (first row, one row per state?)
    for side, play in (("A", play_a), ("B", play_b)):
        for phase in blocks:
            # a phase this reading never enters: its values stay 0, unused
            rows = np.atleast_2d(play.get(phase, np.zeros(deck.count)))
            dist_row[side, phase] = (sum(len(d) for d in dists), len(rows) > 1)
            dists.append(rows)

    def equations(side: str, phase: str, rows: np.ndarray) -> list[np.ndarray]:
        mine, other = (0, size) if side == "A" else (size, 0)
        first, spread = dist_row[side, phase]
        return [mine + targets[phase][rows], first_row[phase] + rows,
                np.full(len(rows), other), first + (rows if spread else np.zeros_like(rows))]

    order = []
    for side in ("A", "B"):
        for phase in blocks:
            if phase not in ("normal", "sudden-death"):
                order.append(equations(side, phase, np.arange(len(targets[phase]))))
    starts = np.r_[0, np.cumsum([len(level) for level in _levels(span)])]
    flat_levels = np.concatenate(_levels(span))
    for lo, hi in zip(starts[:-1], starts[1:], strict=True):
        for side in ("A", "B"):
            for phase in ("normal", "sudden-death"):
                order.append(equations(side, phase, flat_levels[lo:hi]))
    target, succ, reads, dist_of = (np.concatenate([eq[i] for eq in order]).astype(np.int64)
                                    for i in range(4))
    const = np.concatenate(consts)
    index = np.concatenate(indexes)
    dist = np.ascontiguousarray(np.concatenate(dists))
    values = np.zeros(2 * size)
    for _ in range(max_sweeps):
        if sweep_rows(values, target, succ, reads, dist_of, const, index, dist) <= tol:
            tables = _tables(like), _tables(like)
            tables[0].flat[:] = values[:size]
            tables[1].flat[:] = values[size:]
            return tables
    raise RuntimeError("the match did not converge")


def _levels(span: int) -> list[np.ndarray]:
    """Both-below-target states ``a * span + b`` by decreasing total score."""
    a, b = np.divmod(np.arange(span * span), span)
    return [np.flatnonzero(a + b == s) for s in range(2 * span - 2, -1, -1)]


def seats(a_first: GameTable, b_first: GameTable) -> dict:
    """How often A beats B from the opening, per seat and averaged (ties count 1/2)."""
    first = a_first.win(0, 0)
    second = 1.0 - b_first.win(0, 0)
    return {"a_first": first, "a_second": second, "a_average": (first + second) / 2}
