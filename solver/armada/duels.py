"""Who wins a Gold Armada game, and when it ends, under each reading: measured in seeded games.

No Gold Armada solver maximises a chance to win: the duel table maximises the expected final
margin (doubloon values minus one per skull). The readings about who wins (the most doubloon
tokens; a tie broken by tokens), about the end (the round played out) and about the order of
play are therefore measured in simulated games, the same seeded games scored under the default
and under the reading: the share of games whose result changes, and the change in the first
player's result, each with its standard error. What is measured is the effect on the outcome
of games between the table's margin-optimal players, who do not change their play; a player
who knew the reading could do better.

* :func:`play` plays the games (any number of players, one table and sign for all) and, for
  the round played out, the turns the players after the last mover would still have (each
  maximises its own token: nothing comes after it), from a random stream of their own so that
  the games themselves are the same under every reading;
* :func:`results` scores each player under a reading (1 for a sole winner, 1/k for a k-way
  tie), from the keys of :data:`KEYS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.armada.game import SKULL, Game
from solver.armada.simulate import _turn


@dataclass(frozen=True)
class Played:
    """Seeded games, per game and player: the score (doubloon values minus skulls), the
    doubloon tokens held, what a turn after the end adds (finish-the-round), and the turns
    played before the end."""

    score: np.ndarray
    doubloons: np.ndarray
    extra_score: np.ndarray
    extra_doubloons: np.ndarray
    turns: np.ndarray

    @property
    def games(self) -> int:
        return len(self.turns)


def play(game: Game, table: np.ndarray, sign: float, players: int, games: int,
         seed: int) -> Played:
    """``games`` games of ``players`` players who all play by ``table`` with ``sign`` (see
    :mod:`solver.armada.wholegame`: -1 with the duel table, 0 for each turn's best token)."""
    rng = np.random.default_rng(seed)
    levels = np.zeros((games, len(game.board.piers)), dtype=np.int64)
    skulls = np.zeros(games, dtype=np.int64)
    score = np.zeros((games, players))
    doubloons = np.zeros((games, players), dtype=np.int64)
    turns = np.zeros(games, dtype=np.int64)
    live = np.ones(games, dtype=bool)

    def take(idx: np.ndarray, seat: np.ndarray, table_sign: float, r, out, held) -> None:
        taken, token = _turn(game, table, table_sign, levels[idx], skulls[idx], r)
        out[idx, seat] += token
        pier = taken != SKULL
        held[idx[pier], seat[pier]] += 1
        levels[idx[pier], taken[pier]] += 1
        skulls[idx[~pier]] = np.minimum(skulls[idx[~pier]] + 1, game.rules.skulls)

    while live.any():
        idx = np.flatnonzero(live)
        take(idx, turns[idx] % players, sign, rng, score, doubloons)
        turns[idx] += 1
        done = (skulls[idx] >= game.rules.skulls) | (levels[idx].sum(axis=1)
                                                     >= game.total_doubloons)
        live[idx[done]] = False
    extra_score = np.zeros_like(score)
    extra_doubloons = np.zeros_like(doubloons)
    after = np.random.default_rng([seed, 1])
    for step in range(players - 1):
        seat = turns % players + step
        idx = np.flatnonzero((turns % players != 0) & (seat < players))
        if len(idx):
            take(idx, seat[idx], 0.0, after, extra_score, extra_doubloons)
    return Played(score, doubloons, extra_score, extra_doubloons, turns)


# What decides the winner under each reading (the highest key wins; equal keys share).
KEYS = {
    "value-minus-skulls": lambda p: p.score,
    "most-doubloons": lambda p: p.doubloons,
    "ties-more-doubloons": lambda p: p.score * 100 + p.doubloons,  # 30 tokens at most
    "finish-the-round": lambda p: p.score + p.extra_score,
}


def results(played: Played, reading: str) -> np.ndarray:
    """``(games, players)``: each player's result, 1 for a sole winner, 1/k in a k-way tie."""
    key = KEYS[reading](played)
    top = key == key.max(axis=1, keepdims=True)
    return top / top.sum(axis=1, keepdims=True)


def compare(played: Played, reading: str, default: str = "value-minus-skulls") -> dict:
    """The reading against the default on the same games: the games whose result (for any
    player) changes and the first player's mean result, with standard errors."""
    a, b = results(played, default), results(played, reading)
    changed = np.abs(a - b).sum(axis=1) > 0
    n = played.games
    share = float(changed.mean())
    diff = b[:, 0] - a[:, 0]
    return {"games": n, "changed": int(changed.sum()), "share": share,
            "share_se": float(np.sqrt(share * (1 - share) / n)),
            "first_default": float(a[:, 0].mean()), "first_reading": float(b[:, 0].mean()),
            "first_delta": float(diff.mean()),
            "first_delta_se": float(diff.std(ddof=1) / np.sqrt(n))}


def seat_results(played: Played) -> dict:
    """Per turn position, the mean result under the default reading, and the difference
    between the second and the last position with its standard error (what reversing the
    order of play changes for the first player's two neighbours)."""
    r = results(played, "value-minus-skulls")
    diff = r[:, 1] - r[:, -1]
    n = played.games
    return {"games": n, "players": r.shape[1], "by_seat": [float(x) for x in r.mean(axis=0)],
            "second_minus_last": float(diff.mean()),
            "second_minus_last_se": float(diff.std(ddof=1) / np.sqrt(n))}
