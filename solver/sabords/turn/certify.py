"""Exact optimality certificates for Mille Sabords turns (``points`` objective).

``write_certificate`` solves a card, certifies the policy in exact rationals and writes
``proofs/sabords/<card>.json``: for every (mode, dice) state the action (stop, or the dice to
reroll) and the value's numerator over one common denominator, plus the turn's exact expected
value. ``check_certificate`` rebuilds the problem from the rules files alone and re-verifies
every equation and inequality with integers (:func:`solver.engine.certificate.verify`).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np

from solver.engine import STOP
from solver.engine.certificate import Certificate, certify, verify
from solver.io import atomic_write_text
from solver.paths import PROOFS_DIR
from solver.sabords.dice import format_dice, parse_dice
from solver.sabords.objective import Objective
from solver.sabords.rules import Rules
from solver.sabords.scoring import island_distribution
from solver.sabords.turn.model import TurnModel, build_model
from solver.sabords.turn.solve import solve_turn

POINTS = Objective("points")


def exact_start_value(model: TurnModel, cert: Certificate) -> Fraction:
    """The turn's exact expected payoff before the first roll, from certified state values."""
    space = model.space
    weights = space.roll_weights()[space.full]
    skull = model.skull
    total = Fraction(0)
    for pos, w in enumerate(weights.tolist()):
        if model.first_island[pos]:
            dice_skulls = int(space.counts[space.full[pos], skull])
            dist = island_distribution(dice_skulls, model.card, model.rules)
            landing = sum(p * int(model.objective.payoff(0, loss, False)) for loss, p in
                          dist.items())
        elif model.first_lost[pos]:
            landing = Fraction(int(model.objective.payoff(0, 0, False)))
        else:
            landing = Fraction(cert.numerators[0][pos], cert.denominator)
        total += w * landing
    return total / space.faces**space.dice


def action_text(model: TurnModel, action: int, position: int) -> str:
    """``stop`` or ``reroll:<letters>`` (the dice rerolled, skulls included)."""
    if action == STOP:
        return "stop"
    space = model.space
    state = space.counts[space.full[position]].astype(int)
    keep = space.counts[model.problem.act_keep[action]].astype(int)
    return "reroll:" + format_dice(state - keep, model.rules)


def certificate_document(card: str, rules: Rules, objective: Objective = POINTS) -> dict:
    """Solve, certify exactly and describe the certificate as JSON-ready data."""
    solution = solve_turn(card, objective, rules)
    model = solution.model
    cert = certify(model.problem, solution.policy)
    space = model.space
    states = []
    for mode in range(model.problem.modes):
        for pos in range(len(space.full)):
            if not model.problem.live[mode, pos]:
                continue
            dice = format_dice(space.counts[space.full[pos]], rules)
            action = action_text(model, int(cert.policy[mode, pos]), pos)
            states.append([mode, dice, action, str(cert.numerators[mode][pos])])
    start = exact_start_value(model, cert)
    return {
        "game": "sabords",
        "card": card,
        "objective": objective.name,
        "rules": rules.key(),
        "modes": model.problem.modes,
        "denominator": str(cert.denominator),
        "start_value": f"{start.numerator}/{start.denominator}",
        "start_value_float": f"{float(start):.6f}",
        "exact_improvements": cert.improvements,
        "states": states,
    }


def certificate_path(card: str, rules: Rules, proofs_dir: Path = PROOFS_DIR,
                     objective: Objective = POINTS) -> Path:
    parts = [] if objective == POINTS else [objective.name.replace(":", "")]
    if rules.variants or rules.dice != 8:
        parts += [f"{rules.dice}dice", *rules.variants]
    suffix = "".join("-" + p for p in parts)
    return proofs_dir / "sabords" / f"{card}{suffix}.json"


def write_certificate(card: str, rules: Rules, proofs_dir: Path = PROOFS_DIR,
                      objective: Objective = POINTS) -> Path:
    doc = certificate_document(card, rules, objective)
    path = certificate_path(card, rules, proofs_dir, objective)
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    text = text.replace('"states":[[', '"states":[\n[').replace("],[", "],\n[") + "\n"
    atomic_write_text(path, text)
    return path


def check_document(doc: dict, rules: Rules, same_rules: bool = True) -> list[str]:
    """Re-verify a certificate against the rules; returns the problems found.

    With ``same_rules=False`` the certificate's policy and values are checked under other
    rules (a variant): an empty answer proves the variant changes no optimal value."""
    from solver.sabords.objective import parse_objective

    objective = parse_objective(doc.get("objective", ""))
    if same_rules and doc.get("rules") != rules.key():
        return ["the certificate was made under other rules (rules file or variants changed)"]
    model = build_model(rules.card(doc["card"]), rules, objective)
    problem = model.problem
    space = model.space
    denominator = int(doc["denominator"])
    numerators = [[0] * len(space.full) for _ in range(problem.modes)]
    policy = np.full(problem.live.shape, STOP, dtype=np.int64)
    for mode in range(problem.modes):
        for pos in range(len(space.full)):
            if not problem.live[mode, pos]:
                numerators[mode][pos] = int(problem.terminal_value[mode, pos]) * denominator
    seen = set()
    errors = []
    for mode, dice, action, numerator in doc["states"]:
        counts = np.array(parse_dice(dice, rules))
        pos = int(space.index(counts) - space.full[0])
        seen.add((mode, pos))
        numerators[mode][pos] = int(numerator)
        if action == "stop":
            continue
        letters = action.split(":", 1)[1]
        rerolled = np.array(parse_dice(letters, rules, len(letters)))
        keep = space.index(counts - rerolled)
        match = np.flatnonzero((problem.act_mode == mode) & (problem.act_state == pos)
                               & (problem.act_keep == keep))
        if len(match) != 1:
            errors.append(f"state {mode}/{dice}: {action} is not a legal action")
            continue
        policy[mode, pos] = int(match[0])
    missing = int(problem.live.sum()) - len(seen)
    if missing:
        errors.append(f"{missing} live states have no entry")
    if errors:
        return errors
    cert = Certificate(denominator, numerators, policy)
    errors = verify(problem, cert)
    if errors:
        return errors
    start = exact_start_value(model, cert)
    if f"{start.numerator}/{start.denominator}" != doc["start_value"]:
        errors.append("the stated start value does not follow from the state values")
    return errors


def rules_of(doc: dict) -> Rules:
    """The rules a certificate claims to be made under (dice count and variants)."""
    from solver.sabords.rules import load_rules

    return load_rules(doc["rules"]["variants"]).with_dice(int(doc["rules"]["dice"]))


def check_certificate(path: Path) -> list[str]:
    """Re-verify a certificate file under the rules it names (and the current rules file)."""
    try:
        with open(path, encoding="utf-8") as handle:
            doc = json.load(handle)
        return check_document(doc, rules_of(doc))
    except (OSError, ValueError, KeyError, TypeError) as err:
        return [f"unreadable certificate {path.name}: {err}"]
