"""The one loader of field-setting variants (Mille Sabords, Gold Armada): apply_variants."""

from __future__ import annotations

import pytest

from solver.errors import InputError
from solver.variants import apply_variants

GAME = {"a": 1, "b": "x"}
VARIANTS = {
    "set-a": {"description": "a is 2", "set": {"a": 2}},
    "set-a-again": {"description": "a is 3", "set": {"a": 3}},
    "set-a-and-b": {"description": "a is 2, b is y", "set": {"a": 2, "b": "y"}},
    "deck": {"description": "another deck", "deck": "promo"},
    "broken": {"description": "sets a field the game lacks", "set": {"c": 1}},
}


def test_fields_are_set_and_other_choices_returned():
    fields, choices = apply_variants(GAME, VARIANTS, ["set-a", "set-a-and-b", "deck"])
    assert fields == {"a": 2, "b": "y"} and choices == {"deck": "promo"}
    assert GAME == {"a": 1, "b": "x"}  # the base is not changed


@pytest.mark.parametrize("names, message", [
    (["nope"], "unknown variant 'nope'; known: broken, deck, set-a, set-a-again, set-a-and-b"),
    (["set-a", "set-a-again"], "variants set-a and set-a-again contradict each other (both set a)"),
    (["broken"], "variant 'broken' sets unknown rule field 'c'"),
])
def test_bad_variants_are_one_line_errors(names, message):
    with pytest.raises(InputError) as err:
        apply_variants(GAME, VARIANTS, names)
    assert str(err.value) == message
