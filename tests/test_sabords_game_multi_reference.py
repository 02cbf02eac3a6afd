"""Self-checks of the independent N-player reference solver (tests/sabords_game_multi_reference.py).

Each check computes something a second way: the two-player reference for N = 2, fractions by
hand for one die, the two-player reference's own turn solver for a last turn that only has to
beat the leader, the brute-force points optimum for the tie rule, and the regret certificate.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from tests import sabords_bruteforce as brute
from tests.sabords_game_multi_reference import (
    MultiGame,
    Outcomes,
    Solver,
    best_turn,
    deck_turn,
    mixed_states,
    one_blas_thread,
    regret_n,
    solve_reference_n,
    solve_solver,
    table,
    tie_rule_states,
)
from tests.sabords_game_reference import (
    DECK,
    POINT_MIN,
    Utility,
    deck_value,
    solve_reference,
    turn_models,
)

T, L = 500, 0  # the three-player game of these tests: 3 dice, target 500, floor zero


@pytest.fixture(scope="module")
def three():
    return solve_solver(3, 3, T, L)


@pytest.fixture(scope="module")
def three_table(three) -> dict:
    return table(three)


@pytest.mark.slow
def test_same_equilibrium_from_points_play(three) -> None:
    """Policy iteration started from points play (not from best responses to even values)
    ends at the same play and values: no second equilibrium found this way."""
    other = solve_solver(3, 3, T, L, start="points")
    assert other.sweeps != three.sweeps  # another path ...
    assert np.abs(other.values - three.values).max() < 1e-14  # ... to the same table
    assert np.abs(other.dist - three.dist).max() < 1e-12


@pytest.mark.slow
def test_two_players_equal_the_two_player_reference() -> None:
    """N = 2 is the two-player game: normal, race = sudden death, final(1) = the last turn."""
    ours = solve_reference_n(2, 3, 400, -200)
    with one_blas_thread():
        ref = solve_reference(3, 400, -200)
    name = {"normal": "normal", "race": "sudden-death", "final": "last"}
    assert {(name[k[0]], *k[-1]) for k in ours} == set(ref)
    for key, (mine, other) in ours.items():
        assert mine == pytest.approx(ref[(name[key[0]], *key[-1])], abs=1e-10), key
        assert mine + other == pytest.approx(1.0, abs=1e-12), key


@pytest.mark.slow
def test_two_players_new_final_round_equals_the_reference() -> None:
    variants = ("endgame-new-final-round",)
    ours = solve_reference_n(2, 3, 300, -100, variants)
    with one_blas_thread():
        ref = solve_reference(3, 300, -100, variants)
    name = {"normal": "normal", "race": "sudden-death", "final": "last"}
    for key, (mine, _) in ours.items():
        assert mine == pytest.approx(ref[(name[key[0]], *key[-1])], abs=1e-10), key


def _rot(v: tuple) -> tuple:
    """The next state's values in the current positions: (v[2], v[0], v[1])."""
    return (v[2], v[0], v[1])


def _add(*terms: tuple[Fraction, tuple]) -> tuple:
    return tuple(sum(p * v[j] for p, v in terms) for j in range(3))


