"""The game record of ``treasure sabords review`` (models/sabords/record.md): the documented
example reads, and every class of malformed record is one line naming the turn (and the
roll) and the problem, exit status 2, nothing on stdout."""

from __future__ import annotations

import pytest

from solver.paths import MODELS_DIR
from solver.sabords.review.record import parse_record
from tests.cli_helpers import run

EXAMPLE = MODELS_DIR / "sabords" / "example-game.txt"
POINTS_HEAD = "players Anne\n\n"  # no target: turn by turn, in expected points (no table)
GAME_HEAD = "players Anne, Bruno\ntarget 500\nvariant score-floor-zero\n\n"


def test_the_documented_example_is_the_example_file():
    """models/sabords/record.md shows example-game.txt whole, and it reads."""
    doc = (MODELS_DIR / "sabords" / "record.md").read_text(encoding="utf-8")
    lines = [line for line in EXAMPLE.read_text(encoding="utf-8").splitlines()
             if not line.startswith("# Review it")]
    assert "\n".join(lines) in doc
    record = parse_record(EXAMPLE.read_text(encoding="utf-8"))
    assert record.players == ("Anne", "Bruno") and record.target == 1000
    assert len(record.turns) == 7 and record.turns[3].card == "diamond"


CASES = [
    # (record after the header, words the error must hold)
    ("Anne: captian CCDMPSXX", ["turn 1 (line 3)", "unknown card 'captian'"]),
    ("Anne: captain CCDMPSXQ", ["turn 1 (line 3), roll 1", "unknown die face", "'Q'"]),
    ("Anne: captain CCDMPSX", ["roll 1", "expected 8 dice, got 7"]),
    ("Anne: captain CCDMPSXX, reroll MP CCDM-SXX", ["roll 2", "bad dice 'CCDM-SXX'"]),
    ("Anne: captain CCDMPSXX, reroll S CCDMPDXX",
     ["turn 1 (line 3), roll 2", "rerolls 1 die (S)", "at least 2 dice"]),
    ("Anne: captain CCDMPSXX, reroll MX CCDMPSSX", ["roll 2", "rerolls a skull (MX)"]),
    ("Anne: captain CCDMPSXX, keep CCDSXX CCDDDMXX",
     ["roll 2", "CCDDDMXX cannot follow CCDMPSXX keeping CCDSXX"]),
    ("Anne: captain CCDMPSXX, reroll MPS CCDXXXXX, reroll CC CCDDXXXX",
     ["roll 3", "already bust at roll 2"]),
    ("Anne: captain CCCDDSXX, stop +1000",
     ["turn 1 (line 3)", "does not add up", "+1200", "not +1000"]),
    ("Anne: captain CCCDDSXX, bust", ["is not bust", "can stop"]),
    ("Anne: captain CCDMXXXP, stop", ["is bust (3 skulls)", "cannot stop"]),
    ("Anne: treasure-island CCDMPSXX, reroll PS chest CCX CCDMMMXX",
     ["roll 2", "a skull cannot go on the chest"]),
    ("Anne: treasure-island CCDMPSXX, reroll PS chest CCCC CCDMMMXX",
     ["roll 2", "not among the kept dice"]),
    ("Anne: sorceress CCDMPSXX, reroll XX CCDMPSMP", ["roll 2", "rerolls 2 skulls"]),
    ("Anne: diamond XXXXCDMP, CDXXXXXX, stop", ["roll 1", "Island of Skulls", "cannot stop"]),
    ("Anne: diamond XXXXCDMP, CDMPXXXX, CDXXXXXX", ["roll 3", "added no skull"]),
    ("Anne: diamond XXXXCDMP, CDXXXXXX, island 900", ["does not add up", "+600"]),
    ("Anne: after-the-storm CCDMPSXX", ["not in this game's deck", "promo-deck"]),
    ("Anne: captain CCDMPSXX, stop, stop", ["nothing follows the turn's end"]),
    ("Anne: captain CCDMPSXX, stop +lots", ["bad points '+lots'"]),
    ("Bruno: captain CCDMPSXX", ["unknown player 'Bruno'"]),
    ("captain CCDMPSXX", ["write the player first"]),
    ("Anne: captain", ["starts with the card and the first roll"]),
]


