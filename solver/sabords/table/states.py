"""The whole table's states, their layout in one value buffer, and where every turn outcome
leads (see :mod:`solver.sabords.table` for the phases).

**One buffer.** Every state of every phase is a row of one ``(rows, players)`` array of values,
followed by one row per way the game can end (who wins, ties shared). A state's row holds the
values of the players by their position in the state's list (the mover first).

**Every turn rotates the list by one.** After a turn the next player moves: the player at
position ``j`` is at position ``j - 1`` in the next state's list, and the mover at the last one.
So what an outcome is worth to the player at position ``j`` is always column ``(j - 1) mod N`` of
the row it leads to; the rows of results are stored rotated the same way, so that one index per
(state, outcome) names every player's value (:meth:`Layout.successors`). The mover's payoff is
the last column.

**Ranges.** A player who may still move before the game is decided is below the target; the
trigger and those who have played their last turn may be above it, but never above the target
plus one turn's largest gain (Islands only take points away). Scores below the lowest score
kept are raised to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from solver.sabords.game import GameSpec
from solver.sabords.rules import Rules
from solver.sabords.turn_lanes import DeckTurns, deck_turns
from solver.util import InputError

MIN_PLAYERS, MAX_PLAYERS = 2, 5
NORMAL, RACE = "normal", "race"


def final(k: int) -> str:
    """The name of the final round's phase in which ``k`` players still have a last turn."""
    return f"final-{k}"


@dataclass(frozen=True)
class TableSpec:
    """What a whole-table solve depends on: the game (rules, target, lowest score) and the
    number of players."""

    game: GameSpec
    players: int

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InputError(f"bad number of players {self.players}: "
                             f"{MIN_PLAYERS} to {MAX_PLAYERS}")
        rules = self.game.rules
        if rules.ties != "shared" and self.players > 2:
            raise InputError("ties-extra-round is solved for two players only")

    @staticmethod
    def of(rules: Rules, players: int, target: int | None = None,
           low: int | None = None) -> TableSpec:
        return TableSpec(GameSpec(rules, target, low), players)

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def key(self) -> dict:
        return {**self.game.key(), "players": self.players}


@dataclass(frozen=True)
class Phase:
    """One phase's block of rows: ``narrow`` leading positions below the target, the others
    anywhere up to the highest score (``wide``)."""

    name: str
    start: int
    narrow: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


