"""Scoring a Mille Sabords turn: a stop, a bust, the dice protected on Treasure Island, and the
Island of Skulls. Vectorised over rows of face counts; one code path serves the CLI's
``score``, the solvers and the tests."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

import numpy as np

from solver.sabords.rules import Card, Rules


@dataclass(frozen=True)
class Outcomes:
    """Parallel arrays describing how a turn ends: own points, points each opponent loses,
    an instant win (nine identical symbols) and the full-chest bonus."""

    own: np.ndarray
    opponents: np.ndarray
    win: np.ndarray
    chest: np.ndarray


def _set_table(rules: Rules, largest: int) -> np.ndarray:
    """Points for n identical symbols, n = 0..largest (more than the biggest set scores as it)."""
    table = np.zeros(largest + 1, dtype=np.int64)
    points = dict(rules.set_points)
    top = max(points)
    for n in range(largest + 1):
        if n >= min(points):
            table[n] = points[min(n, top)]
    return table


def _groups(rules: Rules, card: Card) -> list[list[int]]:
    """Faces that form one set each (skulls never do)."""
    merged = [rules.face(f) for f in card.merge]
    groups = [merged] if merged else []
    for f, name in enumerate(rules.faces):
        if name != rules.skull and f not in merged:
            groups.append([f])
    return groups


def stop_outcomes(counts: np.ndarray, card: Card, rules: Rules, chest: bool = True,
                  shown: bool = False) -> Outcomes:
    """Score dice the player stops with (rows of face counts). ``chest=False`` scores a partial
    set of dice (Treasure Island after a bust): no full chest, no sea battle, no Truce.
    ``shown``: the card's sabres showed on an earlier roll of the turn (a sea battle won
    under ``battle_sabres_shown = "any-roll"``)."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    if card.only_symbols and rules.storm_scoring == "sets-doubled":
        # only the listed symbols' dice score, as usual (sets, and the chest when every die
        # is one of them), and the turn's points are multiplied
        listed = [rules.face(name) for name, _ in card.only_symbols]
        listed_only = np.zeros_like(counts)
        listed_only[:, listed] = counts[:, listed]
        plain = replace(card, only_symbols=(),
                        multiplier=card.multiplier * card.only_symbols_multiplier)
        return stop_outcomes(listed_only, plain, rules, chest)
    rows = counts.shape[0]
    with_card = counts.copy()
    for name, n in card.extra:
        with_card[:, rules.face(name)] += n
    symbol = np.zeros(len(rules.faces), dtype=np.int64)
    zero = np.zeros(rows, dtype=np.int64)
    if card.only_symbols:
        for name, pts in card.only_symbols:
            symbol[rules.face(name)] = pts
        own = with_card @ symbol
        return Outcomes(own * card.multiplier, zero, zero.astype(bool), zero.astype(bool))
    for name, pts in rules.symbol_points:
        symbol[rules.face(name)] = pts
    own = with_card @ symbol
    table = _set_table(rules, int(with_card.sum(axis=1).max(initial=0)))
    sabre = rules.face(rules.sabre)
    won = counts[:, sabre] >= card.battle_sabres  # the final dice win (they count for the chest)
    scoring_dice = zero.copy()
    win = zero.astype(bool)
    for group in _groups(rules, card):
        n = with_card[:, group].sum(axis=1)
        own = own + table[n]
        if rules.nine_of_a_kind == "instant-win":
            win |= n > max(dict(rules.set_points))
        dice_in_group = counts[:, group].sum(axis=1)
        scores = (n >= min(dict(rules.set_points))) | bool(symbol[group].any())
        if group == [sabre] and card.battle_sabres and rules.battle_sabres_score:
            scores = scores | won
        scoring_dice = scoring_dice + np.where(scores, dice_in_group, 0)
    full = scoring_dice == rules.dice
    if card.extra_skulls and rules.card_skulls_forfeit_chest:
        full = np.zeros_like(full)
    full &= chest
    own = own + np.where(full, rules.full_chest_bonus, 0)
    if chest and card.battle_sabres:
        won = won | battle_won_before(shown, rules)
        own = np.where(won, own + card.battle_bonus, -card.battle_bonus)
        full &= won
    if chest and card.sabre_penalty:
        sabres = counts[:, sabre]
        own = np.where(sabres > 0, -card.sabre_penalty * sabres, own)
        full &= sabres == 0
    return Outcomes(own * card.multiplier, zero, win, full)


