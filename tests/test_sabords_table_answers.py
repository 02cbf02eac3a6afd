"""Answers about the whole table (solver.sabords.game.table.positions, through the same queries the
command line and the web call): positions, their phases, and what to hold, on a reduced game
(three dice) so that the table solves in seconds."""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import InputError
from solver.sabords.answers import _table_hold, game_answer
from solver.sabords.game.table.equilibrium import solve_table
from solver.sabords.game.table.positions import parse_scores, phase_of
from solver.sabords.game.table.states import NORMAL, RACE, Layout, TableSpec, final
from solver.sabords.game.two_player import GameSpec

ARGS = {"target": 500, "variants": ("score-floor-zero",)}
_solved: dict = {}


def reduced(spec: TableSpec):
    """The table the queries ask for, solved with three dice (cached for the module)."""
    key = (spec.players, spec.game.target)
    if key not in _solved:
        small = GameSpec(spec.rules.with_dice(3), spec.game.target, spec.game.low)
        _solved[key] = solve_table(TableSpec(small, spec.players))
    return _solved[key]


def no_two_player_table(spec):
    raise AssertionError("a three-player question asked for the two-player table")


def test_headline_three_players() -> None:
    head = game_answer(no_two_player_table, players=3, whole=reduced, **ARGS)
    assert head["players"] == 3 and head["exact"] is True
    assert sum(head["seat_wins"]) == pytest.approx(1.0, abs=1e-12)
    assert sum(head["points_play"]["seat_wins"]) == pytest.approx(1.0, abs=1e-12)
    assert head["regret"] < 1e-12


def test_position_reads_the_table() -> None:
    answer = game_answer(no_two_player_table, scores="200,400,300", whole=reduced, **ARGS)
    solution = _solved[(3, 500)]
    expected = solution.wins(NORMAL, [2, 4, 3])
    assert answer["phase"] == NORMAL and answer["wins"] == pytest.approx(expected, abs=0)
    assert answer["win"] == answer["wins"][0]


def test_position_with_a_card_averages_to_the_table() -> None:
    """Each card's value, weighted by the deck, is the value before the card."""
    solution = reduced(TableSpec.of(_rules(), 3, 500))
    deck = solution.layout.deck
    total = np.zeros(3)
    for card, weight in zip(deck.cards, deck.weights, strict=True):
        answer = game_answer(no_two_player_table, scores="200,400,300", card=card,
                             whole=reduced, **ARGS)
        total += weight * np.array(answer["wins"])
    assert total == pytest.approx(solution.wins(NORMAL, [2, 4, 3]), abs=1e-12)


def _rules():
    from solver.sabords.rules import load_rules

    return load_rules(("score-floor-zero",))


def test_phases_of_positions() -> None:
    layout = Layout(TableSpec.of(_rules(), 3, 500))
    assert phase_of(layout, (200, 400, 300)) == (NORMAL, (2, 4, 3))
    assert phase_of(layout, (200, 600, 300))[0] == final(1)  # the trigger just before me
    assert phase_of(layout, (200, 300, 600))[0] == final(2)  # one more last turn after mine
    assert phase_of(layout, (200, 300, 700), trigger=2)[0] == final(1)  # 3 has played
    assert phase_of(layout, (200, 300, 400), race=True)[0] == RACE
    bad = [((200, 600, 700), {}), ((600, 300, 200), {}), ((250, 300, 200), {}),
           ((200, 300), {}), ((200, 300, 400), {"trigger": 4}),
           ((200, 600, 300), {"race": True}), ((200, 700, 300), {"trigger": 3}),
           ((-100, 300, 200), {})]
    for scores, flags in bad:
        with pytest.raises(InputError):
            phase_of(layout, scores, **flags)
    with pytest.raises(InputError):
        parse_scores("200,x,300")


