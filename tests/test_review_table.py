"""``treasure sabords review`` at a table of three to five players (target 300, scores floored
at zero: the shipped three-player table): optimal play costs nothing, a planted mistake costs
exactly what ``hold --scores`` says, the identity holds for every player on seeded games with
mistakes (a roll and a mistake move every player's P(win)), and four and five players are
reviewed by the rule, labelled not exact, each cost the rule's ``hold``."""

from __future__ import annotations

import json

import pytest

from solver.sabords.review.moves import review_record
from solver.sabords.review.record import parse_record
from solver.sabords.review.simulate import simulate_record
from solver.sabords.rules import load_rules
from tests.cli_helpers import run

TARGET, VARIANTS = 300, ["score-floor-zero"]
GAME = ["--target", str(TARGET), "--variant", "score-floor-zero"]
THREE, FOUR = ("Anne", "Bruno", "Carla"), ("Anne", "Bruno", "Carla", "Dirk")


@pytest.fixture(scope="module")
def sources():
    from solver.sabords.answers import game_table, whole_table

    return game_table(), whole_table()


def _game(sources, players, seed: int, blunder: float) -> tuple[str, dict]:
    text = simulate_record(load_rules(VARIANTS), players, TARGET, seed, blunder=blunder,
                           table_source=sources[0], whole=sources[1])
    return text, review_record(parse_record(text), *sources)


def _identity(doc: dict) -> None:
    for row in doc["summary"]:
        total = row["start"] + row["net_luck"] - row["net_error"]
        assert total == pytest.approx(row["result"], abs=1e-9), row


def _hold(e: dict, capsys) -> dict:
    """``hold --scores`` at a decision's position (the mover's score first)."""
    argv = ["sabords", "hold", "--card", e["card"], "--scores",
            ",".join(map(str, e["scores"])), *GAME, e["dice"], "--json"]
    argv += ["--sorceress-used"] if e["sorceress_used"] else []
    argv += ["--rerolled"] if e["rerolled"] else []
    argv += ["--trigger", str(e["trigger"])] if "trigger" in e else []
    argv += ["--race"] if e["phase"] == "race" else []
    code, out, err = run(argv, capsys)
    assert code == 0, err
    return json.loads(out)


def _same_as_hold(e: dict, hold: dict) -> None:
    played = e["played"].split(", chest")[0]
    option = next(o for o in hold["options"]
                  if (o["action"] == "stop" and played == "stop")
                  or (o["action"] == "reroll" and played == f"reroll {o['reroll']}"))
    assert e["best_value"] == hold["value"]
    assert e["played_value"] == option["value"]
    assert e["cost"] == hold["value"] - option["value"]


@pytest.mark.parametrize("seed", [1, 2])
def test_optimal_play_costs_nothing(sources, seed):
    _, doc = _game(sources, THREE, seed, 0.0)
    assert doc["exact"] and doc["identity"]
    decisions = [e for e in doc["events"] if e["kind"] == "decision"]
    assert decisions and all(e["cost"] == 0.0 for e in decisions)
    assert all(row["error"] == 0.0 and row["finished"] for row in doc["summary"])
    _identity(doc)


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_every_players_identity(sources, seed):
    """Seeded three-player games with random mistakes: for every player, the start plus
    every event's effect on their P(win) is their result; the starts are the table's
    opening and the results a win or a shared tie."""
    _, doc = _game(sources, THREE, seed, 0.35)
    _identity(doc)
    results = sorted(row["result"] for row in doc["summary"])
    assert sum(results) == pytest.approx(1.0) and results[-1] > 0
    assert sum(row["start"] for row in doc["summary"]) == pytest.approx(1.0)
    others = [e for e in doc["events"] if e["kind"] == "decision" and e["cost"] > 1e-6]
    assert any(abs(v) > 1e-9 for e in others for i, v in enumerate(e["by_player"])
               if i != doc["turns"][e["turn"] - 1]["player"])  # a mistake moves the others


@pytest.mark.slow
def test_planted_mistakes_cost_what_hold_says(sources, capsys):
    _, doc = _game(sources, THREE, 21, 0.5)
    mistakes = [e for e in doc["events"] if e["kind"] == "decision" and e["cost"] > 0]
    assert len(mistakes) >= 3
    for e in mistakes:
        _same_as_hold(e, _hold(e, capsys))


@pytest.mark.slow
@pytest.mark.parametrize("players", [FOUR, (*FOUR, "Emma")], ids=["four", "five"])
def test_four_and_five_players_by_the_rule(sources, players, capsys, tmp_path):
    """Four and five players: the rule's values, labelled not exact (and said so in words);
    each mistake costs what the rule's ``hold --scores`` prints."""
    text, doc = _game(sources, players, 31, 0.5)
    assert doc["exact"] is False and doc["rule"] == "leader" and doc["identity"] is False
    mistakes = [e for e in doc["events"] if e["kind"] == "decision" and e["cost"] > 0]
    assert mistakes
    for e in mistakes[:3]:
        hold = _hold(e, capsys)
        assert hold["exact"] is False and hold["rule_position"] == e["rule_position"]
        _same_as_hold(e, hold)
    path = tmp_path / "four.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(["sabords", "review", str(path)], capsys)
    assert code == 0, err
    assert "by the rule leader" in out and "need not be the result" in out


