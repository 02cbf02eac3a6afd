"""Settling best responses that chase each other: the cycling states' turns mixed.

**Why.** With three or more players policy iteration can cycle (see
:mod:`solver.sabords.game.table.equilibrium`): at a few states each mover's best turn changes
another's, and no way of playing with one turn per state is an equilibrium. A stationary
equilibrium still exists once a mover may mix turns (a finite stochastic game that ends with
probability one under every way of playing): at a mixed state the mover is indifferent between
the turns mixed, and no other turn is better.

**How.** A double oracle. The states that cycle get *candidates*, the outcome distributions of
the turns they played in the cycle; every other state keeps its turn. Then, repeatedly:

1. *The restricted game*: a weight vector on each cycling state's candidates (a point of a
   simplex) such that each state's weights are a best response among its candidates to the
   values of playing them: ``F(w) = w - P(w + c Q(w)) = 0`` (``P`` the projection onto each
   simplex, ``Q`` each candidate's value to its mover, ``c > 0`` a scale). Newton's method on
   ``F`` alone can stall at corners that are not solutions. The first round starts it where
   the *logit path* ends: the fixed points of ``w = softmax(Q(w) / tau)``, traced by Newton
   steps as the temperature ``tau`` falls from the spread of the candidates' values (near
   uniform weights) towards 0, where they approach an equilibrium (a quantal-response
   homotopy). A later round starts Newton from the last round's weights (new candidates at
   0), and takes the path only if that does not solve the restricted game. Jacobians exact
   (the projection's and the softmax's derivatives, and :meth:`RestrictedGame.gain_jacobian`).
   ``Q(w)`` needs no sweep of the stage: with the other states' turns fixed, the stage's
   values are affine in the mixing states' value vectors (:class:`Reduced`: one linear
   evaluation of the stage per mixing state and player, all swept together, once per round),
   so the values a mix gives are a small linear system in those vectors.
2. *The oracle*: every state's best turn against the mixed play's values (the engine's batched
   turn solver). If no mover gains more than the tolerance, the table is settled. Otherwise a
   cycling state that gains gets its best turn as a new candidate, and any other state that
   gains switches to its best turn, as in policy iteration (the restricted game grows only by
   states that switch twice: each mixing state costs a linear evaluation of the stage per
   player, a switch costs nothing); then step 1 repeats.

The mixed play's values are exact for that play (linear sweeps to 1e-15), so the largest gain
the oracle finds is the certificate, as for a pure table.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from solver.sabords.game.table.compact import Plays
from solver.sabords.game.table.linear import evaluate, evaluate_columns
from solver.sabords.game.table.payoff import mover_payoff

SCALE = 1e8  # c: the weight step per unit of value in the fixed point w = P(w + c Q) (large:
# the values of a cycle's turns can differ by 1e-9 and answer its weights as weakly, which a
# small c leaves to Newton as a near-singular system)
SOLVED = SCALE * 1e-17  # the residual (weight units) at which Newton stops: values to 1e-17
STEEPER = (1e10, 1e12)  # c tried in turn, from the weights reached, while Newton stalls short
# of values to 1e-17 (a larger c makes the step a best response sooner: Newton then settles
# which turns are played where a small c leaves it circling)
NEWTON_STEPS = 30
LOGIT_STEPS = 4  # Newton steps per temperature of the logit path
TAU_FACTOR, TAU_END = 0.3, 1e-10  # the temperature falls by this factor down to this
SNAP = 1e-6  # a weight below this left by the path is tried at 0 (kept if no worse)
DISTINCT = 1e-9  # two candidate distributions closer than this are the same turn
WARM_RESIDUAL = SCALE * 1e-16  # Newton from the last round's weights reaching this skips the path
COLUMN_BYTES = 1 << 28  # the unit tables of Reduced swept at once take at most this memory


@dataclass
class Settled:
    """Mixed play: the rows that mix and their candidates' weights, the largest gain left,
    the oracle rounds made and the restricted game's residual at the last round's values."""

    rows: list[int]
    weights: list[np.ndarray]
    regret: float
    rounds: int
    newton_gap: float
    gain: np.ndarray  # each state of the stage: its mover's best gain against the mix


def project_simplex(v: np.ndarray) -> np.ndarray:
    """The nearest point of the probability simplex to ``v`` (Euclidean; sort and threshold)."""
    u = np.sort(v)[::-1]
    cum = np.cumsum(u) - 1.0
    k = np.flatnonzero(u - cum / np.arange(1, len(v) + 1) > 0)[-1]
    return np.maximum(v - cum[k] / (k + 1), 0.0)


class Reduced:
    """The stage's values as an affine function of the mixing rows' value vectors ``u``.

    With every other state's turn fixed, holding the mixing rows at ``u`` makes the rest of
    the stage a linear evaluation with a unique solution, linear in ``u``: ``V = B + sum
    u[b, j] H[b, j]``, ``B`` the values with ``u = 0`` (the earlier stages and results as
    they are), ``H[b, j]`` those of a unit at row ``b``, player ``j`` (everything else 0).
    Only ``H[b, 0]`` is swept: every turn turns the list by one, so a unit at position ``j``
    of row ``b`` reaches position ``i`` of another row only by ways of ``L`` turns with ``L =
    i - j`` (mod N), and ``H[b, j]`` at position ``i`` is ``H[b, 0]`` at position ``i - j``.
    Only the rows the mixing rows' outcomes lead to are kept: per mixing row ``a``, ``const[a]``
    (outcomes, players) and ``coef[a]`` (outcomes, players, mixing rows * players), rotated
    so that position ``j`` reads column ``j``. A mix then gives ``u`` by one small linear
    solve (``u[a] = d_a @ (const[a] + coef[a] u)``) and every candidate's value exactly.
    ``values`` is left as it was (``order``: the stage's rows, ``rows`` among them)."""

    def __init__(self, values: np.ndarray, dist: np.ndarray, succ: np.ndarray,
                 order: np.ndarray, rows: list[int]) -> None:
        players = values.shape[1]
        free = order[~np.isin(order, rows)]
        nxt = succ[rows]  # (mixing, outcomes)
        stage = values[order]  # swept in place (no copy of the whole table), then put back
        try:
            values[rows] = 0.0
            evaluate(values, free, succ, dist)
            self.const = np.roll(values[nxt], 1, axis=2)
        finally:
            values[order] = stage
        self.coef = np.zeros((*self.const.shape, len(rows) * players))
        start, size = int(order.min()), int(order.max()) + 1 - int(order.min())
        inside = (nxt >= start) & (nxt < start + size)
        block = max(1, min(len(rows), COLUMN_BYTES // (size * players * 8)))
        for lo in range(0, len(rows), block):  # the unit tables of position 0, a block at once
            hi = min(lo + block, len(rows))
            local = np.zeros((size, players, hi - lo))
            for k in range(lo, hi):
                local[rows[k] - start, 0, k - lo] = 1.0
            evaluate_columns(local, free, succ, dist, start)
            unit = local[nxt[inside] - start]
            for j in range(players):  # position j's table: position 0's, turned by j
                self.coef[inside, :, lo * players + j:hi * players:players] = np.roll(
                    unit, j + 1, axis=1)

    def next_values(self, mix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(mixing, outcomes, players): each mixing row's outcomes' values to the players
        by their position at that row, when the mixing rows play ``mix`` (mixing, outcomes);
        and the inverse of the system's matrix ``I - d u / d u`` (how ``u`` answers a change
        of the mixing rows' own values: :meth:`RestrictedGame.gain_jacobian`)."""
        m, players = len(mix), self.const.shape[2]
        c = np.einsum("ao,aoj->aj", mix, self.const).ravel()
        lin = np.einsum("ao,aojk->ajk", mix, self.coef).reshape(m * players, m * players)
        inverse = np.linalg.inv(np.eye(m * players) - lin)
        return self.const + self.coef @ (inverse @ c), inverse


class RestrictedGame:
    """The weights on the cycling states' candidates, the rest of the stage fixed (its
    values by :class:`Reduced`; ``values`` and ``dist``, the whole table's, are changed only
    by :meth:`commit`). A candidate is worth to its mover what the oracle's best responses
    maximise (``weights``: :func:`~solver.sabords.game.table.payoff.mover_payoff`'s; the
    mover's own value when None)."""

    def __init__(self, values: np.ndarray, dist: np.ndarray, succ: np.ndarray,
                 order: np.ndarray, rows: list[int], candidates: list[np.ndarray],
                 weights: np.ndarray | None = None) -> None:
        self.weights = np.eye(values.shape[1])[0] if weights is None else weights
        self.table, self.dist, self.succ, self.order = values, dist, succ, order
        self.rows = rows
        self.candidates = candidates
        self.sizes = [len(c) for c in candidates]
        self.reduced = Reduced(values, dist, succ, order, rows)
        self.nxt = np.roll(values[succ[rows]], 1, axis=2)  # the values last played
        self.inverse: np.ndarray | None = None  # Reduced.next_values' at the mix last played
        self.scale = SCALE  # c of the fixed point (module docstring)
        # each candidate's value to its mover by the mixing rows' values u: (candidates, u)
        self.lift = np.concatenate([c @ self.payoff(np.moveaxis(self.reduced.coef[a], 1, -1))
                                    for a, c in enumerate(candidates)])

    def payoff(self, by_position: np.ndarray) -> np.ndarray:
        """The mover's payoff of value vectors listed from the mover (the last axis)."""
        return mover_payoff(by_position, self.weights)

    def split(self, x: np.ndarray) -> list[np.ndarray]:
        return np.split(x, np.cumsum(self.sizes)[:-1])

    def mix(self, x: np.ndarray) -> np.ndarray:
        """Each cycling state's outcome distribution when it mixes its candidates by ``x``."""
        return np.array([w @ cands / w.sum()
                         for cands, w in zip(self.candidates, self.split(x), strict=True)])

    def play(self, x: np.ndarray) -> None:
        """Every cycling state plays its candidates mixed by ``x`` (the reduced stage)."""
        self.nxt, self.inverse = self.reduced.next_values(self.mix(x))

    def commit(self, x: np.ndarray) -> float:
        """Play ``x`` in the whole table's ``dist`` and value the stage by its sweeps; the
        residual of the equilibrium condition at those values."""
        self.dist[self.rows] = self.mix(x)
        evaluate(self.table, self.order, self.succ, self.dist)
        self.nxt = np.roll(self.table[self.succ[self.rows]], 1, axis=2)
        return float(np.abs(self.residual(x)).max())

    def gains(self) -> list[np.ndarray]:
        """Each candidate's value to its mover at the values last played."""
        return [cands @ self.payoff(nxt)
                for cands, nxt in zip(self.candidates, self.nxt, strict=True)]

    def gain_jacobian(self, x: np.ndarray) -> np.ndarray:
        """d Q / d x at the mix ``x`` last played (candidates by candidates): a weight moves
        its row's mix, which moves that row's value vector by the mix's change times its
        outcomes' values, and every ``u`` through the system's inverse."""
        players = self.nxt.shape[2]
        cols = []
        for a, (cands, w) in enumerate(zip(self.candidates, self.split(x), strict=True)):
            total = w.sum()
            change = (cands - w @ cands / total) / total @ self.nxt[a]  # (candidates, players)
            cols.append(self.inverse[:, a * players:(a + 1) * players] @ change.T)
        return self.lift @ np.concatenate(cols, axis=1)

    def residual(self, x: np.ndarray, tau: float = 0.0,
                 gains: np.ndarray | None = None) -> np.ndarray:
        """At the values last played (or at the candidates' values ``gains``, flat):
        ``w - P(w + c Q)`` (``tau`` 0, an equilibrium where it vanishes), else ``w -
        softmax(Q / tau)`` (the logit response's fixed point)."""
        parts = []
        qs = self.gains() if gains is None else self.split(gains)
        for w, q in zip(self.split(x), qs, strict=True):
            if tau:
                e = np.exp((q - q.max()) / tau)
                parts.append(w - e / e.sum())
            else:
                parts.append(w - project_simplex(w + self.scale * q))
        return np.concatenate(parts)

    def residual_jacobian(self, x: np.ndarray, tau: float = 0.0) -> np.ndarray:
        """d :meth:`residual` / d x at the mix ``x`` last played: ``I - D (I + c dQ)`` with
        ``D`` the projection's derivative (on each simplex, the centring on the entries it
        keeps positive), or ``I - S dQ / tau`` with ``S`` the softmax's (``diag(s) - s
        s^T``), block by block."""
        dq = self.gain_jacobian(x)
        outer = np.zeros((len(x), len(x)))
        at = 0
        for w, q in zip(self.split(x), self.gains(), strict=True):
            block = slice(at, at + len(w))
            if tau:
                e = np.exp((q - q.max()) / tau)
                p = e / e.sum()
                outer[block, block] = (np.diag(p) - np.outer(p, p)) / tau
            else:
                kept = project_simplex(w + self.scale * q) > 0
                centre = np.diag(kept.astype(float)) - np.outer(kept, kept) / kept.sum()
                outer[block, block] = centre
            at += len(w)
        if tau:
            return np.eye(len(x)) - outer @ dq
        return np.eye(len(x)) - outer @ (np.eye(len(x)) + self.scale * dq)

    def at(self, x: np.ndarray, tau: float = 0.0) -> np.ndarray:
        self.play(x)
        return self.residual(x, tau)

    def newton(self, x: np.ndarray, tau: float, steps: int, tol: float) -> np.ndarray:
        """Newton's method on ``residual(., tau) = 0`` (:meth:`residual_jacobian`); a
        backtracking step, iterates kept on the simplices."""
        f = self.at(x, tau)
        for _ in range(steps):
            if np.abs(f).max() < tol:
                break
            jac = self.residual_jacobian(x, tau)
            dx = np.linalg.lstsq(jac, -f, rcond=None)[0]
            scale = 1.0
            while True:
                y = np.concatenate([project_simplex(w) for w in self.split(x + scale * dx)])
                g = self.at(y, tau)
                if np.abs(g).max() < np.abs(f).max() or scale < 1e-4:
                    break
                scale /= 2
            x, f = y, g
        return x

    def solve(self, warm: np.ndarray | None = None) -> tuple[np.ndarray, float]:
        """Newton's method on the equilibrium's own condition from ``warm`` (the last
        round's weights); unless that reaches ``WARM_RESIDUAL``, from where the logit
        responses' fixed points lead as ``tau`` falls from uniform weights (module
        docstring), keeping the lower residual; then, if Newton stalls, with a steeper c
        (:meth:`_steeper`). Returns the weights (played in the table, the stage valued at
        them: :meth:`commit`) and the residual there (weight units of the first c)."""
        x, left = np.zeros(0), np.inf
        if warm is not None:
            x = self.newton(warm, 0.0, NEWTON_STEPS, SOLVED)
            left = float(np.abs(self.at(x)).max())
        if left > WARM_RESIDUAL:
            path = self._path(np.concatenate([np.full(n, 1.0 / n) for n in self.sizes]))
            there = float(np.abs(self.at(path)).max())
            if there < left:
                x, left = path, there
        snapped = np.concatenate([w / w.sum() for w in
                                  (np.where(w < SNAP, 0.0, w) for w in self.split(x))])
        there = float(np.abs(self.at(snapped)).max())
        if there <= max(left, SOLVED):  # the path's last traces of a turn not played
            x, left = snapped, there
        x = self._steeper(x, left)
        return x, self.commit(x) * SCALE / self.scale

    def _steeper(self, x: np.ndarray, left: float) -> np.ndarray:
        """While the residual ``left`` at ``x`` is short of values to 1e-17: Newton again from
        the best weights so far with each larger c of ``STEEPER`` in turn, kept when its
        residual in value units (weight units over c) is lower; ``scale`` left at the c kept."""
        best, kept, at = left / self.scale, self.scale, x
        for c in STEEPER:
            if best <= SOLVED / SCALE:
                break
            self.scale = c
            y = self.newton(at, 0.0, NEWTON_STEPS, c * SOLVED / SCALE)
            there = float(np.abs(self.at(y)).max()) / c
            if there < best:
                best, kept, at = there, c, y
        self.scale = kept
        return at

    def _path(self, x: np.ndarray) -> np.ndarray:
        """The logit path from ``x``, then Newton on the equilibrium's condition."""
        tau = max([float(np.ptp(q)) for q in self.gains()] + [1e-300])
        while tau > TAU_END:
            x = self.newton(x, tau, LOGIT_STEPS, 1e-3 * TAU_END)
            tau *= TAU_FACTOR
        return self.newton(x, 0.0, NEWTON_STEPS, SOLVED)


Respond = Callable[[], tuple[np.ndarray, np.ndarray]]


def settle(values: np.ndarray, dist: np.ndarray, succ: np.ndarray, order: np.ndarray,
           respond: Respond, rows: np.ndarray,
           seen: dict[int, list[np.ndarray]], tol: float = 1e-12, rounds: int = 10,
           progress: bool = False, weights: np.ndarray | None = None) -> Settled:
    """Mix the turns of the cycling states of one stage (``rows``; ``seen``: row -> the
    distributions it played in the cycle) until no mover gains more than ``tol``, or
    ``rounds`` oracle calls, or an oracle call finds no turn not played already (the next
    round would solve the same restricted game), or a round's regret is no lower than the
    lowest before (the rounds no longer close in: measured on the table at 6000 with scores
    floored at zero, the regret went 3.9e-7, 9.8e-8, 6.2e-8, then 2.0e-7, the oracle
    switching about 360 states outside the mix every round); the play of the round
    with the lowest regret is the answer, its values restored. Between rounds the states
    outside the mix that gain switch their turns (:func:`adopt_responses`). ``values`` and
    ``dist`` (the whole table's) are changed in place; ``order``: the stage's rows in sweep
    order; ``respond()`` gives every state of the stage its mover's best gain and best turn
    against ``values``, for the mover's payoff ``weights``
    (:func:`~solver.sabords.game.table.payoff.mover_payoff`; the mover's own value when None),
    which the restricted game maximises too."""
    with threadpool_limits(1, user_api="blas"):  # small matrices: threads cost, not help
        return _settle(values, dist, succ, order, respond, rows, seen, tol, rounds, progress,
                       weights)


def _settle(values: np.ndarray, dist: np.ndarray, succ: np.ndarray, order: np.ndarray,
            respond: Respond, rows: np.ndarray, seen: dict[int, list[np.ndarray]], tol: float,
            rounds: int, progress: bool, weights: np.ndarray | None) -> Settled:
    started = time.perf_counter()
    cands = {row: _distinct(ds) for row, ds in seen.items()}
    switched: dict[int, np.ndarray] = {}  # rows that changed their pure turn: the one before
    kept: dict[int, np.ndarray] = {}  # the last round's weights
    best: tuple[Settled, np.ndarray, np.ndarray] | None = None  # the lowest regret's round
    for rnd in range(1, rounds + 1):
        mixing = sorted(cands)
        game = RestrictedGame(values, dist, succ, order, mixing,
                              [np.array(cands[r]) for r in mixing], weights)
        x, gap = game.solve(None if rnd == 1 else np.concatenate(
            [_warm(kept.get(r), len(cands[r])) for r in mixing]))
        kept = dict(zip(mixing, game.split(x), strict=True))
        gain, best_dist = respond()
        worst = float(gain.max())
        if progress:
            print(f"  settling: round {rnd}, {len(mixing)} mixing states, {len(switched)} "
                  f"switched, Newton residual {gap:.1e}, regret {worst:.2e} "
                  f"({time.perf_counter() - started:.1f} s)", file=sys.stderr, flush=True)
        if best is not None and worst >= best[0].regret:
            break  # no lower than a round before: the rounds have stopped closing in
        best = (Settled(mixing, game.split(x), worst, rnd, gap, gain),
                values[order].copy(), dist.index[rows].copy())
        if worst <= tol or rnd == rounds or not adopt_responses(dist, cands, switched, rows,
                                                                 gain > tol, best_dist):
            break  # settled; or out of rounds (the play left as valued); or the oracle found
            # no turn not already played: the same restricted game again
    assert best is not None
    settled, values[order], dist.index[rows] = best
    settled.rounds = rnd
    return settled


def adopt_responses(dist: Plays, cands: dict[int, list[np.ndarray]],
                    switched: dict[int, np.ndarray], rows: np.ndarray,
                    gains: np.ndarray, best_dist: Plays) -> bool:
    """The oracle's answer taken (``gains``: which states of ``rows`` gain): a mixing state
    gets its best turn as a new candidate; any other switches to it, as policy iteration
    would (most states that gain only follow the mix's values, and a pure switch costs the
    restricted game nothing); a state switching a second time cycles and mixes the turns it
    played. Whether anything changed."""
    changed = False
    for at in np.flatnonzero(gains).tolist():
        row, best = int(rows[at]), best_dist[at]
        if row in cands:
            more = _distinct([*cands[row], best])
            changed |= len(more) > len(cands[row])
            cands[row] = more
        elif row in switched:
            cands[row] = _distinct([dist[row].copy(), best, switched.pop(row)])
            changed = True
        else:
            switched[row] = dist[row].copy()
            dist[row] = best
            changed = True
    return changed


def _warm(weights: np.ndarray | None, count: int) -> np.ndarray:
    """A round's starting weights on a state's ``count`` candidates: the last round's, its
    new candidates at 0 (a state new to mixing: all on its first, the turn it plays)."""
    out = np.zeros(count)
    if weights is None:
        out[0] = 1.0
    else:
        out[:len(weights)] = weights
    return out


def _distinct(dists: list[np.ndarray]) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for d in dists:
        if all(np.abs(d - e).max() > DISTINCT for e in out):
            out.append(np.asarray(d, dtype=np.float64))
    return out
