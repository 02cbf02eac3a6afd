"""Mille Sabords rules loaded from ``models/sabords/rules.toml``: the game, the cards, the
decks and the named variants (readings) that override them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache

from solver.io import read_toml
from solver.names import normalise_name
from solver.paths import MODELS_DIR
from solver.variants import apply_variants, variant_descriptions

RULES_FILE = MODELS_DIR / "sabords" / "rules.toml"
NO_LIMIT = 10**9


@dataclass(frozen=True)
class Card:
    """One fortune card's effect (see the field list in rules.toml)."""

    name: str
    title: str
    multiplier: int = 1
    extra: tuple[tuple[str, int], ...] = ()
    extra_skulls: int = 0
    merge: tuple[str, ...] = ()
    battle_sabres: int = 0
    battle_bonus: int = 0
    island: bool = True
    skull_rerolls: int = 0
    protect: bool = False
    rerolls: int = NO_LIMIT
    only_symbols: tuple[tuple[str, int], ...] = ()
    only_symbols_multiplier: int = 1
    bust_island: bool = False
    island_rerolls: int = NO_LIMIT
    sabre_penalty: int = 0
    island_sabre_void: bool = False


@dataclass(frozen=True)
class Rules:
    """The game's parameters under a set of variants."""

    dice: int
    faces: tuple[str, ...]
    letters: tuple[str, ...]
    skull: str
    sabre: str
    symbol_points: tuple[tuple[str, int], ...]
    set_points: tuple[tuple[int, int], ...]
    full_chest_bonus: int
    bust_skulls: int
    island_skulls: int
    island_penalty: int
    min_reroll: int
    min_keep: int
    sorceress_min_reroll: int
    card_skulls_count_island: bool
    card_skulls_forfeit_chest: bool
    battle_sabres_score: bool
    nine_of_a_kind: str
    sorceress_saves_bust: bool
    truce_penalty_on_bust: bool
    truce_island_sabre: str
    island_reroll: str
    storm_scoring: str
    battle_bust_penalty: str
    no_island_skulls: str
    min_keep_counts_skulls: bool
    card_skulls_island_penalty: bool
    sorceress_on_island: bool
    endgame: str
    ties: str
    target: int
    players: int
    min_players: int
    max_players: int
    score_floor: str
    cards: dict[str, Card] = field(compare=False, hash=False)
    deck: tuple[tuple[str, int], ...] = ()
    variants: tuple[str, ...] = ()
    last_round: str = "one-more-turn-each"
    trigger_drop: str = "highest-wins"
    # later readings: defaults that keep the earlier behaviour (and the digest of every
    # earlier reading)
    card_counts_as_kept_die: bool = False
    battle_sabres_shown: str = "final"

    def face(self, name: str) -> int:
        return self.faces.index(name)

    def card(self, name: str) -> Card:
        """The card ``name`` names: English, German or French, any case
        (:mod:`solver.sabords.names`)."""
        from solver.sabords.names import card_name

        return self.cards[card_name(name, list(self.cards))]

    def with_dice(self, dice: int) -> Rules:
        """The same rules played with fewer dice (reduced games for brute-force checks)."""
        return replace(self, dice=dice)

    def key(self) -> dict:
        """Everything that determines a solve, for cache keys and certificates: the dice, the
        variants and a digest of the rule values in effect (:meth:`digest`)."""
        return {
            "dice": self.dice,
            "variants": list(self.variants),
            "rules_sha": self.digest(),
        }

    def digest(self) -> str:
        """A digest of every rule value in effect (cards and deck included; titles, which are
        only printed, left out). It is the rules' identity in certificates and cache keys: an
        edit of rules.toml that changes no value in effect (a comment, a new variant's
        definition, a title) keeps every certificate valid; one that changes a value voids
        exactly the certificates it touches."""
        return _digest(self)


@cache
def _digest(rules: Rules) -> str:
    import hashlib
    import json

    values = _set_values(rules)
    values.pop("variants", None)  # the key names them; the digest is what they amount to
    values["cards"] = {name: _set_values(card) for name, card in rules.cards.items()}
    for card in values["cards"].values():
        card.pop("title", None)
    text = json.dumps(values, sort_keys=True, separators=(",", ":"), default=list)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _set_values(record: Rules | Card) -> dict:
    """A rules record's fields, less those at their declared default: a rule field added
    later with a default that keeps the old behaviour leaves the digest of every existing
    reading as it was."""
    from dataclasses import MISSING, fields

    return {f.name: getattr(record, f.name) for f in fields(record)
            if f.default is MISSING or getattr(record, f.name) != f.default}


