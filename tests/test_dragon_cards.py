"""Die Dracheninsel: card names, hands, the deck and what a card can pay for."""

from __future__ import annotations

from collections import Counter

import pytest

from solver.dragon.cards import Card, deck, parse_card, parse_hand
from solver.dragon.rules import load_readings, resolve_variants, rules, variant_names
from solver.errors import InputError


@pytest.mark.parametrize("text, card", [
    ("water", Card(terrains=("water",))),
    ("Wasser", Card(terrains=("water",))),
    ("wüste", Card(terrains=("desert",))),
    ("water+forest", Card(terrains=("water", "forest"))),
    ("Wasser+Wald", Card(terrains=("water", "forest"))),
    ("Tollkühner Flug", Card(actions=("flight",))),
    ("tollkuehner-flug", Card(actions=("flight",))),
    ("Angst & Schrecken", Card(actions=("fright",))),
    ("Weite Reise", Card(actions=("long-journey",))),
    ("Zerstörende Kräfte", Card(actions=("swap-adjacent",))),
    ("Tosende Elemente", Card(actions=("swap-any",))),
    ("fright+slumber", Card(actions=("fright", "slumber"))),
])
def test_card_names(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text, colour", [
    ("Red", "red"), ("ROT", "red"), (" Grün ", "green"), ("gruen", "green"), ("gray", "grey"),
    ("Grau", "grey"), ("Wüste", "yellow"), ("WUESTE", "yellow"), ("vulkan", "red"),
])
def test_hunter_colours_in_any_case_and_either_language(text, colour):
    assert rules().parse_colour(text) == colour


@pytest.mark.parametrize("text, terrain", [
    ("Wüste", "desert"), ("wueste", "desert"), ("  Acker ", "farmland"), ("FOREST", "forest"),
])
def test_terrains_in_any_case_and_either_language(text, terrain):
    assert rules().parse_terrain(text) == terrain


@pytest.mark.parametrize("text, message", [
    ("purple", "unknown hunter colour 'purple'"),
    ("grün grün", "unknown hunter colour"),
])
def test_unknown_colours(text, message):
    with pytest.raises(InputError, match=message):
        rules().parse_colour(text)


@pytest.mark.parametrize("text, message", [
    ("lava", "unknown card 'lava'"),
    ("water+flight", "mixes a terrain and an action"),
    ("water+water", "same thing twice"),
    ("water+forest+desert", "unknown card"),
])
def test_bad_cards(text, message):
    with pytest.raises(InputError, match=message):
        parse_card(text)


def test_hand_limits():
    assert len(parse_hand("water, flight ,desert")) == 3
    assert parse_hand("") == []
    with pytest.raises(InputError, match="at most 6 cards, got 7"):
        parse_hand(",".join(["water"] * 7))


def test_deck_has_99_cards_with_the_stated_terrain_cards():
    cards = deck()
    assert len(cards) == 99
    terrain = [c for c in cards if c.terrains]
    assert len(terrain) == 54
    assert sum(len(c.terrains) == 2 for c in terrain) == 6
    singles = Counter(c.terrains[0] for c in terrain if len(c.terrains) == 1)
    assert set(singles.values()) == {8}
    assert len([c for c in cards if c.actions]) == 45


def test_joker_and_double_cards():
    water = Card(terrains=("water",))
    assert water.pays("volcano", own="water", joker_doubles=True)  # own colour: a joker
    assert not water.pays("volcano", own="desert", joker_doubles=True)
    double = Card(terrains=("water", "forest"))
    assert double.pays("forest", own="desert", joker_doubles=False)
    assert double.pays("volcano", own="water", joker_doubles=True)
    assert not double.pays("volcano", own="water", joker_doubles=False)
    assert not Card(actions=("flight",)).pays("water", own="water", joker_doubles=True)


def test_variants_are_data_with_defaults():
    model = rules()
    chosen = resolve_variants()
    assert chosen == {name: spec["default"] for name, spec in model.variants.items()
                      if spec.get("kind", "rule") == "rule"}
    assert "board-file" not in chosen and "flight-from-boat=forbidden" in variant_names()
    assert load_readings(["flight-from-boat=forbidden"])["flight-from-boat"] == "forbidden"
    with pytest.raises(InputError, match="unknown variant"):
        resolve_variants({"no-such": "x"})
    with pytest.raises(InputError, match="has no choice"):
        resolve_variants({"flight-from-boat": "sometimes"})
    with pytest.raises(InputError, match="unknown variant 'flight-from-boat'"):
        load_readings(["flight-from-boat"])
