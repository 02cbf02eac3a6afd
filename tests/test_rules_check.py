"""The rules verifier: classes of rule points, and broken models that it must catch."""

from __future__ import annotations

import json
import shutil

import pytest

import solver.sabords.rules as sabords_rules
from solver.rules.check import check_editions, run_check
from solver.sabords import invariants
from solver.sabords.certify import check_all
from solver.util import MODELS_DIR, PROOFS_DIR


@pytest.fixture
def patched_rules(tmp_path, monkeypatch):
    """Point the Mille Sabords loader at an editable copy of rules.toml."""
    copy = tmp_path / "rules.toml"
    shutil.copy(sabords_rules.RULES_FILE, copy)
    monkeypatch.setattr(sabords_rules, "RULES_FILE", copy)
    sabords_rules._raw.cache_clear()
    sabords_rules._load.cache_clear()
    yield copy
    sabords_rules._raw.cache_clear()
    sabords_rules._load.cache_clear()


def test_sabords_points_are_classified():
    entry = check_editions("sabords")
    classes = {p["id"]: p["class"] for p in entry["points"]}
    assert classes["reroll-minimum"] == "contradiction"
    assert classes["game-end"] == "contradiction"
    assert classes["full-chest"] == "translation fault"
    assert classes["ties"] == "silence"
    assert classes["set-points"] == "agreed"
    assert entry["errors"] == []
    assert all(c["agrees"] for c in entry["count_checks"])


def test_miscounted_deck_is_caught(patched_rules):
    text = patched_rules.read_text().replace("[decks.standard]\ntreasure-island = 4",
                                             "[decks.standard]\ntreasure-island = 5")
    patched_rules.write_text(text)
    errors = check_editions("sabords")["errors"]
    assert any("Fortune cards in the deck" in e and "36" in e for e in errors)


def test_score_that_breaks_an_invariant_is_caught(patched_rules):
    text = patched_rules.read_text().replace("full_chest_bonus = 500", "full_chest_bonus = 550")
    patched_rules.write_text(text)
    holds, evidence = invariants._multiples_of_100()
    assert not holds
    assert evidence["default"]["not_multiples"]


def test_contradicting_edition_is_caught(tmp_path):
    models = tmp_path / "models"
    shutil.copytree(MODELS_DIR / "sabords", models / "sabords")
    path = models / "sabords" / "editions.toml"
    text = path.read_text()
    marker = 'reading = "sets-100-200-500-1000-2000-4000"\n  statement = "The same table'
    assert marker in text
    path.write_text(text.replace(marker, 'reading = "sets-double"\n  statement = "The same table'))
    entry = check_editions("sabords", models)
    point = next(p for p in entry["points"] if p["id"] == "set-points")
    assert point["class"] == "contradiction"
    assert any("set-points" in e and "named variant" in e for e in entry["errors"])


def test_tampered_certificate_is_caught(tmp_path):
    shutil.copytree(PROOFS_DIR / "sabords", tmp_path / "sabords",
                    ignore=shutil.ignore_patterns("invariants", "variants.json"))
    path = tmp_path / "sabords" / "captain.json"
    doc = json.loads(path.read_text())
    doc["states"][10][3] = str(int(doc["states"][10][3]) * 2 + 1)
    path.write_text(json.dumps(doc))
    results = check_all(tmp_path)
    assert results["captain.json"] and not results["none.json"]


def test_full_check_passes_on_the_shipped_proofs():
    result = run_check(["sabords"])
    assert result["ok"], result["games"]["sabords"]["errors"]
