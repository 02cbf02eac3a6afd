"""Solving Mille Sabords turns: optimal values, policy, and what the policy leads to
(bust, Island of Skulls, full chest), cached on disk per rules, card and objective."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from solver.engine import STOP, evaluate, solve
from solver.engine.stopping import action_values
from solver.sabords.objective import Objective
from solver.sabords.rules import Rules
from solver.sabords.turn.model import TurnModel, build_model

CACHE_VERSION = 2
# Solved turns kept in memory by a long-lived process (the web server): about 1.3 MB each,
# and every reach target, card and set of variants is another; the disk cache keeps the rest.
TURNS_IN_MEMORY = 64


@dataclass
class TurnSolution:
    """One card's solved turn.

    ``value``/``policy`` are per (mode, state); ``bust`` is the probability, per state, that
    the turn ends in a bust under the policy (for non-live states: 1). ``start`` and the
    ``p_*`` fields are seen from before the first roll.
    """

    model: TurnModel
    value: np.ndarray
    policy: np.ndarray
    bust: np.ndarray
    start: float
    p_bust: float
    p_island: float
    p_chest: float

    @property
    def rules(self) -> Rules:
        return self.model.rules

    @cached_property
    def action_outcomes(self) -> tuple[np.ndarray, np.ndarray]:
        """Every action's value (the engine's, as the solver saw them), and per (mode of the
        next roll, kept dice) the probability that the next roll busts and that the turn ends
        in a bust: what :func:`action_table` reads, worked out once per solution (it walks the
        whole lattice, too slow to repeat for each warm ``hold``)."""
        problem = self.model.problem
        values = action_values(problem, self.value)
        busts = problem.space.expect(np.stack([(~problem.live).astype(float), self.bust]))
        return values, busts


def _first_roll(model: TurnModel, landing: np.ndarray) -> float:
    """Expectation over the first roll of eight dice of a per-state landing value."""
    weights = model.space.roll_weights()[model.space.full]
    return float(weights @ landing) / float(model.space.faces**model.space.dice)


def _policy_outcomes(model: TurnModel, policy: np.ndarray) -> np.ndarray:
    """Per state, under the policy: probability of ending in a bust, and of a full chest."""
    problem = model.problem
    stop_chest = np.where(model.stop_is_bust, False, model.stops.chest)
    return evaluate(
        problem,
        policy,
        np.stack([model.stop_is_bust.astype(np.float64), stop_chest.astype(np.float64)]),
        np.stack([(~problem.live).astype(np.float64), np.zeros(problem.live.shape)]),
    )


def _assemble(model: TurnModel, value, policy, bust, chest) -> TurnSolution:
    """The solution and its first-roll summary (the Island is first-roll only)."""
    island = model.first_island
    return TurnSolution(
        model, value, policy, bust,
        start=_first_roll(model, model.first_roll_landing(value[0])),
        p_bust=_first_roll(model, np.where(island, 0.0, bust[0])),
        p_island=_first_roll(model, island.astype(np.float64)),
        p_chest=_first_roll(model, np.where(island, 0.0, chest[0])),
    )


@lru_cache(maxsize=TURNS_IN_MEMORY)
def solve_turn(card: str, objective: Objective, rules: Rules, use_cache: bool = True):
    """The solved turn for one card (from the disk cache when allowed and present)."""
    from solver.cache import load_or_build

    model = build_model(rules.card(card), rules, objective)

    def build() -> dict[str, np.ndarray]:
        solution = solve(model.problem)
        bust, chest = _policy_outcomes(model, solution.policy)
        return {"value": solution.value, "policy": solution.policy, "bust": bust,
                "chest": chest}

    arrays = load_or_build("sabords", (CACHE_VERSION, card, objective.name, rules.key()), build,
                           use_cache=use_cache,
                           label="-".join([card, objective.name, *rules.variants]))
    return _assemble(model, *(arrays[k] for k in ("value", "policy", "bust", "chest")))


def action_table(sol: TurnSolution, mode: int, position: int):
    """Every action open in a state with its value, immediate-bust and eventual-bust
    probability: a list of (action index, value, p_bust_next, p_bust_eventually)."""
    problem = sol.model.problem
    rows = np.flatnonzero((problem.act_mode == mode) & (problem.act_state == position))
    if not len(rows):
        return []
    every_value, busts = sol.action_outcomes
    values = every_value[rows]
    keep, nxt = problem.act_keep[rows], problem.act_next[rows]
    return [
        (int(a), float(v), float(pn), float(pe))
        for a, v, pn, pe in zip(rows, values, busts[0][nxt, keep], busts[1][nxt, keep],
                                strict=True)
    ]


__all__ = ["STOP", "TurnSolution", "solve_turn", "action_table"]


def turn_points_distribution(sol: TurnSolution) -> dict[int, float]:
    """The turn's own points under the solution's policy, before the first roll, as
    {points: probability}. The Island of Skulls scores 0 for the player."""
    model = sol.model
    problem = model.problem
    stop_own = np.where(model.stop_is_bust, model.busts.own, model.stops.own)
    bust_own = model.busts.own
    values = set(np.unique(stop_own[problem.live]).tolist())
    values |= set(np.unique(bust_own).tolist()) | {0}
    protect_own = None
    if model.card.protect:
        from solver.sabords.scoring import protected_outcomes

        protect_own = protected_outcomes(model.space.counts, model.card, model.rules).own
        acting = sol.policy[sol.policy != STOP]
        values |= set(np.unique(protect_own[problem.act_keep[acting]]).tolist())
    values = sorted(values)
    table = np.array(values)[:, None, None]
    stop_reward = (stop_own[None] == table).astype(np.float64)
    terminal_reward = (bust_own[None] == table).astype(np.float64)
    bonus = None
    if protect_own is not None:
        base = model.busts.own[0, 0]
        kept = protect_own[problem.act_keep]
        bonus = (kept[None, :] == table[:, :, 0]).astype(float) - (base == table[:, :, 0])
    probs = evaluate(problem, sol.policy, stop_reward, terminal_reward, bonus)
    island = model.first_island
    out = {}
    for i, v in enumerate(values):
        landing = np.where(island, 1.0 if v == 0 else 0.0, probs[i, 0])
        p = _first_roll(model, landing)
        if p > 0:
            out[int(v)] = p
    return out
