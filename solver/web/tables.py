"""Where the web server gets the tables that take long to solve, without waiting for them.

**Mille Sabords whole game**: from the cache when it is there (exactly what the command line
reads); else, when the game is the one whose table ships in ``proofs/sabords/game-<target>.json``
(same rules file, variants, target and lowest score), from that file, read once; else built in
the background (:class:`~solver.web.builds.Builds`) while requests are answered "building".

The shipped table does not seed the disk cache: it holds the game's values but not the
solve's statistics (the headline's points-play and optimal-against-points figures, which take
a solve of their own), so a cache entry made from it would break ``treasure sabords game``
without a position. Position and hold queries need only the values, which are the solve's
own floats (written with full precision), so answering them from the file is exact.

**Gold Armada whole-game tables**: built in the background the same way; once cached, the
query reads them as the command line does.

When the cache folder cannot be used nothing can be built ahead: the shipped table still
answers its game, and any other table is solved during the request, as the command line
would.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

from solver.errors import InputError
from solver.paths import PROOFS_DIR
from solver.reference_times import (
    ARMADA_TABLE_SECONDS,
    GAME_PLAY_SECONDS,
    THREE_PLAYER_SECONDS,
    WHOLE_GAME_SECONDS,
)
from solver.sabords.game.two_player import DEFAULT_LOW, GameSpec, GameTable
from solver.sabords.turn.lanes import UNIT
from solver.web.builds import Builds

# How long a build takes, before one of its kind has run here (then its own pace is the
# estimate: solver.web.builds): `make bench`'s figures (solver.reference_times), scaled by how
# busy the machine is. The whole game's time grows with the score pairs kept: REFERENCE_GAME's.
REFERENCE_GAME = (6000, DEFAULT_LOW)  # the target and lowest score of WHOLE_GAME_SECONDS
LOADED_TABLES = 8  # whole-game tables kept in memory once read (under 2 MB each at 6000)


def game_units(spec: GameSpec) -> float:
    """The whole game's work in units of the game at target 6000: it grows with the number
    of score pairs."""
    target, low = REFERENCE_GAME
    return ((spec.top - spec.bottom) / ((target - low) // UNIT)) ** 2


class GameTables:
    """The web server's source of Mille Sabords game tables (a
    :data:`solver.sabords.answers.TableSource`): never solves during a request."""

    def __init__(self, builds: Builds, proofs_dir: Path = PROOFS_DIR) -> None:
        self.builds = builds
        self.proofs_dir = proofs_dir
        self._shipped: dict[str, GameTable | None] = {}
        # tables read from the cache, kept: the same object each time, so the turns solved at
        # a position from it are kept too (solver.sabords.game.advice), and no request reads
        # the entry again (a table, once built, never changes)
        self._loaded: OrderedDict[Path, GameTable] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, spec: GameSpec, headline: bool = False) -> GameTable:
        """The table for ``spec`` (``headline``: one with the solve's statistics, so never
        the shipped values alone)."""
        from solver.sabords.game.solved import cache_path, load_game

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
                units=game_units(spec), reference=WHOLE_GAME_SECONDS)
        if path is None:
            return load_game(spec)
        with self._lock:
            table = self._loaded.get(path)
            if table is not None:
                self._loaded.move_to_end(path)
                return table
        table = load_game(spec)
        with self._lock:
            self._loaded[path] = table
            while len(self._loaded) > LOADED_TABLES:
                self._loaded.popitem(last=False)
        return table

    def shipped(self, spec: GameSpec) -> GameTable | None:
        """The table shipped in ``proofs/sabords/game-<target>.json`` if it was solved for
        exactly ``spec`` (rules file, variants, target, lowest score), else None."""
        from solver.sabords.game.solved import shipped_table

        memo = json.dumps(spec.key(), sort_keys=True)
        with self._lock:
            if memo not in self._shipped:
                self._shipped[memo] = shipped_table(spec, self.proofs_dir)
            return self._shipped[memo]


@lru_cache(maxsize=32)
def armada_game(variants: tuple[str, ...]):
    """The Gold Armada game on the shipped board under ``variants``, made once per reading:
    making it for each request (the board file parsed, the keep lattice and the turn's stages
    worked out again) would cost more than the answer. The rules and board are read
    once while the server runs, as the options are."""
    from solver.armada.game import Game

    return Game.load(None, variants)


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
        kind="armada", reference=ARMADA_TABLE_SECONDS)


# -- the whole table: three players exactly, four and five by the rule -------------------------
# references as above: the three-player table of the table report's small target, its time
# growing faster than its states (a larger table takes more policy-iteration steps and has more
# distinct final-round turns: TABLE_GROWTH is fitted to `make bench`'s table and the one at
# target 2000 with scores floored at 0); the two-player table's play, growing like the game's work
TABLE_GROWTH = 1.4


@lru_cache(maxsize=1)
def reference_states() -> int:
    """The states of the three-player table THREE_PLAYER_SECONDS was measured on."""
    from solver.sabords.game.table.report import small_spec
    from solver.sabords.game.table.states import Layout

    return Layout(small_spec()).states


def whole_path(spec):
    """Where the cache keeps the whole table for ``spec`` (a
    :class:`~solver.sabords.game.table.states.TableSpec`; None when the cache cannot be used): the
    key :func:`solver.sabords.game.table.positions.load_table` stores it under (a test checks that
    the two agree)."""
    from solver.sabords.game.table.positions import table_path

    return table_path(spec)


def play_path(spec: GameSpec):
    """Where the cache keeps the two-player table's play, which the four- and five-player
    rule plays (:func:`solver.sabords.game.table.positions.load_play`'s key)."""
    from solver.sabords.game.table.positions import play_path as path

    return path(spec)


class WholeTables:
    """The web server's source of whole-table solutions (the ``whole`` of
    :mod:`solver.sabords.answers`): from the cache, else built in the background while the
    requests are answered "building"."""

    def __init__(self, builds: Builds) -> None:
        self.builds = builds

    def __call__(self, spec):
        from solver.sabords.game.table.positions import load_table
        from solver.sabords.game.table.states import Layout, beyond_exact

        layout = Layout(spec)
        reason = beyond_exact(layout)
        if reason is not None:  # load_table's refusal, in the API's words (no --players)
            raise InputError(f"{reason} (a smaller target, or two scores)")
        states = layout.states
        from solver.sabords.game.table.proof import shipped_solution

        path = whole_path(spec)  # the table make solve ships is cached at once (a JSON read)
        if path is not None and not path.exists() and shipped_solution(spec) is None:
            variants = ", ".join(spec.rules.variants) or "no variants"
            self.builds.build_in_background(
                str(path), f"solving the {spec.players}-player Mille Sabords game (target "
                           f"{spec.game.target}, {variants}; {states:,} states)",
                lambda: load_table(spec), kind="sabords-table",
                units=(states / reference_states()) ** TABLE_GROWTH,
                reference=THREE_PLAYER_SECONDS)
        return load_table(spec)


class PlayTables:
    """The two-player tables with their play, for the four- and five-player rule: a
    :data:`~solver.sabords.answers.TableSource` whose table's play is in the cache (else
    built in the background, after the table itself), so that
    :func:`~solver.sabords.game.table.positions.load_play` reads it at once."""

    def __init__(self, tables: GameTables) -> None:
        self.tables = tables

    def __call__(self, spec: GameSpec, headline: bool = False) -> GameTable:
        from solver.sabords.game.table.positions import load_play

        table = self.tables(spec, headline)
        path = play_path(spec)
        if path is not None and not path.exists():
            variants = ", ".join(spec.rules.variants) or "no variants"
            self.tables.builds.build_in_background(
                str(path), f"playing the two-player Mille Sabords table for the four- and "
                           f"five-player rule (target {spec.target}, {variants})",
                lambda: load_play(table), kind="sabords-play", units=game_units(spec),
                reference=GAME_PLAY_SECONDS)
        return table
