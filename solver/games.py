"""The games the product covers, and the other parts with reports or benchmarks: each names its
report writer and its benchmark (the table companion has only a benchmark).

``make solve`` calls every ``reports`` entry, ``make bench`` every ``bench`` entry; each is a
``module:function`` path imported only when run.
"""

from __future__ import annotations

GAMES: dict[str, dict[str, str]] = {
    "sabords": {
        "title": "Mille Sabords! / Piraten Kapern",
        "reports": "solver.sabords.reports:write_reports",
        "bench": "solver.sabords.bench:run",
    },
    "armada": {
        "title": "Gold Armada",
        "reports": "solver.armada.reports:write_reports",
        "bench": "solver.armada.bench:run",
    },
    "dracheninsel": {
        "title": "Die Dracheninsel",
        "reports": "solver.dragon.reports:write_reports",
        "bench": "solver.dragon.bench:run",
    },
    "web": {
        "title": "The table companion (treasure serve)",
        "bench": "solver.web.bench:run",
    },
    "rules": {
        "title": "The rules verifier",
        "reports": "solver.rules.report:write_reports",
    },
}


def load(target: str):
    """Import ``module:function`` and return the function."""
    import importlib

    module_name, attr = target.split(":")
    return getattr(importlib.import_module(module_name), attr)


def select(argv: list[str]) -> list[str]:
    """The games named on a command line (all when none); exits 2 on an unknown name."""
    import sys

    names = argv or list(GAMES)
    for name in names:
        if name not in GAMES:
            print(f"error: unknown game {name!r}; known: {', '.join(GAMES)}", file=sys.stderr)
            sys.exit(2)
    return names
