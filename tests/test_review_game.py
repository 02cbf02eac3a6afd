"""``treasure sabords review`` on seeded simulated games (two players, target 500, scores
floored at zero; and turn by turn in expected points): optimal play costs nothing, a
planted mistake costs exactly what ``hold`` says, and for each player the value at the
start plus the net luck less the net error is the result."""

from __future__ import annotations

import json

import pytest

from solver.sabords.review.moves import review_record
from solver.sabords.review.record import parse_record
from solver.sabords.review.simulate import simulate_record
from solver.sabords.rules import load_rules
from tests.cli_helpers import run
from tests.fresh_process import run_fresh

TARGET, VARIANTS = 500, ["score-floor-zero"]
GAME = ["--target", str(TARGET), "--variant", "score-floor-zero"]


@pytest.fixture(scope="module")
def source():
    from solver.sabords.answers import game_table

    return game_table()


def _game(source, seed: int, blunder: float) -> tuple[str, dict]:
    text = simulate_record(load_rules(VARIANTS), ("Anne", "Bruno"), TARGET, seed,
                           blunder=blunder, table_source=source)
    return text, review_record(parse_record(text), source)


def _identity(doc: dict) -> None:
    for row in doc["summary"]:
        total = row["start"] + row["net_luck"] - row["net_error"]
        assert total == pytest.approx(row["result"], abs=1e-9), row


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_optimal_play_costs_nothing(source, seed):
    _, doc = _game(source, seed, 0.0)
    decisions = [e for e in doc["events"] if e["kind"] == "decision"]
    assert decisions and all(e["cost"] == 0.0 for e in decisions)
    assert all(row["error"] == 0.0 and row["rating"] == "flawless" for row in doc["summary"])
    assert all(row["finished"] for row in doc["summary"])
    _identity(doc)


@pytest.mark.parametrize("seed", [11, 12, 13, 14, 15])
def test_luck_less_error_is_the_result(source, seed):
    """Seeded games with random mistakes: the identity, per player, to rounding; the
    result is a win, a loss or a shared tie."""
    _, doc = _game(source, seed, 0.35)
    assert sorted(row["result"] for row in doc["summary"]) in ([0.0, 1.0], [0.5, 0.5])
    _identity(doc)
    assert doc["summary"][0]["start"] == pytest.approx(1 - doc["summary"][1]["start"])


def test_planted_mistakes_cost_what_hold_says(source, capsys):
    """Every decision of a game with mistakes, asked of ``hold --scores`` at the same
    position: the best value, the played option's value and the cost are hold's numbers."""
    text, doc = _game(source, 21, 0.5)
    mistakes = [e for e in doc["events"] if e["kind"] == "decision" and e["cost"] > 0]
    assert len(mistakes) >= 3
    for e in mistakes:
        me, other = e["scores"]
        argv = ["sabords", "hold", "--card", e["card"], "--me", str(me), "--opponent",
                str(other), *GAME, e["dice"], "--json"]
        argv += ["--sorceress-used"] if e["sorceress_used"] else []
        argv += ["--sudden-death"] if e["phase"] == "sudden-death" else []
        code, out, err = run(argv, capsys)
        assert code == 0, err
        hold = json.loads(out)
        assert e["best_value"] == hold["value"]
        played = e["played"].split(", chest")[0]
        option = next(o for o in hold["options"]
                      if (o["action"] == "stop" and played == "stop")
                      or (o["action"] == "reroll" and played == f"reroll {o['reroll']}"))
        assert e["played_value"] == option["value"]
        assert e["cost"] == hold["value"] - option["value"]


@pytest.mark.slow
def test_turn_by_turn_in_points(capsys, tmp_path):
    """Without a target: each turn in expected points; optimal turns cost nothing, and the
    points scored are the deck's value plus luck less error, turn by turn."""
    rules = load_rules()
    best = review_record(parse_record(simulate_record(rules, ("Anne",), None, 5, turns=6)))
    decisions = [e for e in best["events"] if e["kind"] == "decision"]
    assert decisions and all(e["cost"] == 0.0 for e in decisions)
    _identity(best)
    text = simulate_record(rules, ("Anne",), None, 6, blunder=0.5, turns=8)
    doc = review_record(parse_record(text))
    _identity(doc)
    assert doc["summary"][0]["result"] == sum(t["points"] for t in doc["turns"])
    path = tmp_path / "turns.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(["sabords", "review", str(path), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["summary"] == json.loads(json.dumps(doc["summary"]))
    mistakes = [e for e in doc["events"] if e["kind"] == "decision" and e["cost"] > 0]
    assert mistakes
    for e in mistakes:
        argv = ["sabords", "hold", "--card", e["card"], e["dice"], "--json", "--all"]
        argv += ["--sorceress-used"] if e["sorceress_used"] else []
        hold = json.loads(run(argv, capsys)[1])
        assert e["best_value"] == pytest.approx(hold["value"], abs=1e-8)


