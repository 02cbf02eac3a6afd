"""The whole-game solver on reduced games: identities it must satisfy, its residual check,
and seeded simulations of whole games played die by die."""

from __future__ import annotations

import numpy as np
import pytest

from solver.engine import solve
from solver.sabords.game.play import match
from solver.sabords.game.points import points_play_outcomes
from solver.sabords.game.solved import bellman_residuals, solve_game
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules
from solver.sabords.turn.model import build_model
from tests import sabords_game_sim as sim
from tests.fresh_process import run_fresh

TARGET, LOW = 600, -300


@pytest.fixture(scope="module")
def five():
    """Five dice, target 600, lowest score -300: every phase is reached."""
    return solve_game(GameSpec(load_rules().with_dice(5), TARGET, LOW))


class _LastTurn:
    """A last turn's objective, written from the rules alone: beat the trigger's score (1),
    tie it (1/2), or nine of a kind (1)."""

    name = "last-turn"

    def __init__(self, gap: int) -> None:
        self.gap = gap

    def payoff(self, own, opponents, win):
        own = np.asarray(own)
        value = np.where(own > self.gap, 1.0, np.where(own == self.gap, 0.5, 0.0))
        return np.where(np.asarray(win, dtype=bool), 1.0, value)


def _last_turn_value(rules, gap: int) -> float:
    """P(score more than the gap) + 1/2 P(score exactly the gap), maximised, over the deck:
    each card's turn solved for that objective by the engine alone."""
    total = 0.0
    weights = sum(n for _, n in rules.deck)
    for card, count in rules.deck:
        model = build_model(rules.card(card), rules, _LastTurn(gap))
        sol = solve(model.problem)
        landing = model.first_roll_landing(np.where(model.problem.live[0], sol.value[0],
                                                    model.problem.terminal_value[0]))
        first = model.space.roll_probabilities(model.space.dice)[1]
        total += count / weights * float(first @ landing)
    return total


@pytest.mark.parametrize("me,trigger", [(-300, 2000), (0, 2100), (300, 2300), (500, 2600)])
def test_last_turn_is_beating_the_gap(five, me, trigger):
    """Where no Island can bring the trigger back below the target (it would take more than
    (5 + 2) skulls at 200 each), the last turn's P(win) is the turn's chance to score more
    than the gap plus half its chance to tie it."""
    rules = five.spec.rules
    assert trigger - (rules.dice + 2) * 200 >= TARGET
    expected = _last_turn_value(rules, trigger - me)
    assert abs(five.win(me, trigger, "last") - expected) < 1e-10


def test_values_are_probabilities_and_the_table_is_consistent(five):
    for table in (five.normal, five.sudden, five.last):
        assert np.all(table >= -1e-12) and np.all(table <= 1 + 1e-12)
    residual = bellman_residuals(five)
    assert max(residual.values()) < 1e-12, residual


def test_a_spot_check_sees_what_the_full_check_sees(five):
    full = bellman_residuals(five)
    spot = bellman_residuals(five, sample=20)
    assert set(spot) <= set(full) and all(spot[k] <= full[k] + 1e-15 for k in spot)
    broken = solve_game.__globals__["GameTable"](
        five.spec, five.normal.copy(), five.last.copy(), five.sudden.copy(),
        five.tiebreak.copy(), five.gap_low)
    broken.normal += 1e-6
    assert bellman_residuals(broken, sample=5)["normal"] > 5e-7


def test_the_residual_check_catches_a_wrong_value(five):
    broken = solve_game.__globals__["GameTable"](
        five.spec, five.normal.copy(), five.last.copy(), five.sudden.copy(),
        five.tiebreak.copy(), five.gap_low)
    broken.normal[4, 2] += 1e-6
    assert bellman_residuals(broken)["normal"] > 5e-7


def test_points_play_is_the_match_of_two_points_players(five):
    """Two independent evaluations of points play agree: the solver's (Gauss-Seidel with
    pair steps) and the match of two fixed players (plain sweeps)."""
    points = points_play_outcomes(five.spec.rules)
    play = {name: points for name in ("normal", "last", "sudden-death")}
    first, _ = match(five, play, play)
    assert abs(first.win(0, 0) - five.stats["points_play"]["first_player_wins"]) < 1e-12


def test_optimal_play_beats_points_play_in_both_seats(five):
    versus = five.stats["optimal_vs_points"]
    assert versus["a_first"] > five.first_player_wins
    assert versus["a_second"] > 1 - five.first_player_wins


