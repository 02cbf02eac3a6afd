"""Self-checks of the independent two-player reference solver (tests/sabords_game_reference.py).

The turn is re-solved here a second way (ordered dice, hold masks, dense value iteration) so
that the reference's block policy iteration and its game bookkeeping are both checked: every
returned value must satisfy its Bellman equation when the next states' values are read back
from the returned table with the game rules written out again below.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest

from tests import sabords_bruteforce as brute
from tests.sabords_game_reference import (
    DECK,
    POINT_MIN,
    Utility,
    solve_reference,
    tie_break_value,
    turn_models,
)

T, L = 500, -300
Outcome = tuple[str, int]  # ("points", d) | ("island", loss) | ("nine", 0)


@cache
def rerolls(card: str, n: int) -> tuple[list, np.ndarray, list, list[int]]:
    """The turn's live (mode, sorted dice) states and one row per (state, distinct reroll):
    the probabilities of landing on each live state, and (bust probability, kept dice).
    Rows come grouped by state (owner: the state's position)."""
    sorceress = card == "sorceress"
    modes = (0, 1) if sorceress else (0,)
    dice_states = sorted({tuple(sorted(r)) for r in product(brute.FACES, repeat=n)})
    live = [(m, s) for m in modes for s in dice_states if brute.skulls(s, card) < 3]
    index = {ms: i for i, ms in enumerate(live)}
    rows, busts, owner = [], [], []
    for m, s in live:
        seen = set()
        for mask in range(1, 1 << n):
            rolled = [s[i] for i in range(n) if mask >> i & 1]
            kept = tuple(s[i] for i in range(n) if not mask >> i & 1)
            freed = rolled.count("X")
            if len(rolled) < 2 or not kept or freed > (1 if sorceress and m == 0 else 0):
                continue
            nxt = 1 if freed else m
            if (kept, nxt) in seen:
                continue
            seen.add((kept, nxt))
            row, p_bust = np.zeros(len(live)), 0.0
            for roll in product(brute.FACES, repeat=len(rolled)):
                new = tuple(sorted(kept + roll))
                if brute.skulls(new, card) < 3:
                    row[index[(nxt, new)]] += 6.0 ** -len(rolled)
                else:
                    p_bust += 6.0 ** -len(rolled)
            rows.append(row)
            busts.append((p_bust, kept))
            owner.append(index[(m, s)])
    return live, np.array(rows).reshape(len(rows), len(live)), busts, owner


def direct_turn(card: str, n: int, utility: Callable[[Outcome], np.ndarray]) -> np.ndarray:
    """Optimal expected utility of one card's turn, by dense value iteration over ordered dice.

    utility(outcome) gives, per game state, what ending the turn that way is worth. Nine of a
    kind needs eight dice, so n < 8 here."""
    assert n < 8
    live, matrix, busts, owner = rerolls(card, n)
    points = cache(lambda d: utility(("points", d)))
    stop = np.array([points(brute.stop_score(s, card)) for _, s in live])

    def bust(kept: tuple[str, ...]) -> np.ndarray:
        if card != "treasure-island":
            return points(brute.bust_score(kept, card))
        free = [d for d in kept if d != "X"]
        subsets = {tuple(d for i, d in enumerate(free) if mask >> i & 1)
                   for mask in range(1 << len(free))}
        return np.max([points(brute.stop_score(sub, card, chest_allowed=False))
                       for sub in subsets], axis=0)

    values = stop.copy()
    if owner:
        const = np.array([p * bust(kept) for p, kept in busts])
        owners, starts = np.unique(owner, return_index=True)
        while True:
            q = matrix @ values + const
            new = stop.copy()
            new[owners] = np.maximum(new[owners], np.maximum.reduceat(q, starts, axis=0))
            if np.abs(new - values).max() < 1e-15:
                break
            values = new
    start = np.zeros_like(stop[0])
    mult = 2 if card == "captain" else 1
    for roll in product(brute.FACES, repeat=n):
        s = tuple(sorted(roll))
        skulls = brute.skulls(s, card)
        if skulls >= 4 and card not in brute.BATTLE:
            start += island(skulls, n - s.count("X"), mult, utility)
        elif skulls >= 3:
            start += bust(())
        else:
            start += values[live.index((0, s))]
    return start / 6**n


def island(skulls: int, others: int, mult: int, utility) -> np.ndarray:
    """Expected utility on the Island: reroll every non-skull die while a roll shows a skull."""
    if others < 2:
        return utility(("island", 100 * mult * skulls))
    total = 0.0
    for roll in product((True, False), repeat=others):  # True: a skull, probability 1/6
        p = np.prod([1 / 6 if x else 5 / 6 for x in roll])
        new = sum(roll)
        total = total + p * (utility(("island", 100 * mult * skulls)) if new == 0
                             else island(skulls + new, others - new, mult, utility))
    return total


def direct_deck(n: int, utility: Callable[[Outcome], np.ndarray]) -> np.ndarray:
    total = sum(DECK.values())
    return sum(count / total * direct_turn(card, n, utility) for card, count in DECK.items())


def next_value(values: dict, key: tuple[str, int, int], outcome: Outcome, target: int,
               low: int, variants: tuple[str, ...] = (), tie: float = 0.5) -> float:
    """The mover's value once the turn ends with `outcome`, by the game rules (written anew)."""
    phase, me, other = key
    kind, amount = outcome
    if kind == "nine":
        return 1.0
    d, loss = (amount, 0) if kind == "points" else (0, amount)
    a, b = max(low, me + d), max(low, other - loss)
    if phase == "normal":
        return 1 - values[("last" if a >= target else "normal", b, a)]
    if phase == "sudden-death":
        return 1.0 if a >= target else 1 - values["sudden-death", b, a]
    if b >= target:
        return 1.0 if a > b else 0.0 if a < b else tie
    after = "normal" if "endgame-new-final-round" in variants else "sudden-death"
    return 1 - values[after, b, a]


def bellman_residual(values: dict, n: int, target: int, low: int,
                     variants: tuple[str, ...] = (), tie: float = 0.5) -> float:
    """Largest |value - one Bellman step from the table|, with the direct turn solver."""
    keys = sorted(values)

    @cache
    def utility(outcome: Outcome) -> np.ndarray:
        return np.array([next_value(values, k, outcome, target, low, variants, tie)
                         for k in keys])

    step = direct_deck(n, utility)
    return float(np.abs(step - np.array([values[k] for k in keys])).max())


@pytest.fixture(scope="module")
def default3() -> dict:
    return solve_reference(3, T, L)


@pytest.fixture(scope="module")
def reading3() -> Callable[[str], dict]:
    """Each alternative reading on 3 dice, solved once for the module."""
    return cache(lambda name: solve_reference(3, T, L, (name,)))


def test_turn_helper_matches_bruteforce_points() -> None:
    """With utility = own points, the turn helper is the brute force's expected points."""
    models = turn_models(3)
    top = max(m.max_points() for m in models.values())
    util = Utility(np.arange(POINT_MIN, top + 1, 100, dtype=float)[None, :],
                   np.zeros((1, 11)), np.ones(1))
    for card in DECK:
        _, start = brute.solve(card, 3)
        assert models[card].value(util)[0] == pytest.approx(float(start), rel=1e-12), card


@pytest.mark.slow
def test_default_is_a_bellman_fixed_point(default3) -> None:
    assert bellman_residual(default3, 3, T, L) < 1e-11


@pytest.mark.slow
def test_four_dice_is_a_bellman_fixed_point() -> None:
    """Four dice (keeps of one or two dice, Islands of up to 800) on a smaller game."""
    values = solve_reference(4, 300, -100)
    assert bellman_residual(values, 4, 300, -100) < 1e-11


@pytest.mark.slow
@pytest.mark.parametrize("variants", [("endgame-new-final-round",), ("score-floor-zero",)])
def test_variants_are_bellman_fixed_points(variants, reading3) -> None:
    low = 0 if "score-floor-zero" in variants else L
    values = reading3(variants[0])
    assert bellman_residual(values, 3, T, low, variants) < 1e-11


@pytest.mark.slow
def test_ties_extra_round_is_a_bellman_fixed_point(reading3) -> None:
    """The tie-break value solves its own equation, and the table uses 1 - it for a tie."""
    models = turn_models(3)
    tb = tie_break_value(models)
    leads = list(range(POINT_MIN, 2001, 100))

    def second(outcome: Outcome) -> np.ndarray:
        kind, amount = outcome
        return np.array([1.0 if kind == "nine" or amount > x else 1 - tb if amount == x
                         else 0.0 for x in leads])

    beat = dict(zip(leads, direct_deck(3, second), strict=True))
    first = direct_deck(3, lambda o: np.array([1.0 if o[0] == "nine" else 1 - beat[o[1]]]))
    assert first[0] == pytest.approx(tb, abs=1e-12)
    assert 0 < tb < 1
    values = reading3("ties-extra-round")
    assert bellman_residual(values, 3, T, L, ("ties-extra-round",), tie=1 - tb) < 1e-11


@pytest.mark.slow
def test_values_are_probabilities(default3) -> None:
    assert all(0 <= v <= 1 for v in default3.values())
    assert len(default3) == 8 * 8 * 2 + 8 * 18  # top turn with 3 dice: captain CCC, 1800


def _largest_island_loss(n: int) -> int:
    """Captain with n skulls (n >= 4) or skulls-2 with every die a skull."""
    return max(100 * (n + 2), 200 * n if n >= 4 else 0)


@pytest.mark.slow
def test_last_turn_is_a_race_to_beat_the_trigger(default3) -> None:
    """Where no Island can drop the trigger below T, the last turn is worth
    max P(points > t - m) + 1/2 P(points == t - m): computed directly for each gap."""
    safe = [(m, t) for (phase, m, t) in default3
            if phase == "last" and t - _largest_island_loss(3) >= T]
    gaps = sorted({t - m for m, t in safe})

    def race(outcome: Outcome) -> np.ndarray:
        kind, amount = outcome
        if kind == "nine":
            return np.ones(len(gaps))
        if kind == "island":
            return np.zeros(len(gaps))
        return np.array([1.0 if amount > x else 0.5 if amount == x else 0.0 for x in gaps])

    direct = dict(zip(gaps, direct_deck(3, race), strict=True))
    for m, t in safe:
        assert default3["last", m, t] == pytest.approx(direct[t - m], abs=1e-12), (m, t)
    assert default3["last", L, T + 1700] == 0.0  # a gap of 2500: beyond the best turn, 1800
    assert default3["last", T - 100, T + 1700] > 0  # a gap of 1800: a tie with Captain CCC


def test_one_die_target_100_by_hand() -> None:
    """One die, target 100, scores floored at 0: no rerolls (a reroll moves two dice), no
    Island (at most 1 + 2 skulls), so each card gives a fixed distribution of points d:
      treasure island, sorceress, monkey business: 600 (coin/diamond + chest) w.p. 1/3, else 0;
      captain: 1200 w.p. 1/3, else 0; gold, diamond: 700 w.p. 1/3, else 100 (the card alone);
      skulls-1/2: 100 w.p. 1/3 (no chest), else 0; sea battles: lost, floored to 0.
    Over the 35 cards: P(1200) = 4/105, P(700) = 8/105, P(600) = 12/105, P(100) = 21/105,
    P(d <= 0) = 60/105 = 4/7.
    last(0, t) = P(d > t) + P(d = t)/2 (no decisions); sudden death at (0, 0): any d > 0
    wins, so SD = 3/7 + 4/7 (1 - SD) = 7/11; normal at (0, 0): N = A + 4/7 (1 - N) with
    A = sum over d > 0 of P(d) (1 - last(0, d)), so N = (A + 4/7) / (11/7)."""
    dist = {1200: Fraction(4, 105), 700: Fraction(8, 105), 600: Fraction(12, 105),
            100: Fraction(21, 105)}
    values = solve_reference(1, 100, 0)

    def last(t: int) -> Fraction:
        return sum(p for d, p in dist.items() if d > t) + dist.get(t, 0) / 2

    for t in range(100, 1201, 100):
        assert values["last", 0, t] == pytest.approx(float(last(t)), abs=1e-14), t
    assert last(100) == Fraction(23, 70)
    a = sum(p * (1 - last(d)) for d, p in dist.items())
    # value iteration stops at a change below 1e-13, with errors shrinking by 4/7 a step
    assert values["normal", 0, 0] == pytest.approx(float((a + Fraction(4, 7)) * 7 / 11),
                                                   abs=1e-12)
    assert values["sudden-death", 0, 0] == pytest.approx(7 / 11, abs=1e-12)
    assert set(values) == {("normal", 0, 0), ("sudden-death", 0, 0)} | {
        ("last", 0, t) for t in range(100, 1201, 100)}


def test_sudden_death_at_least_the_chance_to_finish_now(default3) -> None:
    """Sudden death: reaching T wins at once, so a state is worth at least the best chance of
    reaching T (or nine of a kind) this very turn."""
    states = [(a, b) for (phase, a, b) in default3 if phase == "sudden-death"]

    def finish(outcome: Outcome) -> np.ndarray:
        kind, amount = outcome
        return np.array([1.0 if kind == "nine" or (kind == "points" and a + amount >= T)
                         else 0.0 for a, _ in states])

    now = direct_deck(3, finish)
    for (a, b), p in zip(states, now, strict=True):
        assert default3["sudden-death", a, b] >= p - 1e-12


def test_floor_zero_has_no_negative_state(default3, reading3) -> None:
    values = reading3("score-floor-zero")
    assert min(min(a, b) for _, a, b in values) == 0
    assert values == pytest.approx(solve_reference(3, T, 0), abs=0)
    assert values["normal", 0, 0] != pytest.approx(default3["normal", 0, 0], abs=1e-6)


def test_nine_as_set_changes_nothing_below_eight_dice(default3, reading3) -> None:
    """Nine identical symbols need eight dice and a Gold or Diamond card."""
    assert reading3("nine-as-set") == default3


def test_new_final_round_changes_only_what_follows_a_drop(default3, reading3) -> None:
    """Sudden death never returns to the last turn, so it is unchanged; a last turn where no
    Island can drop the trigger below T ends the game either way; elsewhere values move."""
    values = reading3("endgame-new-final-round")
    loss = _largest_island_loss(3)
    for key, v in default3.items():
        phase, _, t = key
        if phase == "sudden-death" or (phase == "last" and t - loss >= T):
            assert values[key] == v, key
    assert abs(values["last", 0, T] - default3["last", 0, T]) > 1e-6
    assert abs(values["normal", 0, 0] - default3["normal", 0, 0]) > 1e-9


def test_ties_extra_round_moves_last_turns_by_the_tie_break(default3, reading3) -> None:
    """A tie is worth 1 - TB instead of 1/2 to the last mover; values move that way only."""
    tb = tie_break_value(turn_models(3))
    values = reading3("ties-extra-round")
    for key, v in default3.items():
        if key[0] == "sudden-death":
            assert values[key] == v
        elif key[0] == "last" and key[2] - _largest_island_loss(3) >= T:
            assert (values[key] - v) * (0.5 - (1 - tb)) <= 1e-15, key
    assert max(abs(values[k] - default3[k]) for k in values) > 1e-6
