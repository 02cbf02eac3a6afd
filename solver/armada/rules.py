"""Gold Armada's turn and game rules from ``models/armada/rules.toml``, under named variants."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from functools import cache

from solver.io import read_toml
from solver.names import normalise_name
from solver.paths import MODELS_DIR
from solver.variants import apply_variants, variant_descriptions

RULES_FILE = MODELS_DIR / "armada" / "rules.toml"
# Readings no whole-game table reads: who wins, the end of the round, the order of play, locked
# dice (measured by solver.armada.ambiguity in simulated games or one turn).
MEASURED_ONLY = ("winner", "ties", "game_end", "turn_order", "set_aside")


@dataclass(frozen=True)
class Rules:
    """The game's parameters (see rules.toml for each field's meaning and source)."""

    dice: int
    rolls: int
    skulls: int
    skull_value: int
    stop_early: bool
    min_reroll: int
    must_take: bool
    five_kind_full_house: bool
    exact_kind: bool
    full_house_pair_any: bool
    winner: str = "value-minus-skulls"
    ties: str = "shared"
    game_end: str = "at-once"
    turn_order: str = "clockwise"
    set_aside: str = "may-return"
    variants: tuple[str, ...] = ()

    def key(self) -> dict:
        """Everything about the rules that determines a solve (cache keys, certificates): not
        the readings no table reads (``MEASURED_ONLY``)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "variants" and f.name not in MEASURED_ONLY}

    def measured_only(self) -> list[str]:
        """The fields set away from the default that no table reads."""
        base = Rules(**_raw()["game"])
        return [n for n in MEASURED_ONLY if getattr(self, n) != getattr(base, n)]


@cache
def _raw() -> dict:
    return read_toml(RULES_FILE, "Gold Armada rules file")


def variant_names() -> dict[str, str]:
    """Every named variant with its one-line description."""
    return variant_descriptions(_raw()["variants"])


def with_variant(rules: Rules, name: str) -> Rules:
    """``rules`` with one more named variant applied (keeps any other changes, e.g. a reduced
    number of skulls)."""
    current = {f.name: getattr(rules, f.name) for f in fields(rules) if f.name != "variants"}
    changes, _ = apply_variants(current, _raw()["variants"], [name])
    return replace(rules, **changes, variants=tuple(sorted({*rules.variants, name})))


@cache
def _load(variants: tuple[str, ...]) -> Rules:
    rules = Rules(**_raw()["game"])
    for name in variants:
        rules = with_variant(rules, name)
    return rules


def load_rules(variants: Iterable[str] = ()) -> Rules:
    """The rules under the named variants (order-free; unknown names raise InputError)."""
    return _load(tuple(sorted({normalise_name(name) for name in variants})))
