"""Optimal stopping over dice multisets: stop, or keep some dice and roll the rest.

A :class:`StoppingProblem` is a finite Markov decision process whose states are
``(mode, dice)`` pairs. ``dice`` is a full-size multiset of a :class:`DiceSpace`; ``mode`` is a
small integer a game uses for what the dice do not show (a one-shot power still unused,
rerolls left...). In a *live* state the player may stop (``stop_value``) or take an action:
keep the node ``keep``, roll the other dice and continue in mode ``next_mode``. A roll that
shows a non-live state ends the turn with ``terminal_value``; an action may carry a
``bonus`` paid in addition when the roll lands on a state flagged in ``bonus_mask`` (dice
protected from a bust, for instance).

Cycles are allowed (a reroll can show the same dice again). Provided every policy ends the turn
with probability one, the Bellman equation has a unique solution; :func:`solve` finds it by
modified policy iteration and :func:`evaluate` computes any reward's expectation under a fixed
policy, batched over many rewards at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver.engine.multiset import DiceSpace

STOP = -1  # policy entry for "stop here"


@dataclass
class StoppingProblem:
    """The data of one optimal-stopping dice problem (see the module docstring).

    Arrays indexed by ``(mode, position)`` use the position of a state in ``space.full``.
    Actions are parallel arrays sorted by ``(mode, state)``.
    """

    space: DiceSpace
    live: np.ndarray  # (modes, F) bool
    stop_value: np.ndarray  # (modes, F) float; -inf where stopping is not allowed
    terminal_value: np.ndarray  # (modes, F) float, used where not live
    act_mode: np.ndarray  # (A,) int
    act_state: np.ndarray  # (A,) position in space.full
    act_keep: np.ndarray  # (A,) node id of the kept multiset
    act_next: np.ndarray  # (A,) mode after the roll
    act_bonus: np.ndarray | None = None  # (A,) paid when the roll lands in bonus_mask
    bonus_mask: np.ndarray | None = None  # (modes, F) bool
    keep_rules: tuple = ()  # the actions as lattice rules (engine.keeps), when they are such
    _segments: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    @property
    def modes(self) -> int:
        return self.live.shape[0]

    def flat_state(self) -> np.ndarray:
        """Flat index ``mode * F + state`` of each action's state."""
        return self.act_mode * self.live.shape[1] + self.act_state

    def segments(self) -> tuple[np.ndarray, np.ndarray]:
        """(first action of each state that has actions, that state's flat index)."""
        if self._segments is None:
            flat = self.flat_state()
            if len(flat) and np.any(np.diff(flat) < 0):
                raise ValueError("actions must be sorted by (mode, state)")
            starts = np.flatnonzero(np.r_[True, flat[1:] != flat[:-1]]) if len(flat) else flat
            self._segments = (starts, flat[starts] if len(flat) else flat)
        return self._segments

    def bonus_expectation(self) -> np.ndarray | None:
        """Probability, per (next mode, kept node), that the roll lands in ``bonus_mask``."""
        if self.bonus_mask is None:
            return None
        return self.space.expect(self.bonus_mask.astype(np.float64))


@dataclass
class Solution:
    """Optimal values and one optimal policy.

    ``value[mode, s]`` is the optimal value in a live state (stop or act) and the terminal
    value elsewhere; ``policy[mode, s]`` is an action index or :data:`STOP` (also for
    non-live states); ``action_value[a]`` is the value of every action.
    """

    value: np.ndarray
    policy: np.ndarray
    action_value: np.ndarray
    iterations: int


def action_values(problem: StoppingProblem, value: np.ndarray, bonus_p=None) -> np.ndarray:
    """The value of every action when later states are worth ``value`` (live) or their
    terminal value (not live)."""
    landing = np.where(problem.live, value, problem.terminal_value)
    expected = problem.space.expect(landing)
    q = expected[problem.act_next, problem.act_keep]
    if problem.act_bonus is not None:
        if bonus_p is None:
            bonus_p = problem.bonus_expectation()
        q = q + bonus_p[problem.act_next, problem.act_keep] * problem.act_bonus
    return q


