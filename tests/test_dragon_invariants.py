"""Die Dracheninsel: invariants, their certificates, and broken models being caught."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from solver.dragon import invariants
from solver.dragon.rules import MODEL_DIR


@pytest.fixture(scope="module")
def proved(tmp_path_factory):
    proofs = tmp_path_factory.mktemp("proofs")
    return proofs, invariants.prove_all(proofs)


def test_every_invariant_holds_and_verifies(proved):
    proofs, rows = proved
    assert {r["id"] for r in rows} == {f"dracheninsel/{k}" for k in invariants.INVARIANTS}
    assert all(r["holds"] for r in rows)
    for r in rows:
        assert set(r) == {"id", "statement", "method", "holds", "certificate"}
        assert Path(r["certificate"]).exists()
    assert all(r["holds"] for r in invariants.verify_all(proofs))


def test_a_tampered_path_certificate_fails(proved, tmp_path):
    proofs, _ = proved
    copy = tmp_path / "proofs"
    shutil.copytree(proofs, copy)
    cert = copy / "dracheninsel" / "dragons-cannot-cut-boats.json"
    data = json.loads(cert.read_text())
    data["evidence"]["boats"]["blue"]["paths"][1] = data["evidence"]["boats"]["blue"]["paths"][0]
    cert.write_text(json.dumps(data))
    rows = {r["id"]: r["holds"] for r in invariants.verify_all(copy)}
    assert rows["dracheninsel/dragons-cannot-cut-boats"] is False


def test_the_witness_check_catches_shared_dragon_sites():
    model, island = invariants._load(None)
    holds, evidence = invariants._prove_cut(model, island)
    assert holds and invariants._check_cut_certificate(model, island, evidence)
    paths = evidence["boats"]["red"]["paths"]
    paths[2] = paths[2][:1] + paths[0][1:]  # shares fields with the first path
    assert not invariants._check_cut_certificate(model, island, evidence)


def test_missing_certificate_fails(tmp_path):
    rows = invariants.verify_all(tmp_path)
    assert not any(r["holds"] for r in rows)


def _model_copy(tmp_path: Path) -> Path:
    target = tmp_path / "model"
    shutil.copytree(MODEL_DIR, target)
    return target


@pytest.mark.parametrize("old, new, failing", [
    ('"flight" = 5', '"flight" = 6', {"action-cards", "cards"}),
    ("240, 300", "250, 300", {"coin-value"}),
    ("single_per_terrain = 8", "single_per_terrain = 9",
     {"terrain-cards", "terrain-cards-built", "cards"}),
])
def test_a_miscounted_model_is_caught(tmp_path, old, new, failing):
    model_dir = _model_copy(tmp_path)
    rules = model_dir / "rules.toml"
    text = rules.read_text(encoding="utf-8")
    assert old in text
    rules.write_text(text.replace(old, new), encoding="utf-8")
    rows = {r["id"]: r["holds"] for r in invariants.prove_all(tmp_path / "p", model_dir)}
    assert rows["dracheninsel/deck-and-coins-add-up"] is False
    cert = tmp_path / "p" / "dracheninsel" / "deck-and-coins-add-up.json"
    checks = json.loads(cert.read_text(encoding="utf-8"))["evidence"]["checks"]
    assert {c["id"] for c in checks if not c["holds"]} == failing


def test_every_count_check_of_the_editions_has_a_fact():
    import tomllib

    with open(MODEL_DIR / "editions.toml", "rb") as handle:
        data = tomllib.load(handle)
    for check in data["count_check"]:
        assert invariants.fact(check["check"]) == check["stated"] == check["expected"], check


def test_more_dragons_than_the_board_allows_are_caught(tmp_path):
    """With four dragons the four fields behind a boat's landing fields can be sealed: the
    proof must fail and name such a placement."""
    model, island = invariants._load(None)
    model.components["dragons_in_play"] = 4
    holds, evidence = invariants._prove_cut(model, island)
    assert not holds
    for colour, entry in evidence["boats"].items():
        cut = [island.node(x) for x in entry["cut"]]
        assert len(cut) == 4 and not set(cut) & set(island.fronts)
        # with dragons there, the boat really is cut off
        blocked, frontier = set(cut), [island.boat_node[colour]]
        seen = set(frontier)
        while frontier:
            v = frontier.pop()
            for u in island.adj[v]:
                if u not in seen and u not in blocked:
                    seen.add(u)
                    frontier.append(u)
        assert island.treasure not in seen


def test_facts_for_the_rules_verifier():
    assert invariants.fact("cards") == 99
    assert invariants.fact("coin-value") == 2580
    with pytest.raises(KeyError):
        invariants.fact("no such check")
