"""``treasure sabords game`` and ``hold --me/--opponent`` on a small game (target 500, lowest
score -300, eight dice), in-process: the JSON contract, the positions, the errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import cli, main

ARGS = ["--target", "500"]


@pytest.fixture(scope="module")
def run():
    mp = pytest.MonkeyPatch()
    mp.setattr("solver.sabords.game.two_player.DEFAULT_LOW", -300)
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, ["sabords", *args], catch_exceptions=False)

    yield invoke
    mp.undo()


@pytest.mark.slow
def test_the_headline_fields(run):
    result = run("game", *ARGS, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["target"] == 500
    assert 0.5 < doc["first_player_wins"] < 1
    assert 0 < doc["points_play"]["first_player_wins"] < 1
    assert doc["gain"] > 0
    text = run("game", *ARGS)
    assert "first player wins, optimal play" in text.stdout


def test_a_position_and_its_phases(run):
    before = json.loads(run("game", *ARGS, "--me", "0", "--opponent", "0", "--json").stdout)
    head = json.loads(run("game", *ARGS, "--json").stdout)
    assert before["win"] == head["first_player_wins"] and before["phase"] == "normal"
    last = json.loads(run("game", *ARGS, "--me", "200", "--opponent", "600", "--json").stdout)
    assert last["phase"] == "last"
    race = json.loads(run("game", *ARGS, "--me", "200", "--opponent", "400", "--sudden-death",
                          "--json").stdout)
    assert race["phase"] == "sudden-death" and race["win"] != before["win"]
    card = json.loads(run("game", *ARGS, "--me", "200", "--opponent", "600", "--card",
                          "Captain", "--json").stdout)
    assert card["card"] == "Captain" and 0 < card["win"] < 1


def test_hold_reads_the_scoreboard(run):
    result = run("hold", *ARGS, "--card", "none", "--me", "0", "--opponent", "600",
                 "CCCDMPXX", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {"best", "value", "options", "points_best"} <= set(doc)
    assert doc["value"] == max(o["value"] for o in doc["options"])
    # 500 points showing cannot beat 600 on the last turn: stopping loses, rolling may win
    assert doc["best"]["action"] == "reroll"
    stop = [o for o in doc["options"] if o["action"] == "stop"][0]
    assert stop["value"] == 0.0
    assert doc["points_best"]["action"] == "stop" and doc["points_differs"]
    text = run("hold", *ARGS, "--card", "none", "--me", "0", "--opponent", "600", "CCCDMPXX")
    assert "maximising points would stop" in text.stdout


@pytest.mark.parametrize("args,words", [
    (["--me", "150", "--opponent", "0"], "multiple of 100"),
    (["--me", "600", "--opponent", "0"], "at or above the target"),
    (["--me", "0", "--opponent", "700", "--sudden-death"], "sudden death"),
    (["--me", "0"], "both --me and --opponent"),
    (["--me", "0", "--opponent", "10000000"], "not a score"),
    (["--me", "-400", "--opponent", "0"], "below the lowest score"),
    (["--me", "0", "--opponent", "-400"], "keeps scores down to -300"),
    (["--variant", "score-floor-zero", "--me", "-100", "--opponent", "0"], "below zero"),
    (["--target", "250", "--me", "0", "--opponent", "0"], "multiple of 100"),
    (["--target", "-500", "--me", "0", "--opponent", "0"], "positive"),
])
def test_positions_that_cannot_happen_are_one_line_errors(run, args, words, capsys):
    target = [] if "--target" in args else ARGS
    with pytest.raises(SystemExit) as stop:
        main(["sabords", "game", *target, *args])
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert stop.value.code == 2
    assert len(lines) == 1 and words in lines[0], err


@pytest.mark.parametrize("me, opponent", [(200, 300), (0, 600)])
def test_treasure_island_says_which_dice_to_protect_for_winning(run, me, opponent):
    """With the scoreboard, each reroll of the Treasure Island card names the dice for the
    chest: among the kept dice without skulls, the sub-multiset whose bust pays the most
    P(win) (the largest on ties), checked against every sub-multiset enumerated."""
    import itertools

    import numpy as np

    from solver.sabords.dice import format_dice, parse_dice
    from solver.sabords.game.advice import card_turn_values, phase_of
    from solver.sabords.game.solved import load_game
    from solver.sabords.game.two_player import GameSpec
    from solver.sabords.rules import load_rules

    result = run("hold", *ARGS, "--card", "treasure-island", "--me", str(me), "--opponent",
                 str(opponent), "CCDMPSSX", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    rules = load_rules()
    table = load_game(GameSpec(rules, 500, -300))
    phase = phase_of(table.spec, me, opponent, False)
    om, pay, _ = card_turn_values(table, "treasure-island", me, opponent, phase)
    space, skull = om.problem.space, rules.face(rules.skull)
    rerolls = [o for o in doc["options"] if o["action"] == "reroll"]
    assert rerolls and doc["best"].get("protect") == doc["options"][0].get("protect")
    for option in rerolls:
        keep, protect = (np.array(parse_dice(d, rules, len(d)) if d else [0] * len(rules.faces))
                         for d in (option["keep"], option["protect"]))
        assert np.all(protect <= keep) and protect[skull] == 0
        subsets = [np.array(c) for c in itertools.product(*(range(k + 1) for k in keep))
                   if c[skull] == 0]
        best = max(pay[om.protect_out[space.index(c)]] for c in subsets)
        assert pay[om.protect_out[space.index(protect)]] == best
        largest = max(int(c.sum()) for c in subsets
                      if pay[om.protect_out[space.index(c)]] == best)
        assert protect.sum() == largest, (option, format_dice(protect, rules))