BAD = [
    ("players A, B, C, D, E, F\ntarget 300\n\nA: captain CCDMPSXX", ["line 1", "at most 5"]),
    ("players A, B, C\ntarget 300\nvariant score-floor-zero\n\n"
     "A: captain CCDMPSXX, stop\nC: captain CCDMPSXX, stop", ["turn 2", "it is B's turn"]),
    ("players A, B, C\ntarget 300\nvariant score-floor-zero\n\nA: gold CCDDMMPS, stop\n"
     "B: skulls-1 CCDMPSXX, bust\nC: skulls-1 CCDMPSXX, bust\nA: captain CCDMPSXX, stop",
     ["turn 4", "game was over after turn 3"]),
]


@pytest.mark.parametrize("text, words", BAD, ids=[b[1][-1] for b in BAD])
def test_a_malformed_table_record_is_one_line(sources, text, words, tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(text + "\n", encoding="utf-8")
    code, out, err = run(["sabords", "review", str(path), "--json"], capsys)
    assert code == 2 and out == "", err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: game record {path}"), err
    for word in words:
        assert word.lower() in lines[0].lower(), (word, lines[0])


def test_the_others_values_are_the_tables(sources, capsys):
    """After each turn's card, every player's value is ``game --scores --card``'s (the
    table's own outcome distribution of the mover's turn), not only the mover's: the other
    players' values under the mover's play are evaluated right."""
    _, doc = _game(sources, THREE, 12, 0.35)
    for turn, trace in list(zip(doc["turns"], doc["trace"], strict=True))[:4]:
        mover, n = turn["player"], len(doc["players"])
        scores = [turn["scores_before"][(mover + j) % n] for j in range(n)]
        argv = ["sabords", "game", "--scores", ",".join(map(str, scores)), "--card",
                turn["card"], *GAME, "--json"]
        argv += ["--trigger", str(int(turn["phase"][6:]) + 1)] if "final" in turn["phase"] else []
        argv += ["--race"] if turn["phase"] == "race" else []
        code, out, err = run(argv, capsys)
        assert code == 0, err
        wins = json.loads(out)["wins"]  # by position, the mover first
        after_card = trace["wins"][1]
        for j in range(n):
            assert after_card[(mover + j) % n] == pytest.approx(wins[j], abs=1e-9)


def test_the_documented_three_player_example(sources):
    """models/sabords/record.md's three-player record: the costs it quotes."""
    from solver.paths import MODELS_DIR

    text = (MODELS_DIR / "sabords" / "record.md").read_text(encoding="utf-8")
    record = text.split("```\nplayers Anne, Bruno, Carla\n", 1)[1].split("```", 1)[0]
    doc = review_record(parse_record("players Anne, Bruno, Carla\n" + record), *sources)
    costs = {(e["turn"], e["roll"]): round(e["cost"], 3) for e in doc["events"]
             if e["kind"] == "decision" and e["cost"] > 1e-6}
    assert costs == {(1, 1): 0.0, (1, 2): 0.137, (3, 1): 0.262}
    assert [row["result"] for row in doc["summary"]] == [0.0, 0.0, 1.0]
    _identity(doc)


RACE = """players Anne, Bruno, Carla
target 300
variant score-floor-zero

Anne: gold CCDDMMPS, stop
Bruno: diamond XXXXCDMP, CDXXXXXX, CXXXXXXX, island
Carla: skulls-1 CDMPPSSX, reroll MP CDPSSSXX, bust
Anne: skulls-1 CDMPPSSX, reroll MP CDPSSSXX, bust
Bruno: gold CCDDMMPS, stop
"""


def test_the_final_round_and_the_race(sources, capsys):
    """Anne reaches the target; Bruno's Island on his last turn drops her to zero (the
    floor); Carla's last turn busts, so the race follows, and Bruno's stop at the target wins
    it at once. The last turn's and the race's decisions are hold --scores --trigger's and
    --race's."""
    doc = review_record(parse_record(RACE), *sources)
    assert [t["phase"] for t in doc["turns"]] == ["normal", "final-2", "final-1", "race",
                                                    "race"]
    assert doc["turns"][0]["scores_after"] == [600, 0, 0]
    assert doc["turns"][1]["scores_after"] == [0, 0, 0]
    assert doc["turns"][-1]["result"] == [0.0, 1.0, 0.0]
    _identity(doc)
    later = [e for e in doc["events"] if e["kind"] == "decision" and e["turn"] >= 3]
    assert {e["phase"] for e in later} == {"final-1", "race"} and later[0]["trigger"] == 2
    for e in later:
        _same_as_hold(e, _hold(e, capsys))


def test_the_rules_chart(sources):
    """Under the rule the trace has the mover's values only (no ``wins``), and the chart holds
    each player's value from their own last turn."""
    from solver.sabords.review.plot import chart_series

    _, doc = _game(sources, FOUR, 31, 0.0)
    assert all("wins" not in trace for trace in doc["trace"])
    xs, ys, _ = chart_series(doc)
    assert len(ys) == 4 and all(len(series) == len(xs) for series in ys)
    first = doc["trace"][0]["values"]
    assert [ys[0][i] for i in range(len(first))] == [v for _, v in first]
    assert ys[1][0] == doc["summary"][1]["start"]