@cache
def _raw() -> dict:
    return read_toml(RULES_FILE, "Mille Sabords rules file")


def variant_names() -> dict[str, str]:
    """Every named variant with its one-line description."""
    return variant_descriptions(_raw()["variants"])


def _card(name: str, spec: dict) -> Card:
    battle = spec.get("battle", {})
    return Card(
        name=name,
        title=spec["title"],
        multiplier=spec.get("multiplier", 1),
        extra=tuple(sorted(spec.get("extra", {}).items())),
        extra_skulls=spec.get("extra_skulls", 0),
        merge=tuple(spec.get("merge", ())),
        battle_sabres=battle.get("sabres", 0),
        battle_bonus=battle.get("bonus", 0),
        island=spec.get("island", True),
        skull_rerolls=spec.get("skull_rerolls", 0),
        protect=spec.get("protect", False),
        rerolls=spec.get("rerolls", NO_LIMIT),
        only_symbols=tuple(sorted(spec.get("only_symbols", {}).items())),
        only_symbols_multiplier=spec.get("only_symbols_multiplier", 1),
        bust_island=spec.get("bust_island", False),
        island_rerolls=spec.get("island_rerolls", NO_LIMIT),
        sabre_penalty=spec.get("sabre_penalty", 0),
        island_sabre_void=spec.get("island_sabre_void", False),
    )


@cache
def _load(variants: tuple[str, ...]) -> Rules:
    raw = _raw()
    game, choices = apply_variants(raw["game"], raw["variants"], variants)
    deck_name = choices.get("deck", "standard")
    cards = {name: _card(name, spec) for name, spec in raw["cards"].items()}
    deck = tuple(raw["decks"][deck_name].items())
    return Rules(
        dice=game["dice"],
        faces=tuple(game["faces"]),
        letters=tuple(game["letters"]),
        skull=game["skull"],
        sabre=game["sabre"],
        symbol_points=tuple(sorted(game["symbol_points"].items())),
        set_points=tuple(sorted((int(k), v) for k, v in game["set_points"].items())),
        full_chest_bonus=game["full_chest_bonus"],
        bust_skulls=game["bust_skulls"],
        island_skulls=game["island_skulls"],
        island_penalty=game["island_penalty"],
        min_reroll=game["min_reroll"],
        min_keep=game["min_keep"],
        sorceress_min_reroll=game["sorceress_min_reroll"],
        card_skulls_count_island=game["card_skulls_count_island"],
        card_skulls_forfeit_chest=game["card_skulls_forfeit_chest"],
        battle_sabres_score=game["battle_sabres_score"],
        nine_of_a_kind=game["nine_of_a_kind"],
        sorceress_saves_bust=game["sorceress_saves_bust"],
        truce_penalty_on_bust=game["truce_penalty_on_bust"],
        truce_island_sabre=game["truce_island_sabre"],
        island_reroll=game["island_reroll"],
        storm_scoring=game["storm_scoring"],
        battle_bust_penalty=game["battle_bust_penalty"],
        no_island_skulls=game["no_island_skulls"],
        min_keep_counts_skulls=game["min_keep_counts_skulls"],
        card_skulls_island_penalty=game["card_skulls_island_penalty"],
        sorceress_on_island=game["sorceress_on_island"],
        card_counts_as_kept_die=game["card_counts_as_kept_die"],
        battle_sabres_shown=game["battle_sabres_shown"],
        endgame=game["endgame"],
        ties=game["ties"],
        target=game["target"],
        players=game["players"],
        min_players=game["min_players"],
        max_players=game["max_players"],
        score_floor=game["score_floor"],
        last_round=game["last_round"],
        trigger_drop=game["trigger_drop"],
        cards=cards,
        deck=deck,
        variants=variants,
    )


def load_rules(variants: Iterable[str] = ()) -> Rules:
    """The rules under the named variants (order-free; unknown names raise InputError)."""
    return _load(tuple(sorted({normalise_name(name) for name in variants})))


STANDARD_CARDS = (
    "none",
    "treasure-island",
    "captain",
    "sorceress",
    "gold",
    "diamond",
    "monkey-business",
    "sea-battle-2",
    "sea-battle-3",
    "sea-battle-4",
    "skulls-1",
    "skulls-2",
)
PROMO_CARDS = ("after-the-storm", "truce")
