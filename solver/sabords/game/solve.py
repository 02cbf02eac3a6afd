"""Solving the whole game's phases: the payoffs of a turn's outcomes in each phase, and the
iterations that make every state's value consistent with its turns (see
:mod:`solver.sabords.game.two_player` for the states and the order of the phases).

**Newton steps over the score pairs.** A cyclic phase (the normal phase, sudden death) is
solved by policy iteration, Newton's method on ``V = T V`` for alternating turns: (1)
*improvement*: at the current values, solve every state's turns (the engine's stopping
problem with these payoffs, warm-started from the last pass) and record each state's outcome
distribution under the optimal policies; the largest ``|T V - V|`` is the Bellman residual;
(2) *evaluation*: with those distributions fixed the values are a linear system, solved by
Gauss-Seidel sweeps only as precisely as the next residual can show. A step that does not
shrink the residual is replaced by a plain value-iteration step (safeguard). Early steps are
inexact, their turns solved only as precisely as the residual they are to reach needs
(:data:`FIRST_INNER`, :data:`FIRST_PUSH`): precision spent before the values are close is
wasted. Later steps push to :data:`LAST_PUSH`, so that a turn's outcome distribution is kept
from one step to the next while its policy holds; a solve that starts from another reading's
solved table starts near the solution (:data:`WARM_INNER`). The first step evaluates each
level as soon as its turns are solved, so the levels below choose against new values.

**Sweeps in decreasing total score, pairs solved together.** Most turns raise the mover's
score, so a sweep from the highest total score down finds most of what a state needs already
updated. The pair ``(a, b)``, ``(b, a)`` is one level: a bust (or a stop on no points) from one
leads to the other; each state's value is linear in its partner's, ``c - s V(partner)``, with
``s`` the probability of that swap, and the two lines are solved together.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np

from solver.sabords.game.linear import sweep_pairs
from solver.sabords.game.two_player import GameTable, refuse_other_last_round
from solver.sabords.turn.lanes import DeckTurns, deck_turns

Payoff = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (a, b) -> (states, outcomes)

# The first Newton step (see the module docstring): its turns' precision and the mass its
# pushes may leave in play; every later step pushes to LAST_PUSH. WARM_INNER: the first step's
# precision when the solve starts from another reading's solved table (its pushes go to
# LAST_PUSH).
FIRST_INNER, FIRST_PUSH, LAST_PUSH = 1e-3, 1e-4, 1e-16
WARM_INNER = 1e-6
_TABLE_OF = {"normal": "normal", "sudden-death": "sudden"}  # a cyclic phase's table


class GameSolver:
    """A game table being solved: the iterations over its phases."""

    def __init__(self, spec, progress: bool, fixed: np.ndarray | None = None) -> None:
        """``fixed``: play every turn with this outcome distribution (a fixed per-turn policy,
        such as maximising points) instead of optimally."""
        refuse_other_last_round(spec)
        self.spec = spec
        self.fixed = fixed
        self.deck: DeckTurns = deck_turns(spec.rules)
        deck = self.deck
        if np.any((deck.loss > 0) & (deck.own > 0)):
            raise ValueError("a turn that scores and costs the opponent points at once is "
                             "outside this model")
        self.low, self.top = spec.bottom, spec.top
        span = self.top - self.low
        gains = deck.own + deck.loss
        self.gap_low = int(gains.min())
        self.table = GameTable(spec, np.zeros((span, span)),
                               np.zeros((span, max(int(deck.own.max()), 1) + 1)),
                               np.zeros((span, span)),
                               np.zeros(int(gains.max()) - self.gap_low + 3), self.gap_low)
        self.normal, self.sudden, self.last = self.table.normal, self.table.sudden, self.table.last
        self.tiebreak = self.table.tiebreak
        self.progress = progress
        self.stats: dict = {"sweeps": {}, "residual": {}, "lanes": 0, "rounds": 0}
        a_all, b_all = np.divmod(np.arange(span * span), span)
        self.levels = [np.flatnonzero(a_all + b_all == s) for s in range(2 * span - 2, -1, -1)]
        self.level_rows = np.concatenate(self.levels)
        self.level_ptr = np.r_[0, np.cumsum([len(rows) for rows in self.levels])]
        # larger batches for passes that need no particular order
        order = self.level_rows
        self.blocks = [order[i:i + 1024] for i in range(0, len(order), 1024)]
        self._successors: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._last_groups: tuple | None = None
        # the first Newton step's turn precision and push (see WARM_INNER)
        self.first_step = (FIRST_INNER, FIRST_PUSH)
        self.plays: dict[str, np.ndarray] = {}  # phase -> outcome distributions, last pass
        self.card_plays: dict[str, np.ndarray] = {}  # the same per card: (states, cards, outs)
        self.hashes: dict[str, np.ndarray] = {}  # phase -> (states, cards) policy hashes
        self.per_card: np.ndarray | None = None  # the last lanes' per-card distributions
        uses = [np.r_[m.stop_out.ravel(), m.end_out.ravel()] for m in deck.maps]
        uses += [m.protect_out for m in deck.maps if m.protect_out is not None]
        self.solved_outcomes = np.unique(np.concatenate(uses))

    # -- the table's payoffs over the deck's outcomes ------------------------------------------
    def successors(self, phase: str) -> tuple[np.ndarray, np.ndarray]:
        """``(const, index)`` of every both-below-target state of ``phase`` (``normal`` or
        ``sudden-death``), row ``a * span + b`` (see :meth:`GameTable.successors`)."""
        if phase not in self._successors:
            span = self.top - self.low
            a, b = np.divmod(np.arange(span * span), span)
            const, index = self.table.successors(
                phase, a + self.low, b + self.low, self.deck.own, self.deck.loss, self.deck.win)
            partner = self.table._start[_TABLE_OF[phase]] + b * span + a
            if not np.array_equal(index[:, self.deck.swap], partner):
                raise ValueError("the swap outcome must lead to the partner state")
            self._successors[phase] = (const, index)
        return self._successors[phase]

    def pay_rows(self, phase: str, rows: np.ndarray) -> np.ndarray:
        """The payoff rows of these states of ``phase`` at the current values."""
        const, index = self.successors(phase)
        return const[rows] - self.table.flat[index[rows]]

    def pay_normal(self, a, b):
        return self.table.pay_normal(a, b, self.deck.own, self.deck.loss, self.deck.win)

    def pay_sudden(self, a, b):
        return self.table.pay_sudden(a, b, self.deck.own, self.deck.loss, self.deck.win)

    def pay_last(self, m, t):
        return self.table.pay_last(m, t, self.deck.own, self.deck.loss, self.deck.win)

    def pay_tiebreak_second(self, gap, _):
        return self.table.pay_tiebreak_second(gap, self.deck.own, self.deck.loss, self.deck.win)

    def pay_tiebreak_first(self, a, _):
        return self.table.pay_tiebreak_first(len(a), self.deck.own, self.deck.loss,
                                             self.deck.win)

    def start_from(self, table: GameTable, solved: bool) -> None:
        """Start from ``table``'s values: points play's (far from the solution: the first
        Newton step is a loose one), or a table ``solved`` under another reading (near it:
        the first step is as precise as the residual it is to reach needs, see
        :data:`WARM_INNER`)."""
        self.normal[:], self.last[:] = table.normal, table.last
        if self.spec.rules.endgame == "race-wins-at-once":  # else this reading has no such phase
            self.sudden[:] = table.sudden
        if self.spec.rules.ties != "shared" and table.tiebreak.shape == self.tiebreak.shape:
            self.tiebreak[:] = table.tiebreak
        if solved:
            self.first_step = (WARM_INNER, LAST_PUSH)

    # -- solving states ---------------------------------------------------------------------
    def _storage(self, slots: int):
        """Warm-start storage for the turns of ``slots`` states (none for fixed play)."""
        return self.deck.packed.storage(slots if self.fixed is None else 0)

    def _lanes(self, pay_rows: np.ndarray, slots: np.ndarray, store, tol: float,
               max_rounds: int = 100_000, distribution: bool = False, memo=None,
               push_tol: float = LAST_PUSH, start: np.ndarray | None = None):
        """Every card's turn for each state (:meth:`DeckLanes.solve`), or the fixed play's
        distribution: the states' values before the card and their outcome distributions
        (when asked). Every stored policy is taken as a guess, valued only as far as between
        Bellman updates: a Newton step moves the payoffs too far for the last policy to be
        worth valuing fully (that pays where the payoffs barely move: the whole table's late
        policy-iteration steps)."""
        if self.fixed is not None:
            return pay_rows @ self.fixed, self.fixed
        solved = self.deck.lanes.solve(pay_rows, slots, store, tol, max_rounds, distribution,
                                       memo, push_tol, start, guess=True)
        self.stats["lanes"] += solved.lanes
        self.stats["rounds"] += solved.rounds
        self.per_card = solved.per_card
        return solved.values, solved.dist

    def values(self, pay: Payoff, a: np.ndarray, b: np.ndarray, tol: float, play: str):
        """Values of a few states solved from scratch (no stored warm start); their outcome
        distributions are recorded as ``play``."""
        store = self._storage(len(a))
        values, dist = self._lanes(pay(a, b), np.arange(len(a)), store, tol,
                                      distribution=True)
        self.plays[play] = dist
        return values

    def evaluate_pairs(self, phase: str, tol: float,
                       before_sweep: Callable[[], float] | None = None) -> int:
        """With every turn following its recorded outcome distribution (``self.dist``):
        Gauss-Seidel sweeps over the both-below-target pairs, in decreasing total score, until
        no value moves by ``tol`` (``before_sweep`` refreshes a table this phase reads and
        returns its largest change). Returns the sweeps made."""
        sweeps = 0
        while True:
            sweeps += 1
            moved = before_sweep() if before_sweep is not None else 0.0
            moved = max(moved, self._evaluate_levels(phase, 0, len(self.levels)))
            if moved <= tol:
                return sweeps

    def _evaluate_levels(self, phase: str, first: int, last: int) -> float:
        """Levels ``first .. last - 1`` solved in order, each level's pairs together, every
        other value held (see the module docstring); returns the largest change."""
        const, index = self.successors(phase)
        dist = self.dist if self.dist.ndim == 2 else self.dist[None, :]
        start = self.table._start[_TABLE_OF[phase]]
        return sweep_pairs(self.table.flat, start, self.top - self.low, self.level_rows,
                           self.level_ptr, first, last, const, index, dist, self.deck.swap)

    def solve_pairs(self, name: str, tol: float,
                    before_sweep: Callable[[], float] | None = None) -> None:
        """Solve a cyclic phase (``normal`` or ``sudden-death``) in place (Newton steps; see
        the module docstring)."""
        span = self.top - self.low
        table = getattr(self.table, _TABLE_OF[name])
        if self.fixed is not None:
            self.dist = self.fixed
            self.stats["sweeps"][name] = self.evaluate_pairs(name, tol, before_sweep)
            self.plays[name] = self.fixed
            return
        store = self._storage(span * span)
        memo = self._memo(span * span)
        self.dist = np.zeros((span * span, self.deck.count))
        inner, first_push = self.first_step
        residuals: list[float] = []
        started = time.perf_counter()
        for step in range(1, 100):
            if before_sweep is not None:
                before_sweep()
            value = table.ravel().copy()
            applied = self.improve(name, store, inner, step == 1, memo, step == 1,
                                   first_push if step == 1 else LAST_PUSH)
            residual = float(np.max(np.abs(applied - value)))
            residuals.append(residual)
            if self.progress:
                print(f"  {name}: Newton step {step}, Bellman residual {residual:.2e} "
                      f"({time.perf_counter() - started:.1f} s)", file=sys.stderr, flush=True)
            if residual <= tol and inner <= tol / 10:
                break
            # the next residual: Newton squares this one, and turns solved to `inner` leave
            # about inner / 200 of their own (an empirical ratio, at most that); the next
            # turns are asked for a little more precision than the square
            coming = max(residual * residual, inner / 200)
            inner = max(min(inner, residual / 1000, residual * residual / 100), tol / 10)
            if len(residuals) > 1 and residual > 0.5 * residuals[-2]:
                table[:] = applied.reshape(span, span)  # safeguard: a value-iteration step
                continue
            # the values need no more precision than the next residual can show
            self.evaluate_pairs(name, max(tol / 10, coming / 1000), before_sweep)
        self.stats["sweeps"][name] = step
        self.stats["residual"][name] = residual
        self.plays[name] = self.dist.copy()
        self.card_plays[name] = self._per_card(memo.dist)
        self.hashes[name] = self._per_card(memo.hashes)

    def _per_card(self, solved: np.ndarray) -> np.ndarray:
        return self.deck.lanes.per_card(solved)

    def _memo(self, slots: int) -> tuple:
        return self.deck.lanes.memo(slots)

    def improve(self, phase: str, store, tol: float, cold: bool, memo=None,
                evaluate: bool = False, push_tol: float = LAST_PUSH) -> np.ndarray:
        """``T V`` for every both-below-target state of ``phase``: its turns solved at the
        current values (warm-started from ``store``; when ``cold``, from a neighbour's turns,
        solved just before, level after level). With ``memo``, the outcome distributions are
        recorded in ``self.dist``; with ``evaluate`` too (on a cold pass), each level's pairs are
        evaluated under them at once, so the levels below choose their turns against the new
        values (the game mostly climbs)."""
        span = self.top - self.low
        a_all, b_all = np.divmod(np.arange(span * span), span)
        neighbour = np.where(b_all + 1 < span, a_all * span + b_all + 1,
                             (a_all + 1) * span + b_all)
        applied = np.zeros(span * span)
        for level, rows in enumerate(self.levels if cold else self.blocks):
            pay_rows = self.pay_rows(phase, rows)
            g, dist = self._lanes(pay_rows, rows, store, tol, distribution=memo is not None,
                                  memo=memo, push_tol=push_tol,
                                  start=neighbour[rows] if cold and level > 0 else None)
            applied[rows] = g
            if memo is not None:
                self.dist[rows] = dist
                if evaluate:  # the level's own values are not written yet
                    self._evaluate_levels(phase, level, level + 1)
        return applied

    def residuals(self, tol: float = 1e-14, sample: int | None = None,
                  record: bool = False) -> dict[str, float]:
        """The Bellman residual ``max |T V - V|`` of every phase of the loaded table, each turn
        solved again from scratch (for checking a stored table); with ``sample``, over that
        many seeded random states of each phase only (a spot check). With ``record`` (every
        state), the turns' optimal outcome distributions at the loaded values are kept in
        ``plays``, ``card_plays`` and ``hashes``, as a solve keeps its last step's."""
        span = self.top - self.low
        out = {}
        if sample is not None:
            rng = np.random.default_rng(sample)
            checks = [("normal", self.normal, self.pay_normal)]
            if self.spec.rules.endgame == "race-wins-at-once":
                checks.append(("sudden-death", self.sudden, self.pay_sudden))
            checks.append(("last", self.last, self.pay_last))
            for name, table, pay in checks:
                rows = np.sort(rng.choice(table.size, min(sample, table.size), replace=False))
                a, b = np.divmod(rows, table.shape[1])
                start = self.top if name == "last" else self.low
                applied, _ = self._lanes(pay(a + self.low, b + start), np.arange(len(rows)),
                                         self._storage(len(rows)), tol)
                out[name] = float(np.max(np.abs(applied - table.ravel()[rows])))
            return out
        if self.spec.rules.ties != "shared":
            before = self.tiebreak.copy()
            gaps = np.arange(self.gap_low, self.gap_low + len(self.tiebreak) - 1)
            second = self.values(self.pay_tiebreak_second, gaps, gaps, tol, "tiebreak-second")
            first = self.values(self.pay_tiebreak_first, np.zeros(1, dtype=np.int64),
                                np.zeros(1, dtype=np.int64), tol, "tiebreak-first")
            out["tie-break"] = float(np.max(np.abs(np.r_[first, second] - before)))
        phases = [("normal", self.normal)]
        if self.spec.rules.endgame == "race-wins-at-once":
            phases.append(("sudden-death", self.sudden))
        for name, table in phases:
            memo = None
            if record:  # improve() writes the distributions into self.dist
                memo = self._memo(span * span)
                self.dist = np.zeros((span * span, self.deck.count))
            applied = self.improve(name, self._storage(span * span), tol, True, memo)
            out[name] = float(np.max(np.abs(applied - table.ravel())))
            if record:
                self.plays[name] = self.dist.copy()
                self.card_plays[name] = self._per_card(memo.dist)
                self.hashes[name] = self._per_card(memo.hashes)
        last = self.last.copy()
        self._last_groups = None
        out["last"] = self.solve_last(tol)
        self.last[:] = last
        return out

    def solve_last(self, tol: float) -> float:
        """Every last-turn state. States whose payoffs agree on every outcome a decision can
        reach (all but the first roll's Island) share one solve, made again only when those
        payoffs change. Returns the largest change."""
        span_m, span_t = self.last.shape
        m_all, t_all = np.divmod(np.arange(span_m * span_t), span_t)
        pay = self.pay_last(m_all + self.low, t_all + self.top)
        solved = pay[:, self.solved_outcomes]
        groups, group_of = np.unique(solved, axis=0, return_index=False, return_inverse=True)
        group_of = group_of.ravel()
        if self._last_groups is None or not np.array_equal(self._last_groups[0], groups):
            first = np.zeros(len(groups), dtype=np.int64)
            first[group_of[::-1]] = np.arange(len(group_of))[::-1]
            store = self._storage(len(groups))
            dist = self._lanes(pay[first], np.arange(len(groups)), store, tol / 10,
                               distribution=True)[1]
            self._last_groups = (groups, store, dist, self.per_card)
        store = self._last_groups[1]
        # an Island's outcomes do not depend on the payoffs: one group, one distribution
        last_play = self._last_groups[2]
        self.plays["last"] = last_play if last_play.ndim == 1 else last_play[group_of]
        if self._last_groups[3] is not None:
            self.card_plays["last"] = self._per_card(self._last_groups[3][group_of])
        total = self._lanes(pay, group_of, store, tol, max_rounds=0)[0]
        moved = float(np.max(np.abs(self.last[m_all, t_all] - total)))
        self.last[m_all, t_all] = total
        return moved

    def solve_tiebreak(self, tol: float) -> None:
        """The tie-break round: the second mover's value per gap and the first mover's."""
        if self.spec.rules.ties == "shared":
            return
        gaps = np.arange(self.gap_low, self.gap_low + len(self.tiebreak) - 1)
        one = np.zeros(1, dtype=np.int64)
        self.tiebreak[0] = 0.5
        for _ in range(1000):
            before = self.tiebreak.copy()
            self.tiebreak[1:] = self.values(self.pay_tiebreak_second, gaps, gaps, tol / 10,
                                            "tiebreak-second")
            self.tiebreak[0] = self.values(self.pay_tiebreak_first, one, one, tol / 10,
                                           "tiebreak-first")[0]
            if np.max(np.abs(self.tiebreak - before)) <= tol:
                return
        raise RuntimeError("the tie-break round did not converge")


