"""The table layout's largest turn gain, found without the turns' stopping problems, is the
largest ``own`` of the deck's outcome table, under the default rules and every reading."""

from __future__ import annotations

import pytest

from solver.sabords.game.table.states import Layout, TableSpec
from solver.sabords.rules import load_rules, variant_names
from solver.sabords.turn.lanes import deck_turns, largest_gain


def test_largest_gain_is_the_deck_tables_under_the_default_rules():
    rules = load_rules()
    assert largest_gain(rules) == int(deck_turns(rules).own.max())
    layout = Layout(TableSpec.of(rules, 3, 500, 0))
    assert "deck" not in vars(layout)  # the rows are laid out without the turns
    assert layout.high == layout.top - 1 + int(layout.deck.own.max())


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(variant_names()))
def test_largest_gain_is_the_deck_tables_under_every_reading(variant):
    rules = load_rules([variant])
    assert largest_gain(rules) == int(deck_turns(rules).own.max())
