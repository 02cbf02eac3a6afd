"""Whole games at the table, seat against seat: exactly (every seat's way of playing fixed, the
linear sweeps over the table's states with the seat to move added) or by seeded simulation of
many games at once (any number of players, any target).

A *way of playing* is a function from positions to outcome distributions of the mover's turn
(over the deck's outcomes, :func:`solver.sabords.turn.lanes.deck_turns`): given the phase
codes of :func:`solver.sabords.game.table.states.turn_ends` and the scores (units, the mover first)
of many positions, it returns one distribution per position. A turn's outcome is drawn from it,
and the game goes on by :func:`~solver.sabords.game.table.states.turn_ends`, the same rules the
table is solved with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from solver.sabords.game.table.compact import BLOCK, Plays, Pool
from solver.sabords.game.table.states import ENDED, NORMAL, EndRules, Layout, turn_ends
from solver.sabords.turn.lanes import DeckTurns

if TYPE_CHECKING:
    from solver.sabords.game.table.linear import Successors
    from solver.sabords.game.table.states import Stage

Play = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (kinds, scores) -> distributions
MAX_TURNS = 100_000


def fixed_play(dist: np.ndarray) -> Play:
    """Every turn the same outcome distribution (points play)."""
    return lambda kinds, scores: np.broadcast_to(dist, (len(kinds), len(dist)))


def table_play(layout: Layout, dist: np.ndarray) -> Play:
    """A solved table's way of playing: each state's outcome distribution (``dist``, one
    row per state of ``layout``)."""
    def play(kinds: np.ndarray, scores: np.ndarray) -> np.ndarray:
        out = np.empty((len(kinds), dist.shape[1]))
        for kind in np.unique(kinds).tolist():
            here = kinds == kind
            out[here] = dist[layout.index(layout.name(kind), scores[here])]
        return out
    return play


@dataclass(frozen=True)
class Simulated:
    """Each seat's mean result over ``games`` simulated games, and its standard error."""

    mean: np.ndarray
    error: np.ndarray
    games: int
    turns: float  # turns per game, on average
    results: np.ndarray | None = None  # (games, players): each game's result by seat
    disputed: np.ndarray | None = None  # see simulate(): the scores, from the trigger

    def as_dict(self) -> dict:
        return {"seat_wins": self.mean.tolist(), "standard_errors": self.error.tolist(),
                "games": self.games, "turns_per_game": self.turns}


def simulate(deck: DeckTurns, players: int, top: int, low: int, ends: EndRules,
             seats: Sequence[Play], games: int, seed: int,
             start: tuple[int, Sequence] | None = None) -> Simulated:
    """``games`` whole games, seat ``i`` (seat 1 moves first) playing ``seats[i]``; scores in
    units. From the opening, or from ``start = (phase code, scores)``, seat 1 to move and the
    scores listed by seat (one list for every game, or one per game). Seeded: the same call
    gives the same numbers. The result also lists every game's result by seat and the
    *disputed* positions: where the final round ended with the trigger player below the target
    and another player at or above it (the readings of ``trigger_drop`` disagree there), the
    scores then, listed from the trigger (who moves next)."""
    rng = np.random.default_rng(seed)
    kind0, scores0 = (0, [0] * players) if start is None else start
    scores = np.asarray(scores0, dtype=np.int64)
    scores = scores.copy() if scores.ndim == 2 else np.tile(scores, (games, 1))  # by seat
    disputed = []
    mover = np.zeros(games, dtype=np.int64)
    kind = np.full(games, kind0, dtype=np.int64)
    result = np.zeros((games, players))
    live = np.arange(games)
    turns = 0
    steps = np.arange(players)
    bits = (np.arange(1 << players)[:, None] >> steps[None, :]) & 1
    shares = bits / np.maximum(bits.sum(axis=1, keepdims=True), 1)
    for _ in range(MAX_TURNS):
        if not len(live):
            break
        m = mover[live]
        seat_of = (m[:, None] + steps[None, :]) % players  # position j is seat_of[:, j]
        listed = np.take_along_axis(scores[live], seat_of, axis=1)
        dist = np.empty((len(live), deck.count))
        for seat, play in enumerate(seats):
            here = m == seat
            if here.any():
                dist[here] = play(kind[live][here], listed[here])
        drawn = (np.cumsum(dist, axis=1) < rng.random(len(live))[:, None]).sum(axis=1)
        drawn = np.minimum(drawn, deck.count - 1)
        nxt, after, winners = turn_ends(kind[live], listed, deck.own[drawn][:, None],
                                        deck.loss[drawn][:, None], deck.win[drawn][:, None],
                                        low, top, ends)
        nxt, after, winners = nxt[:, 0], after[:, 0], winners[:, 0]
        here = ((kind[live] == 1) & (after[:, 0] < top) & (after.max(axis=1) >= top)
                & ~deck.win[drawn].astype(bool))
        disputed.append(after[here])
        turns += len(live)
        scores[live[:, None], np.roll(seat_of, -1, axis=1)] = after
        over = nxt == ENDED
        ended = live[over]
        result[ended[:, None], seat_of[over]] = shares[winners[over]]
        kind[live] = nxt
        mover[live] = (m + 1) % players
        live = live[~over]
    else:
        raise RuntimeError(f"a simulated game went on for {MAX_TURNS} turns")
    mean = result.mean(axis=0)
    error = (result.std(axis=0, ddof=1) / np.sqrt(games) if games > 1
             else np.full(players, np.nan))  # one game: no standard error
    return Simulated(mean, error, games, turns / games, result,
                     np.concatenate(disputed) if disputed else np.zeros((0, players), int))


