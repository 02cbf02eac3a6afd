"""The rules of Die Dracheninsel as data: terrains, colours, deck, coins and named variants.

Everything is read from ``models/dracheninsel/*.toml``; code asks this module, never a literal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from solver.errors import InputError
from solver.io import read_toml
from solver.names import normalise_name
from solver.paths import MODELS_DIR
from solver.variants import apply_variants

MODEL_DIR = MODELS_DIR / "dracheninsel"


@dataclass(frozen=True)
class Action:
    """One action a card can show."""

    name: str
    german: str
    background: str
    route: str  # what the router may do with it ("" = nothing plannable)


@dataclass
class Rules:
    """The game's data, loaded from one model folder."""

    terrains: list[str]
    terrain_german: dict[str, str]
    colour_of: dict[str, str]  # terrain -> hunter colour
    fill: dict[str, str]
    colour_german: dict[str, str]
    actions: dict[str, Action]
    hand_size: int
    board: dict
    components: dict
    coins: dict
    deck_terrain: dict
    deck_actions: dict[str, int]
    variants: dict[str, dict]
    raw: dict = field(repr=False, default_factory=dict)

    @property
    def colours(self) -> list[str]:
        return [self.colour_of[t] for t in self.terrains]

    def terrain_of(self, colour: str) -> str:
        for t, c in self.colour_of.items():
            if c == colour:
                return t
        raise InputError(f"unknown colour {colour!r}")

    def parse_colour(self, text: str) -> str:
        """A hunter colour from an English or German colour or terrain name."""
        key = normalise_name(text)
        for t in self.terrains:
            c = self.colour_of[t]
            names = {c, normalise_name(self.colour_german[c]), t,
                     normalise_name(self.terrain_german[t])}
            if c == "grey":
                names.add("gray")
            if key in names:
                return c
        raise InputError(
            f"unknown hunter colour {text!r}; known: {', '.join(self.colours)}"
        )

    def parse_terrain(self, text: str) -> str:
        """A terrain from its English or German name."""
        key = normalise_name(text)
        for t in self.terrains:
            if key in (t, normalise_name(self.terrain_german[t])):
                return t
        raise InputError(f"unknown terrain {text!r}; known: {', '.join(self.terrains)}")


def load_rules(model_dir: Path = MODEL_DIR) -> Rules:
    """Read rules.toml and variants.toml from a model folder."""
    raw = read_toml(model_dir / "rules.toml", "model file")
    variants = read_toml(model_dir / "variants.toml", "model file")
    terrains = [t["name"] for t in raw["terrain"]]
    deck = raw["deck"]
    actions_counts = {k: v for k, v in deck["actions"].items() if k != "assumption"}
    return Rules(
        terrains=terrains,
        terrain_german={t["name"]: t["german"] for t in raw["terrain"]},
        colour_of={t["name"]: t["colour"] for t in raw["terrain"]},
        fill={t["name"]: t["fill"] for t in raw["terrain"]},
        colour_german={t["colour"]: t["colour_german"] for t in raw["terrain"]},
        actions={
            a["name"]: Action(a["name"], a["german"], a["background"], a["route"])
            for a in raw["action"]
        },
        hand_size=int(raw["game"]["hand_size"]),
        board=raw["board"],
        components=raw["components"],
        coins=raw["coins"],
        deck_terrain=deck["terrain"],
        deck_actions=actions_counts,
        variants=variants,
        raw=raw,
    )


@lru_cache(maxsize=1)
def rules() -> Rules:
    """The shipped rules (cached)."""
    return load_rules()


def rule_variants(model: Rules | None = None) -> dict[str, dict]:
    """The variants that are readings of rules (not the data choices board-file and deck)."""
    model = model or rules()
    return {n: s for n, s in model.variants.items() if s.get("kind", "rule") == "rule"}


def table_readings(chosen: dict[str, str] | None = None,
                   model: Rules | None = None) -> dict[str, str]:
    """The readings of the rules no route finder reads (``kind = "game"``: cards between
    players, the end of the game), their defaults overridden by ``chosen`` (checked)."""
    model = model or rules()
    known = {n: s for n, s in model.variants.items() if s.get("kind") == "game"}
    out = {n: s["default"] for n, s in known.items()}
    for name, choice in (chosen or {}).items():
        if name not in known or choice not in known[name]["choices"]:
            raise InputError(f"unknown game reading {name}={choice}")
        out[name] = choice
    return out


def variant_names(model: Rules | None = None) -> dict[str, str]:
    """Every reading as NAME=CHOICE with its question (the rules verifier's hook)."""
    model = model or rules()
    return {f"{name}={choice}": spec["question"]
            for name, spec in model.variants.items() for choice in spec["choices"]}


def variant_table(model: Rules | None = None) -> dict[str, dict]:
    """The readings in the variant schema of every game: one variant NAME-CHOICE per choice
    of each rule point, described by the point's question, setting that one reading."""
    return {f"{point}-{choice}": {"description": spec["question"], "set": {point: choice}}
            for point, spec in rule_variants(model).items() for choice in spec["choices"]}


def default_readings(model: Rules | None = None) -> dict[str, str]:
    """The reading of every rule point that the solvers use unless told otherwise."""
    return {point: spec["default"] for point, spec in rule_variants(model).items()}


def load_readings(names: Iterable[str], model: Rules | None = None) -> dict[str, str]:
    """Every rule point's reading under the named variants (``flight-from-boat-forbidden``;
    ``flight-from-boat=forbidden`` is the same name), by the one loader of all games."""
    table = {normalise_name(name): spec for name, spec in variant_table(model).items()}
    readings, _ = apply_variants(default_readings(model), table,
                                 [normalise_name(name) for name in names])
    return readings


def resolve_variants(chosen: dict[str, str] | None = None, model: Rules | None = None) -> dict:
    """Every rule point's reading: the defaults, overridden by ``chosen`` (point -> choice,
    each checked by name)."""
    known = rule_variants(model)
    for name, choice in (chosen or {}).items():
        if name not in known:
            raise InputError(f"unknown variant {name!r}; known: {', '.join(sorted(known))}")
        if choice not in known[name]["choices"]:
            raise InputError(f"variant {name} has no choice {choice!r}; choices: "
                             + ", ".join(known[name]["choices"]))
    return load_readings([f"{name}-{choice}" for name, choice in (chosen or {}).items()], model)