@pytest.mark.slow
def test_each_reading_changes_what_it_should():
    rules = load_rules().with_dice(4)
    floor = solve_game(GameSpec(load_rules(["score-floor-zero"]).with_dice(4), 500, LOW))
    assert floor.spec.low == 0 and floor.normal.shape == (5, 5)
    english = solve_game(GameSpec(load_rules(["endgame-new-final-round"]).with_dice(4), 500,
                                  LOW))
    french = solve_game(GameSpec(rules, 500, LOW))
    assert np.all(english.sudden == 0)  # no sudden death under the English reading
    # with four dice a drop below the target needs an Island of four skulls: it happens
    assert abs(english.first_player_wins - french.first_player_wins) > 1e-9
    ties = solve_game(GameSpec(load_rules(["ties-extra-round"]).with_dice(4), 500, LOW))
    assert 0.0 < ties.tiebreak[0] < 1.0
    assert abs(ties.first_player_wins - french.first_player_wins) > 1e-9


GAMES = 3000


@pytest.mark.slow
@pytest.mark.parametrize("seat", [0, 1])
def test_simulated_games_agree_with_the_table(five, seat):
    """Whole games played die by die, seeded: optimal against optimal, and optimal against
    points play in both seats, within four standard errors of the exact values."""
    rng = np.random.default_rng(11 + seat)
    optimal = sim.Player("optimal", five)
    points = sim.Player("points", five)
    players = (optimal, optimal) if seat == 0 else (points, optimal)
    results = np.array([sim.play_game(rng, players, five) for _ in range(GAMES)])
    versus = five.stats["optimal_vs_points"]
    exact = five.first_player_wins if seat == 0 else 1.0 - versus["a_second"]
    error = results.std(ddof=1) / np.sqrt(GAMES)
    assert abs(results.mean() - exact) < 4 * error, (results.mean(), exact, error)


def test_the_outcome_level_simulation_agrees_with_the_table(five):
    """The deck report's simulator, with independent draws, reproduces the exact value."""
    from solver.sabords.game.deck import simulate

    results = simulate(five, 100_000, 5, real_deck=False)
    error = results.std(ddof=1) / np.sqrt(len(results))
    assert abs(results.mean() - five.first_player_wins) < 4 * error


def test_rules_of_thumb_never_beat_the_exact_policy(five):
    from solver.sabords.game.report import _thumbs

    thumbs = _thumbs(five)
    assert all(t["loss"] >= -1e-12 for t in thumbs)
    assert thumbs[0]["loss"] > 1e-4  # points play gives something away
    assert thumbs[0]["loss"] >= thumbs[1]["loss"] - 1e-12 >= thumbs[2]["loss"] - 2e-12


def test_the_lowest_score_bound_is_a_probability_that_shrinks_with_the_floor():
    from solver.sabords.game.bounds import hit_probability

    rules = load_rules().with_dice(5)
    high = hit_probability(solve_game(GameSpec(rules, TARGET, -300)))
    low = hit_probability(solve_game(GameSpec(rules, TARGET, -800)))
    assert 0 < low["opening"] < high["opening"] <= 1
    # the bound from positions at least 0 is the largest over the phases; lower, it grows
    assert low["from_scores"]["0"] == max(low["normal"], low["last"], low["sudden-death"])
    assert set(low["from_scores"]) == {"0", "-500"} and set(high["from_scores"]) == {"0"}
    assert low["from_scores"]["0"] < low["from_scores"]["-500"] <= 1


def test_the_play_derived_from_a_tables_values_is_its_solved_play(five):
    """A cached table has values only: :func:`with_play` solves every state's turns again at
    those values. The play it finds is worth the table's values (a policy's value is linear
    in its payoffs), matches the solve's own play, and gives the same lowest-score bound."""
    from dataclasses import replace

    from solver.sabords.game.bounds import hit_probability
    from solver.sabords.game.solved import with_play
    from solver.sabords.turn.lanes import deck_turns

    derived = with_play(replace(five, plays=None, card_plays=None, hashes=None))
    assert set(derived.plays) >= {"normal", "sudden-death", "last"}
    for name in ("normal", "sudden-death", "last"):
        assert np.max(np.abs(derived.plays[name] - five.plays[name])) < 1e-9, name
        assert derived.card_plays[name].shape == five.card_plays[name].shape
    deck = deck_turns(five.spec.rules)
    span = five.spec.top - five.spec.bottom
    a, b = (x + five.spec.bottom for x in np.divmod(np.arange(span * span), span))
    pay = five.pay_normal(a, b, deck.own, deck.loss, deck.win)
    worth = (pay * derived.plays["normal"]).sum(axis=1)
    assert np.max(np.abs(worth - five.normal.ravel())) < 1e-12
    bound, expected = hit_probability(derived), hit_probability(five)
    assert bound.pop("from_scores") == pytest.approx(expected.pop("from_scores"), abs=1e-12)
    assert bound == pytest.approx(expected, abs=1e-12)


