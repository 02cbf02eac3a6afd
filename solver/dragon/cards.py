"""Cards and hands: names (English and German), what each card can pay for, the deck.

A terrain card shows one or two terrains (``water``, ``water+forest``); an action card one or
two actions (``flight``, ``fright+slumber``). A card with two faces is played as one of them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.dragon.rules import Rules, rules
from solver.errors import InputError
from solver.names import known_names, normalise_name


@dataclass(frozen=True, order=True)
class Card:
    """One card: its terrains (terrain card) or its actions (action card)."""

    terrains: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return "+".join(self.terrains or self.actions)

    def __str__(self) -> str:
        return self.name

    def pays(self, terrain: str, own: str, joker_doubles: bool) -> bool:
        """Can this card pay for entering a field of ``terrain`` for a hunter of terrain ``own``?"""
        if not self.terrains:
            return False
        if terrain in self.terrains:
            return True
        if own in self.terrains and (len(self.terrains) == 1 or joker_doubles):
            return True  # the own colour is a joker
        return False

    def does(self, route_use: str, model: Rules | None = None) -> bool:
        """Does one of the card's actions have this use in a route?"""
        model = model or rules()
        return any(model.actions[a].route == route_use for a in self.actions)

    def swaps(self, model: Rules | None = None) -> bool:
        """Can the card swap tiles (two neighbours, Zerstörende Kräfte, or any two, Tosende
        Elemente)?"""
        return self.does("swap-adjacent", model) or self.does("swap-any", model)


def holds_swap(hand: list[Card], model: Rules | None = None) -> bool:
    """Does the hand hold a card that can swap tiles?"""
    return any(c.swaps(model) for c in hand)


def _aliases(model: Rules) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for t in model.terrains:
        out[t] = ("terrain", t)
        out[normalise_name(model.terrain_german[t])] = ("terrain", t)
    for a in model.actions.values():
        out[a.name] = ("action", a.name)
        out[normalise_name(a.german)] = ("action", a.name)
    # common spellings of the German names
    out["angst-und-schrecken"] = ("action", "fright")
    out["tollkuehner-flug"] = ("action", "flight")
    return out


def parse_card(token: str, model: Rules | None = None) -> Card:
    """Parse one card name (``water``, ``Wasser+Wald``, ``flight``, ``Tollkühner Flug``)."""
    model = model or rules()
    aliases = _aliases(model)
    parts = [p for p in str(token).split("+")]
    if not 1 <= len(parts) <= 2 or any(not normalise_name(p) for p in parts):
        raise InputError(f"unknown card {token!r}")
    kinds = []
    for p in parts:
        key = normalise_name(p)
        if key not in aliases:
            spellings = {k: name for k, (_, name) in aliases.items()}
            raise InputError(f"unknown card {p.strip()!r}; known: "
                             + known_names(spellings, model.terrains + list(model.actions)))
        kinds.append(aliases[key])
    if len({k for k, _ in kinds}) != 1:
        raise InputError(f"card {token!r} mixes a terrain and an action")
    names = tuple(n for _, n in kinds)
    if len(names) == 2 and names[0] == names[1]:
        raise InputError(f"card {token!r} shows the same thing twice")
    if kinds[0][0] == "terrain":
        return Card(terrains=names)
    return Card(actions=names)


def parse_hand(text: str | list[str], model: Rules | None = None) -> list[Card]:
    """A hand: card names separated by commas (or a list); at most the hand size."""
    model = model or rules()
    tokens = text if isinstance(text, list) else [t for t in str(text).split(",")]
    tokens = [t for t in (tok.strip() for tok in tokens) if t]
    cards = [parse_card(t, model) for t in tokens]
    if len(cards) > model.hand_size:
        raise InputError(
            f"a hand holds at most {model.hand_size} cards, got {len(cards)}"
        )
    return cards


def deck(model: Rules | None = None) -> list[Card]:
    """The 99 cards: 48 single and 6 double terrain cards, 45 action cards (assumed counts)."""
    model = model or rules()
    out: list[Card] = []
    for t in model.terrains:
        out += [Card(terrains=(t,))] * int(model.deck_terrain["single_per_terrain"])
    for pair in model.deck_terrain["doubles"]:
        out.append(Card(terrains=tuple(pair)))
    for key, count in model.deck_actions.items():
        out += [parse_card(key, model)] * int(count)
    return out


def deck_counts(model: Rules | None = None) -> Counter:
    return Counter(c.name for c in deck(model))