def test_one_die_three_players_by_hand() -> None:
    """One die, target 100, floor zero, three players. No reroll (it moves two dice), no
    Island (at most 1 + 2 skulls), so a turn is a fixed distribution of points (see the
    two-player test): P(1200) = 4/105, P(700) = 8/105, P(600) = 12/105, P(100) = 21/105,
    P(nothing) = 4/7. Every score below the target is 0.
      race: R = (3/7, 0, 0) + 4/7 rot(R), so R = (49, 28, 16) / 93;
      last turn (0, t, x): the highest of (d, t, x) wins, ties shared; with t = x = 0 and
        nothing scored, the race starts with the trigger: the mover gets R[2];
      final(2) (0, 0, t): rot(F1(t, d)); normal: N = A + 4/7 rot(N), A = sum P(d) rot(F2(d)),
        so N = (A + 4/7 rot(A) + 16/49 rot(rot(A))) / (1 - 64/343)."""
    dist = {12: Fraction(4, 105), 7: Fraction(8, 105), 6: Fraction(12, 105),
            1: Fraction(21, 105)}
    q0 = 1 - sum(dist.values())
    assert q0 == Fraction(4, 7)
    race = tuple(Fraction(x, 93) for x in (49, 28, 16))
    assert race == _add((Fraction(3, 7), (1, 0, 0)), (q0, _rot(race)))

    def shares(scores: tuple[int, ...]) -> tuple:
        best = max(scores)
        tied = scores.count(best)
        return tuple(Fraction(1, tied) if s == best else Fraction(0) for s in scores)

    def last(t: int, x: int) -> tuple:
        after = [(p, shares((d, t, x))) for d, p in dist.items()]
        stay = (race[2], race[0], race[1]) if t == x == 0 else shares((0, t, x))
        return _add(*after, (q0, stay))

    def final2(t: int) -> tuple:
        after = [(p, _rot(last(t, d))) for d, p in dist.items()]
        return _add(*after, (q0, _rot(last(t, 0))))

    a = _add(*[(p, _rot(final2(d))) for d, p in dist.items()])
    normal = tuple(x / (1 - q0**3) for x in _add(
        (Fraction(1), a), (q0, _rot(a)), (q0**2, _rot(_rot(a)))))
    values = solve_reference_n(3, 1, 100, 0)
    expect = {("race", (0, 0, 0)): race, ("normal", (0, 0, 0)): normal}
    expect |= {("final", 2, (0, 0, 100 * t)): final2(t) for t in range(1, 13)}
    expect |= {("final", 1, (0, 100 * t, 100 * x)): last(t, x)
               for t in range(13) for x in range(13)}
    assert set(values) == set(expect)
    for key, want in expect.items():
        assert values[key] == pytest.approx([float(w) for w in want], abs=1e-14), key
    assert last(0, 0)[0] == Fraction(3, 7) + q0 * Fraction(16, 93)
    assert regret_n(3, 1, 100, 0, values) == pytest.approx(dict.fromkeys(values, 0.0), abs=1e-14)


def test_values_are_probabilities_summing_to_one(three_table) -> None:
    for key, v in three_table.items():
        assert all(-1e-14 <= x <= 1 + 1e-14 for x in v), key
        assert sum(v) == pytest.approx(1.0, abs=1e-12), key


def test_own_table_has_no_regret(three, three_table) -> None:
    """A pure equilibrium (no state mixes in this game): nobody gains by changing a turn."""
    assert mixed_states(three) == {}
    regret = regret_n(3, 3, T, L, three_table)
    assert set(regret) == set(three_table)
    assert max(abs(r) for r in regret.values()) < 1e-12


def test_regret_sees_a_wrong_value(three_table) -> None:
    """A state that claims 0.01 too much for its mover has regret -0.01; a mover who lands
    there with a value 0.01 too low gets less than the table says."""
    wrong = {k: v for k, v in three_table.items() if k[0] == "normal" or k[:2] == ("final", 2)}
    key = ("normal", (300, 200, 100))
    wrong[key] = (wrong[key][0] + 0.01, wrong[key][1], wrong[key][2] - 0.01)
    regret = regret_n(3, 3, T, L, wrong, strict=False)  # final(2) is skipped: no final(1)
    assert {k[0] for k in regret} == {"normal"}
    assert regret[key] == pytest.approx(-0.01, abs=1e-12)
    # the mover at (100, 300, 200) lands there, as its third player, by scoring nothing
    before = ("normal", (100, 300, 200))
    assert regret[before] < -1e-4
    with pytest.raises(KeyError):
        regret_n(3, 3, T, L, {key: wrong[key]})
    assert regret_n(3, 3, T, L, {key: wrong[key]}, strict=False) == {}


