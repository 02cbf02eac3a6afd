"""Gold Armada's turn and game rules from ``models/armada/rules.toml``, under named variants."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import cache

from solver.util import MODELS_DIR, InputError

RULES_FILE = MODELS_DIR / "armada" / "rules.toml"


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
    variants: tuple[str, ...] = ()

    def key(self) -> dict:
        """Everything about the rules that determines a solve (cache keys, certificates)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "variants"}


@cache
def _raw() -> dict:
    with open(RULES_FILE, "rb") as handle:
        return tomllib.load(handle)


def variant_names() -> dict[str, str]:
    """Every named variant with its one-line description."""
    return {name: spec["description"] for name, spec in _raw()["variants"].items()}


@cache
def _load(variants: tuple[str, ...]) -> Rules:
    raw = _raw()
    game = dict(raw["game"])
    for name in variants:
        spec = raw["variants"].get(name)
        if spec is None:
            known = ", ".join(sorted(raw["variants"]))
            raise InputError(f"unknown variant {name!r}; known: {known}")
        for key, value in spec.get("set", {}).items():
            if key not in game:
                raise InputError(f"variant {name!r} sets unknown rule field {key!r}")
            game[key] = value
    return Rules(**game, variants=variants)


def load_rules(variants: Iterable[str] = ()) -> Rules:
    """The rules under the named variants (order-free; unknown names raise InputError)."""
    return _load(tuple(sorted(set(variants))))
