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

from dataclasses import dataclass, field

import numpy as np

from solver.errors import InputError
from solver.sabords.rules import Rules
from solver.sabords.turn.lanes import UNIT

DEFAULT_LOW = -9500  # points: the chance of ever going below it is < 1e-9 (see the docstring)
PHASES = ("normal", "last", "sudden-death")
TABLES = ("normal", "last", "sudden", "tiebreak")  # a GameTable's values, in its flat buffer
# The largest target solved: the score pairs, ((target - low) / UNIT) squared, and so the
# solve's time, grow with its square.
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
                             "the square of the target)")
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


def refuse_other_last_round(spec) -> None:
    """The two-player solver's phases are those of the last round; another reading of the game's
    end is solved by the whole table (:mod:`solver.sabords.game.table`)."""
    if spec.rules.last_round != "one-more-turn-each":
        raise InputError(f"the two-player solver plays the last round; the reading "
                         f"{spec.rules.last_round} is solved by the whole table: --players 3 "
                         "(at a small target, such as 300)")