@pytest.mark.slow
def test_the_example_review_text_json_and_chart(source, capsys, tmp_path):
    """The documented example: its review in words, in JSON and as a PNG (the same bytes
    from a fresh process: a second drawing in this one would share its state)."""
    import os
    from pathlib import Path

    from solver.paths import MODELS_DIR

    example = str(MODELS_DIR / "sabords" / "example-game.txt")
    code, out, err = run(["sabords", "review", example], capsys)
    assert code == 0, err
    assert "Anne: start" in out and "rating by the average cost per decision" in out
    code, out, err = run(["sabords", "review", example, "--json", "--plot",
                          str(tmp_path / "a.png")], capsys)
    assert code == 0, err
    run_fresh("from solver.cli import main\n"
              f"main(['sabords', 'review', {example!r}, '--plot', {str(tmp_path / 'b.png')!r}])\n",
              Path(os.environ["TREASURE_CACHE"]))
    charts = [(tmp_path / name).read_bytes() for name in ("a.png", "b.png")]
    doc = json.loads(out)
    assert charts[0][:8] == b"\x89PNG\r\n\x1a\n" and charts[0] == charts[1]
    assert [row["result"] for row in doc["summary"]] == [0.0, 1.0]
    assert doc["turns"][3]["end"] == "island" and doc["turns"][3]["opponents_lose"] == 700
    _identity(doc)


SUDDEN_DEATH = """players Anne, Bruno
target 500
variant score-floor-zero

Anne: gold CCDDMMPS, stop +600
Bruno: diamond XXXXCDMP, CDXXXXXX, CXXXXXXX, island 700
Anne: skulls-1 CDMPPSSX, reroll MP CDPSSSXX, bust
Bruno: gold CCDDMMPS, stop +600
"""


def test_the_last_turn_and_the_race(source, capsys, tmp_path):
    """Anne reaches the target, Bruno's Island on his last turn drops her below it (to zero:
    the floor), and the race follows: Bruno's next stop at the target wins at once. A
    decision of the race costs what `hold --sudden-death` says."""
    doc = review_record(parse_record(SUDDEN_DEATH), source)
    assert [t["phase"] for t in doc["turns"]] == ["normal", "last", "sudden-death",
                                                    "sudden-death"]
    assert doc["turns"][1]["scores_after"] == [0, 0] and doc["turns"][3]["result"] == [0, 1]
    _identity(doc)
    race = next(e for e in doc["events"] if e["kind"] == "decision" and e["turn"] == 3)
    code, out, err = run(["sabords", "hold", "--card", "skulls-1", "--me", "0", "--opponent",
                          "0", "--sudden-death", *GAME, "CDMPPSSX", "--json"], capsys)
    assert code == 0, err
    hold = json.loads(out)
    assert race["best_value"] == hold["value"]
    assert race["played_value"] == next(o["value"] for o in hold["options"]
                                        if o.get("reroll") == "MP")


def test_accepting_the_third_skull_under_sorceress_saves_bust():
    """With the Sorceress unused, a third skull is live under sorceress-saves-bust: the
    record may write the turn's end as a bust (stopping there is accepting it), at the cost
    of not freeing a skull."""
    text = ("players Anne\nvariant sorceress-saves-bust\n\n"
            "Anne: sorceress CCDMPXXX, bust\nAnne: sorceress CCDMPXXX, stop\n")
    doc = review_record(parse_record(text))
    assert [t["end"] for t in doc["turns"]] == ["bust", "bust"]
    first, second = (e for e in doc["events"] if e["kind"] == "decision")
    assert first["played"] == "stop" and first["cost"] == second["cost"] > 0
    assert first["best"].startswith("reroll") and "X" in first["best"]
