"""``make bench``: print each game's speed figures (never asserted in tests).

Usage: ``python -m solver.bench [GAME ...]``.
"""

from __future__ import annotations

import sys

from solver.games import GAMES, load, select


def main(argv: list[str]) -> int:
    names = select(argv)
    for name in names:
        if "bench" not in GAMES[name]:
            continue
        print(f"== {GAMES[name]['title']}")
        load(GAMES[name]["bench"])()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
