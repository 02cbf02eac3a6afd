"""Strategy tables from the command line: a Mille Sabords card's whole policy (CSV, JSON) and
Gold Armada whole-game tables (CSV, NPZ), each readable without the code."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import numpy as np
import pytest

from tests.cli_helpers import run

SMALL_BOARD = """
[board]
name = "small"
[[symbol]]
name = "barrel"
letter = "B"
[[symbol]]
name = "bottle"
letter = "O"
[[symbol]]
name = "parrot"
letter = "P"
[[pier]]
name = "barrels"
kind = "count"
values = [1, 2]
need = [2, 3]
allowed = [["barrel"], ["barrel"]]
[[pier]]
name = "three"
kind = "of-a-kind"
values = [3]
need = [3]
allowed = [["*"]]
"""


def test_sabords_policy_csv_agrees_with_hold(capsys):
    code, out, _ = run(["sabords", "policy", "--card", "captain"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and rows and list(rows[0]) == [
        "mode", "dice", "action", "reroll", "keep", "protect", "value", "bust"]
    by_dice = {r["dice"]: r for r in rows}
    for dice in ("CCDMPSXX", "CCDMPSSX", "CCCDDMPX"):
        code, out, _ = run(["sabords", "hold", "--card", "captain", "--json", dice], capsys)
        advice = json.loads(out)
        row = by_dice[dice]
        assert row["action"] == advice["best"]["action"]
        assert row["reroll"] == advice["best"].get("reroll", "")
        assert float(row["value"]) == pytest.approx(advice["value"])
    assert "XXXCCDMP" not in by_dice and "CDMPXXXX" not in by_dice  # bust, not a decision


def test_sabords_policy_json_has_modes_and_protect(tmp_path, capsys):
    out_file = tmp_path / "s.json"
    code, _, err = run(["sabords", "policy", "--card", "sorceress", "--format", "JSON",
                        "--out", str(out_file)], capsys)
    doc = json.loads(out_file.read_text())
    assert code == 0 and "wrote" in err and doc["card"] == "sorceress"
    assert {s["mode"] for s in doc["states"]} == {"sorceress-unused", "sorceress-used"}
    code, out, _ = run(["sabords", "policy", "--card", "treasure-island"], capsys)
    rerolls = [r for r in csv.DictReader(io.StringIO(out)) if r["action"] == "reroll"]
    assert rerolls and all(r["protect"] is not None for r in rerolls)
    assert any(r["protect"] for r in rerolls)


def test_policy_piped_into_head_ends_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "solver", "sabords", "policy", "--card",
                             "sorceress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b"mode,dice")
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait() == 0 and b"Traceback" not in err and b"Broken pipe" not in err


@pytest.fixture
def small_board(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_BOARD, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("objective", ["solo", "duel"])
def test_armada_export_csv_and_npz_agree(small_board, tmp_path, capsys, objective):
    csv_file, npz_file = tmp_path / "t.csv", tmp_path / "t.npz"
    for fmt, target in (("csv", csv_file), ("npz", npz_file)):
        code, _, err = run(["armada", "export", "--board", small_board, "--objective",
                            objective, "--format", fmt, "--out", str(target)], capsys)
        assert code == 0, err
    rows = list(csv.reader(io.StringIO(csv_file.read_text())))
    data = np.load(npz_file)
    assert rows[0] == ["state", "value"]
    assert len(rows) - 1 == data["value"].size == 3 * 2 * (data["value"].shape[0])
    assert list(data["piers"]) == ["barrels", "three"] and list(data["doubloons"]) == [2, 1]
    for state, value in rows[1:]:
        digits, skulls = state.split("/")
        code = sum(int(d) * s for d, s in zip(digits, data["stride"], strict=True))
        assert float(value) == pytest.approx(data["value"][int(skulls), code], abs=1e-9)
    code, out, _ = run(["armada", "value", "--board", small_board, "--objective", objective,
                        "--board-state", "00/0", "--json"], capsys)
    assert float(rows[1][1]) == pytest.approx(json.loads(out)["expected"], abs=1e-9)
