"""The one registry of the product's parts: the three games, the rules verifier, the table
companion and the cache, each under one name.

A part is typed: :class:`Part` says how it is reached (its ``treasure`` command, the report it
writes, its benchmark), and :class:`Game` adds what the verifier and ``make solve`` need of a
game (its readings, rulebook counts, invariants, certificates, ambiguity measures). Every
field that names code is a ``module:attribute`` path of one fixed shape, imported on first
use by :meth:`Part.hook`, so that ``treasure --help`` or a warm ``hold`` imports only what it
runs. The shapes:

* ``command``: a click command or group, listed as ``treasure NAME`` (aliases accepted too);
* ``reports``: ``(run: SolveRun) -> None``, writing ``run.reports_dir / folder``;
* ``bench``: ``() -> None``, printing figures;
* ``variants``: ``() -> {name: description}`` of the game's named readings;
* ``fact``: ``(check name) -> int``, for the rulebook's own count checks;
* ``invariants``: a module with ``prove_all(proofs_dir)`` and ``verify_all(proofs_dir)``, each
  returning rows ``{"id", "holds", ...}``;
* ``certify``: ``(proofs_dir) -> None``, writing the game's certificates;
* ``certificates``: ``(proofs_dir) -> {file: problems}``, re-verifying them;
* ``ambiguity``: a module with ``measure_all(proofs_dir)`` (rows) and
  ``verify_claims(proofs_dir)`` (problems);
* ``verifier``: a :class:`solver.rules.words.GameWords`, the game's words in the verifier's
  reports (how a measured case is named and how often it arises, each objective's unit, what
  a changed decision counts);
* ``readings``: ``(reports_dir) -> dict``, the whole-game solver's readings of game-level
  rules as the game's shipped reports hold them (``{"target", "first_player_wins",
  "readings": {name: row}}``); inside ``make solve`` the game's own step hands them on
  (:meth:`SolveRun.game_readings`);
* ``closed_forms``: ``() -> [solver.rules.closed_forms.Family]``, the rule probabilities'
  closed forms beside the engine's numbers.

``make solve`` (:mod:`solver.make_solve`) runs each step once, in this order, with the paths
of a :class:`SolveRun`: certificates, invariants, the games' solves and reports, the
verifier's claims, the verifier's reports, the index.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.names import normalise_name
from solver.paths import PROOFS_DIR, REPORTS_DIR


@dataclass(frozen=True)
class Part:
    """A part of the product: its name (the registry key and its ``treasure`` command), its
    title, and what it is reached by (see the module docstring for each field's shape)."""

    name: str
    title: str
    summary: str = ""  # one line for ``treasure --help``
    aliases: tuple[str, ...] = ()
    folder: str | None = None  # under reports/ (and models/ for a game)
    command: str | None = None
    reports: str | None = None
    bench: str | None = None

    def hook(self, name: str) -> Any:
        """The function or module a field names, imported now; None when the field is unset."""
        target = getattr(self, name)
        if not target:
            return None
        module_name, _, attr = target.partition(":")
        module = importlib.import_module(module_name)
        return getattr(module, attr) if attr else module


@dataclass(frozen=True)
class Game(Part):
    """A game: a part with rules, a verifier entry and (for some) certificates."""

    variants: str = ""
    fact: str = ""
    invariants: str = ""
    ambiguity: str = ""
    verifier: str = ""
    certify: str | None = None
    certificates: str | None = None
    readings: str | None = None
    closed_forms: str | None = None


PARTS: tuple[Part, ...] = (
    Game("sabords", "Mille Sabords! / Piraten Kapern",
         "Mille Sabords: score, hold, value, the whole game.",
         aliases=("mille-sabords", "piraten-kapern"), folder="sabords",
         command="solver.sabords.cli:sabords",
         reports="solver.sabords.reports:write_reports",
         bench="solver.sabords.bench:run",
         variants="solver.sabords.rules:variant_names",
         fact="solver.sabords.turn.invariants:fact",
         invariants="solver.sabords.turn.invariants",
         ambiguity="solver.sabords.turn.ambiguity",
         verifier="solver.sabords.verifier:WORDS",
         readings="solver.sabords.verifier:game_readings",
         closed_forms="solver.sabords.closed_forms:families",
         certify="solver.sabords.reports:certify",
         certificates="solver.sabords.reports:check_all"),
    Game("armada", "Gold Armada", "Gold Armada: hold, value, whole-game solve.",
         aliases=("gold-armada",), folder="armada",
         command="solver.armada.cli:armada",
         reports="solver.armada.reports:write_reports",
         bench="solver.armada.bench:run",
         variants="solver.armada.rules:variant_names",
         fact="solver.armada.invariants:fact",
         invariants="solver.armada.invariants",
         ambiguity="solver.armada.ambiguity",
         verifier="solver.armada.verifier:WORDS",
         closed_forms="solver.armada.closed_forms:families"),
    Game("dracheninsel", "Die Dracheninsel",
         "Die Dracheninsel: board, layout, route, patrol, variants.",
         aliases=("dragon", "die-dracheninsel"), folder="dracheninsel",
         command="solver.dragon.cli:dragon",
         reports="solver.dragon.reports:write_reports",
         bench="solver.dragon.bench:run",
         variants="solver.dragon.rules:variant_names",
         fact="solver.dragon.invariants:fact",
         invariants="solver.dragon.invariants",
         ambiguity="solver.dragon.ambiguity",
         verifier="solver.dragon.verifier:WORDS"),
    Part("check", "The rules verifier",
         "The rules verifier: editions, invariants, certificates.",
         aliases=("rules", "verifier"), folder="rules",
         command="solver.rules.cli:check",
         reports="solver.rules.report:write_reports"),
    Part("serve", "The table companion (treasure serve)",
         "The table companion: web pages and a JSON API.",
         aliases=("web",), command="solver.web.serve:serve",
         bench="solver.web.bench:run"),
    Part("cache", "The disk cache", "The disk cache of solved tables: show, clear.",
         command="solver.cache_cli:cache"),
)
GAMES: tuple[Game, ...] = tuple(p for p in PARTS if isinstance(p, Game))


def find(name: str) -> Part | None:
    """The part a name or alias means (any case, ``_`` or ``-``), or None."""
    key = normalise_name(name)
    for part in PARTS:
        if key == part.name or key in part.aliases:
            return part
    return None


def game(name: str) -> Game:
    """The game a name or alias means; KeyError when it names no game."""
    part = find(name)
    if not isinstance(part, Game):
        raise KeyError(name)
    return part


def select(argv: list[str]) -> list[Part]:
    """The parts named on a command line (all when none); exits 2 on an unknown name."""
    if not argv:
        return list(PARTS)
    chosen = []
    for name in argv:
        part = find(name)
        if part is None:
            print(f"error: unknown part {name!r}; known: "
                  f"{', '.join(p.name for p in PARTS)}", file=sys.stderr)
            sys.exit(2)
        chosen.append(part)
    return chosen


@dataclass
class SolveRun:
    """One ``make solve``: where it writes, and what its steps found, so that each step runs
    once and a later step reads an earlier one's result instead of running it again (asked
    for before its step has run, a result is computed then and kept)."""

    reports_dir: Path = REPORTS_DIR
    proofs_dir: Path = PROOFS_DIR
    proved: dict[str, list[dict]] = field(default_factory=dict)  # game -> invariant rows
    measured: dict[str, list[dict]] = field(default_factory=dict)  # game -> claim rows
    readings: dict[str, dict] = field(default_factory=dict)  # game -> game-level readings

    def invariants(self, name: str) -> list[dict]:
        """The game's invariants, proved and their certificates written (once)."""
        if name not in self.proved:
            self.proved[name] = game(name).hook("invariants").prove_all(self.proofs_dir)
        return self.proved[name]

    def claims(self, name: str) -> list[dict]:
        """The game's readings measured and their claims written (once)."""
        if name not in self.measured:
            self.measured[name] = game(name).hook("ambiguity").measure_all(self.proofs_dir)
        return self.measured[name]

    def game_readings(self, name: str) -> dict:
        """The game's game-level readings: those its own step handed on (``readings``), or,
        before that step has run, the ones its shipped reports hold; {} for a game without."""
        if name not in self.readings:
            load = game(name).hook("readings")
            self.readings[name] = load(self.reports_dir) if load else {}
        return self.readings[name]
