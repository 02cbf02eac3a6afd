"""Where three-player play departs from points play and from the two-player answer.

For every normal-play position of a solved three-player table, every card and every first roll
that leaves a choice, the mover's turn is solved three ways on the same turn model: for the
exact table's P(win) (each outcome worth what the table says it is worth to the mover), for
points (the turn that maximises its expected points, points play's turn), and as the four- and
five-player rule reads the position (the two-player table at my score against the best other
score). Each way's first choice is then valued by the exact table: a way *departs* where its
choice is worth less to the mover than the exact one's by more than rounding (1e-12). The
positions where the exact answer departs from both, the costliest first (one roll for each
position and card), are the ones a player can remember; the shares say how often it happens,
each decision weighted by its card's and its roll's probability (and every position counted
once).
"""

from __future__ import annotations

import numpy as np

from solver.engine.stopping import STOP
from solver.sabords.dice import format_dice
from solver.sabords.game.advice import card_turn_by_payoffs, card_turn_values
from solver.sabords.game.table.positions import mover_payoffs, rule_hold_position
from solver.sabords.game.table.solution import TableSolution
from solver.sabords.game.table.states import NORMAL
from solver.sabords.game.two_player import GameTable
from solver.sabords.objective import Objective
from solver.sabords.turn.lanes import UNIT
from solver.sabords.turn.solve import solve_turn

CHANGED = 1e-12  # a choice worth less than the exact one's by more than this departs from it
EXAMPLES = 8


def departures(solution: TableSolution, two: GameTable, examples: int = EXAMPLES) -> dict:
    """The decisions where the exact three-player turn departs from points play, from the
    rule's (``two``: the two-player table at the same target and readings) and from both,
    and the costliest of those that depart from both (for ``examples`` positions and cards)."""
    layout = solution.layout
    rules = solution.spec.rules
    deck = layout.deck
    share = {"points": 0.0, "rule": 0.0, "both": 0.0}
    count = dict.fromkeys(share, 0)
    decisions, found = 0, []
    positions = layout.scores(NORMAL)
    for units in positions.tolist():
        two_phase, me, leader = rule_hold_position(layout, NORMAL, units)
        for card, weight in zip(deck.cards, deck.weights, strict=True):
            om, pay, exact = card_turn_by_payoffs(
                rules, card, lambda own, loss, win, u=units: mover_payoffs(
                    solution, NORMAL, u, own, loss, win))
            _, _, rule = card_turn_values(two, card, me, leader, two_phase)
            points = solve_turn(card, Objective("points"), rules).policy
            problem = om.problem
            space = problem.space
            ids, probs = space.roll_probabilities(space.dice)

            def worth(choice: int, pos: int, om=om, pay=pay, exact=exact) -> float:
                """The exact table's value of a first choice."""
                if choice == STOP:
                    return float(pay[om.stop_out[0, pos]])
                return float(exact.action_value[choice])

            for node, p in zip(ids.tolist(), probs.tolist(), strict=True):
                pos = node - int(space.full[0])
                if om.first_rows[pos] or not problem.live[0, pos]:
                    continue  # the first roll ends the turn or leaves nothing to choose
                decisions += 1
                best = int(exact.policy[0, pos])
                top = worth(best, pos)
                loss = {"points": top - worth(int(points[0, pos]), pos),
                        "rule": top - worth(int(rule.policy[0, pos]), pos)}
                off = {k: v > CHANGED for k, v in loss.items()}
                off["both"] = off["points"] and off["rule"]
                for key, hit in off.items():
                    if hit:
                        count[key] += 1
                        share[key] += float(weight) * p / len(positions)
                if off["both"]:
                    dice = space.counts[node]
                    found.append({
                        "scores": [u * UNIT for u in units], "card": card,
                        "dice": format_dice(dice, rules),
                        "best": _choice(problem, best, dice, rules),
                        "points": _choice(problem, int(points[0, pos]), dice, rules),
                        "rule": _choice(problem, int(rule.policy[0, pos]), dice, rules),
                        "win": top, "points_cost": loss["points"], "rule_cost": loss["rule"],
                        "chance": float(weight) * p})
    found.sort(key=lambda d: (-min(d["points_cost"], d["rule_cost"]), d["scores"], d["card"],
                              d["dice"]))
    seen, listed = set(), []
    for d in found:  # the costliest roll of each position and card: different positions
        key = (tuple(d["scores"]), d["card"])
        if key not in seen:
            seen.add(key)
            listed.append(d)
    return {"decisions": decisions, "departs": count, "share": share,
            "examples": listed[:examples]}


def _choice(problem, choice: int, dice: np.ndarray, rules) -> str:
    """A first choice in words: stop, or the dice rerolled."""
    if choice == STOP:
        return "stop"
    keep = problem.space.counts[problem.act_keep[choice]]
    return f"reroll {format_dice(dice - keep, rules)}"
