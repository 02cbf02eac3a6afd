"""``make bench``: print each game's speed figures (never asserted in tests).

Usage: ``python -m solver.bench [GAME ...]``.
"""

from __future__ import annotations

import sys

from solver.games import GAMES, load


def main(argv: list[str]) -> int:
    names = argv or list(GAMES)
    for name in names:
        if name not in GAMES:
            print(f"error: unknown game {name!r}; known: {', '.join(GAMES)}", file=sys.stderr)
            return 2
    for name in names:
        if "bench" not in GAMES[name]:
            continue
        print(f"== {GAMES[name]['title']}")
        load(GAMES[name]["bench"])()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
