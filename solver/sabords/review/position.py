"""A reviewed game's positions, step by step: before each turn the scores, who moves and the
phase (:class:`Position`), the position a turn's outcome leads to in the two-player game
(:func:`next_position`), a turn's line in the review (:func:`turn_doc`) and the payoff of the
turn-by-turn review (:func:`points_pay`); shared by the two-player review
(:mod:`solver.sabords.review.moves`), the whole table's (:mod:`solver.sabords.review.table`)
and the simulated records (:mod:`solver.sabords.review.simulate`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.sabords.turn.lanes import UNIT


@dataclass
class Position:
    """Before a turn of the two-player game: the scores by player, who moves, the phase."""

    scores: list[int]
    mover: int
    phase: str
    over: bool = False
    result: tuple[float, ...] | None = None
    wins: list[float] | None = None  # every player's value here


def points_pay(own, loss, win):
    """The payoff of the turn-by-turn review: the outcome's own points."""
    return np.asarray(own, dtype=np.float64) * UNIT


def turn_doc(turn, review, before: float, position: Position | None) -> dict:
    doc = {"turn": turn.number, "player": turn.player, "card": turn.card,
           "rolls": len(turn.steps), "end": review.end, "points": review.own,
           "opponents_lose": review.loss, "before": before, "after": review.value}
    if review.win:
        doc["instant_win"] = True
    if position is not None:
        doc.update(scores_before=list(position.scores), phase=position.phase)
    return doc


def next_position(position: Position, review, spec) -> Position:
    """The position after a turn ending in ``review``'s outcome (the rules of
    :class:`~solver.sabords.game.two_player.GameTable`: the last turn, sudden death, the floor)."""
    m = position.mover
    scores = list(position.scores)
    low, target = spec.low, spec.target
    floor = spec.rules.score_floor == "zero"
    scores[m] += review.own
    scores[1 - m] -= review.loss
    if floor:
        scores = [max(s, low) for s in scores]
    win = [0.0, 0.0]
    win[m] = 1.0
    if review.win:
        return Position(scores, m, position.phase, True, tuple(win))
    if position.phase == "normal":
        if scores[m] >= target:
            return Position(scores, 1 - m, "last")
        return Position(scores, 1 - m, "normal")
    if position.phase == "sudden-death":
        if scores[m] >= target:
            return Position(scores, m, "sudden-death", True, tuple(win))
        return Position(scores, 1 - m, "sudden-death")
    trigger = 1 - m  # the last turn
    if scores[trigger] >= target:
        if scores[m] == scores[trigger]:
            return Position(scores, m, "last", True, (0.5, 0.5))
        winner = m if scores[m] > scores[trigger] else trigger
        result = [0.0, 0.0]
        result[winner] = 1.0
        return Position(scores, m, "last", True, tuple(result))
    back = "sudden-death" if spec.rules.endgame == "race-wins-at-once" else "normal"
    return Position(scores, trigger, back)
