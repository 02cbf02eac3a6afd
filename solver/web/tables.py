"""Where the web server gets the tables that take long to solve, without waiting for them.

**Mille Sabords whole game** (about 55 seconds cold at target 6000 on an idle machine): from
the cache when it is there (exactly what the command line reads); else, when the game is the
one whose table ships in ``proofs/sabords/game-<target>.json`` (same rules file, variants,
target and lowest score), from that file, read once (a third of a second); else built in the
background (:class:`~solver.web.builds.Builds`) while requests are answered "building".

The shipped table does not seed the disk cache: it holds the game's values but not the
solve's statistics (the headline's points-play and optimal-against-points figures, which take
a solve of their own), so a cache entry made from it would break ``treasure sabords game``
without a position. Position and hold queries need only the values, which are the solve's
own floats (written with full precision), so answering them from the file is exact.

**Gold Armada whole-game tables** (about twenty seconds cold): built in the background the
same way; once cached, the query reads them as the command line does.

When the cache folder cannot be used nothing can be built ahead: the shipped table still
answers its game, and any other table is solved during the request, as the command line
would.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from solver.sabords.game import GameSpec, GameTable
from solver.util import PROOFS_DIR
from solver.web.builds import Builds

# reference measurements on an idle 2-core machine, scaled by how busy the machine is until a
# build of the kind has run (then its own time is the estimate: solver.web.builds):
# the whole game's cold solve at target 6000, keeping scores from -9500 (155 hundreds per
# player), took 48 to 54 s (`make bench`, a fresh process); the time grows with the pairs kept
GAME_SECONDS_AT_6000 = 55.0
GAME_SPAN_AT_6000 = 155
ARMADA_SECONDS = 20.0  # one Gold Armada whole-game table, cold, compilation included


def game_units(spec: GameSpec) -> float:
    """The whole game's work in units of the game at target 6000: it grows with the number
    of score pairs."""
    span = spec.top - spec.bottom
    return (span / GAME_SPAN_AT_6000) ** 2


class GameTables:
    """The web server's source of Mille Sabords game tables (a
    :data:`solver.sabords.queries.TableSource`): never solves during a request."""

    def __init__(self, builds: Builds, proofs_dir: Path = PROOFS_DIR) -> None:
        self.builds = builds
        self.proofs_dir = proofs_dir
        self._shipped: dict[str, GameTable | None] = {}
        self._lock = threading.Lock()

    def __call__(self, spec: GameSpec, headline: bool = False) -> GameTable:
        """The table for ``spec`` (``headline``: one with the solve's statistics, so never
        the shipped values alone)."""
        from solver.sabords.game import cache_path, load_game

        path = cache_path(spec)
        if not headline and (path is None or not path.exists()):
            shipped = self.shipped(spec)
            if shipped is not None:
                return shipped
        if path is not None and not path.exists():
            variants = ", ".join(spec.rules.variants) or "no variants"
            self.builds.build_in_background(
                str(path), f"solving the whole Mille Sabords game (target {spec.target}, "
                           f"{variants})", lambda: load_game(spec), kind="sabords-game",
                units=game_units(spec), reference=GAME_SECONDS_AT_6000)
        return load_game(spec)

    def shipped(self, spec: GameSpec) -> GameTable | None:
        """The table shipped in ``proofs/sabords/game-<target>.json`` if it was solved for
        exactly ``spec`` (rules file, variants, target, lowest score), else None."""
        from solver.sabords.game import shipped_table

        memo = json.dumps(spec.key(), sort_keys=True)
        with self._lock:
            if memo not in self._shipped:
                self._shipped[memo] = shipped_table(spec, self.proofs_dir)
            return self._shipped[memo]


def armada_ready(builds: Builds, game, objective: str) -> None:
    """Make sure the Gold Armada table ``objective`` needs is cached, or raise ``Building``
    (``turn`` needs no table)."""
    from solver.armada.tables import cache_path, load_table

    if objective == "turn":
        return
    path = cache_path(game, objective)
    if path is None or path.exists():
        return
    variants = ", ".join(game.rules.variants) or "no variants"
    builds.build_in_background(
        str(path), f"solving the Gold Armada {objective} table for every board state "
                   f"({variants})", lambda: load_table(game, objective, show_progress=False),
        kind="armada", reference=ARMADA_SECONDS)
