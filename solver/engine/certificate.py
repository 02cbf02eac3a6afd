"""Exact rational certificates for :class:`~solver.engine.StoppingProblem` solutions.

A certificate is a policy and, for every state, its value as an exact rational. It proves
optimality when (i) the values satisfy the policy's own equations exactly and (ii) no
alternative (stopping or any other keep) is worth more, exactly. Because every policy ends the
turn with probability one (checked separately for each game), the Bellman equation has one
solution, so (i) and (ii) make the values the optimal ones.

:func:`certify` turns a floating-point policy into a certificate: it solves the policy's linear
equations over the rationals (python-flint), then improves the policy in exact arithmetic until
no action beats it (a float near-tie can hide a strictly better action). :func:`verify` checks a
certificate independently of how it was made: it never solves anything, it only recomputes
both sides of every equation and inequality with integers.

All payoffs must be integers (``stop_value``, ``terminal_value``, ``act_bonus``); states where
stopping is not allowed carry ``-inf``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.engine.stopping import STOP, StoppingProblem


@dataclass
class Certificate:
    """Values ``numerators[mode][state] / denominator`` and the policy that earns them."""

    denominator: int
    numerators: list[list[int]]
    policy: np.ndarray  # (modes, F): action index or STOP
    improvements: int = 0  # exact policy-improvement steps certify() needed


def _int(x: float) -> int:
    if not float(x).is_integer():
        raise ValueError(f"payoff {x!r} is not an integer")
    return int(x)


def _landing_numerators(problem, values_num, denominator):
    """Per mode: the numerator (over ``denominator``) of the value of landing on each state."""
    out = []
    for mode in range(problem.modes):
        row = []
        for s in range(problem.live.shape[1]):
            if problem.live[mode, s]:
                row.append(values_num[mode][s])
            else:
                row.append(_int(problem.terminal_value[mode, s]) * denominator)
        out.append(row)
    return out


def action_numerators(problem: StoppingProblem, values_num, denominator) -> list[int]:
    """Exact value of every action: numerator over ``denominator * faces**dice``."""
    space = problem.space
    top = space.faces**space.dice
    landing = _landing_numerators(problem, values_num, denominator)
    per_mode = [space.expect_exact(landing[m]) for m in range(problem.modes)]
    bonus_hits = None
    if problem.act_bonus is not None:
        mask = problem.bonus_mask.astype(np.int64).tolist()
        bonus_hits = [space.expect_exact(mask[m]) for m in range(problem.modes)]
    scale = [space.faces ** (space.dice - int(s)) for s in space.size]
    out = []
    for a in range(len(problem.act_keep)):
        keep = int(problem.act_keep[a])
        nxt = int(problem.act_next[a])
        num = per_mode[nxt][keep] * (top // scale[keep])
        if bonus_hits is not None:
            bonus = _int(problem.act_bonus[a])
            num += bonus * bonus_hits[nxt][keep] * (top // scale[keep]) * denominator
        out.append(num)
    return out


def _solve_policy(problem: StoppingProblem, policy: np.ndarray) -> tuple[int, list[list[int]]]:
    """Exact values of a fixed policy: one rational linear system over the acting states."""
    import flint

    space = problem.space
    modes, n_states = problem.live.shape
    acting = [(m, s) for m in range(modes) for s in range(n_states)
              if problem.live[m, s] and policy[m, s] != STOP]
    unknown = {ms: i for i, ms in enumerate(acting)}
    weights = space.roll_weights()
    first = int(space.full[0])
    n = len(acting)
    matrix = [[0] * n for _ in range(n)]
    rhs = [0] * n
    for i, (m, s) in enumerate(acting):
        a = int(policy[m, s])
        keep = int(problem.act_keep[a])
        nxt = int(problem.act_next[a])
        rolled = space.dice - int(space.size[keep])
        outcomes = space.levels[rolled]
        landed = space.index_many(space.counts[keep].astype(np.int64) + space.counts[outcomes])
        matrix[i][i] += space.faces**rolled
        bonus_total = 0
        for r_node, t_node in zip(outcomes.tolist(), landed.tolist(), strict=True):
            w = int(weights[r_node])
            t = t_node - first
            if (nxt, t) in unknown:
                matrix[i][unknown[(nxt, t)]] -= w
            elif problem.live[nxt, t]:
                rhs[i] += w * _int(problem.stop_value[nxt, t])
            else:
                rhs[i] += w * _int(problem.terminal_value[nxt, t])
            if problem.bonus_mask is not None and problem.bonus_mask[nxt, t]:
                bonus_total += w
        if problem.act_bonus is not None:
            rhs[i] += bonus_total * _int(problem.act_bonus[a])
    if n:
        solution = flint.fmpz_mat(matrix).solve(flint.fmpz_mat([[b] for b in rhs]))
        exact = [solution[i, 0] for i in range(n)]
    else:
        exact = []
    denominator = 1
    for x in exact:
        denominator = _lcm(denominator, int(x.q))
    numerators = []
    for m in range(modes):
        row = []
        for s in range(n_states):
            if (m, s) in unknown:
                x = exact[unknown[(m, s)]]
                row.append(int(x.p) * (denominator // int(x.q)))
            elif problem.live[m, s]:
                row.append(_int(problem.stop_value[m, s]) * denominator)
            else:
                row.append(_int(problem.terminal_value[m, s]) * denominator)
        numerators.append(row)
    return denominator, numerators


def _lcm(a: int, b: int) -> int:
    from math import gcd

    return a // gcd(a, b) * b


def certify(problem: StoppingProblem, policy: np.ndarray, max_steps: int = 50) -> Certificate:
    """Exact values of ``policy``, improved exactly until no action beats it."""
    policy = policy.copy()
    for step in range(max_steps):
        denominator, numerators = _solve_policy(problem, policy)
        better = _violations(problem, policy, denominator, numerators, strict_only=True)
        if not better:
            return Certificate(denominator, numerators, policy, improvements=step)
        for (m, s), action in better.items():
            policy[m, s] = action
    raise RuntimeError("exact policy improvement did not settle")


def _violations(problem, policy, denominator, numerators, strict_only: bool):
    """States where an alternative beats the policy: {(mode, state): best action or STOP}.

    With ``strict_only=False`` also reports states whose chosen action's value differs from
    the claimed value (an equation that does not hold) as ``(mode, state): None``."""
    space = problem.space
    top = space.faces**space.dice
    q = action_numerators(problem, numerators, denominator)
    out: dict[tuple[int, int], int | None] = {}
    best: dict[tuple[int, int], tuple[int, int]] = {}
    for a, num in enumerate(q):
        key = (int(problem.act_mode[a]), int(problem.act_state[a]))
        if key not in best or num > best[key][0]:
            best[key] = (num, a)
    modes, n_states = problem.live.shape
    for m in range(modes):
        for s in range(n_states):
            if not problem.live[m, s]:
                continue
            claimed = numerators[m][s] * top
            stop_ok = np.isfinite(problem.stop_value[m, s])
            stop = _int(problem.stop_value[m, s]) * denominator * top if stop_ok else None
            chosen = int(policy[m, s])
            if not strict_only:
                actual = stop if chosen == STOP else q[chosen]
                if actual is None or actual != claimed:
                    out[(m, s)] = None
                    continue
            if stop is not None and stop > claimed:
                out[(m, s)] = STOP
            elif (m, s) in best and best[(m, s)][0] > claimed:
                out[(m, s)] = best[(m, s)][1]
    return out


def verify(problem: StoppingProblem, certificate: Certificate) -> list[str]:
    """Check a certificate exactly; returns the problems found (empty when it proves
    optimality)."""
    errors = []
    modes, n_states = problem.live.shape
    if len(certificate.numerators) != modes or any(
        len(row) != n_states for row in certificate.numerators
    ):
        return ["certificate shape does not match the problem"]
    if certificate.denominator <= 0:
        return ["denominator must be positive"]
    for m in range(modes):
        for s in range(n_states):
            a = int(certificate.policy[m, s])
            if a != STOP and (
                not problem.live[m, s]
                or problem.act_mode[a] != m
                or problem.act_state[a] != s
            ):
                errors.append(f"state ({m}, {s}): action {a} is not one of its actions")
            if not problem.live[m, s]:
                expected = _int(problem.terminal_value[m, s]) * certificate.denominator
                if certificate.numerators[m][s] != expected:
                    errors.append(f"state ({m}, {s}): terminal value differs")
    if errors:
        return errors
    bad = _violations(problem, certificate.policy, certificate.denominator,
                      certificate.numerators, strict_only=False)
    for (m, s), action in sorted(bad.items()):
        if action is None:
            errors.append(f"state ({m}, {s}): the policy's equation does not hold")
        else:
            errors.append(f"state ({m}, {s}): action {action} beats the certified value")
    return errors