def _best(problem: StoppingProblem, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per state: best action value (-inf without actions) and its first argmax (or STOP)."""
    starts, seg_state = problem.segments()
    shape = problem.live.shape
    best = np.full(shape[0] * shape[1], -np.inf)
    arg = np.full(shape[0] * shape[1], STOP, dtype=np.int64)
    if len(q):
        seg_max = np.maximum.reduceat(q, starts)
        lengths = np.diff(np.r_[starts, len(q)])
        hits = np.flatnonzero(q == np.repeat(seg_max, lengths))
        first = hits[np.searchsorted(hits, starts)]
        best[seg_state] = seg_max
        arg[seg_state] = first
    return best.reshape(shape), arg.reshape(shape)


def solve(
    problem: StoppingProblem,
    rtol: float = 1e-13,
    sweeps: int = 24,
    max_rounds: int = 10_000,
) -> Solution:
    """Optimal values by modified policy iteration.

    Each round improves the policy greedily (one full Bellman update over every action), then
    evaluates it with ``sweeps`` cheap fixed-policy sweeps. Stops when a full Bellman update
    moves no value by more than ``rtol`` times the largest value (at least one).
    Ties go to stopping, then to the action listed first (the largest keep).
    """
    bonus_p = problem.bonus_expectation()
    finite_payoffs = np.concatenate(
        [problem.stop_value[np.isfinite(problem.stop_value)], problem.terminal_value.ravel()]
    )
    floor = float(finite_payoffs.min()) if len(finite_payoffs) else 0.0
    if problem.act_bonus is not None and len(problem.act_bonus):
        floor += min(0.0, float(problem.act_bonus.min()))
    value = np.where(problem.live, np.maximum(problem.stop_value, floor), problem.terminal_value)
    scale = max(1.0, float(np.abs(finite_payoffs).max()) if len(finite_payoffs) else 1.0)
    rounds = 0
    for rounds in range(1, max_rounds + 1):  # noqa: B007 - reported in the Solution
        q = action_values(problem, value, bonus_p)
        best, arg = _best(problem, q)
        new = np.where(problem.live, np.maximum(problem.stop_value, best), problem.terminal_value)
        change = float(np.max(np.abs(new - value)))
        value = new
        if change <= rtol * scale:
            break
        policy = np.where(problem.live & (best > problem.stop_value), arg, STOP)
        value = _sweep(problem, policy, value, bonus_p, sweeps)
    q = action_values(problem, value, bonus_p)
    best, arg = _best(problem, q)
    policy = np.where(problem.live & (best > problem.stop_value), arg, STOP)
    return Solution(value=value, policy=policy, action_value=q, iterations=rounds)


def _sweep(problem, policy, value, bonus_p, sweeps: int) -> np.ndarray:
    """``sweeps`` fixed-policy updates of ``value`` (states that stop keep their stop value)."""
    acting = policy != STOP
    chosen = policy[acting]
    keep = problem.act_keep[chosen]
    nxt = problem.act_next[chosen]
    bonus = 0.0
    if problem.act_bonus is not None:
        bonus = bonus_p[nxt, keep] * problem.act_bonus[chosen]
    value = value.copy()
    for _ in range(sweeps):
        landing = np.where(problem.live, value, problem.terminal_value)
        value[acting] = problem.space.expect(landing)[nxt, keep] + bonus
    return value


def evaluate(
    problem: StoppingProblem,
    policy: np.ndarray,
    stop_reward: np.ndarray,
    terminal_reward: np.ndarray,
    action_bonus: np.ndarray | None = None,
    tol: float = 1e-14,
    max_sweeps: int = 100_000,
) -> np.ndarray:
    """Expected rewards under a fixed policy, batched.

    ``stop_reward`` and ``terminal_reward`` have shape ``(B, modes, F)``: reward ``b`` is paid
    when the turn ends by stopping in a state / landing on a non-live state. ``action_bonus``
    (``(B, A)``) is paid when an action's roll lands in ``bonus_mask``. Returns ``(B, modes,
    F)``: for live states the expectation from that state on; for others the terminal reward.
    """
    stop_reward = np.asarray(stop_reward, dtype=np.float64)
    terminal_reward = np.asarray(terminal_reward, dtype=np.float64)
    acting = (policy != STOP) & problem.live
    chosen = policy[acting]
    keep = problem.act_keep[chosen]
    nxt = problem.act_next[chosen]
    bonus = 0.0
    if action_bonus is not None:
        bonus_p = problem.bonus_expectation()
        bonus = bonus_p[nxt, keep][None, :] * np.asarray(action_bonus)[:, chosen]
    value = np.where(problem.live, stop_reward, terminal_reward)
    for _ in range(max_sweeps):
        expected = problem.space.expect(value)
        new = value.copy()
        new[:, acting] = expected[:, nxt, keep] + bonus
        done = float(np.max(np.abs(new - value))) <= tol
        value = new
        if done:
            break
    return value
