"""What the verifier runs for each game: ``module:function`` hooks imported on use.

* ``variants``: () -> {name: description} of the game's named readings;
* ``fact``: (check name) -> number, for the rulebook's own count checks;
* ``invariants``: a module with ``prove_all(proofs_dir)`` and ``verify_all(proofs_dir)``;
* ``certificates``: (proofs_dir) -> {file: problems} re-verifying stored certificates;
* ``ambiguity``: a module with ``measure_all(proofs_dir)`` and ``verify_claims(proofs_dir)``.
"""

from __future__ import annotations

import importlib

GAMES: dict[str, dict[str, str]] = {
    "sabords": {
        "title": "Mille Sabords! / Piraten Kapern",
        "folder": "sabords",
        "variants": "solver.sabords.rules:variant_names",
        "fact": "solver.sabords.invariants:fact",
        "invariants": "solver.sabords.invariants",
        "certificates": "solver.sabords.certify:check_all",
        "ambiguity": "solver.sabords.ambiguity",
    },
    "armada": {
        "title": "Gold Armada",
        "folder": "armada",
        "variants": "solver.armada.rules:variant_names",
        "fact": "solver.armada.invariants:fact",
        "invariants": "solver.armada.invariants",
        "ambiguity": "solver.armada.ambiguity",
    },
    "dracheninsel": {
        "title": "Die Dracheninsel",
        "folder": "dracheninsel",
        "variants": "solver.dragon.model:variant_names",
        "fact": "solver.dragon.invariants:fact",
        "invariants": "solver.dragon.invariants",
        "ambiguity": "solver.dragon.ambiguity",
    },
}


def hook(game: str, name: str):
    """The hook's function or module, or None when the game does not provide it."""
    target = GAMES[game].get(name)
    if not target:
        return None
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr) if attr else module
