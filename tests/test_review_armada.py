"""``treasure armada review`` (models/armada/record.md) on a reduced board (four piers, two
skulls) and seeded simulated games, one player and two: optimal play costs nothing, a
mistake costs what ``hold`` says, start + net luck - net error = the result; and every
malformed record is one line naming the turn."""

from __future__ import annotations

import pytest

from solver.armada.advice import hold
from solver.armada.game import default_game
from solver.armada.review import ArmadaReview, parse_header
from solver.armada.review_sim import simulate_record
from solver.errors import InputError
from solver.paths import MODELS_DIR
from tests.cli_helpers import run

PIERS = ["barrels", "parrots", "three-of-a-kind", "full-house"]
SOLO, DUEL = ("Anne",), ("Anne", "Bruno")


@pytest.fixture(scope="module")
def game():
    return default_game().reduced(piers=PIERS, skulls=2)


@pytest.fixture(scope="module")
def tables(game):
    from solver.armada.tables import load_table

    return {players: load_table(game, "solo" if len(players) == 1 else "duel")
            for players in (SOLO, DUEL)}


def _review(game, tables, players, seed, blunder):
    text = simulate_record(game, players, tables[players], seed, blunder)
    named, _, turns = parse_header(text)
    return ArmadaReview(game, named, tables[players]).run(turns)


@pytest.mark.parametrize("players", [SOLO, DUEL], ids=["one", "two"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_identity_and_optimal_play(game, tables, players, seed):
    best = _review(game, tables, players, seed, 0.0)
    decisions = [e for e in best["events"] if e["kind"] == "decision"]
    assert decisions and all(e["cost"] == 0.0 for e in decisions)
    for doc in (best, _review(game, tables, players, seed, 0.4)):
        assert all(row["finished"] for row in doc["summary"])
        for row in doc["summary"]:
            total = row["start"] + row["net_luck"] - row["net_error"]
            assert total == pytest.approx(row["result"], abs=1e-9)
        scores = doc["scores"]
        assert doc["summary"][0]["result"] == pytest.approx(
            scores[0] if len(players) == 1 else scores[0] - scores[1])


@pytest.mark.parametrize("players", [SOLO, DUEL], ids=["one", "two"])
def test_mistakes_cost_what_hold_says(game, tables, players):
    """Keeps with rolls to come and takes with none: hold's options, to its six decimals."""
    doc = _review(game, tables, players, 7, 0.6)
    objective = doc["objective"]
    checked = 0
    for e in doc["events"]:
        if e["kind"] != "decision" or e["cost"] <= 0:
            continue
        if e["rolls_left"] and not (e["played"].startswith("keep")
                                    and e["best"].startswith("keep")):
            continue  # an early take: hold lists keeps only while rolls are left
        answer = hold(game, e["state"], e["rolls_left"], e["dice"], objective)
        label = (lambda o: f"keep {o['keep'] or 'nothing'}") if e["rolls_left"] else \
            (lambda o: f"take {o['take']}")
        values = {label(o): o["value"] for o in answer["options"]}
        assert values[e["played"]] == pytest.approx(e["played_value"], abs=1e-6)
        assert answer["value"] == pytest.approx(e["best_value"], abs=1e-6)
        checked += 1
    assert checked >= 3


BAD = [
    ("Anne: BBBPA, keep BB BBBOA, BBBAA, take barrels 3", ["roll 3", "barrels is worth 1"]),
    ("Anne: BBOPA, keep BBB BBBAA, take full-house", ["roll 2", "keeps BBB"]),
    ("Anne: BBOPA, keep BB OOOPA, take full-house", ["roll 2", "cannot follow BBOPA"]),
    ("Anne: BBOPA, take full-house", ["roll 1", "cannot take full-house", "do not qualify"]),
    ("Anne: BBOPX, take skull", ["roll 1", "unknown die face"]),
    ("Anne: BBOPA, take treasure", ["unknown pier 'treasure'"]),
    ("Anne: BBOPA, BBOPA, BBOPA, BBOPA, take skull", ["1 to 3 rolls", "shows 4"]),
    ("Anne: BBOPA, BBOPA", ["ends with the token taken"]),
    ("Bruno: BBOPA, take skull", ["write 'Anne: DICE"]),
    ("Anne: BBOPA, take skull", ["a pier qualifies"]),
    ("Anne: OACMM, take skull\nAnne: OACMM, take skull\nAnne: OACMM, take skull",
     ["turn 3 (line 4)", "game was over after turn 2"]),
]


@pytest.mark.parametrize("turns, words", BAD, ids=[c[0] for c in BAD])
def test_a_malformed_turn_is_named(game, tables, turns, words):
    named, _, lines = parse_header("players Anne\n" + turns)
    with pytest.raises(InputError) as err:
        ArmadaReview(game, named, tables[SOLO]).run(lines)
    for word in words:
        assert word.lower() in str(err.value).lower(), (word, str(err.value))


@pytest.mark.parametrize("text, words", [
    ("game sabords\nplayers Anne\nAnne: BBOPA, take skull", ["line 1", "sabords review"]),
    ("players A, B, C\nA: BBOPA, take skull", ["line 1", "one or two players"]),
    ("Anne: BBOPA, take skull", ["names no players"]),
    ("players Anne\n", ["has no turn"]),
])
def test_a_malformed_header_is_one_line(text, words, tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(["armada", "review", str(path)], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and f"game record {path}" in err
    for word in words:
        assert word.lower() in err.lower()


def test_the_documented_example_is_the_example_file():
    example = MODELS_DIR / "armada" / "example-game.txt"
    doc = (MODELS_DIR / "armada" / "record.md").read_text(encoding="utf-8")
    lines = [line for line in example.read_text(encoding="utf-8").splitlines()
             if not line.startswith("# Review it")]
    assert "\n".join(lines) in doc
    players, variants, turns = parse_header(example.read_text(encoding="utf-8"))
    assert players == DUEL and not variants and len(turns) == 23


def test_the_chart_ends_at_the_result(game, tables, tmp_path):
    """The chart's series start at each player's start and end at the result."""
    from solver.armada.review_cli import chart_series, review_png

    for players in (SOLO, DUEL):
        doc = _review(game, tables, players, 9, 0.3)
        _, ys = chart_series(doc)
        for row, series in zip(doc["summary"], ys, strict=True):
            assert series[0] == pytest.approx(row["start"])
            assert series[-1] == pytest.approx(row["result"], abs=1e-9)
        assert review_png(doc)[:8] == b"\x89PNG\r\n\x1a\n"
