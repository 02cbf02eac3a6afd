"""``treasure sabords hold`` answers every position: the Island of Skulls, flags that mean
nothing rejected, unreachable targets rejected, options told apart on screen."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from solver.sabords.rules import load_rules
from solver.sabords.scoring import island_distribution
from tests.cli_helpers import run


def test_island_of_skulls_goes_on_with_the_expected_loss(capsys):
    code, out, _ = run(["sabords", "hold", "--json", "XXXXCCDM"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["island"] and doc["best"] == {
        "action": "island", "reroll": "CCDM", "choose": False}
    rules = load_rules()
    dist = island_distribution(4, rules.card("none"), rules)
    assert doc["opponents_loss"] == pytest.approx(float(sum(k * p for k, p in dist.items())))
    assert doc["opponents_loss"] >= 400 and sum(doc["loss_distribution"].values()) == \
        pytest.approx(1.0)
    code, out, _ = run(["sabords", "hold", "XXXXCCDM"], capsys)
    assert "ISLAND OF SKULLS" in out and "nothing to choose" in out


def test_island_margin_value_is_the_expected_loss(capsys):
    code, out, _ = run(["sabords", "hold", "--objective", "margin", "--json", "XXXXXCDM"],
                       capsys)
    doc = json.loads(out)
    assert doc["value"] == pytest.approx(doc["opponents_loss"]) and doc["value"] > 500


def test_island_choose_dice_names_the_dice(capsys):
    code, out, _ = run(["sabords", "hold", "--variant", "island-choose-dice", "--json",
                        "XXXXCCDM"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["best"]["choose"] and 2 <= len(doc["best"]["reroll"]) <= 4
    assert set(doc["best"]["reroll"]) <= set("CCDM")


def test_island_loss_distribution_is_exact_for_one_die_left():
    rules = load_rules()
    # seven skulls on the dice: one die left, which cannot be rolled alone: 700 for sure
    assert island_distribution(7, rules.card("none"), rules) == {700: Fraction(1)}


@pytest.mark.parametrize("args, message", [
    (["--card", "skulls-1", "CCDMPSXX"],
     "2 skulls on the dice and 1 on the skulls-1 card (3 in all): the turn is bust"),
    (["--card", "captain", "--sorceress-used", "CCDMPSSX"], "--sorceress-used means nothing"),
    (["--rerolled", "CCDMPSSX"], "--rerolled means nothing with the none card"),
    (["--objective", "reach:0", "CCDMPSSX"], "at least 1 point"),
    (["--objective", "reach:-5", "CCDMPSSX"], "at least 1 point"),
    (["--objective", "reach:99999999", "CCDMPSSX"], "cannot be reached with the none card"),
])
def test_what_cannot_be_meant_is_rejected(args, message, capsys):
    code, _, err = run(["sabords", "hold", *args], capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["hold", "CCDMPSSX"], ["policy"]])
def test_an_unreachable_target_is_rejected_before_anything_is_solved(command, capsys,
                                                                      monkeypatch, tmp_path):
    """``reach:T`` beyond every turn of the card fails at once: no turn is solved (each
    value would be 0) and so nothing is written to the cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("TREASURE_CACHE", str(cache))
    code, _, err = run(["sabords", *command, "--card", "captain", "--objective",
                        "reach:99999900"], capsys)
    assert code == 2 and "cannot be reached with the captain card" in err
    assert not any(p.is_file() for p in cache.rglob("*"))


def test_flags_that_mean_something_are_accepted(capsys):
    code, _, _ = run(["sabords", "hold", "--card", "sorceress", "--sorceress-used",
                      "CCDMPSSX"], capsys)
    assert code == 0
    code, _, _ = run(["sabords", "hold", "--card", "after-the-storm", "--rerolled",
                      "CCDMPSSX"], capsys)
    assert code == 0


def test_probabilities_show_digits_enough_to_tell_options_apart(capsys):
    code, out, _ = run(["sabords", "hold", "--objective", "reach:2000", "--json", "CCCDDMPX"],
                       capsys)
    values = [o["value"] for o in json.loads(out)["options"][:10]]
    code, out, _ = run(["sabords", "hold", "--objective", "reach:2000", "CCCDDMPX"], capsys)
    lines = out.splitlines()
    assert "P(>=2000)" in lines[1]
    shown = [line.split()[-3] for line in lines[3:13]]
    distinct_values = {round(v, 9) for v in values}
    assert len(set(shown)) == len(distinct_values) > 1


@pytest.mark.parametrize("args, heard", [
    (["value", "--card", "deck"], ["solving the treasure-island turn (1 of 11), objective "
                                   "points", "solving the skulls-2 turn (11 of 11)"]),
    (["policy", "--card", "Captain"], ["solving the captain turn, objective points",
                                       "listing the captain turn's decisions"]),
    (["hold", "--card", "captain", "CCDMPSXX"], ["solving the captain turn, objective points"]),
])
def test_slow_commands_show_progress_on_a_terminal_only(args, heard, monkeypatch, capsys):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    code, quiet_out, quiet_err = run(["sabords", *args], capsys)
    assert code == 0 and quiet_err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(["sabords", *args], capsys)
    assert code == 0 and out == quiet_out
    for text in heard:
        assert text in err
    assert err.endswith("\r\033[K")