def seat_values(layout: Layout, stage_successors: Callable[[Stage], Successors],
                seats: Sequence[np.ndarray | Plays], start: np.ndarray | None = None
                ) -> np.ndarray:
    """Each seat's exact value from the opening when seat ``i`` plays the outcome
    distributions ``seats[i]`` (one row per state of ``layout``, one row for all, or
    :class:`~solver.sabords.game.table.compact.Plays`): the table's linear sweeps over states
    paired with the seat to move (row ``r * N + seat``), stage by stage as the solve takes
    them (:meth:`Layout.stages`; ``stage_successors`` gives a stage's successor rows,
    :meth:`~solver.sabords.game.table.equilibrium.TableSolver.stage_successors`). A state's
    seats are swept together, in the layout's order: a turn's successor, mostly of a higher
    total score, is then already swept whoever moves there. Each seat's play is kept as its
    distinct rows and an index per state, and one stage's successors at a time, so a table
    of millions of states fits. The sweeps solve the cycles of turns that change nothing
    exactly (:func:`~solver.sabords.game.table.linear.evaluate`'s ``swap``), and start from
    ``start`` (a value vector per state row, listed from the mover: a solved table's, which
    ways of playing close to it reach in fewer sweeps) where given, else from zero: the
    fixed point is the same."""
    from solver.sabords.game.table.linear import Successors, evaluate  # numba: when valued

    n, states = layout.players, layout.states
    if len(seats) != n:  # (a shorter list would leave part of the sweeps' index unset)
        raise ValueError(f"seat_values needs one play per seat: {n} seats, {len(seats)} given")
    plays = [seat if isinstance(seat, Plays) else Plays.of(seat, states) for seat in seats]
    pools: dict[int, int] = {}  # a pool shared by seats is kept once: its first row
    rows: list[np.ndarray] = []
    for play in plays:
        if id(play.pool) not in pools:
            pools[id(play.pool)] = sum(len(r) for r in rows)
            rows.append(play.distinct())
    ext_index = np.empty((states, n), dtype=np.int32)
    for seat, play in enumerate(plays):
        ext_index[:, seat] = play.index + pools[id(play.pool)]
    dist = Plays(ext_index.ravel(), Pool.of(np.concatenate(rows)))
    values = np.zeros((n * states + (layout.rows - states), n))
    if start is not None:  # a state's vector is the same whichever seat moves there
        values[:n * states] = np.repeat(start[:states], n, axis=0)
    values[n * states:] = layout.results
    nxt_seat = (np.arange(n) + 1) % n
    for stage in layout.stages():
        succ = stage_successors(stage)
        ext = np.empty((stage.stop - stage.start, n, succ.rows.shape[1]), dtype=np.int32)
        for lo in range(0, len(ext), BLOCK):  # the temporaries a block at a time
            part = succ.rows[lo:lo + BLOCK][:, None, :]
            ext[lo:lo + len(part)] = np.where(part < states,
                                              part * n + nxt_seat[None, :, None],
                                              (n - 1) * states + part)
        order = layout.stage_order(stage)
        ext_order = (order[:, None] * n + np.arange(n)[None, :]).ravel()
        evaluate(values, ext_order, Successors(ext.reshape(-1, ext.shape[2]),
                                               stage.start * n), dist, swap=layout.deck.swap)
    return values[layout.index(NORMAL, [0] * n) * n]  # seat 1 to move: positions are seats
