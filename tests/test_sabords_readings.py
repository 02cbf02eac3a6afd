"""The six turn readings of issue 36 (Mille Sabords): each changes exactly what it should.

Hand-computed scores of given dice, exact distributions, an independent brute force on reduced
dice (tests/sabords_bruteforce.py) and the batched solver against the one-problem solver.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

import numpy as np
import pytest

from solver.engine import solve
from solver.engine.batch import solve_lanes
from solver.engine.certificate import certify
from solver.engine.keeps import expand
from solver.sabords.certify import exact_start_value
from solver.sabords.dice import parse_dice
from solver.sabords.objective import Objective
from solver.sabords.rules import load_rules
from solver.sabords.scoring import (
    bust_outcomes,
    island_distribution,
    island_plan,
    stop_outcomes,
)
from solver.sabords.solve import solve_turn
from solver.sabords.turn_lanes import deck_turns
from tests import sabords_bruteforce as brute

POINTS = Objective("points")


def _own(dice: str, card: str, rules, bust: bool = False) -> int:
    counts = np.array(parse_dice(dice, rules))
    out = (bust_outcomes if bust else stop_outcomes)(counts, rules.card(card), rules)
    return int(out.own[0])


@pytest.mark.parametrize(("dice", "default", "doubled"), [
    ("CCCDDMPX", 5 * 200, (300 + 100 + 200) * 2),       # three coins are a set of 100
    ("CCCCDDDD", 8 * 200, (400 + 200 + 400 + 200 + 500) * 2),  # every die scores: the chest
    ("CCCCCCMX", 6 * 200, (600 + 1000) * 2),            # the monkey and the skull score nothing
    ("MMMMPPSS", 0, 0),                                 # no other symbol scores, sets neither
])
def test_storm_sets_doubled_scores_by_hand(dice, default, doubled):
    assert _own(dice, "after-the-storm", load_rules()) == default
    assert _own(dice, "after-the-storm", load_rules(["storm-sets-doubled"])) == doubled
    # the reading is about After the Storm only
    for card in ("none", "captain", "truce"):
        assert (_own(dice, card, load_rules(["storm-sets-doubled"]))
                == _own(dice, card, load_rules()))


@pytest.mark.parametrize(("dice", "card", "default", "spared"), [
    ("SSXXXCCM", "sea-battle-2", -300, 0),      # two sabres showing: the battle was won
    ("SXXXCCMM", "sea-battle-2", -300, -300),   # one sabre: lost either way
    ("SSSSXXXC", "sea-battle-4", -1000, 0),
    ("SSSXXXCC", "sea-battle-4", -1000, -1000),
    ("SSXXXCCM", "none", 0, 0),
])
def test_battle_bust_no_penalty_by_hand(dice, card, default, spared):
    assert _own(dice, card, load_rules(), bust=True) == default
    assert _own(dice, card, load_rules(["battle-bust-no-penalty"]), bust=True) == spared


@pytest.mark.parametrize(("card", "bonus"), [("sea-battle-2", 300), ("sea-battle-3", 500),
                                             ("sea-battle-4", 1000)])
def test_four_skulls_under_a_battle_only_move_the_first_roll(card, bonus):
    """Four or more skulls on the first roll are never live, so the reading changes the turn's
    value by exactly the penalty times P(at least four skulls in the first roll): five dice."""
    rules = load_rules().with_dice(5)
    alt = load_rules(["battle-four-skulls-no-penalty"]).with_dice(5)
    d, v = solve_turn(card, POINTS, rules), solve_turn(card, POINTS, alt)
    p4 = sum(Fraction(comb(5, k) * 5 ** (5 - k), 6**5) for k in range(4, 6))
    assert abs((v.start - d.start) - float(bonus * p4)) < 1e-9
    assert np.array_equal(d.policy, v.policy)
    counts = v.model.space.counts[v.model.space.full]
    assert np.array_equal(v.model.first_lost, counts[:, v.model.skull] >= 4)
    assert not d.model.first_lost.any()
    cert = certify(v.model.problem, v.policy)
    assert exact_start_value(v.model, cert) - exact_start_value(d.model, certify(
        d.model.problem, d.policy)) == bonus * p4


@pytest.mark.parametrize(("card", "dice", "reading"), [
    ("none", 3, "keep-a-non-skull"),
    ("sorceress", 3, "keep-a-non-skull"),
    ("skulls-1", 3, "keep-a-non-skull"),
    ("none", 4, "keep-a-non-skull"),
    ("sea-battle-2", 4, "battle-bust-no-penalty"),
    ("sea-battle-2", 4, "battle-four-skulls-no-penalty"),
])
def test_readings_agree_with_brute_force(card, dice, reading):
    """Every state's exact value and the start value, against the brute force's own reading."""
    values, start = brute.solve(card, dice, frozenset([reading]))
    rules = load_rules([reading]).with_dice(dice)
    sol = solve_turn(card, POINTS, rules, use_cache=False)
    cert = certify(sol.model.problem, sol.policy)
    space = sol.model.space
    for (mode, shown), exact in values.items():
        pos = space.index(parse_dice("".join(shown), rules, dice)) - space.full[0]
        assert Fraction(cert.numerators[mode][pos], cert.denominator) == exact, (mode, shown)
    assert exact_start_value(sol.model, cert) == start
    _, default_start = brute.solve(card, dice)
    # with four dice a bust leaves at most one sabre: the battle readings' bust never has two
    assert (start != default_start) == (reading != "battle-bust-no-penalty")


def test_keep_a_non_skull_removes_exactly_the_skull_only_keeps():
    base = load_rules().with_dice(6)
    alt = load_rules(["keep-a-non-skull"]).with_dice(6)
    d = solve_turn("none", POINTS, base).model
    v = solve_turn("none", POINTS, alt).model
    space = d.space
    skull = d.skull

    def actions(problem):
        return set(zip(problem.act_state.tolist(), problem.act_keep.tolist(), strict=True))

    lost = actions(d.problem) - actions(v.problem)
    assert not actions(v.problem) - actions(d.problem)
    assert lost
    for _, keep in lost:
        kept = space.counts[keep]
        assert kept.sum() - kept[skull] == 0  # the kept dice were all skulls
    act = expand(space, d.problem.live, v.problem.keep_rules)
    assert len(act[0]) == len(v.problem.act_mode)


def test_card_skulls_threshold_only_shifts_the_loss_by_the_card():
    base, alt = load_rules(), load_rules(["card-skulls-threshold-only"])
    for card, extra in (("skulls-1", 1), ("skulls-2", 2)):
        c = base.card(card)
        for dice_skulls in range(4 - extra, 9):
            d = island_distribution(dice_skulls, c, base)
            v = island_distribution(dice_skulls, c, alt)
            assert v == {loss - 100 * extra: p for loss, p in d.items()}
    # two skulls rolled and the two of the card: the Island, and if none of the six other
    # dice shows a skull the opponents lose 200 (400 by default)
    v = island_distribution(2, base.card("skulls-2"), alt)
    assert v[200] == Fraction(5, 6) ** 6
    for card in ("none", "captain", "sorceress"):
        assert (island_distribution(4, base.card(card), alt)
                == island_distribution(4, base.card(card), base))


@cache
def _most_skulls(left: int, free: int, lone: int) -> Fraction:
    """Independently: the most skulls still to come on the Island, enumerating every ordered
    roll of the dice (every non-skull die is rolled; the Sorceress may add one skull)."""
    best = Fraction(0)  # the turn ends
    for freed in range(min(free, 1) + 1):
        rolled = left + freed
        if rolled < (lone if freed else 2) or rolled == 0:
            continue
        total = Fraction(0)
        for roll in product(range(6), repeat=rolled):
            new = roll.count(5)
            total += (new - freed + _most_skulls(left + freed - new, free - freed, lone)
                      if new else -freed)
        best = max(best, total / 6**rolled)
    return best


@pytest.mark.parametrize("lone", [1, 2])
def test_the_sorceress_never_adds_skulls_on_the_island(lone):
    """Freeing a skull loses it unless it shows a skull again: worth -2/3 skull with one die
    left, and never more than rolling on without it, so the Island is unchanged."""
    for left in range(0, 5):
        value, rolled, freed = island_plan(left, 10**9, 1, 6, False, lone)
        assert value == _most_skulls(left, 1, lone)
        assert freed == 0
    alt = load_rules(["sorceress-on-island"])
    card = alt.card("sorceress")
    for dice_skulls in range(4, 9):
        assert island_distribution(dice_skulls, card, alt) == island_distribution(
            dice_skulls, card, load_rules())
    # freeing the skull with one die left: -1 + 2/6 (the two dice's skulls), then the end
    p = [Fraction(comb(2, k) * 5 ** (2 - k), 36) for k in range(3)]
    assert sum(pk * (k - 1) for k, pk in enumerate(p)) == Fraction(-2, 3)


def test_batched_lanes_agree_under_the_readings():
    """The whole game's batched solver reads the readings as the one-problem solver does."""
    rules = load_rules(["keep-a-non-skull", "battle-four-skulls-no-penalty",
                        "battle-bust-no-penalty", "storm-sets-doubled", "promo-deck"])
    deck = deck_turns(rules.with_dice(5))
    rng = np.random.default_rng(11)
    lanes = len(deck.cards)
    pay = rng.random((lanes, deck.count))
    store = deck.packed.storage(1)
    start, _, residual = solve_lanes(deck.packed, np.arange(lanes),
                                     np.zeros(lanes, dtype=np.int64), pay, store, tol=1e-14)
    assert np.all(residual <= 1e-14)
    for lane in range(lanes):
        om = deck.maps[lane]
        single = solve(om.explicit(pay[lane]))
        assert abs(om.first_roll_value(single.value, pay[lane]) - start[lane]) < 1e-12
