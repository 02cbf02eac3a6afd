"""The whole table (solver.sabords.game.table): two players reproduce the two-player game's table,
three players reach a certified equilibrium, and the values behave as probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import InputError
from solver.sabords.game.solved import solve_game
from solver.sabords.game.table.equilibrium import TableSolver, regret, solve_table
from solver.sabords.game.table.states import NORMAL, RACE, TableSpec, final
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules

T, L = 500, -300


@pytest.fixture(scope="module")
def three():
    """Three players, three dice, target 500, scores floored at 0."""
    return solve_table(TableSpec.of(load_rules().with_dice(3), 3, T, 0))


@pytest.mark.parametrize("variants", [(), ("endgame-new-final-round",)])
def test_two_players_reproduce_the_two_player_table(variants) -> None:
    rules = load_rules(variants).with_dice(3)
    table = solve_game(GameSpec(rules, T, L))
    solution = solve_table(TableSpec.of(rules, 2, T, L))
    layout = solution.layout
    phases = {NORMAL: "normal", RACE: "sudden-death", final(1): "last"}
    checked = 0
    for name, phase in phases.items():
        if name not in layout.phases:
            continue
        for scores in layout.scores(name):
            if name == final(1) and scores[1] < layout.top:
                continue  # a trigger below the target before the last turn: three players only
            mine = solution.wins(name, scores)
            theirs = table.win(int(scores[0]) * 100, int(scores[1]) * 100, phase)
            assert mine[0] == pytest.approx(theirs, abs=1e-12), (name, scores)
            assert mine.sum() == pytest.approx(1.0, abs=1e-12)
            checked += 1
    assert checked > 200
    assert solution.stats["regret"] < 1e-12 and solution.stats["converged"]
    assert solution.stats["cycling"] == []


def test_first_to_target_is_the_race_from_the_start() -> None:
    """Under first-to-target-wins two players play the race of the default game from the
    first turn: the table (normal play only) equals the two-player table's race phase."""
    table = solve_game(GameSpec(load_rules().with_dice(3), T, L))
    rules = load_rules(("first-to-target-wins",)).with_dice(3)
    solution = solve_table(TableSpec.of(rules, 2, T, L))
    assert list(solution.layout.phases) == [NORMAL]
    scores = solution.layout.scores(NORMAL)
    for a, b in scores.tolist():
        mine = solution.wins(NORMAL, [a, b])
        assert mine[0] == pytest.approx(table.win(100 * a, 100 * b, "sudden-death"), abs=1e-12)
    assert len(scores) == ((T - L) // 100) ** 2


def test_three_players_certified(three) -> None:
    stats = three.stats
    assert stats["regret"] < 1e-12
    assert stats["lowest_regret"] > -1e-12  # no state is worth more than its best turn
    again = regret(three)  # every turn solved again from scratch
    assert np.max(np.abs(again)) < 1e-12
    sums = three.values[:three.layout.states].sum(axis=1)
    assert np.max(np.abs(sums - 1.0)) < 1e-12
    assert np.all(three.values >= -1e-15) and np.all(three.values <= 1 + 1e-12)


def test_three_players_seats(three) -> None:
    seats = three.seat_values()
    assert seats.sum() == pytest.approx(1.0, abs=1e-12)
    assert seats[0] > seats[1] > seats[2]  # moving first is worth something
    # points play is a way of playing: its seat values are a probability vector too
    points = np.array(three.stats["points_play"])
    assert points.sum() == pytest.approx(1.0, abs=1e-12)


def test_the_last_player_needs_to_beat_the_highest(three) -> None:
    """The last turn of the final round against scores no Island can bring below the target:
    the mover wins only by passing the highest score (three dice never make nine of a kind),
    ties shared; the leader's value is the rest."""
    layout = three.layout
    top = layout.top
    far = layout.high  # far above: no three-dice Island takes it below the target
    lead = three.wins(final(1), [0, far, top])
    assert lead[0] == pytest.approx(0.0, abs=1e-15)
    assert lead[1] == pytest.approx(1.0, abs=1e-15)


def test_spec_bounds() -> None:
    with pytest.raises(InputError):
        TableSpec.of(load_rules(), 6)
    with pytest.raises(InputError):
        TableSpec.of(load_rules(("ties-extra-round",)), 3)


def test_last_turn_against_a_safe_leader_is_the_reach_objective() -> None:
    """The last turn of the final round against a leader no Island can bring below the
    target: the mover wins by scoring more than the gap (three dice: no nine of a kind). For a
    gap no turn scores exactly (no tie is possible) that is the engine's reach objective,
    P(points >= gap), solved per card and weighted by the deck. Those states lead only to
    results, so their best turns need no other value of the table."""
    from solver.sabords.game.table.equilibrium import TableSolver
    from solver.sabords.objective import Objective
    from solver.sabords.turn.solve import solve_turn

    rules = load_rules().with_dice(3)
    solver = TableSolver(TableSpec.of(rules, 3, 300, -1000))
    layout, deck = solver.layout, solver.layout.deck
    lead = layout.top + int(deck.loss.max())  # still at or above the target after any Island
    gaps = [g for g in range(1, int(deck.own.max()) + 1) if g not in set(deck.own.tolist())
            and layout.low <= lead - g < layout.top]
    assert len(gaps) >= 3
    rows = layout.index(final(1), [[lead - g, lead, 0] for g in gaps])
    assert np.all(solver.succ[rows] >= layout.states)  # every outcome ends the game
    values = layout.empty()
    pay = values[solver.succ[rows], layout.players - 1]
    turns = deck.lanes.solve(pay, np.arange(len(rows)), deck.lanes.storage(len(rows)), 1e-14)
    for gap, wins in zip(gaps, turns.values, strict=True):
        reach = sum(w * solve_turn(card, Objective("reach", gap * 100), rules).start
                    for card, w in zip(deck.cards, deck.weights, strict=True))
        assert wins == pytest.approx(reach, abs=1e-12), gap


SLOW = pytest.mark.slow  # about 3 s CPU each; the first case stays in make test-fast


@pytest.mark.parametrize(("players", "variants", "low"), [
    (3, (), 0), pytest.param(3, (), -300, marks=SLOW),
    pytest.param(3, ("endgame-new-final-round",), 0, marks=SLOW),
    pytest.param(3, ("first-to-target-wins",), 0, marks=SLOW),
    pytest.param(2, (), -300, marks=SLOW), pytest.param(4, (), 0, marks=SLOW)])
def test_stages_reproduce_the_whole_table_iteration(players, variants, low) -> None:
    """The solve by stages (the race, each step of the final round solved once per distinct
    payoff row, normal play) finds the values and the certificate that policy iteration over
    the whole table at once finds, every state's turn solved again at every step."""
    from solver.sabords.game.points import points_play_outcomes
    from solver.sabords.game.table.equilibrium import TableSolver
    from solver.sabords.game.table.simulate import seat_values

    rules = load_rules(variants).with_dice(3)
    target = 400 if players == 4 else T
    spec = TableSpec.of(rules, players, target, low)
    solver = TableSolver(spec)
    staged = solver.solve()
    whole = TableSolver(spec).solve(staged=False)
    assert np.max(np.abs(staged.values - whole.values)) < 1e-12
    assert np.max(np.abs(staged.dist - whole.dist)) < 1e-12
    for solution in (staged, whole):
        assert solution.stats["regret"] < 1e-12 and solution.stats["converged"]
        assert np.max(np.abs(regret(solution))) < 1e-12
    points = seat_values(solver.layout, solver.stage_successors,
                         [points_play_outcomes(rules)] * players)
    for solution in (staged, whole):
        assert solution.stats["points_play"] == pytest.approx(points.tolist(), abs=1e-12)
    stages = solver.layout.stages()
    once = [stage for stage in stages if not stage.repeats]
    assert len(once) == (players - 1 if not variants else 0)
    for stage in once:  # rows that coincide are solved once
        assert solver.distinct[stage.names] < stage.stop - stage.start


def test_chained_calls_hold_every_index_once_after_its_predecessor() -> None:
    from solver.sabords.game.table.equilibrium import CHUNK, _chained

    for count in (1, 5, CHUNK, CHUNK + 1, 3 * CHUNK + 7):
        calls = _chained(count)
        assert sorted(np.concatenate(calls).tolist()) == list(range(count))
        assert all(len(c) <= CHUNK for c in calls)
        for before, call in zip(calls, calls[1:], strict=False):
            assert len(call) <= len(before)
            assert np.array_equal(call - 1, before[:len(call)])


def test_turns_started_from_their_neighbours_find_the_cold_answer(monkeypatch) -> None:
    """Each call of the first step and of a once-solved stage starts from the turns of the
    call before (a neighbouring state's policy and push memo): the table's values and play are
    those of cold starts (one call each, the chunk larger than any stage)."""
    from solver.sabords.game.table import equilibrium

    spec = TableSpec.of(load_rules(("score-floor-zero",)).with_dice(3), 3, 300)
    monkeypatch.setattr(equilibrium, "CHUNK", 10 ** 9)
    cold = solve_table(spec)
    monkeypatch.setattr(equilibrium, "CHUNK", 5)
    chained = solve_table(spec)
    assert chained.stats["stage_steps"] == cold.stats["stage_steps"]
    assert np.max(np.abs(chained.values - cold.values)) < 1e-14
    assert np.max(np.abs(chained.dist - cold.dist)) < 1e-14
    assert chained.stats["regret"] < 1e-12


def test_the_turn_cost_counts_every_turn_solved() -> None:
    """make bench's figures per stage: a repeating stage's turns solved at each step
    (``turns_solved``: every state at the first two, those whose regret bound asks for it
    after; nothing cycles here, so nothing more is solved), every solved card of each; a
    once-solved stage's distinct payoff rows at most once, each card's distinct problem once
    (fewer lanes than every card of every distinct row)."""
    from solver.sabords.game.table.equilibrium import TableSolver

    solver = TableSolver(TableSpec.of(load_rules(("score-floor-zero",)).with_dice(3), 3, 300))
    solution = solver.solve()
    assert not solution.stats["cycling"]
    cards = len(solver.lanes.solved_cards)
    for stage in solver.layout.stages():
        name = "/".join(stage.names)
        cost = solver.turn_cost[name]
        size = stage.stop - stage.start
        if stage.repeats:
            counts = solution.stats["turns_solved"][name]
            assert len(counts) == solution.stats["stage_steps"][name]
            assert counts[:2] == [size] * min(2, len(counts))
            solved = sum(counts)
            assert cost.states == solved and cost.lanes == cards * solved
        else:
            rows = solver.distinct[stage.names]
            assert 0 < cost.states <= rows
            assert cost.lanes == solver.card_problems[stage.names] < cards * rows
        assert cost.lanes <= cost.rounds and cost.seconds > 0


def test_a_card_reads_only_its_outcomes() -> None:
    """Payoffs changed outside a card's outcomes (DeckLanes.card_outcomes) leave its turn
    exactly as it was (what lets a once-solved stage solve each card's distinct problem once),
    and a payoff changed inside them changes it."""
    lanes = TableSolver(TableSpec.of(load_rules(("score-floor-zero",)).with_dice(3), 3,
                                     300)).lanes
    rng = np.random.default_rng(5)
    outcomes = lanes.deck.count
    for column, used in enumerate(lanes.card_outcomes):
        assert 0 < len(used) < outcomes
        pay = rng.random((2, outcomes))
        other = np.setdiff1d(np.arange(outcomes), used)
        pay[1, used] = pay[0, used]
        changed = pay.copy()
        changed[1, used] += 0.5  # every turn ends in one of them
        for rows in (pay, changed):
            solved = lanes.solve_cards(rows, np.full(2, column), np.arange(2),
                                       lanes.storage(2), 1e-14, 2)
            same = solved.values[0] == solved.values[1] and np.array_equal(*solved.dist)
            assert same == (rows is pay), (column, other)


def test_a_solver_solves_again_after_its_whole_table_successors_were_read() -> None:
    """Reading ``succ`` (the whole table's successors) used to hand every stage the whole
    table's rows, so that a second solve failed its check that a stage reads only what was
    solved before it; each stage now gets its own rows of ``succ``, and the same table."""
    spec = TableSpec.of(load_rules(("score-floor-zero",)).with_dice(3), 3, 400, 0)
    fresh = TableSolver(spec).solve()
    solver = TableSolver(spec)
    first = solver.solve()
    assert solver.succ.shape[0] == solver.layout.states
    for stage in solver.layout.stages():
        rows = solver.stage_successors(stage)
        assert rows.first == stage.start and len(rows.rows) == stage.stop - stage.start
    again = solver.solve()
    assert np.array_equal(again.values, first.values)
    assert np.array_equal(again.values, fresh.values)
