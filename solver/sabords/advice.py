"""Answers for players: what to do with the dice showing, and what a card is worth.

These build the JSON documents the CLI prints (field names are a contract: ``best``,
``value``, ``options``; ``expected``, ``bust``, ``island``)."""

from __future__ import annotations

import numpy as np

from solver.engine import STOP
from solver.sabords.dice import format_dice, parse_dice
from solver.sabords.objective import Objective
from solver.sabords.rules import NO_LIMIT, Rules
from solver.sabords.solve import TurnSolution, action_table, solve_turn
from solver.util import InputError, normalise_name


def _mode(sol: TurnSolution, sorceress_used: bool, rerolled: bool) -> int:
    card = sol.model.card
    if card.skull_rerolls:
        return 1 if sorceress_used else 0
    if card.rerolls < NO_LIMIT:
        return min(int(rerolled), card.rerolls)
    return 0


def _protected(sol: TurnSolution, keep_counts: np.ndarray) -> str:
    """The dice to put on Treasure Island: the kept sub-multiset (skulls left out) whose bust
    payoff is best, the largest such on ties."""
    from solver.sabords.scoring import stop_outcomes

    model = sol.model
    ranges = [range(int(c) + 1) for c in keep_counts]
    ranges[model.skull] = range(1)
    subsets = np.array(np.meshgrid(*ranges, indexing="ij")).reshape(len(ranges), -1).T
    out = stop_outcomes(subsets, model.card, model.rules, chest=False)
    payoff = model.objective.payoff(out.own, out.opponents, out.win)
    best = np.lexsort((subsets.sum(axis=1), payoff))[-1]
    return format_dice(subsets[best], model.rules)


def advise(card: str, objective: Objective, rules: Rules, dice: str, *,
           sorceress_used: bool = False, rerolled: bool = False,
           use_cache: bool = True) -> dict:
    """Every option in the state the dice show, best first."""
    card = rules.card(card).name
    counts = np.array(parse_dice(dice, rules))
    sol = solve_turn(card, objective, rules, use_cache)
    model = sol.model
    space = model.space
    mode = _mode(sol, sorceress_used, rerolled)
    pos = int(space.index(counts) - space.full[0])
    skulls = int(counts[model.skull]) + model.card.extra_skulls
    if not model.problem.live[mode, pos]:
        after = "bust, or the Island of Skulls on a first roll" if skulls >= \
            rules.island_skulls and model.card.island else "bust"
        raise InputError(
            f"{dice} shows {skulls} skulls: the turn is already over ({after}), nothing to decide"
        )
    stop_value = float(model.problem.stop_value[mode, pos])
    options = [{
        "action": "stop",
        "keep": format_dice(counts, rules),
        "value": stop_value,
        "bust_next": 1.0 if model.stop_is_bust[mode, pos] else 0.0,
        "bust": 1.0 if model.stop_is_bust[mode, pos] else 0.0,
    }]
    for action, val, p_next, p_ever in action_table(sol, mode, pos):
        keep = space.counts[model.problem.act_keep[action]].astype(int)
        option = {
            "action": "reroll",
            "reroll": format_dice(counts - keep, rules),
            "keep": format_dice(keep, rules),
            "value": val,
            "bust_next": p_next,
            "bust": p_ever,
        }
        if model.card.protect:
            option["protect"] = _protected(sol, keep)
        options.append(option)
    chosen = int(sol.policy[mode, pos])
    best_index = 0 if chosen == STOP else next(
        i for i, o in enumerate(options) if o["action"] == "reroll" and o["keep"] == format_dice(
            space.counts[model.problem.act_keep[chosen]], rules))
    best = options[best_index]
    rest = sorted((o for i, o in enumerate(options) if i != best_index),
                  key=lambda o: (-o["value"], o["action"] != "stop", o.get("reroll", "")))
    ordered = [best, *rest]
    for o in ordered:
        for key in ("value", "bust_next", "bust"):
            o[key] = round(o[key], 10)
    best_doc = {"action": "stop"} if best["action"] == "stop" else {
        "action": "reroll", "reroll": best["reroll"]}
    if "protect" in best:
        best_doc["protect"] = best["protect"]
    return {
        "card": card,
        "dice": format_dice(counts, rules),
        "objective": objective.name,
        "variants": list(rules.variants),
        "sorceress_available": bool(model.card.skull_rerolls and mode == 0),
        "best": best_doc,
        "value": round(float(sol.value[mode, pos]), 10),
        "options": ordered,
    }


def card_values(card: str, objective: Objective, rules: Rules, use_cache: bool = True) -> dict:
    """The value of a turn before the first roll, for one card or the deck average."""
    if normalise_name(card) in ("deck", "stapel", "pioche"):
        card = "deck"
        weights = dict(rules.deck)
    else:
        card = rules.card(card).name
        weights = {card: 1}
    total = sum(weights.values())
    rows = []
    for name, weight in weights.items():
        sol = solve_turn(name, objective, rules, use_cache)
        rows.append({
            "card": name,
            "weight": weight,
            "expected": round(sol.start, 10),
            "bust": round(sol.p_bust, 10),
            "island": round(sol.p_island, 10),
            "chest": round(sol.p_chest, 10),
        })
    result = {
        "card": card,
        "objective": objective.name,
        "variants": list(rules.variants),
        "cards": rows,
    }
    for key in ("expected", "bust", "island", "chest"):
        result[key] = round(sum(r[key] * r["weight"] for r in rows) / total, 10)
    return result
