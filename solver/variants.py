"""The one loader of named variants (readings of the rules) for the three games, and the
``variants`` command's document and table."""

from __future__ import annotations

import json
from collections.abc import Iterable

from solver.errors import InputError
from solver.text import table


def variant_descriptions(variants: dict[str, dict]) -> dict[str, str]:
    """Each variant's name with its one-line description, from a parsed ``[variants]`` table
    whose entries carry a ``description`` key."""
    return {name: spec["description"] for name, spec in variants.items()}


def apply_variants(game: dict, variants: dict[str, dict],
                   names: Iterable[str]) -> tuple[dict, dict]:
    """The ``[game]`` fields of a rules file under the named variants of its ``[variants]``
    table, in order: each variant's ``set`` table overrides fields (a field the game does not
    have is an error, as is an unknown name, and two variants setting one field to different
    values contradict each other). Returns (fields, choices), where choices holds what a
    variant picks besides fields (Mille Sabords' ``deck``). The one loader of variants for the
    three games (Die Dracheninsel's readings are variants that set one field each)."""
    fields, choices = dict(game), {}
    set_by: dict[str, str] = {}
    for name in names:
        spec = variants.get(name)
        if spec is None:
            raise InputError(f"unknown variant {name!r}; known: {', '.join(sorted(variants))}")
        sets = spec.get("set", {})
        unknown = sorted(set(sets) - set(fields))
        if unknown:
            raise InputError(f"variant {name!r} sets unknown rule field {unknown[0]!r}")
        for key, value in sets.items():
            if key in set_by and fields[key] != value:
                raise InputError(f"variants {set_by[key]} and {name} contradict each other "
                                 f"(both set {key})")
            set_by[key] = name
        fields.update(sets)
        choices.update({k: v for k, v in spec.items() if k not in ("description", "set")})
    return fields, choices


def variant_readings(raw: dict) -> dict[str, dict]:
    """Each named variant of a parsed rules file (``[game]``, ``[variants]``, each with a
    ``description`` and a ``set`` table or a ``deck``) as the ``variants --json`` document:
    its description, what it sets, and the default reading it replaces (``default``: the
    variant only restates the rules as written, as Die Dracheninsel's default readings do)."""
    game = raw["game"]
    out = {}
    for name, spec in raw["variants"].items():
        sets = dict(spec.get("set", {}))
        if "deck" in spec:
            sets["deck"] = spec["deck"]
        default = all(k in game and game[k] == v for k, v in sets.items())
        out[name] = {"description": spec["description"], "default": default, "sets": sets,
                     "default_reading": {k: game.get(k, "standard") for k in sets}}
    return out


def readings_text(readings: dict[str, dict]) -> str:
    """``variants`` for people: one row per reading, what it sets and the default it
    replaces (a default reading is marked ``(default)``)."""
    def values(d: dict) -> str:
        return ", ".join(f"{k} = {json.dumps(v)}" for k, v in d.items())

    rows = [[name, values(spec["sets"]),
             "(default)" if spec["default"] else values(spec["default_reading"]),
             spec["description"]] for name, spec in readings.items()]
    return table(["--variant NAME", "reading", "default reading", "description"], rows, "llll")
