"""The ``treasure sabords`` command line: the JSON contract and one-line errors (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver", *args], capture_output=True,
                          text=True)


def test_score_json_worked_example():
    out = run("sabords", "score", "--card", "captain", "--json", "CCCCDSSX")
    assert out.returncode == 0
    assert json.loads(out.stdout)["score"] == 1400


def test_score_island_reports_opponents_loss():
    doc = json.loads(run("sabords", "score", "--card", "captain", "--island", "--json",
                         "XXXXXCMP").stdout)
    assert doc["score"] == 0 and doc["opponents"] == -1000
    doc = json.loads(run("sabords", "score", "--island", "--json", "coin,skull,skull,skull,"
                         "skull,skull,skull,skull").stdout)
    assert doc["opponents"] == -700


def test_hold_json_contract():
    doc = json.loads(run("sabords", "hold", "--card", "none", "--json", "CCDMPSSX").stdout)
    assert doc["best"] == {"action": "reroll", "reroll": "MP"}
    values = [o["value"] for o in doc["options"]]
    assert values[0] == doc["value"] == max(values)
    assert {"action", "value", "bust"} <= set(doc["options"][0])
    assert any(o["action"] == "stop" for o in doc["options"])


def test_hold_text_and_stop_answer():
    out = run("sabords", "hold", "--card", "none", "SSSSSSSX")
    assert out.returncode == 0 and "STOP" in out.stdout.splitlines()[0]


def test_sorceress_offers_skull_rerolls_until_used():
    doc = json.loads(run("sabords", "hold", "--card", "sorceress", "--json", "CCDMPSXX").stdout)
    assert any("X" in o.get("reroll", "") for o in doc["options"])
    doc = json.loads(run("sabords", "hold", "--card", "sorceress", "--sorceress-used", "--json",
                         "CCDMPSXX").stdout)
    assert not any("X" in o.get("reroll", "") for o in doc["options"])


def test_value_json_has_expected_bust_island():
    doc = json.loads(run("sabords", "value", "--card", "none", "--json").stdout)
    assert abs(doc["expected"] - 578.7987673104) < 1e-6
    assert 0 < doc["bust"] < 1 and 0 < doc["island"] < 1
    deck = json.loads(run("sabords", "value", "--card", "deck", "--json").stdout)
    assert len(deck["cards"]) == 11 and sum(c["weight"] for c in deck["cards"]) == 35


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("sabords", "score", "CCCC"), "expected 8 dice"),
        (("sabords", "score", "CCCCDSSZ"), "unknown die face"),
        (("sabords", "score", "coin,coin,gold,coin,diamond,ruby,sabre,skull"), "unknown die"),
        (("sabords", "score", "--card", "kraken", "CCCCDSSX"), "unknown card"),
        (("sabords", "hold", "CCCXXXMP"), "the turn is bust and lost: it scores nothing"),
        (("sabords", "hold", "--card", "sea-battle-3", "XXXXCCDM"), "4 skulls on the dice: the "
         "turn is bust and lost (no Island of Skulls with the sea-battle-3 card): it costs you "
         "500 points"),
        (("sabords", "hold", "--card", "sea-battle-2", "SSXXXCDM"), "it costs you 300 points"),
        (("sabords", "hold", "--card", "sea-battle-3", "--variant",
          "battle-four-skulls-no-penalty", "XXXXCCDM"), "on a first roll it costs nothing under "
         "this reading; after a reroll it costs you 500 points"),
        (("sabords", "score", "--card", "captain", "--chest", "CC", "CCCDMXXX"),
         "--chest means nothing with the captain card"),
        (("sabords", "score", "--card", "treasure-island", "--chest", "CCCX", "CCCDMXXX"),
         "a skull cannot go on the chest"),
        (("sabords", "score", "--card", "treasure-island", "--chest", "DDD", "CCCDMXXX"),
         "--chest DDD is not among the dice CCCDMXXX"),
        (("sabords", "hold", "--objective", "fun", "CCCXXMPS"), "bad objective"),
        (("sabords", "hold", "--variant", "nope", "CCCXXMPS"), "unknown variant"),
        (("sabords", "score", "--island", "CCCXXMPS"), "Island of Skulls"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    out = run(*args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in out.stderr


def test_help_everywhere_has_an_example():
    for args in (("sabords",), ("sabords", "score"), ("sabords", "hold"), ("sabords", "value"),
                 ("sabords", "variants")):
        out = run(*args, "--help")
        assert out.returncode == 0 and "treasure sabords" in out.stdout


def test_score_counts_the_chest_when_the_turn_busts():
    # CCCD on Treasure Island: three coins 300 + a set of three 100 + a diamond 100 = 500
    doc = json.loads(run("sabords", "score", "--card", "treasure-island", "--chest", "CCCD",
                         "--json", "CCCDMXXX").stdout)
    assert doc["bust"] and doc["protected"] == 500 and doc["score"] == 500
    assert doc["on_chest"] == "CCCD"
    doc = json.loads(run("sabords", "score", "--card", "treasure-island", "--chest",
                         "coin,coin", "--json", "CCCDMXXX").stdout)
    assert doc["score"] == 200  # two coins, no set
    text = run("sabords", "score", "--card", "treasure-island", "--chest", "CCCD",
               "CCCDMXXX").stdout
    assert "On chest" in text and "+500 (scored although the turn busted)" in text
    nothing = json.loads(run("sabords", "score", "--card", "treasure-island", "--json",
                             "CCCDMXXX").stdout)
    assert nothing["score"] == 0 and "protected" not in nothing


def test_hold_text_names_the_dice_for_the_chest():
    doc = json.loads(run("sabords", "hold", "--card", "treasure-island", "--json",
                         "CCCDMPSX").stdout)
    text = run("sabords", "hold", "--card", "treasure-island", "CCCDMPSX").stdout
    first, header = text.splitlines()[:2]
    assert f"CHEST {doc['best']['protect']}" in first and "on chest" in header
    rows = text.splitlines()[3:3 + len(doc["options"][:10])]
    for row, option in zip(rows, doc["options"], strict=False):
        assert row.split()[3 if option["action"] == "reroll" else 2] == (
            option.get("protect") or "-")
    assert "on chest" not in run("sabords", "hold", "--card", "captain", "CCDMPSXX").stdout
