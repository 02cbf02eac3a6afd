"""A roll's luck is measured against its expectation: over every way the rerolled dice can
fall, the review's luck of the roll averages to zero (the played option's value is the
expected value of where the roll lands), for a plain reroll, a Sorceress freeing a skull,
Treasure Island with the best chest and with a worse one, and the first roll after the
card (the card's value is the first roll's expectation)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from solver.sabords.dice import format_dice, parse_dice
from solver.sabords.game.advice import card_turn_by_payoffs
from solver.sabords.review.position import points_pay
from solver.sabords.review.record import Step, TurnRecord
from solver.sabords.review.turn import TurnReplay
from solver.sabords.rules import load_rules

RULES = load_rules()


@cache
def _solved(card: str):
    return card_turn_by_payoffs(RULES, card, points_pay)


def _luck(card: str, steps: list[Step]) -> float:
    """The luck of the last roll of a turn replayed on ``card``'s turn in expected points."""
    turn = TurnRecord(1, 0, card, tuple(steps), None, None, 1)
    review = TurnReplay(RULES, turn, _solved(card), 0.0).run()
    rolls = [e for e in review.events if e["kind"] == "roll"]
    return rolls[-1]["luck"]


@pytest.mark.parametrize("card, shown, reroll, chest", [
    ("captain", "CCDMPSXX", "MPS", None),
    ("sorceress", "CCDMPSXX", "MPX", None),
    ("treasure-island", "CCDMPSXX", "MPS", None),
    ("treasure-island", "CCDMPSXX", "MPS", "C"),
    ("skulls-1", "CDMMPPSX", "DMPS", None),
])
def test_a_rerolls_luck_averages_to_zero(card, shown, reroll, chest):
    space = _solved(card)[0].problem.space
    counts = np.array(parse_dice(shown, RULES))
    rolled = np.array(parse_dice(reroll, RULES, count=len(reroll)))
    kept = counts - rolled
    ids, probs = space.roll_probabilities(int(rolled.sum()))
    chest_counts = None if chest is None else parse_dice(chest, RULES, count=len(chest))
    total = 0.0
    for node, p in zip(ids, probs, strict=True):
        new = format_dice(kept + space.counts[node], RULES)
        step = Step(parse_dice(new, RULES), reroll=tuple(rolled), chest=chest_counts)
        total += p * _luck(card, [Step(tuple(counts)), step])
    assert total == pytest.approx(0.0, abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("card", ["captain", "sea-battle-3", "skulls-2"])
def test_the_first_rolls_luck_averages_to_zero(card):
    """Every first roll, the Island of Skulls' included (its luck: the Island's expected
    value against the card's; the record then stops at once, which is one way it ends)."""
    space = _solved(card)[0].problem.space
    ids, probs = space.roll_probabilities(RULES.dice)
    total = 0.0
    for node, p in zip(ids, probs, strict=True):
        shown = tuple(int(c) for c in space.counts[node])
        turn = TurnRecord(1, 0, card, (Step(shown),), None, None, 1)
        events = TurnReplay(RULES, turn, _solved(card), 0.0).run().events
        roll = next(e for e in events if e["kind"] == "roll" and e["roll"] == 1)
        total += p * roll["luck"]
    assert total == pytest.approx(0.0, abs=1e-9)