@dataclass(eq=False)
class Layout:
    """The rows of every phase for ``spec`` (units of 100 points: ``low`` the lowest score,
    ``top`` the target, ``high`` the highest score a player can hold)."""

    spec: TableSpec
    deck: DeckTurns = field(init=False)

    def __post_init__(self) -> None:
        spec = self.spec
        self.deck = deck_turns(spec.rules)
        self.players = spec.players
        self.low, self.top = spec.game.bottom, spec.game.top
        self.high = self.top - 1 + max(int(self.deck.own.max()), 1)
        span, wide = self.top - self.low, self.high - self.low + 1
        n = self.players
        names = [RACE] if spec.rules.endgame == "race-wins-at-once" else []
        names += [final(k) for k in range(1, n)] + [NORMAL]
        self.phases: dict[str, Phase] = {}
        start = 0
        for name in names:
            narrow = n if name in (NORMAL, RACE) else int(name.split("-")[1])
            shape = (span,) * narrow + (wide,) * (n - narrow)
            self.phases[name] = Phase(name, start, narrow, shape)
            start += self.phases[name].size
        self.states = start
        # results: one row per set of winners (a bit per position), plus "nobody" (unused)
        masks = np.arange(1 << n)
        bits = (masks[:, None] >> np.arange(n)[None, :]) & 1
        shares = bits / np.maximum(bits.sum(axis=1, keepdims=True), 1)
        self.results = np.roll(shares, -1, axis=1)  # stored rotated (module docstring)
        self.rows = self.states + len(masks)

    def result_row(self, winners_mask) -> np.ndarray:
        """The row of the result in which the players of ``winners_mask`` (a bit per position
        of the state the turn was played from) share the win."""
        return self.states + np.asarray(winners_mask, dtype=np.int64)

    def empty(self) -> np.ndarray:
        """A value buffer: zero on the states, the results filled in."""
        values = np.zeros((self.rows, self.players))
        values[self.states:] = self.results
        return values

    def scores(self, name: str) -> np.ndarray:
        """Every state of a phase as its scores, ``(states, players)``, row order."""
        phase = self.phases[name]
        grid = np.indices(phase.shape).reshape(len(phase.shape), -1).T
        return grid + self.low

    def state_of(self, row: int) -> tuple[str, np.ndarray]:
        """The phase and scores (units) of a state row."""
        for name, phase in self.phases.items():
            if phase.start <= row < phase.start + phase.size:
                return name, np.array(np.unravel_index(row - phase.start, phase.shape)) + self.low
        raise ValueError(f"row {row} is not a state")

    def index(self, name: str, scores) -> np.ndarray:
        """The rows of states of phase ``name`` given by their scores (``(..., players)``)."""
        phase = self.phases[name]
        scores = np.asarray(scores, dtype=np.int64) - self.low
        return phase.start + np.ravel_multi_index(tuple(np.moveaxis(scores, -1, 0)),
                                                  phase.shape)

    @cached_property
    def order(self) -> np.ndarray:
        """Every state row in the order the sweeps take them: the phases in the order they
        read each other (the race, the final round from its end, normal play), within a
        phase by decreasing total score (a turn mostly raises it)."""
        out = []
        for name, phase in self.phases.items():
            total = self.scores(name).sum(axis=1)
            out.append(phase.start + np.argsort(-total, kind="stable"))
        return np.concatenate(out)

    def successors(self, name: str, scores: np.ndarray, outcomes: tuple | None = None
                   ) -> np.ndarray:
        """``(states, outcomes)``: the row each outcome leads to from these states of phase
        ``name``; the outcomes are the deck's (:func:`deck_turns`) unless given as ``(own,
        loss, win)`` arrays (one card's own table, for a question about one turn)."""
        n, low, top = self.players, self.low, self.top
        deck = self.deck
        own, loss, win = (deck.own, deck.loss, deck.win) if outcomes is None else outcomes
        scores = np.atleast_2d(scores)
        mover = np.maximum(scores[:, :1] + own[None, :], low)
        others = np.maximum(scores[:, 1:, None] - loss[None, None, :], low)
        after = np.concatenate([others, mover[:, None, :]], axis=1)  # rotated: (s, n, o)
        after = np.moveaxis(after, 1, 2)  # (states, outcomes, players)
        mover_wins = self.result_row(np.ones_like(mover, dtype=np.int64))
        reached = mover >= top
        if name == NORMAL:
            going = self._clipped(NORMAL, after)
            final_round = self._clipped(final(n - 1), after)
            out = np.where(reached, final_round, going)
        elif name == RACE:
            out = np.where(reached, mover_wins, self._clipped(RACE, after))
        else:
            k = int(name.split("-")[1])
            if k > 1:
                out = self._clipped(final(k - 1), after)
            else:
                out = self._resolve(after)
        return np.where(win[None, :], mover_wins, out)

    def _clipped(self, name: str, after: np.ndarray) -> np.ndarray:
        """Rows of phase ``name`` for the rotated scores ``after`` where they fit the phase
        (entries where they do not are never used: the caller picks another row)."""
        phase = self.phases[name]
        hi = np.array([self.top - 1] * phase.narrow + [self.high] * (self.players - phase.narrow))
        return self.index(name, np.minimum(after, hi))

    def _resolve(self, after: np.ndarray) -> np.ndarray:
        """The end of the final round, the scores ``after`` in the next state's order: the
        highest score wins if anyone is at or above the target; else the race (or, under
        ``endgame-new-final-round``, normal play) with the trigger to move."""
        n = self.players
        best = after.max(axis=2, keepdims=True)
        # winners by position in the state the turn was played from: rotate back
        tied = np.roll(after == best, 1, axis=2)
        mask = (tied * (1 << np.arange(n))).sum(axis=2)
        ended = best[..., 0] >= self.top
        back = RACE if RACE in self.phases else NORMAL
        return np.where(ended, self.result_row(mask), self._clipped(back, after))
