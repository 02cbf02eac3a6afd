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
from solver.sabords.dice import parse_dice
from solver.sabords.objective import Objective
from solver.sabords.rules import load_rules
from solver.sabords.scoring import (
    bust_outcomes,
    island_distribution,
    island_plan,
    stop_outcomes,
)
from solver.sabords.turn.ambiguity import same_problem
from solver.sabords.turn.certify import exact_start_value
from solver.sabords.turn.lanes import deck_turns
from solver.sabords.turn.solve import solve_turn
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


@cache
def _brute(card: str, dice: int, readings: frozenset[str] = frozenset()):
    return brute.solve(card, dice, readings)


# (card, dice, reading, does the start value change?)
BRUTE_CASES = [
    ("none", 3, "keep-a-non-skull", True),
    ("sorceress", 3, "keep-a-non-skull", True),
    ("skulls-1", 3, "keep-a-non-skull", True),
    ("none", 4, "keep-a-non-skull", True),
    # with four dice a bust leaves at most one sabre: the battle readings' bust never has two
    ("sea-battle-2", 4, "battle-bust-no-penalty", False),
    ("sea-battle-2", 4, "battle-four-skulls-no-penalty", True),
    # three dice: a reroll moves two and keeps one, unless the card is the kept die
    ("gold", 3, "card-counts-as-kept-die", True),
    ("skulls-1", 3, "card-counts-as-kept-die", True),
    ("none", 3, "card-counts-as-kept-die", False),  # no card counted as a die
    ("sea-battle-2", 3, "battle-sabres-any-roll", True),
    ("sea-battle-3", 4, "battle-sabres-any-roll", True),
    ("gold", 3, "battle-sabres-any-roll", False),  # no sea battle
]


@pytest.mark.slow
@pytest.mark.parametrize(("card", "dice", "reading", "changes"), BRUTE_CASES)
def test_readings_agree_with_brute_force(card, dice, reading, changes):
    """Every state's exact value and the start value, against the brute force's own reading."""
    values, start = _brute(card, dice, frozenset([reading]))
    rules = load_rules([reading]).with_dice(dice)
    sol = solve_turn(card, POINTS, rules, use_cache=False)
    cert = certify(sol.model.problem, sol.policy)
    space = sol.model.space
    compared = 0
    for mode in range(sol.model.problem.modes):
        for pos in np.flatnonzero(sol.model.problem.live[mode]):
            counts = space.counts[space.full[pos]]
            shown = tuple(sorted("".join(letter * int(n) for letter, n in
                                         zip(rules.letters, counts, strict=True))))
            key = (mode, shown)
            if reading == "battle-sabres-any-roll" and card.startswith("sea-battle") and (
                    shown.count("S") >= rules.card(card).battle_sabres):
                key = (1, shown)  # the brute force's mode counts the dice showing too
            exact = Fraction(cert.numerators[mode][pos], cert.denominator)
            assert exact == values[key], (mode, shown)
            compared += 1
    assert compared >= len(values)
    assert exact_start_value(sol.model, cert) == start
    _, default_start = _brute(card, dice)
    assert (start != default_start) == changes


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
                        "battle-bust-no-penalty", "storm-sets-doubled", "promo-deck",
                        "card-counts-as-kept-die", "battle-sabres-any-roll"])
    deck = deck_turns(rules.with_dice(5))
    rng = np.random.default_rng(11)
    lanes = len(deck.cards)
    pay = rng.random((lanes, deck.count))
    store = deck.packed.storage(1)
    out = solve_lanes(deck.packed, np.arange(lanes), np.zeros(lanes, dtype=np.int64), pay,
                      store, tol=1e-14)
    assert np.all(out.residual <= 1e-14)
    for lane in range(lanes):
        om = deck.maps[lane]
        single = solve(om.explicit(pay[lane]))
        assert abs(om.first_roll_value(single.value, pay[lane]) - out.start[lane]) < 1e-12


@pytest.mark.parametrize(("dice", "card", "default", "any_roll"), [
    ("CCMMMPXX", "sea-battle-2", -300, 300 + 300),        # no sabre left: won before
    ("CCCCDDDD", "sea-battle-2", -300, 1200 + 500 + 300),  # every die scores: the chest too
    ("CCCCDDDS", "sea-battle-2", -300, 1000 + 300),        # a lone sabre scores no chest
    ("SSCCMMMX", "sea-battle-2", 200 + 100 + 300, 200 + 100 + 300),  # won on the final dice
    ("CCMMMPXX", "gold", 400 + 100, 400 + 100),
])
def test_battle_sabres_any_roll_by_hand(dice, card, default, any_roll):
    """A stop after the card's sabres showed on an earlier roll (``shown``)."""
    base, alt = load_rules(), load_rules(["battle-sabres-any-roll"])
    counts = np.array(parse_dice(dice, base))
    c = base.card(card)
    assert int(stop_outcomes(counts, c, base, shown=True).own[0]) == default  # by default
    assert int(stop_outcomes(counts, c, alt, shown=True).own[0]) == any_roll
    assert int(stop_outcomes(counts, c, alt).own[0]) == _own(dice, card, base)
    # a bust costs the penalty either way, unless battle-bust-no-penalty spares a won battle
    both = load_rules(["battle-sabres-any-roll", "battle-bust-no-penalty"])
    if c.battle_sabres:
        assert int(bust_outcomes(counts, c, alt, shown=True).own[0]) == -c.battle_bonus
        assert int(bust_outcomes(counts, c, both, shown=True).own[0]) == 0


def test_battle_sabres_any_roll_remembers_in_a_mode():
    """Only a sea battle's turn gets the second mode; in it every stop has won the battle, and
    a reroll moves there exactly from dice that show the card's sabres."""
    alt = load_rules(["battle-sabres-any-roll"]).with_dice(5)
    for card in ("none", "gold", "sorceress", "skulls-1"):
        assert same_problem(solve_turn(card, POINTS, alt).model,
                            solve_turn(card, POINTS, load_rules().with_dice(5)).model)
    model = solve_turn("sea-battle-3", POINTS, alt).model
    pr, space = model.problem, model.space
    assert pr.modes == 2
    sabres = space.counts[space.full][:, alt.face("sabre")]
    assert np.all(model.stops.own[1] >= model.stops.own[0])
    assert np.array_equal(model.stops.own[1] == model.stops.own[0], sabres >= 3)
    moved = pr.act_next != pr.act_mode
    assert np.array_equal(moved, (pr.act_mode == 0) & (sabres[pr.act_state] >= 3))


def test_card_counts_as_kept_die_adds_exactly_the_keep_nothing_rerolls():
    base = load_rules().with_dice(6)
    alt = load_rules(["card-counts-as-kept-die"]).with_dice(6)

    def actions(card, rules):
        p = solve_turn(card, POINTS, rules).model.problem
        return set(zip(p.act_state.tolist(), p.act_keep.tolist(), strict=True))

    space = solve_turn("none", POINTS, base).model.space
    for card in ("gold", "diamond", "skulls-1", "skulls-2"):
        d, v = actions(card, base), actions(card, alt)
        assert d < v
        for state, keep in v - d:
            assert space.size[keep] == 0  # all six dice rolled: no skull was showing
            assert space.counts[space.full[state]][alt.face("skull")] == 0
    for card in ("none", "captain", "sorceress", "sea-battle-2"):
        assert same_problem(solve_turn(card, POINTS, base).model,
                            solve_turn(card, POINTS, alt).model)