@pytest.mark.slow
def test_the_game_report_end_to_end(tmp_path, monkeypatch):
    """The report writer on a small game (eight dice, target 500, lowest score -600): every
    file, the verifier's fields, the proof re-verified; a second run, in a fresh process with
    an empty cache (every table solved again), and a third, reading every table from the
    cache the first one filled, both byte-identical (the proof too)."""
    import json

    from solver.sabords.game.report import READINGS, check_proof, write_game_reports

    _, written = write_game_reports(tmp_path / "one" / "reports", tmp_path / "one" / "proofs",
                                    target=500, others=(400,), low=-600, games=2000)
    reports = tmp_path / "one" / "reports"
    doc = json.loads((reports / "game.json").read_text())
    assert written == doc  # what make solve hands the verifier is what game.json holds
    assert set(doc["readings"]) >= {"endgame-new-final-round", "ties-extra-round",
                                    "nine-as-set", "score-floor-zero", "target-400"}
    for reading in doc["readings"].values():
        assert reading["unit"] == "P(first player wins)"
    assert doc["readings"]["nine-as-set"]["decisions_total"] > 0
    text = (reports / "game.md").read_text()
    assert "Rules of thumb" in text and "real deck" in text
    bound = doc["lowest_score_bound"]
    assert bound["lowest_score"] == -600 and set(bound["targets"]) == {"400", "500"}
    for phases in bound["targets"].values():
        assert 0 <= phases["opening"] <= phases["normal"] <= 1
    # every reading is solved at the headline's lowest score and has its own bound
    assert set(bound["readings"]) == set(READINGS)
    for name, phases in bound["readings"].items():
        assert phases["lowest_score"] == (0 if name == "score-floor-zero" else -600)
        assert 0 <= phases["opening"] <= phases["normal"] <= 1
    assert bound["readings"]["score-floor-zero"]["normal"] == 0.0
    assert 0 < bound["readings"]["nine-as-set"]["normal"]
    nine = doc["readings"]["nine-as-set"]
    assert nine["delta"] == pytest.approx(nine["first_player_wins"] - doc["first_player_wins"],
                                          abs=1e-11)
    assert "compared" not in bound and "`nine-as-set`" in text
    proof = tmp_path / "one" / "proofs" / "sabords" / "game-500.json"
    assert check_proof(proof) == []
    first_proof = proof.read_bytes()
    broken = json.loads(proof.read_text())
    broken["normal"][3][2] += 1e-6
    proof.write_text(json.dumps(broken))
    assert check_proof(proof) and "normal" in check_proof(proof)[0]
    # the second run in a fresh process with an empty cache: every table solved again
    two = tmp_path / "two"
    run_fresh("from pathlib import Path\n"
              "from solver.sabords.game.report import write_game_reports\n"
              f"write_game_reports(Path({str(two / 'reports')!r}), Path({str(two / 'proofs')!r}),"
              " target=500, others=(400,), low=-600, games=2000)\n",
              tmp_path / "fresh-cache")
    three = tmp_path / "three"
    write_game_reports(three / "reports", three / "proofs", target=500, others=(400,),
                       low=-600, games=2000)
    for run in (two, three):
        for name in ("game.json", "game.md", "game-heat-map.png"):
            assert (reports / name).read_bytes() == (run / "reports" / name).read_bytes(), name
        assert (run / "proofs" / "sabords" / "game-500.json").read_bytes() == first_proof


def test_a_readings_policy_cost_is_zero_against_itself_and_never_negative(five):
    from solver.sabords.game.report import _policy_cost

    same = _policy_cost(five, five)
    assert same["decisions_changed"] == 0 and same["largest_cost"] < 1e-9
    assert same["cost_at_opening"] == 0.0  # rounding below the threshold reads as none
    english = solve_game(GameSpec(load_rules(["endgame-new-final-round"]).with_dice(5), TARGET,
                                  LOW))
    cost = _policy_cost(five, english)
    assert 0 < cost["decisions_changed"] <= cost["decisions_total"]
    assert cost["largest_cost"] > 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("reading", ["ties-extra-round", "endgame-new-final-round"])
def test_a_reading_solved_from_the_defaults_table_is_the_reading_solved_from_scratch(five,
                                                                                   reading):
    """The report solves each reading from the default's table, whose first Newton step is a
    precise one (WARM_INNER): the table it reaches is the one points play's start reaches."""
    spec = GameSpec(load_rules([reading]).with_dice(5), TARGET, LOW)
    scratch, warm = solve_game(spec), solve_game(spec, start=five)
    assert abs(scratch.first_player_wins - five.first_player_wins) > 1e-9  # it starts away
    for name in ("normal", "sudden", "last", "tiebreak"):
        assert np.max(np.abs(getattr(warm, name) - getattr(scratch, name))) < 1e-12, name
    assert max(warm.stats["residual"].values()) < 1e-13
