"""The whole two-player game of Mille Sabords, solved exactly: P(win) + 1/2 P(tie) for the
player to move, in every state of the scoreboard, under optimal play by both players.

**States.** Before a turn: the mover's score, the opponent's score (units of 100 points) and the
phase. *Normal*: both below the target. *Last*: the opponent (the trigger player) has reached
the target and the mover has one last turn. *Sudden death* (the French reading): the trigger
player dropped below the target during the last turn, and the first to reach it at the end of
their own turn wins at once. Under the ``ties-extra-round`` reading a tie after the last turn
starts a *tie-break* round, whose values depend only on the gap between the two scores.

**Turns.** Each turn draws a card independently with the deck's frequencies (a modelling
assumption: the deck's order is not tracked) and is the engine's optimal-stopping problem with
the game's values as payoffs (:mod:`solver.sabords.turn.lanes`): a turn ending in outcome
``(own, loss, win)`` from scores ``(a, b)`` is worth ``1 - V(b - loss, a + own)`` to the mover
when play goes on, or the game's result when it ends.

**The Island of Skulls** is decided by the first roll and played out by rule (every non-skull
die rolled again); under the ``island-choose-dice`` reading the dice are chosen as the turn
solver chooses them, for the opponents' largest expected loss, not re-decided for P(win).

**Scores below zero.** Scores may go negative (English summary); the table keeps scores down to
a lowest score ``low`` and raises any lower score to it. The report bounds the probability of
ever needing that truncation (:mod:`solver.sabords.game.bounds`). The default, -9500, is deep
enough for that bound to be below 1e-9 at target 6000 (1.7e-10; at -2000 it is 7.8e-3: a
failed four-sabre battle costs 1000, an Island under the Captain up to 1600), at 3.75 times
the states of -2000.

**Solving.** The sudden-death phase depends only on itself, the last turn on sudden death (or,
under the English reading, on the normal phase), and the normal phase on itself and the last
turn; :mod:`solver.sabords.game.solve` explains the iterations. Only the game's values are
kept (one per state); a turn's policy is recomputed when asked
(:mod:`solver.sabords.game.advice`).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from solver.sabords.rules import Rules
from solver.sabords.turn.lanes import UNIT
from solver.util import InputError

DEFAULT_LOW = -9500  # points: the chance of ever going below it is < 1e-9 (see the docstring)
PHASES = ("normal", "last", "sudden-death")
TABLES = ("normal", "last", "sudden", "tiebreak")  # a GameTable's values, in its flat buffer
# The largest target solved: the score pairs, and so the solve's time, grow with its square
# (24,025 pairs at 6000, 87,025 at 20000).
MAX_TARGET = 20000


@dataclass(frozen=True)
class GameSpec:
    """What a whole-game solve depends on: the rules (variants included), the target and the
    lowest score kept, in points."""

    rules: Rules
    target: int | None = None
    low: int | None = None

    def __post_init__(self) -> None:
        target = self.rules.target if self.target is None else int(self.target)
        if target <= 0 or target % UNIT:
            raise InputError(f"bad target {target}: a positive multiple of {UNIT} points")
        if target > MAX_TARGET:
            raise InputError(f"bad target {target}: at most {MAX_TARGET} (the solve grows with "
                             "the square of the target: about an hour and a half there)")
        low = DEFAULT_LOW if self.low is None else int(self.low)
        if self.rules.score_floor == "zero":
            low = 0
        if low > 0 or low % UNIT:
            raise InputError(f"bad lowest score {low}: zero or a negative multiple of {UNIT}")
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "low", low)

    @property
    def top(self) -> int:
        """Target in units."""
        return self.target // UNIT

    @property
    def bottom(self) -> int:
        """Lowest score in units."""
        return self.low // UNIT

    def key(self) -> dict:
        return {"rules": self.rules.key(), "target": self.target, "low": self.low}


@dataclass
class GameTable:
    """The solved game: one value per state (units of 100 points inside, points outside).

    ``normal[a - low, b - low]`` and ``sudden[...]``: both scores below the target;
    ``last[m - low, t - target]``: the mover ``m`` below, the trigger ``t`` at or above it (the
    last column stands for every trigger score out of reach of one turn's points);
    ``tiebreak``: the tie-break round's first mover's value and, per gap, the second mover's.
    """

    spec: GameSpec
    normal: np.ndarray
    last: np.ndarray
    sudden: np.ndarray
    tiebreak: np.ndarray = field(default_factory=lambda: np.zeros(0))
    gap_low: int = 0
    stats: dict = field(default_factory=dict)
    plays: dict | None = field(default=None, repr=False)  # per-state outcome distributions
    card_plays: dict | None = field(default=None, repr=False)  # the same per card drawn
    hashes: dict | None = field(default=None, repr=False)  # per state and card: policy hash
    flat: np.ndarray = field(init=False, repr=False)  # the four tables in one buffer

    def headline(self) -> dict:
        """The numbers ``treasure sabords game`` prints (JSON field names are a contract)."""
        versus = self.stats["optimal_vs_points"]
        first, points = self.first_player_wins, self.stats["points_play"]["first_player_wins"]
        return {
            "players": 2,
            "target": self.spec.target,
            "variants": list(self.spec.rules.variants),
            "exact": True,
            "seat_wins": [first, 1.0 - first],
            "regret": max(self.stats["residual"].values()),
            "first_player_wins": first,
            "points_play": {**self.stats["points_play"], "seat_wins": [points, 1.0 - points]},
            "optimal_vs_points": dict(versus),
            "gain": versus["a_average"] - 0.5,
            "solve": {"newton_steps": self.stats["sweeps"], "residual": self.stats["residual"],
                      "lowest_score": self.spec.low},
        }

    def win(self, me: int, opponent: int, phase: str = "normal") -> float:
        """P(win) + 1/2 P(tie) for the player to move, before the card (scores in points)."""
        spec = self.spec
        a, b = _units(me, "my score"), _units(opponent, "the opponent's score")
        low, top = spec.bottom, spec.top
        a, b = max(a, low), max(b, low)
        if phase == "last":
            if a >= top or b < top:
                raise InputError("a last turn needs the mover below the target and the "
                                 "opponent at or above it")
            # the last column is out of reach of any turn's points: only an instant win counts
            return float(self.last[a - low, min(b - top, self.last.shape[1] - 1)])
        if a >= top or b >= top:
            raise InputError(f"both scores must be below the target {spec.target} in the "
                             f"{phase} phase")
        table = self.sudden if phase == "sudden-death" else self.normal
        if phase == "sudden-death" and spec.rules.endgame != "race-wins-at-once":
            raise InputError("there is no sudden death under endgame-new-final-round")
        if phase not in ("normal", "sudden-death"):
            raise InputError(f"unknown phase {phase!r}; known: {', '.join(PHASES)}")
        return float(table[a - low, b - low])

    @property
    def first_player_wins(self) -> float:
        return self.win(0, 0, "normal")

    def __post_init__(self) -> None:
        """Keep the four tables in one buffer (:attr:`flat`, plus a last entry that is always
        0), so that what an outcome is worth can be named by one index (see
        :meth:`successors`)."""
        parts = (self.normal, self.last, self.sudden, self.tiebreak)
        flat = np.zeros(sum(part.size for part in parts) + 1)
        views, self._start, start = [], {}, 0
        for name, part in zip(TABLES, parts, strict=True):
            view = flat[start:start + part.size].reshape(part.shape)
            view[...] = part
            views.append(view)
            self._start[name] = start
            start += part.size
        self.normal, self.last, self.sudden, self.tiebreak = views
        self.flat = flat

    # -- what a turn's outcome is worth to the mover, per phase ---------------------------------
    def _scores(self, a, b, own, loss):
        """Scores after each outcome (units): mover ``a + own``, opponent ``b - loss``, raised
        to the lowest score kept."""
        low = self.spec.bottom
        return (np.maximum(np.asarray(a)[:, None] + own[None, :], low),
                np.maximum(np.asarray(b)[:, None] - loss[None, :], low))

    def _at(self, name: str, row, col) -> np.ndarray:
        """Positions in :attr:`flat` of ``table[row, col]`` (``tiebreak[col]``) for one of
        :data:`TABLES`."""
        table = getattr(self, name)
        width = table.shape[1] if table.ndim == 2 else 0
        return self._start[name] + np.asarray(row) * width + col

    def successors(self, phase: str, a, b, own, loss, win) -> tuple[np.ndarray, np.ndarray]:
        """What each outcome of a turn is worth to the mover at ``a`` against ``b`` (``(states,
        outcomes)`` arrays): ``const - flat[index]``. Play going on is worth 1 minus the next
        mover's value (``const`` 1, ``index`` that state); a result is a constant (``index``
        the last entry of :attr:`flat`, always 0). Phases: ``normal``, ``sudden-death``,
        ``last`` (the mover ``a`` below the target, the trigger ``b`` at or above it),
        ``tiebreak-second`` (``a`` is the gap behind) and ``tiebreak-first``."""
        low, top = self.spec.bottom, self.spec.top
        zero = self.flat.size - 1
        if phase.startswith("tiebreak"):
            return self._tiebreak(phase, a, own, loss, win)
        mover, other = self._scores(a, b, own, loss)
        won = np.broadcast_to(win[None, :], mover.shape)
        const = np.ones(mover.shape)
        if phase == "normal":
            reach = self.last.shape[1]
            going = self._at("normal", other - low, np.minimum(mover, top - 1) - low)
            last = self._at("last", other - low, np.clip(mover - top, 0, reach - 1))
            return const, np.where(won, zero, np.where(mover >= top, last, going))
        if phase == "sudden-death":
            going = self._at("sudden", other - low, np.minimum(mover, top - 1) - low)
            return const, np.where(won | (mover >= top), zero, going)
        if phase != "last":
            raise ValueError(f"unknown phase {phase!r}")
        trigger = other
        ends = trigger >= top
        if np.any(~ends & (mover >= top)):
            raise ValueError("a last turn left the trigger below the target and the mover above")
        shared = self.spec.rules.ties == "shared"
        tied = ends & (mover == trigger) & ~won
        const = np.where(won | ~ends | (mover > trigger) | (tied & ~shared), 1.0,
                         np.where(tied, 0.5, 0.0))
        back = "sudden" if self.spec.rules.endgame == "race-wins-at-once" else "normal"
        drop = self._at(back, np.minimum(trigger, top - 1) - low,
                        np.minimum(mover, top - 1) - low)
        again = self._at("tiebreak", 0, 0) if not shared else zero
        index = np.where(won, zero, np.where(~ends, drop, np.where(tied, again, zero)))
        return const, index

    def _tiebreak(self, phase, gap, own, loss, win):
        """The tie-break round: the second mover, behind by ``gap``, ends it (a tie repeats
        it: worth 1 minus the first mover's value); the first mover leaves the second behind by
        this turn's gain."""
        zero = self.flat.size - 1
        first = self._at("tiebreak", 0, 0)
        if phase == "tiebreak-second":
            lead = own[None, :] + loss[None, :] - np.asarray(gap)[:, None]
            won = win[None, :] | (lead > 0)
            const = np.where(won | (lead == 0), 1.0, 0.0)
            return const, np.where(~won & (lead == 0), first, zero)
        behind = np.clip(own + loss - self.gap_low, 0, self.tiebreak.size - 2)
        index = np.where(win, zero, first + 1 + behind)
        rows = len(np.atleast_1d(gap))
        return np.ones((rows, len(own))), np.repeat(index[None, :], rows, axis=0)

    def pay(self, phase: str, a, b, own, loss, win) -> np.ndarray:
        """``(states, outcomes)`` payoffs for the mover at ``a`` against ``b`` in ``phase``."""
        const, index = self.successors(phase, a, b, own, loss, win)
        return const - self.flat[index]

    def pay_normal(self, a, b, own, loss, win):
        """Normal phase: ``(states, outcomes)`` payoffs for the mover at ``a`` against ``b``."""
        return self.pay("normal", a, b, own, loss, win)

    def pay_sudden(self, a, b, own, loss, win):
        return self.pay("sudden-death", a, b, own, loss, win)

    def pay_last(self, m, t, own, loss, win):
        return self.pay("last", m, t, own, loss, win)

    def pay_tiebreak_second(self, gap, own, loss, win):
        """The tie-break's second mover, behind by ``gap``: the round ends after this turn."""
        return self.pay("tiebreak-second", gap, gap, own, loss, win)

    def pay_tiebreak_first(self, states, own, loss, win):
        """The tie-break's first mover: the second then plays behind by this turn's gain."""
        return self.pay("tiebreak-first", np.zeros(states, dtype=np.int64), None, own, loss,
                        win)


def _units(points: int, what: str) -> int:
    if points % UNIT:
        raise InputError(f"{what} {points} is not a multiple of {UNIT}")
    return points // UNIT


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
    from solver.sabords.game.solve import GameSolver

    started = time.perf_counter()
    game = GameSolver(spec, progress, fixed)
    points = None
    if fixed is None:
        from solver.sabords.game.points import points_distribution

        points = solve_game(spec, tol=tol, fixed=points_distribution(spec.rules))
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
        from solver.sabords.game.play import match, seats

        fixed_play = {name: points_distribution(spec.rules) for name in game.plays}
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
    from solver.util import PROOFS_DIR

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


def refuse_other_last_round(spec) -> None:
    """The two-player solver's phases are those of the last round; another reading of the game's
    end is solved by the whole table (:mod:`solver.sabords.game.table`)."""
    if spec.rules.last_round != "one-more-turn-each":
        raise InputError(f"the two-player solver plays the last round; the reading "
                         f"{spec.rules.last_round} is solved by the whole table: --players 3 "
                         "(at a small target, such as 300)")


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
