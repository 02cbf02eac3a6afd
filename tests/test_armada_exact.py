"""Exact checks: an independent brute-force game tree (ordered dice, hold masks) against the
exact lattice solver and the float tables, on single turns and on small boards."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from solver.armada.exact import all_states, exact_game
from solver.armada.game import Game, default_game
from solver.armada.wholegame import solve_table

SIGN = {"turn": 0, "solo": 1, "duel": -1}


def brute_meets(pier, level: int, dice: tuple[int, ...], rules, faces: int) -> bool:
    """Requirement check on ordered dice, written from the rules' words."""
    count = Counter(dice)
    allowed = pier.allowed[level]
    if pier.kind == "count":
        return count[allowed[0]] >= pier.need[level]
    if pier.kind == "of-a-kind":
        if rules.exact_kind:
            return any(count[s] == pier.need[level] for s in allowed)
        return any(count[s] >= pier.need[level] for s in allowed)
    pair_from = range(faces) if rules.full_house_pair_any else allowed
    pairs = any(count[a] >= 3 and count[b] >= 2 for a in allowed for b in pair_from if a != b)
    return pairs or (rules.five_kind_full_house and any(count[s] >= 5 for s in allowed))


def brute_game(game: Game, objective: str):
    """Value of every state by plain recursion over ordered rolls and the 2^n hold masks."""
    faces, dice, rolls = len(game.board.symbols), game.rules.dice, game.rules.rolls
    sign, rules, piers = SIGN[objective], game.rules, game.board.piers

    @cache
    def value(levels: tuple[int, ...], skulls: int) -> Fraction:
        done = all(lv == p.doubloons for lv, p in zip(levels, piers, strict=True))
        if skulls >= rules.skulls or done:
            return Fraction(0)
        later = value if sign else (lambda lv, s: Fraction(0))
        skull = rules.skull_value + sign * later(levels, skulls + 1)

        @cache
        def final(dice_sorted: tuple[int, ...]) -> Fraction:
            best = None
            for i, pier in enumerate(piers):
                if levels[i] < pier.doubloons and brute_meets(pier, levels[i], dice_sorted,
                                                              rules, faces):
                    nxt = levels[:i] + (levels[i] + 1,) + levels[i + 1 :]
                    v = pier.values[levels[i]] + sign * later(nxt, skulls)
                    best = v if best is None else max(best, v)
            if best is None or (not rules.must_take and skull > best):
                return skull
            return best

        @cache
        def after_keep(kept: tuple[int, ...], left: int) -> Fraction:
            outcomes = list(itertools.product(range(faces), repeat=dice - len(kept)))
            total = sum(shown(tuple(sorted(kept + o)), left - 1) for o in outcomes)
            return Fraction(total, len(outcomes))

        @cache
        def shown(dice_now: tuple[int, ...], left: int) -> Fraction:
            if left == 0:
                return final(dice_now)
            best = None
            for mask in range(2**dice):
                kept = tuple(sorted(d for j, d in enumerate(dice_now) if mask >> j & 1))
                if dice - len(kept) < rules.min_reroll:
                    continue
                v = after_keep(kept, left)
                best = v if best is None else max(best, v)
            if rules.stop_early:
                best = max(best, final(dice_now))
            return best

        return after_keep((), rolls)

    return value


SMALL = ["barrels", "full-house"]


@pytest.fixture(scope="module")
def small() -> Game:
    return default_game().reduced(piers=SMALL, skulls=2)


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["turn", "solo", "duel"])
def test_small_board_brute_force_equals_exact_and_table(small, objective):
    brute = brute_game(small, objective)
    exact = exact_game(small, objective)
    table = solve_table(small, objective)
    for levels, skulls in all_states(small):
        b = brute(levels, skulls)
        assert b == exact(levels, skulls), (levels, skulls)
        assert float(b) == pytest.approx(table[skulls, small.code(levels)], abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "piers", "direction"),
    [
        ("may-take-skull", ["anchors", "full-house"], 1),
        ("five-kind-full-house", ["full-house", "five-of-a-kind"], 1),
        ("exact-kind", ["three-of-a-kind", "four-of-a-kind"], -1),
        ("reroll-at-least-one", ["barrels", "full-house"], -1),
        ("full-house-pair-any", ["full-house"], 1),
    ],
)
def test_variants_brute_force_equals_exact(variant, piers, direction):
    """Each reading is solvable, matches the brute force, and moves the value as it must
    (more choices: not lower; fewer qualifying dice or forced rerolls: lower)."""
    game = Game.load(None, (variant,)).reduced(piers=piers, skulls=1)
    brute, exact = brute_game(game, "solo"), exact_game(game, "solo")
    for levels, skulls in all_states(game):
        assert brute(levels, skulls) == exact(levels, skulls), (variant, levels)
    base = exact_game(default_game().reduced(piers=piers, skulls=1), "solo")(*game.opening)
    diff = exact(*game.opening) - base
    assert diff * direction >= 0
    if variant != "may-take-skull":
        assert diff != 0


@pytest.mark.slow
def test_opening_turn_on_full_board_exact():
    """The full board's opening turn: brute force = exact lattice = float kernel."""
    game = default_game()
    one_turn = game.reduced(skulls=1)  # one skull: every state after the first turn is over
    brute = brute_game(one_turn, "turn")(*game.opening)
    assert brute == exact_game(game, "turn")(*game.opening)
    assert float(brute) == pytest.approx(solve_table(one_turn, "turn")[0, 0], abs=1e-12)
    assert 2 < brute < 3


def test_stop_early_changes_nothing_exactly(small):
    base = exact_game(small, "solo")
    never = exact_game(Game.load(None, ("no-early-stop",)).reduced(piers=SMALL, skulls=2), "solo")
    for levels, skulls in all_states(small):
        assert base(levels, skulls) == never(levels, skulls)


def test_reroll_at_least_one_does_change_values(small):
    strict = Game.load(None, ("reroll-at-least-one",)).reduced(piers=SMALL, skulls=2)
    assert exact_game(strict, "solo")(*strict.opening) < exact_game(small, "solo")(*small.opening)
