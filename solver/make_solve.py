"""``make solve``: regenerate every report and certificate, game by game.

Usage: ``python -m solver.make_solve [GAME ...]`` (default: every game).
"""

from __future__ import annotations

import sys
import time

from solver.games import GAMES, load, select
from solver.util import REPORTS_DIR


def main(argv: list[str]) -> int:
    names = select(argv)
    for name in names:
        if "reports" not in GAMES[name]:
            continue
        start = time.perf_counter()
        print(f"[solve] {GAMES[name]['title']} ...", file=sys.stderr, flush=True)
        load(GAMES[name]["reports"])(REPORTS_DIR)
        print(f"[solve] {name} done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    if not argv:
        from solver.reports_index import write_index

        write_index(REPORTS_DIR)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
