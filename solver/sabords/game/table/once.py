"""The turns of a stage solved once (the final round's steps), each card's turn once per
distinct payoff on the outcomes that card can end in.

Many states of a once-solved stage give their mover the same payoff row; beyond that, a card's
turn reads only the outcomes it can end in (:attr:`~solver.sabords.turn.lanes.DeckLanes.
card_outcomes`, about half of the deck's), and two rows that differ elsewhere pose that card
the same problem. :class:`CardTurns` solves each card's distinct problem once, each starting
from the policy just found for the card's problem before it in state order (the call before's
lane at the same place, as :func:`~solver.sabords.game.table.equilibrium._chained` lays them
out), and a row's turn is the mix of its cards' by the deck's weights.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.sabords.game.table.compact import Plays, Pool


class CardTurns:
    """Per solved card of ``lanes``: its distinct payoffs met so far (on its outcomes), the
    value before the card and the outcome distribution each was solved to."""

    def __init__(self, lanes, chained: Callable[[int], list[np.ndarray]]) -> None:
        self.lanes = lanes
        self.chained = chained
        cards = len(lanes.card_outcomes)
        self.payoffs: list[Pool | None] = [None] * cards
        self.values = [np.zeros(0) for _ in range(cards)]
        self.dists = [np.zeros(0, dtype=np.int32) for _ in range(cards)]  # in ``outcomes``
        self.outcomes: Pool | None = None  # the cards' distinct outcome distributions
        self.lanes_solved = 0

    def solve(self, pay: np.ndarray, plays: Plays) -> tuple[np.ndarray, np.ndarray]:
        """The best turn of each payoff row of ``pay`` (distinct rows, in state order): its
        value and its outcome distribution as an index into ``plays``' pool."""
        lanes = self.lanes
        if not len(pay):
            return np.zeros(0), np.zeros(0, dtype=np.int32)
        cards = len(lanes.card_outcomes)
        problem = np.empty((len(pay), cards), dtype=np.int64)
        fresh = []  # per card: (the rows of pay posing a new problem, the problem's index)
        for c, outcomes in enumerate(lanes.card_outcomes):
            rows = np.ascontiguousarray(pay[:, outcomes])
            pool = self.payoffs[c]
            if pool is None:
                pool = self.payoffs[c] = Pool(rows[0])
                before = 0
            else:
                before = pool.count
            problem[:, c] = pool.ids(rows)
            ids, first = np.unique(problem[:, c], return_index=True)
            new = ids >= before
            order = np.argsort(first[new])  # state order
            fresh.append((first[new][order], ids[new][order]))
            grow = pool.count - len(self.values[c])
            self.values[c] = np.concatenate([self.values[c], np.zeros(grow)])
            self.dists[c] = np.concatenate([self.dists[c], np.zeros(grow, dtype=np.int32)])
        self._solve_fresh(pay, fresh, len(pay))
        per_card = np.stack([self.values[c][problem[:, c]] for c in range(cards)], axis=1)
        values = per_card @ lanes.solved_weights
        mixed = np.einsum("sco,c->so", np.stack(
            [self.outcomes.rows[self.dists[c][problem[:, c]]] for c in range(cards)], axis=1),
            lanes.solved_weights)
        return values, plays.picks(mixed).index

    def _solve_fresh(self, pay: np.ndarray, fresh: list, states: int) -> None:
        """Each card's new problems (``fresh``), in chained calls mixing the cards: in call
        ``j`` every card's ``j``-th part, a card's lanes at slots ``0, 1, ...``, so that each
        starts from the policy its predecessor was just solved to at the same slot."""
        lanes = self.lanes
        parts = [self.chained(len(rows)) for rows, _ in fresh]
        calls = max((len(p) for p in parts), default=0)
        last = None
        for j in range(calls):
            members = [(c, rows[p[j]], ids[p[j]]) for c, (p, (rows, ids)) in
                       enumerate(zip(parts, fresh, strict=True)) if j < len(p)]
            size = max(len(r) for _, r, _ in members)
            store = lanes.storage(size)
            if last is not None:  # from the turns of the problems before them, just solved
                store.policy[:] = last.policy[:size]
            columns = np.concatenate([np.full(len(r), c) for c, r, _ in members])
            slots = np.concatenate([np.arange(len(r)) for _, r, _ in members])
            rows = np.concatenate([r for _, r, _ in members])
            solved = lanes.solve_cards(pay[rows], columns, slots, store, 1e-14,
                                       states if j == 0 else 0, guess=True)
            if self.outcomes is None:
                self.outcomes = Pool(solved.dist[0])
            picks = self.outcomes.ids(solved.dist)
            lo = 0
            for c, r, ids in members:
                self.values[c][ids] = solved.values[lo:lo + len(r)]
                self.dists[c][ids] = picks[lo:lo + len(r)]
                lo += len(r)
            self.lanes_solved += len(columns)
            last = store