def protected_outcomes(counts: np.ndarray, card: Card, rules: Rules) -> Outcomes:
    """What dice put aside on Treasure Island score when the roll busts (rows of face counts
    of the kept dice): skulls protect nothing, and the rest scores as a partial stop."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64)).copy()
    counts[:, rules.face(rules.skull)] = 0
    return stop_outcomes(counts, card, rules, chest=False)


def battle_won_before(shown: bool, rules: Rules) -> bool:
    """Is a sea battle won by sabres that showed on an earlier roll (``shown``)? Only under
    ``battle_sabres_shown = "any-roll"``; by default the final dice decide."""
    return bool(shown) and rules.battle_sabres_shown == "any-roll"


def bust_outcomes(counts: np.ndarray, card: Card, rules: Rules,
                  shown: bool = False) -> Outcomes:
    """How a turn ends on a bust showing these dice (nothing protected; ``shown``: as in
    :func:`stop_outcomes`)."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    rows = counts.shape[0]
    own = np.zeros(rows, dtype=np.int64)
    opponents = np.zeros(rows, dtype=np.int64)
    if card.battle_sabres:
        won = counts[:, rules.face(rules.sabre)] >= card.battle_sabres
        won = won | battle_won_before(shown, rules)
        spared = won & (rules.battle_bust_penalty == "unless-won")
        own -= np.where(spared, 0, card.battle_bonus)
    if card.sabre_penalty and rules.truce_penalty_on_bust:
        own -= card.sabre_penalty * counts[:, rules.face(rules.sabre)]
    if card.bust_island:
        skulls = counts[:, rules.face(rules.skull)] + card.extra_skulls
        opponents += island_loss(skulls, card, rules)
    false = np.zeros(rows, dtype=bool)
    return Outcomes(own * card.multiplier, opponents, false, false)


def island_loss(skulls, card: Card, rules: Rules, sabre_showing: bool = False):
    """What each opponent loses when an Island of Skulls turn ends on ``skulls`` counting
    skulls (an int or an array): nothing when a sabre showing voids it (the Truce)."""
    if card.island_sabre_void and sabre_showing:
        return 0
    return rules.island_penalty * skulls * card.multiplier


def island_count(dice_skulls: int, card: Card, rules: Rules) -> int:
    """Skulls that count for the Island of Skulls (threshold and penalty)."""
    return dice_skulls + (card.extra_skulls if rules.card_skulls_count_island else 0)


def penalty_skulls(counted: int, card: Card, rules: Rules) -> int:
    """Of the skulls counted on the Island, those the opponents lose points for: all, or
    (``card_skulls_island_penalty = false``) all but a Skull card's."""
    if rules.card_skulls_count_island and not rules.card_skulls_island_penalty:
        return counted - card.extra_skulls
    return counted


def goes_to_island(dice_skulls: int, card: Card, rules: Rules) -> bool:
    """Does a first roll with this many skulls on the dice send the player to the Island?"""
    return card.island and island_count(dice_skulls, card, rules) >= rules.island_skulls


def first_roll_lost(dice_skulls: int, card: Card, rules: Rules) -> bool:
    """Does a first roll with this many skulls end the turn with nothing won or lost? Only
    where the card forbids the Island and ``no_island_skulls = "lose-turn"`` (otherwise such
    a roll is a plain bust)."""
    return (not card.island and rules.no_island_skulls == "lose-turn"
            and island_count(dice_skulls, card, rules) >= rules.island_skulls)


