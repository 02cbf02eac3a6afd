"""``make solve``: regenerate every report and certificate, each step once, in order.

Usage: ``python -m solver.make_solve [PART ...]`` (default: every part of
:data:`solver.games.PARTS`; a name or alias, such as ``sabords`` or ``rules``).

The steps, with one :class:`~solver.games.SolveRun`'s paths: (1) each game's certificates,
(2) each game's invariants proved, (3) each game solved and its reports written (Die
Dracheninsel's report shows the invariants of step 2), (4) the verifier's claims: every
reading of every game measured, (5) the verifier's reports (with the game-level readings
step 3 handed on in the run: :meth:`~solver.games.SolveRun.game_readings`), (6) the index of
reports. A step asked for a result it does not have (``make_solve rules`` alone) computes it
then, or takes the game-level readings the game's shipped reports hold.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from solver.games import GAMES, SolveRun, select
from solver.reports_index import write_index


def _step(label: str, action: Callable[[], object]) -> None:
    start = time.perf_counter()
    print(f"[solve] {label} ...", file=sys.stderr, flush=True)
    action()
    print(f"[solve] {label} done in {time.perf_counter() - start:.1f} s", file=sys.stderr,
          flush=True)


def main(argv: list[str]) -> int:
    chosen = select(argv)
    games = [g for g in GAMES if g in chosen]
    others = [p for p in chosen if p not in GAMES and p.reports]
    run = SolveRun()
    for game in games:
        if game.certify:
            _step(f"{game.title}: certificates", lambda g=game: g.hook("certify")(run.proofs_dir))
    for game in games:
        _step(f"{game.title}: invariants", lambda g=game: run.invariants(g.name))
    for game in games:
        _step(f"{game.title}: solve and reports", lambda g=game: g.hook("reports")(run))
    if others:
        for game in GAMES:
            _step(f"{game.title}: claims", lambda g=game: run.claims(g.name))
    for part in others:
        _step(f"{part.title}: reports", lambda p=part: p.hook("reports")(run))
    if not argv:
        write_index(run.reports_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
