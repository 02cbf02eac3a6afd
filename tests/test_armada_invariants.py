"""Invariants and their certificates: proved, re-verified by recomputation, and failing on
broken boards or tampered certificates."""

from __future__ import annotations

import json

import pytest

from solver.armada.board import BOARD_FILE, parse_board
from solver.armada.game import Game, default_game
from solver.armada.invariants import fact, prove_all, verify_all
from solver.armada.rules import load_rules

PIERS = ["barrels", "full-house", "four-of-a-kind"]


def board_game(old: str, new: str) -> Game:
    text = BOARD_FILE.read_text().replace(old, new, 1)
    return Game(parse_board(text, "broken.toml"), load_rules()).reduced(piers=PIERS, skulls=2)


@pytest.fixture(scope="module")
def small() -> Game:
    return default_game().reduced(piers=PIERS, skulls=2)


def by_id(rows: list[dict]) -> dict[str, dict]:
    return {r["id"].split("/")[1]: r for r in rows}


@pytest.mark.slow
def test_prove_and_verify_small_board(small, tmp_path):
    proved = by_id(prove_all(tmp_path, small))
    assert set(proved) == {"requirements-reachable", "values-never-fall",
                           "longest-game-35-turns", "stop-early-changes-nothing"}
    assert all(r["holds"] for r in proved.values())
    assert all(set(r) == {"id", "statement", "method", "holds", "certificate"}
               for r in proved.values())
    assert all(r["holds"] for r in verify_all(tmp_path, small))
    cert = json.loads((tmp_path / "armada/invariants/longest-game-35-turns.json").read_text())
    # three piers of three doubloons and two skulls: at most 9 + 2 - 1 turns
    assert cert["evidence"]["longest_game_turns"] == 10
    chances = json.loads((tmp_path / "armada/invariants/requirements-reachable.json")
                         .read_text())["evidence"]["chances"]
    assert chances["barrels/1"] == "82145855519/117546246144"


@pytest.mark.slow
def test_tampered_certificate_is_caught(small, tmp_path):
    prove_all(tmp_path, small)
    path = tmp_path / "armada/invariants/requirements-reachable.json"
    data = json.loads(path.read_text())
    data["evidence"]["chances"]["barrels/1"] = "1/1"
    path.write_text(json.dumps(data))
    rows = by_id(verify_all(tmp_path, small))
    assert not rows["requirements-reachable"]["holds"]
    assert rows["values-never-fall"]["holds"]


@pytest.mark.slow
def test_falling_value_is_caught(tmp_path):
    broken = board_game("values = [1, 2, 3]", "values = [2, 3, 1]")
    rows = by_id(prove_all(tmp_path, broken))
    assert not rows["values-never-fall"]["holds"]
    assert not by_id(verify_all(tmp_path, broken))["values-never-fall"]["holds"]
    cert = json.loads((tmp_path / "armada/invariants/values-never-fall.json").read_text())
    assert cert["evidence"]["falls"] == ["barrels: 3 -> 1"]


def test_unreachable_requirement_is_caught(tmp_path):
    broken = board_game("need = [2, 3, 4]", "need = [2, 3, 6]")
    assert not by_id(prove_all(tmp_path, broken))["requirements-reachable"]["holds"]


@pytest.mark.slow
def test_certificate_for_another_board_does_not_verify(small, tmp_path):
    prove_all(tmp_path, small)
    other = board_game("values = [4, 5, 6]", "values = [4, 5, 7]")
    assert not all(r["holds"] for r in verify_all(tmp_path, other))


def test_rulebook_numbers():
    assert fact("doubloons") == 30 == fact("piers-times-doubloons")
    assert (fact("skulls"), fact("dice"), fact("symbols"), fact("rolls")) == (6, 5, 6, 3)
    assert (fact("lowest-value"), fact("highest-value")) == (1, 6)
    assert fact("value-sum") == 6 * 6 + 9 + 12 + 15 + 15


def test_editions_data_is_consistent():
    from solver.armada.rules import variant_names
    from solver.rules.editions import load_editions, structural_errors

    ed = load_editions("armada")
    # five languages, and the cover's figures (players), which are in no language
    assert set(ed.editions) == {"fr", "nl", "pl", "en", "de", "cover"}
    assert structural_errors(ed, set(variant_names())) == []
    for check in ed.count_checks:
        assert fact(check["check"]) == check["stated"], check["what"]
    used = {p.variant for p in ed.points if p.variant and p.measure == "turn"}
    assert used == set(variant_names())  # every reading the solvers offer has its rule point
    classes = {p.id: p.klass for p in ed.points}
    assert classes["must-take"] == "contradiction"
    assert classes["special-allowed-symbols"] == "translation fault"
    assert classes["stop-early"] == "silence"