@cache
def island_distribution(dice_skulls: int, card: Card, rules: Rules) -> dict[int, Fraction]:
    """Exact distribution of the points each opponent loses on an Island of Skulls turn that
    starts with ``dice_skulls`` skulls on the first roll (the player scores nothing)."""
    faces = len(rules.faces)
    p_skull = Fraction(1, faces)
    p_sabre_given_other = Fraction(1, faces - 1)
    dist: dict[int, Fraction] = {}

    def finish(skulls: int, left: int, prob: Fraction, clean: Fraction) -> None:
        # clean: probability that no sabre voids the Island so far (Truce only)
        if card.island_sabre_void and rules.truce_island_sabre == "final":
            clean = clean * (1 - p_sabre_given_other) ** left
        if not card.island_sabre_void:
            clean = Fraction(1)
        loss = island_loss(penalty_skulls(skulls, card, rules), card, rules)
        dist[loss] = dist.get(loss, Fraction(0)) + prob * clean
        dist[0] = dist.get(0, Fraction(0)) + prob * (1 - clean)

    choose = rules.island_reroll == "choose"
    freeing = card.skull_rerolls if rules.sorceress_on_island else 0
    lone = rules.sorceress_min_reroll

    def walk(skulls: int, left: int, rerolls: int, free: int, prob: Fraction,
             clean: Fraction) -> None:
        _, rolled_own, freed = island_plan(left, rerolls, free, faces, choose, lone)
        rolled = rolled_own + freed
        if rolled == 0:
            finish(skulls, left, prob, clean)
            return
        for new in range(rolled + 1):
            p = _binomial(rolled, new) * p_skull**new * (1 - p_skull) ** (rolled - new)
            c = clean
            if card.island_sabre_void and rules.truce_island_sabre == "any":
                c = c * (1 - p_sabre_given_other) ** (rolled - new)
            if new == 0:  # the turn ends; a freed skull that came up otherwise is lost
                finish(skulls - freed, left + freed, prob * p, c)
            else:
                walk(skulls - freed + new, left + freed - new, rerolls - 1, free - freed,
                     prob * p, c)

    walk(island_count(dice_skulls, card, rules), rules.dice - dice_skulls,
         card.island_rerolls, freeing, Fraction(1), Fraction(1))
    return {loss: p for loss, p in sorted(dist.items()) if p}


ISLAND_MIN_ROLL = 2  # "or they cannot roll at least 2 dice" (001:31)


@cache
def island_plan(left: int, rerolls: int, free: int, faces: int, choose: bool,
                lone: int = ISLAND_MIN_ROLL) -> tuple[Fraction, int, int]:
    """The Island's next roll with ``left`` non-skull dice, ``rerolls`` rerolls to go (a large
    number for no limit) and ``free`` skulls the Sorceress may still free: the most skulls
    still to come in expectation (a freed skull leaves the count unless it shows a skull
    again), the non-skull dice rolled and the skulls freed; ``(0, 0, 0)`` when the turn
    ends. Every non-skull die is rolled unless ``choose``; a roll moves at least two
    dice, or ``lone`` when it frees a skull. A roll without a skull ends the turn. Ties go to
    freeing no skull, then to rolling the most dice. Freeing is optional (the
    Sorceress 'may'), so it is never worse than ending the turn."""
    p = Fraction(1, faces)
    best: tuple[Fraction, int, int] = (Fraction(0), 0, 0)  # no roll: the turn ends
    if rerolls == 0:
        return best
    for freed in range(min(free, 1) + 1):
        for rolled_own in (range(left + 1) if choose else (left,)):
            rolled = rolled_own + freed
            if rolled < (lone if freed else ISLAND_MIN_ROLL) or rolled == 0:
                continue
            value = Fraction(-freed)
            for new in range(1, rolled + 1):
                prob = _binomial(rolled, new) * p**new * (1 - p) ** (rolled - new)
                later = island_plan(left + freed - new, rerolls - 1, free - freed, faces,
                                    choose, lone)[0]
                value += prob * (new + later)
            if value > best[0] or (value == best[0] and not freed):
                best = (value, rolled_own, freed)
    return best


def island_choice(left: int, rerolls: int, faces: int) -> tuple[Fraction, int]:
    """On the Island with ``left`` non-skull dice and ``rerolls`` rerolls to go (a large number
    for no limit), choosing the dice: the most skulls still to come in expectation, and the
    number of dice to reroll that achieves it (the most dice on ties). A roll without a skull
    ends the turn, and so does having fewer than two dice."""
    value, rolled, _ = island_plan(left, rerolls, 0, faces, True)
    return value, rolled


def _binomial(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def longest_island(card: Card, rules: Rules) -> int:
    """The most rolls an Island of Skulls turn can take, the first roll included.

    The fewest skulls on the dice that still send the player there leave the most dice; each
    reroll must add a skull to go on, and the turn stops below two dice, so the longest turn
    adds exactly one skull per reroll until one die is left."""
    if not card.island:
        return 0
    fewest = max(0, rules.island_skulls - island_count(0, card, rules))
    left = rules.dice - fewest
    return 1 + min(max(0, left - 1), card.island_rerolls)