def test_hold_ranks_options_by_the_table() -> None:
    """The reduced game's own rules (three dice), so that the roll has three dice."""
    spec = GameSpec(_rules().with_dice(3), 500)
    advice = _table_hold(lambda ts: reduced(TableSpec(GameSpec(_rules(), 500), 3)),
                         no_two_player_table, spec, (200, 400, 300), None, False, "none", "CCX")
    assert advice["objective"] == "win" and advice["scores"] == [200, 400, 300]
    values = [o["value"] for o in advice["options"]]
    assert values == sorted(values, reverse=True)
    assert advice["best"]["value"] == values[0]
    assert 0.0 <= advice["points_best"]["win"] <= advice["value"] + 1e-15


def test_hold_with_scores_prints_for_people(capsys) -> None:
    """The text of an exact three-player hold names the scores (it used to fail looking for
    a two-player position)."""
    from solver.sabords.answer_text import game_hold_text

    spec = GameSpec(_rules().with_dice(3), 500)
    advice = _table_hold(lambda ts: reduced(TableSpec(GameSpec(_rules(), 500), 3)),
                         no_two_player_table, spec, (200, 400, 300), None, False, "none", "CCX")
    game_hold_text(advice, False)
    out = capsys.readouterr().out
    assert "scores 200,400,300" in out and "not exact" not in out


def test_an_unsettled_table_says_so_in_every_answer(capsys) -> None:
    """A table whose settling did not converge (as at 6000, floor 0) answers with its best
    round's play: its headline, positions and holds say "not settled", never "exact"."""
    from dataclasses import replace

    from solver.sabords.answer_text import game_hold_text, game_text

    solved = reduced(TableSpec.of(_rules(), 3, 500))
    unsettled = replace(solved, stats={**solved.stats, "converged": False, "regret": 6.2e-8})
    head = game_answer(no_two_player_table, players=3, whole=lambda s: unsettled, **ARGS)
    where = game_answer(no_two_player_table, scores="200,400,300", whole=lambda s: unsettled,
                        **ARGS)
    spec = GameSpec(_rules().with_dice(3), 500)
    advice = _table_hold(lambda ts: unsettled, no_two_player_table, spec, (200, 400, 300),
                         None, False, "none", "CCX")
    assert head["solve"]["converged"] is False
    assert head["settled"] is where["settled"] is advice["settled"] is False
    assert where["regret"] == advice["regret"] == 6.2e-8
    game_text(head, None)
    game_text(where, None)
    game_hold_text(advice, False)
    out = capsys.readouterr().out
    assert out.count("not settled: the best settling round's play, largest regret 6.2e-08") == 3
    assert "exact: largest regret" not in out
    settled = game_answer(no_two_player_table, scores="200,400,300", whole=reduced, **ARGS)
    assert settled["settled"] is True
    game_text(settled, None)
    assert "not settled" not in capsys.readouterr().out


def two_player(spec: GameSpec):
    """The two-player table the four- and five-player rule reads (eight dice: target 500 is
    25 score pairs), solved once for the module."""
    from solver.sabords.game.solved import load_game

    return load_game(spec)


@pytest.mark.slow
def test_four_players_play_the_rule_labelled() -> None:
    head = game_answer(two_player, players=4, whole=reduced, **ARGS)
    assert head["exact"] is False and head["rule"] == "leader"
    assert len(head["seat_wins"]) == 4 and "regret" not in head
    assert sum(head["seat_wins"]) == pytest.approx(1.0, abs=1e-12)
    assert max(head["standard_errors"]) < 0.004
    answer = game_answer(two_player, scores="300,400,200,100", whole=reduced, **ARGS)
    assert answer["exact"] is False and answer["phase"] == NORMAL
    assert len(answer["wins"]) == 4 and answer["win"] == answer["wins"][0]
    with pytest.raises(InputError, match="before the card"):
        game_answer(two_player, scores="300,400,200,100", card="captain", whole=reduced,
                    **ARGS)
    with pytest.raises(InputError, match="--players 3 but 2 scores"):
        game_answer(two_player, players=3, scores="100,200", whole=reduced, **ARGS)