@pytest.mark.parametrize("turns, words", CASES, ids=[c[0] for c in CASES])
def test_a_malformed_turn_is_one_line(turns, words, tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(POINTS_HEAD + turns + "\n", encoding="utf-8")
    _one_line(capsys, path, words)


GAME_CASES = [
    ("Anne: captain CCDMPSXX, stop\nAnne: captain CCDMPSXX, stop",
     ["turn 2 (line 6)", "it is Bruno's turn, not Anne's"]),
    ("Anne: captain CCCCCCCS, stop\nBruno: skulls-1 CCDMPSXX, bust\n"
     "Anne: captain CCDMPSXX, stop", ["turn 3 (line 7)", "game was over after turn 2"]),
]
HEADER_CASES = [
    ("players Anne, Bruno\ntarget lots\n\nAnne: captain CCDMPSXX",
     ["line 2", "bad target 'lots'"]),
    ("players Anne\ntarget 500\n\nAnne: captain CCDMPSXX", ["line 2", "needs two players"]),
    ("players Anne, anne\n\nAnne: captain CCDMPSXX", ["line 1", "named twice"]),
    ("players A, B, C, D, E, F\n\nA: captain CCDMPSXX", ["line 1", "at most 5"]),
    ("game armada\nplayers Anne\n\nAnne: captain CCDMPSXX", ["line 1", "armada review"]),
    ("players Anne\nvariant no-such-reading\n\nAnne: captain CCDMPSXX",
     ["unknown variant"]),
    ("players Anne\n# nothing played yet\n", ["has no turn"]),
    ("players Anne, Bruno\ntarget 550\n\nAnne: captain CCDMPSXX", ["bad target 550"]),
    ("players Anne, Bruno\ntarget 500\nvariant ties-extra-round\n\nAnne: captain CCDMPSXX",
     ["tie-break round"]),
    ("players Anne\nvariant island-choose-dice\n\nAnne: captain XXXXCDMP, CDXXXXXX",
     ["default reading only"]),
]


@pytest.fixture(scope="module")
def solved():
    """The game table of GAME_HEAD, solved before the cases (a first solve says so on
    stderr, as ``hold`` does)."""
    from solver.sabords.answers import game_spec, game_table

    return game_table()(game_spec(500, ["score-floor-zero"]))


@pytest.mark.parametrize("text, words", GAME_CASES + HEADER_CASES,
                         ids=[c[1][-1] for c in GAME_CASES + HEADER_CASES])
def test_a_malformed_game_is_one_line(text, words, tmp_path, capsys, solved):
    path = tmp_path / "game.txt"
    head = GAME_HEAD if (text, words) in GAME_CASES else ""
    path.write_text(head + text + "\n", encoding="utf-8")
    _one_line(capsys, path, words)


def _one_line(capsys, path, words) -> None:
    for argv in (["sabords", "review", str(path)],
                 ["sabords", "review", str(path), "--json"]):
        code, out, err = run(argv, capsys)
        assert code == 2, err
        assert out == "", out
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in err, err
        assert lines[0].startswith(f"error: game record {path}") or "variant" in lines[0]
        for word in words:
            assert word.lower() in lines[0].lower(), (word, lines[0])


def test_a_chart_into_a_missing_folder_is_refused_before_reviewing(tmp_path, capsys):
    code, out, err = run(["sabords", "review", str(EXAMPLE), "--plot",
                          str(tmp_path / "no" / "chart.png")], capsys)
    assert code == 2 and out == "" and "does not exist" in err
