"""The two-player table solved, stored and shipped: :func:`solve_game` runs the phases'
iterations (:mod:`solver.sabords.game.solve`) and the comparisons with points play
(:mod:`solver.sabords.game.play`); :func:`load_game` answers from the disk cache, else solves
and caches; :func:`shipped_table` reads the table ``make solve`` ships in ``proofs/``. The
states and the table's types: :mod:`solver.sabords.game.two_player`. The solvers (numba's
sweeps) are imported when a table is solved, not when one is read: a warm ``hold`` does not
load numba (tests/test_cli_imports.py)."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from solver.sabords.game.two_player import GameSpec, GameTable, refuse_other_last_round


def solve_game(spec: GameSpec, tol: float = 1e-13, progress: bool = False,
               fixed: np.ndarray | None = None, start: GameTable | None = None) -> GameTable:
    """Solve every phase of the game (see the module docstring for the order). With
    ``fixed`` (an outcome distribution over :func:`deck_turns`' outcomes), both players play
    every turn that way instead: the values are then those of that pair of policies.

    The optimal solve starts from ``start``'s values when given (a table of the same shape,
    such as the default reading's when solving another), else from the values of both
    players maximising each turn's points (solved first, cheaply: those turns are fixed
    distributions, and their values are needed for the headline anyway); it ends with the
    comparisons: points play against itself, and optimal play against points play in both
    seats (:mod:`solver.sabords.game.play`), kept in ``stats``."""
    from solver.sabords.game.play import match, seats  # numba: only when solving
    from solver.sabords.game.points import points_play_outcomes
    from solver.sabords.game.solve import GameSolver

    started = time.perf_counter()
    game = GameSolver(spec, progress, fixed)
    points = None
    if fixed is None:
        points = solve_game(spec, tol=tol, fixed=points_play_outcomes(spec.rules))
        if start is not None and start.normal.shape == game.normal.shape:
            game.start_from(start, solved=True)
        else:
            game.start_from(points, solved=False)
    game.solve_tiebreak(tol)
    if spec.rules.endgame == "race-wins-at-once":
        game.solve_pairs("sudden-death", tol)
        game.solve_last(tol)
        game.solve_pairs("normal", tol)
    else:
        # a drop below the target during the last turn goes back to the normal phase, which
        # reads the last turn in turn: refresh the last turn before every sweep
        game.solve_pairs("normal", tol, before_sweep=lambda: game.solve_last(tol))
    table = game.table
    table.stats = game.stats
    table.plays = game.plays
    if points is not None:
        fixed_play = {name: points_play_outcomes(spec.rules) for name in game.plays}
        versus = seats(*match(table, game.plays, fixed_play))
        table.stats["points_play"] = {"first_player_wins": points.first_player_wins}
        table.stats["optimal_vs_points"] = versus
        table.card_plays = game.card_plays
        table.hashes = game.hashes
    table.stats["seconds"] = time.perf_counter() - started
    return table


def bellman_residuals(table: GameTable, sample: int | None = None) -> dict[str, float]:
    """``max |T V - V|`` per phase of a solved table, every turn solved again (what ``make
    check`` re-verifies of the shipped table); ``sample``: a seeded spot check of that many
    states per phase."""
    return _loaded(table).residuals(sample=sample)


def with_play(table: GameTable) -> GameTable:
    """``table`` with its play: every state's turns solved again at the table's values (the
    pass :func:`bellman_residuals` makes), their optimal outcome distributions kept in
    ``plays``, ``card_plays`` and ``hashes``. The cache stores values only; what needs the
    play (the lowest-score bound, matches, the deck simulation) derives it this way, from a
    table just solved or loaded alike, so the reports do not depend on the cache."""
    solver = _loaded(table)
    solver.residuals(record=True)
    return replace(table, plays=dict(solver.plays), card_plays=dict(solver.card_plays),
                   hashes=dict(solver.hashes))


def _loaded(table: GameTable):
    """A solver holding ``table``'s values."""
    from solver.sabords.game.solve import GameSolver

    solver = GameSolver(table.spec, False)
    for name in ("normal", "sudden", "last", "tiebreak"):
        getattr(solver.table, name)[...] = getattr(table, name)
    return solver


CACHE_VERSION = 1