def test_last_turn_beating_the_leader(three_table) -> None:
    """Last turn of the final round where even the largest Island (500 with 3 dice) leaves the
    leader at or above T: the mover's value is the turn's best chance of ending above the
    leader's score H (a tie with c others at H is worth 1 / (c + 1)), solved by the
    two-player reference's turn solver."""
    models = turn_models(3)
    loss = Outcomes(models).losses[-1] * 100
    assert loss == 500
    states = [k for k in three_table if k[0] == "final" and k[1] == 1
              and max(k[2][1:]) - loss >= T]
    top = max(m.max_points() for m in models.values())
    points = np.arange(POINT_MIN, top + 1, 100)
    beat = np.zeros((len(states), len(points)))
    for g, (_, _, (m, *others)) in enumerate(states):
        high = max(others)
        mine = np.maximum(L, m + points)
        beat[g] = np.where(mine > high, 1.0, np.where(mine == high, 1 / (1 + others.count(high)),
                                                      0.0))
    util = Utility(beat, np.zeros((len(states), loss // 100 + 1)), np.ones(len(states)))
    with one_blas_thread():
        direct = deck_value(models, util)
    assert len(states) > 500
    for key, want in zip(states, direct, strict=True):
        assert three_table[key][0] == pytest.approx(want, abs=1e-12), key
    assert three_table[("final", 1, (0, 2200, 0))][0] == 0.0  # 2300 is beyond the best, 1800
    assert three_table[("final", 1, (400, 2200, 2200))][0] > 0  # a tie at 2200: captain CCC


def test_race_at_equal_scores_favours_the_mover(three_table) -> None:
    """In the race at equal scores the first to play is ahead of the second, and the second of
    the third; the normal phase's seats move with the same scores rotated."""
    for s in range(L, T, 100):
        first, second, third = three_table[("race", (s, s, s))]
        assert first > second > third, s


def test_tie_rule_takes_the_most_points() -> None:
    """With nothing to gain (every outcome worth 0 to the mover), every turn ties, and the tie
    rule plays the turn of the most expected points: the brute-force points optimum."""
    models = turn_models(3)
    out = Outcomes(models)
    value, dist = deck_turn(models, out, np.zeros((1, out.size)))
    assert value[0] == 0.0
    top = max(m.max_points() for m in models.values())
    util = Utility(np.arange(POINT_MIN, top + 1, 100, dtype=float)[None, :] / 100,
                   np.zeros((1, out.losses[-1] + 1)), np.ones(1))
    assert dist[0] @ out.own == pytest.approx(deck_value(models, util)[0], abs=1e-12)
    assert dist.sum() == pytest.approx(1.0, abs=1e-14)
    # without the tie rule every tie stops at once: the first roll's points, by brute force
    _, first = deck_turn(models, out, np.zeros((1, out.size)), ties=False)
    stop_now = 0.0
    for card, count in DECK.items():
        for roll in product(brute.FACES, repeat=3):
            skulls = brute.skulls(roll, card)
            points = (0 if skulls >= 4 and card not in brute.BATTLE
                      else brute.bust_score(roll, card) if skulls >= 3
                      else brute.stop_score(roll, card))
            stop_now += count / sum(DECK.values()) * points / 6**3 / 100
    assert first[0] @ out.own == pytest.approx(stop_now, abs=1e-12)
    assert stop_now < dist[0] @ out.own - 0.5


class _QuitOrGoOn:
    """A toy three-player cycle for the equilibrium machinery (no dice): the mover quits
    (the game ends with (0.4, 0, 0.6) for mover, next, last) or goes on (0.9: the next player
    moves; 0.1: the game ends in a three-way tie). If all quit, going on is better; if all go
    on, quitting is better: no symmetric pure equilibrium, policy iteration cycles."""

    n, rot = 3, [2, 0, 1]
    quit = np.array([1.0, 0.0, 0.0])
    go_on = np.array([0.0, 0.9, 0.1])

    class out:  # noqa: N801 - the Outcomes attribute the solver reads
        size = 3

    def keys(self) -> list:
        return [("toy", (i,)) for i in range(3)]

    def links(self, keys: list, index: dict) -> tuple[np.ndarray, np.ndarray]:
        nxt = np.array([[-1, (r + 1) % 3, -1] for r in range(len(keys))])
        end = np.array([[(0.4, 0.0, 0.6), (0, 0, 0), (1 / 3, 1 / 3, 1 / 3)]] * len(keys))
        return nxt, end

    next_values = MultiGame.next_values


class _ToySolver(Solver):
    def best(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        u = self.utility(rows)[..., 0]
        q, g = u @ _QuitOrGoOn.quit, u @ _QuitOrGoOn.go_on
        pick = np.where((g > q + 1e-12)[:, None], _QuitOrGoOn.go_on, _QuitOrGoOn.quit)
        return np.maximum(q, g), pick


def test_cycling_best_responses_mix_to_indifference() -> None:
    """Policy iteration flips every state between quitting and going on; the solver mixes
    them with the weight that makes each mover indifferent. By hand, with p the chance to
    quit: the mover gets 0.4 either way, so v2 = (0.4 - 1/30) / 0.9 for the last player;
    v1 = (1 - p)(1/30 + 0.9 * 0.4) and v2 = 0.6 p + (1 - p)(1/30 + 0.9 v1) give p."""
    solver = _ToySolver(_QuitOrGoOn())
    solver.equilibrium(np.arange(3))
    assert sorted(solver.mixed) == [0, 1, 2]
    v2 = (0.4 - 1 / 30) / 0.9
    lo, hi = 0.0, 1.0  # v2(p) - v2 is increasing in p: bisection
    for _ in range(100):
        p = (lo + hi) / 2
        v1 = (1 - p) * (1 / 30 + 0.36)
        if 0.6 * p + (1 - p) * (1 / 30 + 0.9 * v1) < v2:
            lo = p
        else:
            hi = p
    for r in range(3):
        assert solver.dist[r, 0] == pytest.approx(p, abs=1e-9)  # the chance to quit
        assert solver.values[r] == pytest.approx([0.4, (1 - p) * (1 / 30 + 0.36), v2],
                                                 abs=1e-12)
    value, _ = solver.best(np.arange(3))
    assert np.abs(value - solver.values[:, 0]).max() < 1e-12  # no regret


@pytest.mark.slow
def test_three_players_new_final_round() -> None:
    """endgame-new-final-round (target 300): an equilibrium without regret; the race (never
    reached now, and never returning to the final round) and every last turn where no Island
    can drop the leader below the target are as in the default reading; normal play moves."""
    variants = ("endgame-new-final-round",)
    solver = solve_solver(3, 3, 300, 0, variants)
    values = table(solver)
    assert mixed_states(solver) == {}
    assert tie_rule_states(solver) == {}  # no exact tie that matters to the others
    regret = regret_n(3, 3, 300, 0, values, variants)
    assert max(abs(r) for r in regret.values()) < 1e-12
    default = table(solve_solver(3, 3, 300, 0, start="points"))
    assert set(values) == set(default)
    for key, v in values.items():
        if key[0] == "race" or (key[:2] == ("final", 1) and max(key[2][1:]) - 500 >= 300):
            assert v == pytest.approx(default[key], abs=1e-14), key
    assert max(abs(values[k][0] - default[k][0]) for k in values if k[0] == "normal") > 1e-6


def test_four_players_one_die() -> None:
    """Four players, one die, target 100: the race is won by the first to score (3/7 a
    turn), so the seats get 3/7 (4/7)^j / (1 - (4/7)^4); every state sums to 1 and the
    table has no regret."""
    values = solve_reference_n(4, 1, 100, 0)
    q = 4 / 7
    assert values[("race", (0, 0, 0, 0))] == pytest.approx(
        [3 / 7 * q**j / (1 - q**4) for j in range(4)], abs=1e-14)
    assert all(sum(v) == pytest.approx(1.0, abs=1e-12) for v in values.values())
    assert len([k for k in values if k[0] == "final"]) == 12 + 13**2 + 13**3
    regret = regret_n(4, 1, 100, 0, values)
    assert max(abs(r) for r in regret.values()) < 1e-14


@pytest.mark.parametrize("dice", [3, 4])
def test_turn_distribution_matches_the_reference_turn(dice: int) -> None:
    """For random utilities of the outcomes: each card's optimal value is the two-player
    reference's (its own policy iteration), and the outcome distribution of the play found
    sums to 1 and is worth that value."""
    models = turn_models(dice)
    out = Outcomes(models)
    u = np.random.default_rng(7).random((40, out.size))
    npts, nisl = len(out.points), len(out.losses)
    util = Utility(u[:, :npts], u[:, npts:npts + nisl], u[:, -1])
    with one_blas_thread():
        for card, model in models.items():
            value, dist = best_turn(model, out, u)
            assert value == pytest.approx(model.value(util), abs=1e-12), card
            assert dist.sum(axis=1) == pytest.approx(np.ones(40), abs=1e-12), card
            assert (dist * u).sum(axis=1) == pytest.approx(value, abs=1e-11), card
            assert dist.min() >= -1e-15