@pytest.mark.slow
def test_three_players_past_the_exact_tables_play_the_rule_and_say_why(monkeypatch) -> None:
    """A three-player table larger than this version solves is answered by the rule, labelled
    with why, as four players are; within the limit the same question is exact."""
    from solver.sabords.answer_text import rule_note
    from solver.sabords.answers import answered_by_rule
    from solver.sabords.game.table import states

    assert not answered_by_rule(3, **ARGS) and answered_by_rule(4, **ARGS)
    monkeypatch.setattr(states, "MAX_STATES", 10)
    assert answered_by_rule(3, **ARGS) and not answered_by_rule(2, **ARGS)
    head = game_answer(two_player, players=3, whole=no_whole_table, **ARGS)
    assert head["exact"] is False and head["rule"] == "leader" and len(head["seat_wins"]) == 3
    assert "states; this version solves up to 10" in head["beyond_exact"]
    assert "why not exact: the exact 3-player table at target 500" in rule_note(head)
    answer = game_answer(two_player, scores="300,400,200", whole=no_whole_table, **ARGS)
    assert answer["exact"] is False and "beyond_exact" in answer and len(answer["wins"]) == 3
    from solver.sabords.answers import hold_answer

    advice = hold_answer("captain", "CCDMPSXX", two_player, scores="300,400,200",
                         whole=no_whole_table, **ARGS)
    assert advice["exact"] is False and advice["rule_position"]["leader"] == 400
    four = game_answer(two_player, players=4, whole=no_whole_table, **ARGS)
    assert "beyond_exact" not in four and "why not" not in rule_note(four)


def no_whole_table(spec):
    raise AssertionError("a question the rule answers asked for an exact table")


def test_four_player_hold_is_the_two_player_hold_against_the_leader() -> None:
    from solver.sabords.answers import hold_answer

    advice = hold_answer("captain", "CCDMPSXX", two_player, scores="300,400,200,100",
                         whole=reduced, **ARGS)
    direct = hold_answer("captain", "CCDMPSXX", two_player, me=300, opponent=400, **ARGS)
    assert advice["exact"] is False and advice["rule_position"]["leader"] == 400
    assert advice["options"] == direct["options"]
    last = hold_answer("captain", "CCDMPSXX", two_player, scores="300,200,600,700",
                       trigger=3, whole=reduced, **ARGS)
    assert last["rule_position"] == {"phase": "last", "me": 300, "leader": 700}


@pytest.mark.parametrize("argv", [
    ["sabords", "game", "--me", "100", "--opponent", "200", "--opponent", "300"],
    ["sabords", "game", "--scores", "100,x"],
    ["sabords", "game", "--scores", "100"],
    ["sabords", "game", "--scores", "100,200,300,400,500,600"],
    ["sabords", "game", "--players", "7"],
    ["sabords", "game", "--scores", "100,200", "--me", "100"],
    ["sabords", "game", "--scores", "100,6200,6300"],
    ["sabords", "game", "--scores", "150,200,300"],
    ["sabords", "game", "--race", "--me", "100", "--opponent", "200"],
    ["sabords", "hold", "--scores", "100,200,300", "--trigger", "5", "CCDMPSXX"],
])
def test_bad_positions_are_one_line(argv, capsys) -> None:
    from tests.cli_helpers import run

    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_cache_entry_that_is_not_this_table_is_rebuilt(capsys) -> None:
    """A whole entry (checksum right) holding other arrays is solved again, not trusted."""
    from solver.cache import load_or_build
    from solver.sabords.game.table.positions import _table_entry, load_table, table_path

    spec = TableSpec.of(_rules().with_dice(3), 3, 300)
    kind, key, label = _table_entry(spec)
    path = table_path(spec)
    if path is None:
        pytest.skip("no usable cache folder")
    load_or_build(kind, key, lambda: {"values": np.zeros(1)}, rebuild=True, label=label)
    solution = load_table(spec)
    assert "does not hold this table; rebuilding it" in capsys.readouterr().err
    fresh = solve_table(spec)
    assert solution.values[:solution.layout.states] == pytest.approx(
        fresh.values[:fresh.layout.states], abs=0)
    again = load_table(spec)  # the rebuilt entry is read back as it was written
    assert np.array_equal(again.values, solution.values)