def _arrays(table: GameTable) -> dict[str, np.ndarray]:
    meta = json.dumps(table.stats, sort_keys=True).encode()
    arrays = {"normal": table.normal, "last": table.last, "sudden": table.sudden,
              "tiebreak": table.tiebreak, "gap_low": np.array([table.gap_low]),
              "stats": np.frombuffer(meta, dtype=np.uint8)}
    if table.hashes is not None:
        arrays["hashes_normal"] = table.hashes["normal"]
    return arrays


def read_proof(path: Path) -> GameTable:
    """The table stored in ``proofs/sabords/game-<target>.json`` by ``make solve``: values
    only (no solve statistics); a table solved under another rules file is refused."""
    from solver.sabords.rules import load_rules

    doc = json.loads(path.read_text(encoding="utf-8"))
    spec = GameSpec(load_rules(doc["rules"]["variants"]), doc["target"], doc["low"])
    if spec.rules.key() != doc["rules"]:
        raise ValueError(f"{path}: the table was solved under other rules")
    return GameTable(spec, np.array(doc["normal"]), np.array(doc["last"]),
                     np.array(doc["sudden"]), np.array(doc["tiebreak"]), doc["gap_low"])


def shipped_table(spec: GameSpec, proofs_dir: Path | None = None) -> GameTable | None:
    """The table shipped in ``proofs/sabords/game-<target>.json`` if it was solved for exactly
    ``spec`` (rules file, variants, target, lowest score), else None. It holds the values, not
    the solve's statistics: positions and holds are answered from it exactly (the solve's own
    floats), the headline is not."""
    from solver.paths import PROOFS_DIR

    path = (PROOFS_DIR if proofs_dir is None else proofs_dir) / "sabords" / \
        f"game-{spec.target}.json"
    if not path.is_file():
        return None
    try:
        table = read_proof(path)
    except (ValueError, KeyError, OSError):  # another rules file, or not a table at all
        return None
    if table.spec.key() != spec.key():
        return None
    shape = (spec.top - spec.bottom,) * 2
    if table.normal.shape != shape or table.sudden.shape != shape:
        return None
    return table


def _key(spec: GameSpec) -> dict:
    return {"version": CACHE_VERSION, **spec.key()}


def _label(spec: GameSpec) -> str:
    return f"game-{spec.target}"


def cache_path(spec: GameSpec) -> Path | None:
    """Where the cache keeps the table for ``spec`` (``None`` when the cache folder cannot be
    used): whether it exists says whether :func:`load_game` answers at once or solves."""
    from solver.cache import entry_path

    return entry_path("sabords-game", _key(spec), _label(spec))


def store_game(table: GameTable) -> None:
    """Put a table solved elsewhere (``make solve``) into the cache."""
    from solver.cache import load_or_build

    load_or_build("sabords-game", _key(table.spec), lambda: _arrays(table), rebuild=True,
                  label=_label(table.spec))


def load_game(spec: GameSpec, *, use_cache: bool = True, progress: bool = False,
              start: GameTable | None = None) -> GameTable:
    """The solved game for ``spec``: from the disk cache (keyed by the rules, variants, target
    and lowest score) when allowed and intact, else solved and cached. Only the values are
    stored, one per game state (and a hash of each turn's policy, to count changed
    decisions); turns are solved again when a question needs them."""
    from solver.cache import load_or_build

    refuse_other_last_round(spec)

    def build() -> dict[str, np.ndarray]:
        if progress:
            print(f"solving the whole game (target {spec.target}, lowest score {spec.low}"
                  f"{', ' + ', '.join(spec.rules.variants) if spec.rules.variants else ''}); "
                  "this takes minutes once, then it is cached", file=sys.stderr,
                  flush=True)
        return _arrays(solve_game(spec, progress=progress, start=start))

    arrays = load_or_build("sabords-game", _key(spec), build, use_cache=use_cache,
                           label=_label(spec))
    shape = (spec.top - spec.bottom,) * 2
    if arrays["normal"].shape != shape or arrays["sudden"].shape != shape:
        raise ValueError("the cached game table has the wrong shape")
    stats = json.loads(bytes(np.asarray(arrays["stats"])).decode())
    hashes = None
    if "hashes_normal" in arrays:
        hashes = {"normal": np.asarray(arrays["hashes_normal"])}
    return GameTable(spec, np.asarray(arrays["normal"]), np.asarray(arrays["last"]),
                     np.asarray(arrays["sudden"]), np.asarray(arrays["tiebreak"]),
                     int(arrays["gap_low"][0]), stats, hashes=hashes)
