"""Scoring a Mille Sabords turn: a stop, a bust, the dice protected on Treasure Island, and the
Island of Skulls. Vectorised over rows of face counts; one code path serves the CLI's
``score``, the solvers and the tests."""

from __future__ import annotations

from dataclasses import dataclass
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


def stop_outcomes(counts: np.ndarray, card: Card, rules: Rules, chest: bool = True) -> Outcomes:
    """Score dice the player stops with (rows of face counts). ``chest=False`` scores a partial
    set of dice (Treasure Island after a bust): no full chest, no sea battle, no Truce."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
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
    won = counts[:, sabre] >= card.battle_sabres
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


def bust_outcomes(counts: np.ndarray, card: Card, rules: Rules) -> Outcomes:
    """How a turn ends on a bust showing these dice (nothing protected)."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    rows = counts.shape[0]
    own = np.zeros(rows, dtype=np.int64)
    opponents = np.zeros(rows, dtype=np.int64)
    if card.battle_sabres:
        own -= card.battle_bonus
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


def goes_to_island(dice_skulls: int, card: Card, rules: Rules) -> bool:
    """Does a first roll with this many skulls on the dice send the player to the Island?"""
    return card.island and island_count(dice_skulls, card, rules) >= rules.island_skulls


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
        loss = island_loss(skulls, card, rules)
        dist[loss] = dist.get(loss, Fraction(0)) + prob * clean
        dist[0] = dist.get(0, Fraction(0)) + prob * (1 - clean)

    def walk(skulls: int, left: int, rerolls: int, prob: Fraction, clean: Fraction) -> None:
        if left < 2 or rerolls == 0:
            finish(skulls, left, prob, clean)
            return
        rolled = left
        if rules.island_reroll == "choose":
            rolled = island_choice(left, rerolls, faces)[1]
        for new in range(rolled + 1):
            p = _binomial(rolled, new) * p_skull**new * (1 - p_skull) ** (rolled - new)
            c = clean
            if card.island_sabre_void and rules.truce_island_sabre == "any":
                c = c * (1 - p_sabre_given_other) ** (rolled - new)
            if new == 0:
                finish(skulls, left, prob * p, c)
            else:
                walk(skulls + new, left - new, rerolls - 1, prob * p, c)

    walk(island_count(dice_skulls, card, rules), rules.dice - dice_skulls,
         card.island_rerolls, Fraction(1), Fraction(1))
    return {loss: p for loss, p in sorted(dist.items()) if p}


@cache
def island_choice(left: int, rerolls: int, faces: int) -> tuple[Fraction, int]:
    """On the Island with ``left`` non-skull dice and ``rerolls`` rerolls to go (a large number
    for no limit): the most skulls still to come in expectation, and the number of dice to
    reroll that achieves it (the most dice on ties). A roll without a skull ends the turn,
    and so does having fewer than two dice."""
    if left < 2 or rerolls == 0:
        return Fraction(0), 0
    p = Fraction(1, faces)
    best, best_k = Fraction(-1), 0
    for k in range(2, left + 1):
        value = Fraction(0)
        for new in range(1, k + 1):
            prob = _binomial(k, new) * p**new * (1 - p) ** (k - new)
            value += prob * (new + island_choice(left - new, rerolls - 1, faces)[0])
        if value >= best:
            best, best_k = value, k
    return best, best_k


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
