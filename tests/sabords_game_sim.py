"""A dice-level simulation of whole Mille Sabords games, for tests.

The game's course (whose turn it is, the last round, sudden death, the result) is written here
again, from the rules, without the solver's phase code; a turn is played die by die with the
policy the engine finds for that turn: for a player reading the scoreboard, the turn solved with
the game table's values as payoffs (:func:`solver.sabords.game.advice.card_turn_values`); for a
points player, the turn solved for expected points.
"""

from __future__ import annotations

from itertools import product

import numpy as np

from solver.engine import STOP
from solver.sabords.game.advice import card_turn_values
from solver.sabords.game.two_player import GameTable
from solver.sabords.objective import Objective
from solver.sabords.turn.lanes import UNIT, card_turn
from solver.sabords.turn.solve import solve_turn


class Player:
    """A way to choose within a turn: ``"optimal"`` (reads the scoreboard through ``table``)
    or ``"points"`` (maximises the turn's expected points)."""

    def __init__(self, kind: str, table: GameTable) -> None:
        self.kind = kind
        self.table = table
        self.rules = table.spec.rules
        self._cache: dict = {}

    def turn(self, card: str, phase: str, me: int, opponent: int):
        """(outcome map, outcome table, payoffs, policy) for this turn."""
        key = (card, phase, me, opponent) if self.kind == "optimal" else card
        if key not in self._cache:
            om, own, loss, win = card_turn(card, self.rules)
            if self.kind == "optimal":
                om, pay, sol = card_turn_values(self.table, card, me, opponent, phase)
                policy = sol.policy
            else:
                pay = own.astype(np.float64)
                policy = solve_turn(card, Objective("points"), self.rules).policy
            self._cache[key] = (om, (own, loss, win), pay, policy)
        return self._cache[key]


def _protected(om, kept: np.ndarray, pay: np.ndarray, own: np.ndarray) -> int:
    """The outcome of the best sub-multiset of the kept dice (payoff, then points)."""
    space = om.problem.space
    best, best_key = -1, None
    for sub in product(*(range(int(c) + 1) for c in kept)):
        node = space.index(np.array(sub))
        out = int(om.protect_out[node])
        key = (pay[out], own[out])
        if best_key is None or key > best_key:
            best, best_key = out, key
    return best


def play_turn(rng, player: Player, card: str, phase: str, me: int, opponent: int):
    """One turn, die by die: (own points, each opponent's loss, instant win), in points."""
    om, (own, loss, win), pay, policy = player.turn(card, phase, me, opponent)
    problem = om.problem
    space = problem.space
    n = space.dice
    counts = np.bincount(rng.integers(0, space.faces, n), minlength=space.faces)
    pos = int(space.index(counts) - space.full[0])
    row = om.first_rows[pos]
    if row:
        outs = sorted(row)
        out = outs[rng.choice(len(outs), p=np.array([row[o] for o in outs]) / sum(row.values()))]
        return own[out] * UNIT, loss[out] * UNIT, bool(win[out])
    mode, kept = 0, None
    while True:
        if not problem.live[mode, pos]:
            out = (om.end_out[mode, pos] if kept is None or om.protect_out is None
                   else _protected(om, kept, pay, own))
            break
        action = int(policy[mode, pos])
        if action == STOP:
            out = om.stop_out[mode, pos]
            break
        kept = space.counts[problem.act_keep[action]].astype(np.int64)
        mode = int(problem.act_next[action])
        rolled = np.bincount(rng.integers(0, space.faces, n - kept.sum()), minlength=space.faces)
        counts = kept + rolled
        pos = int(space.index(counts) - space.full[0])
    return own[out] * UNIT, loss[out] * UNIT, bool(win[out])


def play_game(rng, players: tuple[Player, Player], table: GameTable, deck=None) -> float:
    """One game from 0 to 0, player 0 first; player 0's result (1, 1/2 or 0). ``deck``: a
    shuffled list of cards drawn in order (reshuffled when used up), else each card is drawn
    independently with the deck's frequencies."""
    rules = table.spec.rules
    target, low = table.spec.target, table.spec.low
    names = [c for c, _ in rules.deck]
    weights = np.array([n for _, n in rules.deck], dtype=float)
    scores = [0, 0]
    mover, trigger, sudden = 0, None, False
    pile: list[str] = []
    while True:
        if deck is not None:
            if not pile:
                pile = list(rng.permutation(deck))
            card = pile.pop()
        else:
            card = names[rng.choice(len(names), p=weights / weights.sum())]
        me, other = scores[mover], scores[1 - mover]
        phase = "last" if trigger is not None else ("sudden-death" if sudden else "normal")
        gain, lost, won = play_turn(rng, players[mover], card, phase, me, other)
        if won:
            return 1.0 if mover == 0 else 0.0
        scores[mover] = max(low, me + gain)
        scores[1 - mover] = max(low, other - lost)
        if trigger is not None:  # that was the last turn
            if scores[trigger] >= target:
                diff = scores[0] - scores[1]
                return 1.0 if diff > 0 else (0.5 if diff == 0 else 0.0)
            mover, trigger, sudden = trigger, None, True  # French: a race, trigger first
            continue
        if scores[mover] >= target:
            if sudden:
                return 1.0 if mover == 0 else 0.0
            trigger = mover
        mover = 1 - mover
