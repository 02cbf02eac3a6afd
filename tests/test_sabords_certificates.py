"""Exact certificates: reduced games certify; the shipped full-game certificates re-verify;
tampering is caught."""

from __future__ import annotations

import copy
import json

import pytest

from solver.sabords.rules import PROMO_CARDS, STANDARD_CARDS, load_rules
from solver.sabords.turn.certify import (
    certificate_document,
    certificate_path,
    check_certificate,
    check_document,
    rules_of,
)


@pytest.mark.parametrize("card", STANDARD_CARDS + PROMO_CARDS)
def test_reduced_game_certifies(card):
    rules = load_rules().with_dice(4)
    doc = certificate_document(card, rules)
    assert check_document(doc, rules) == []


@pytest.mark.parametrize("card", ["none", "sorceress", "treasure-island"])
def test_shipped_full_certificate_reverifies(card):
    path = certificate_path(card, load_rules())
    assert path.exists(), "run make solve to write proofs/sabords/"
    assert check_certificate(path) == []


def test_tampered_certificates_fail():
    rules = load_rules().with_dice(4)
    doc = certificate_document("none", rules)
    bumped = copy.deepcopy(doc)
    row = next(r for r in bumped["states"] if r[2] != "stop")
    row[3] = str(int(row[3]) + 1)
    assert check_document(bumped, rules)
    # a policy that stops where the certified one rerolls: its values no longer add up
    stopped = copy.deepcopy(doc)
    row = next(r for r in stopped["states"] if r[2] != "stop")
    row[2] = "stop"
    assert check_document(stopped, rules)
    # a changed start value
    start = copy.deepcopy(doc)
    start["start_value"] = "1/1"
    assert check_document(start, rules)
    # other rules
    assert check_document(doc, load_rules(["reroll-two-only"]).with_dice(4))


def test_certificate_names_its_rules(tmp_path):
    rules = load_rules(["sorceress-lone-skull"]).with_dice(3)
    doc = certificate_document("sorceress", rules)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    assert rules_of(doc) == rules
    assert check_certificate(path) == []
