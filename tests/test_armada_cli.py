"""`treasure armada`: answers, JSON contract, and bad input as one line with exit status 2."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import run


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A private cache with the solitaire table solved once."""
    path = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TREASURE_CACHE", str(path))
        from solver.armada.game import default_game
        from solver.armada.tables import load_table

        load_table(default_game(), "solo", show_progress=False)
        yield path


def test_hold_turn_json_contract(capsys):
    code, out, _ = run(["armada", "hold", "--objective", "turn", "--rolls-left", "1", "--json",
                        "CCMMA"], capsys)
    assert code == 0
    data = json.loads(out)
    assert set(data["best"]) >= {"keep", "value", "reach"}
    assert data["value"] == data["best"]["value"] == max(o["value"] for o in data["options"])
    # Keep CCMM: full house (3) with 1/3, else a pair pier (1): 5/3. Keep CC, roll three:
    # CCC rolled 4 (1 way: five or four of a kind, both 4), two C 4 (15), one C + a pair 3
    # (15), one C 2 (60), no C + three alike 3 (5), else a pair pier 1 (120):
    # 364/216 = 1.685 > 5/3.
    assert data["best"]["keep"] == "CC"
    assert data["value"] == pytest.approx(364 / 216, abs=1e-6)
    ccmm = next(o for o in data["options"] if o["keep"] == "CCMM")
    assert ccmm["value"] == pytest.approx(5 / 3, abs=1e-6)
    assert len(data["options"]) == 18  # sub-multisets of {A, C, C, M, M}: 2 * 3 * 3
    assert "RECONSTRUCTION" in data["board"]


def test_hold_take_with_no_rolls_left(capsys):
    code, out, _ = run(["armada", "hold", "--objective", "turn", "--rolls-left", "0",
                        "--board-state", "0000000000/0", "--json", "PPPAA"], capsys)
    data = json.loads(out)
    assert code == 0 and data["best"]["take"] == "full-house" and data["value"] == 3
    assert [o["take"] for o in data["options"]] == [
        "full-house", "three-of-a-kind", "parrots", "anchors"]


@pytest.mark.slow
def test_solo_hold_and_value(cache, capsys):
    code, out, _ = run(["armada", "value", "--json"], capsys)
    assert code == 0
    opening = json.loads(out)["expected"]
    assert 40 < opening < 60
    code, out, _ = run(["armada", "hold", "--rolls-left", "2", "--json", "BBOPA"], capsys)
    data = json.loads(out)
    assert data["objective"] == "solo" and data["best"]["keep"] == "BB"
    assert sum(data["best"]["reach"].values()) == pytest.approx(1, abs=1e-5)
    code, out, _ = run(["armada", "hold", "--rolls-left", "2", "BBOPA"], capsys)
    assert code == 0 and "KEEP BB" in out and "RECONSTRUCTION" in out


def test_value_turn_plain(capsys):
    code, out, _ = run(["armada", "value", "--objective", "turn"], capsys)
    assert code == 0 and "expected 2.4457" in out and "five-of-a-kind" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["hold", "--rolls-left", "1", "--objective", "turn", "BBOP"], "expected 5 dice"),
        (["hold", "--rolls-left", "1", "--objective", "turn", "BBOPZ"], "unknown die face"),
        (["hold", "--rolls-left", "3", "--objective", "turn", "BBOPA"], "rolls left"),
        (["hold", "--rolls-left", "-1", "--objective", "turn", "BBOPA"], "rolls left"),
        (["hold", "--rolls-left", "1", "--objective", "turn", "--board-state", "12/0",
          "BBOPA"], "bad board state"),
        (["hold", "--rolls-left", "1", "--objective", "turn", "--board-state",
          "0000000000/6", "BBOPA"], "game is over"),
        (["value", "--board", "/nonexistent/board.toml"], "cannot read board file"),
        (["value", "--variant", "nonsense"], "unknown variant"),
    ],
)
def test_bad_input_is_one_line_exit_2(argv, fragment, capsys):
    code, out, err = run(["armada", *argv], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err


def test_malformed_board_file(tmp_path, capsys):
    bad = tmp_path / "board.toml"
    bad.write_text("[[symbol]]\nname = 'x'\n")
    code, _, err = run(["armada", "value", "--objective", "turn", "--board", str(bad)], capsys)
    assert code == 2 and err.startswith("error: bad board file") and err.count("\n") == 1


def write_small_board(tmp_path):
    small = tmp_path / "mine.toml"
    small.write_text(
        "[board]\nname = 'mine'\n"
        + "".join(f"[[symbol]]\nname = '{n}'\nletter = '{n[0].upper()}'\n"
                  for n in ("barrel", "ox", "parrot", "anchor", "cannon", "map"))
        + "[[pier]]\nname = 'barrels'\nkind = 'count'\nvalues = [1, 2]\nneed = [2, 3]\n"
        "allowed = [['barrel'], ['barrel']]\n"
    )
    return small


def test_user_board_file_is_used(tmp_path, capsys):
    """A one-pier transcription: the value changes and the label says transcription."""
    small = write_small_board(tmp_path)
    code, out, _ = run(["armada", "value", "--objective", "solo", "--board", str(small),
                        "--board-state", "0/0", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and "transcription" in data["board"]
    assert 0 < data["expected"] < 3


def test_help_has_examples(capsys):
    for cmd in ("hold", "value", "solve", "variants"):
        code, out, _ = run(["armada", cmd, "--help"], capsys)
        assert code == 0 and "treasure armada" in out


def test_solve_caches_and_rebuilds(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TREASURE_CACHE", str(tmp_path / "cache"))
    small = write_small_board(tmp_path)
    argv = ["armada", "solve", "--objective", "duel", "--board", str(small), "--json"]
    code, out, err = run(argv, capsys)
    first = json.loads(out)
    assert code == 0 and first["states"] == 3 * 7 and "solving duel" in err
    code, out, err = run(argv, capsys)
    assert json.loads(out)["opening"] == first["opening"] and "solving" not in err
    code, out, err = run([*argv, "--no-cache"], capsys)
    assert json.loads(out)["opening"] == first["opening"] and "solving duel" in err
    assert (tmp_path / "cache" / "armada").is_dir()
    code, out, _ = run(argv[:-1], capsys)  # for people: the board, then names and values
    rows = [line.split(maxsplit=1) for line in out.splitlines()[1:]]
    assert code == 0 and dict(rows) == {"objective": "duel", "states": "21",
                                        "opening": str(first["opening"]),
                                        "seconds": dict(rows)["seconds"],
                                        "cache": first["cache"]}
    assert len({line.index(value) for line, (_, value) in zip(out.splitlines()[1:], rows,
                                                             strict=True)}) == 1  # one column


def test_variants_listed(capsys):
    code, out, _ = run(["armada", "variants", "--json"], capsys)
    assert code == 0 and {"may-take-skull", "five-kind-full-house", "no-early-stop"} <= set(
        json.loads(out))


def test_hold_prints_every_probability_with_one_precision(capsys):
    import re

    code, out, _ = run(["armada", "hold", "--objective", "turn", "--rolls-left", "2",
                        "BBOPA"], capsys)
    assert code == 0
    lines = out.splitlines()
    chances = next(line for line in lines if line.startswith("chances this turn:"))
    table = lines[lines.index(chances) + 3:]
    found = re.findall(r"[a-z-]+ (\d+\.\d+)", chances + "\n" + "\n".join(
        line.split(None, 3)[-1] for line in table if line.strip()))
    assert len(found) > 10 and {len(p.split(".")[1]) for p in found} == {3}
