"""The Dracheninsel variant measurement: situations of the right kind, real witnesses, and a
tampered record caught by the checker."""

from __future__ import annotations

import copy

import pytest

from solver.dragon.ambiguity import _check_rows, measure, situations
from solver.dragon.rules import rule_variants
from solver.dragon.situation import fits

VARIANT = "long-journey-stacking=single"


@pytest.fixture(scope="module")
def rows():
    return measure(VARIANT, n=5)


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_situations_fit_their_description(name):
    spec = rule_variants()[name]["situation"]
    for q in situations(name, 4):
        assert fits(q.position, q.hunter, spec)
        names = [c.name for c in q.hand]
        for card in spec["cards"]:
            if card != "own-double":
                assert names.count(card) >= spec["cards"].count(card)
        if "own-double" in spec["cards"]:
            assert any(len(c.terrains) == 2 and q.own in c.terrains for c in q.hand)


def test_measure_rows_and_witness(rows):
    assert {r["variant"] for r in rows} == {VARIANT}
    assert len(rows) == 3
    assert all(r["claim"] == "changes" for r in rows)
    w = rows[0]["witness"]
    assert w["default"] != w["variant"]
    # a single Weite Reise can only do worse than two: the witness is worse under the variant
    assert (w["variant"][0], w["variant"][1]) > (w["default"][0], w["default"][1])
    assert rows[0]["situations"] and len(rows[0]["situations"]) == 5


def test_checker_accepts_the_record(rows):
    assert _check_rows(rows) == []


def test_checker_catches_a_tampered_witness(rows):
    bad = copy.deepcopy(rows)
    bad[0]["witness"]["variant"] = list(bad[0]["witness"]["default"])
    assert any("witness" in e for e in _check_rows(bad))


def test_checker_catches_a_tampered_situation(rows):
    bad = copy.deepcopy(rows)
    rem, spent = bad[0]["situations"][0]["variant"]
    bad[0]["situations"][0]["variant"] = [rem, spent + 1]
    assert any("situation 0" in e for e in _check_rows(bad))


def test_defaults_and_data_choices_are_not_measured():
    assert measure("long-journey-stacking=stack") == []
    assert measure("deck=assumed") == []
