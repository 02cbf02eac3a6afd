"""Scoring: the rulebook's worked example, hand-computed scores for every card, properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.sabords.dice import parse_dice
from solver.sabords.rules import STANDARD_CARDS, load_rules
from solver.sabords.scoring import (
    bust_outcomes,
    island_distribution,
    longest_island,
    stop_outcomes,
)

RULES = load_rules()


def score(card: str, dice: str, *variants: str) -> int:
    rules = load_rules(variants)
    return int(stop_outcomes(np.array(parse_dice(dice, rules)), rules.card(card), rules).own[0])


def test_french_rulebook_worked_example():
    # four coins, a diamond, two sabres, a skull, with the Captain (Pirate) card: 1400
    assert score("none", "CCCCDSSX") == 700
    assert score("captain", "CCCCDSSX") == 1400


@pytest.mark.parametrize(
    ("card", "dice", "expected"),
    [
        ("none", "CCCDDMMM", 1200),  # 100 + 100 sets, 500 symbols, full chest 500
        ("none", "SSSSSSSS", 4500),  # eight of a kind and the full chest
        ("none", "MMMPPPSS", 200),  # two sets; the sabres do not score: no chest
        ("none", "MMMMMMMX", 2000),
        ("treasure-island", "CCCDDMMM", 1200),
        ("sorceress", "CCCDDMMM", 1200),
        ("captain", "CCCDDMMM", 2400),
        ("gold", "CCCCCCCC", 5400),  # nine coins: 4000 + 900 + 500 (research.md)
        ("gold", "CCMMPPSX", 400),  # the card makes a set of three coins
        ("diamond", "DDMMMPSS", 500),
        ("monkey-business", "MMMPPCSS", 600),  # five animals: 500
        ("monkey-business", "MMMPPCCC", 1400),
        ("sea-battle-2", "SSMMMCDX", 600),
        ("sea-battle-2", "SSMMMCDD", 1200),  # battle sabres score: full chest
        ("sea-battle-2", "SMMMCCDX", -300),  # battle lost
        ("sea-battle-3", "SSSCCMPX", 800),
        ("sea-battle-4", "SSSSMMPX", 1200),
        ("sea-battle-4", "SSSMMMMM", -1000),
        ("skulls-1", "CCCDDMMM", 700),  # a skull card forfeits the full chest
        ("skulls-2", "CCCDDMMM", 700),
        ("after-the-storm", "CCDDMMMS", 800),  # only coins and diamonds, 200 each
        ("truce", "CCDDMMMS", -1000),
        ("truce", "CCDDMMMP", 500),
    ],
)
def test_hand_computed_scores(card, dice, expected):
    assert score(card, dice) == expected


def test_variants_change_scores_as_described():
    assert score("sea-battle-2", "SSMMMCDD", "battle-sabres-not-chest") == 700
    assert score("skulls-1", "CCCDDMMM", "card-skulls-keep-chest") == 1200


def test_bust_scores():
    dice = np.array(parse_dice("CCXXXMPS", RULES))
    assert int(bust_outcomes(dice, RULES.card("none"), RULES).own[0]) == 0
    assert int(bust_outcomes(dice, RULES.card("sea-battle-3"), RULES).own[0]) == -500
    assert int(bust_outcomes(dice, RULES.card("truce"), RULES).own[0]) == -1000
    storm = bust_outcomes(dice, RULES.card("after-the-storm"), RULES)
    assert int(storm.own[0]) == 0 and int(storm.opponents[0]) == 300


def test_island_distribution_small_cases():
    none = RULES.card("none")
    # seven skulls on the first roll: one die left, the turn ends at once
    assert island_distribution(7, none, RULES) == {700: 1}
    # six skulls: two dice, roll them: no skull (25/36) ends at 600
    dist = island_distribution(6, none, RULES)
    assert dist[600] == pytest.approx(25 / 36)
    assert sum(dist.values()) == 1
    captain = island_distribution(8, RULES.card("captain"), RULES)
    assert captain == {1600: 1}


def test_longest_island_turn():
    assert longest_island(RULES.card("none"), RULES) == 4
    assert longest_island(RULES.card("skulls-2"), RULES) == 6
    assert longest_island(RULES.card("after-the-storm"), RULES) == 2
    assert longest_island(RULES.card("sea-battle-2"), RULES) == 0


dice_counts = st.lists(st.integers(0, 5), min_size=8, max_size=8).map(
    lambda faces: np.bincount(faces, minlength=6)
)


@settings(max_examples=300, deadline=None)
@given(dice_counts, st.sampled_from(STANDARD_CARDS))
def test_every_score_is_a_multiple_of_100(counts, card):
    c = RULES.card(card)
    assert int(stop_outcomes(counts, c, RULES).own[0]) % 100 == 0
    assert int(bust_outcomes(counts, c, RULES).own[0]) % 100 == 0


@settings(max_examples=300, deadline=None)
@given(dice_counts)
def test_captain_doubles(counts):
    plain = stop_outcomes(counts, RULES.card("none"), RULES).own[0]
    assert stop_outcomes(counts, RULES.card("captain"), RULES).own[0] == 2 * plain


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=0, max_size=7),
       st.sampled_from(["none", "captain", "gold", "diamond", "monkey-business"]),
       st.integers(0, 4))
def test_adding_a_die_never_lowers_a_partial_score(faces, card, extra_face):
    counts = np.bincount(faces, minlength=6)
    more = counts.copy()
    more[extra_face] += 1
    c = RULES.card(card)
    before = stop_outcomes(counts, c, RULES, chest=False).own[0]
    assert stop_outcomes(more, c, RULES, chest=False).own[0] >= before
    coin = counts.copy()
    coin[0] += 1
    assert stop_outcomes(coin, c, RULES, chest=False).own[0] >= before + 100 * c.multiplier


@settings(max_examples=300, deadline=None)
@given(dice_counts, st.sampled_from(STANDARD_CARDS))
def test_a_skull_forfeits_the_full_chest(counts, card):
    out = stop_outcomes(counts, RULES.card(card), RULES)
    if counts[5] > 0 or RULES.card(card).extra_skulls:
        assert not out.chest[0]


@settings(max_examples=200, deadline=None)
@given(dice_counts)
def test_nine_of_a_kind_needs_a_card(counts):
    for card in STANDARD_CARDS:
        win = stop_outcomes(counts, RULES.card(card), RULES).win[0]
        if card not in ("gold", "diamond"):
            assert not win
