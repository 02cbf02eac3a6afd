"""Answers for players: what to do with the dice showing, and what a card is worth.

These build the JSON documents the CLI prints (field names are a contract: ``best``,
``value``, ``options``; ``expected``, ``bust``, ``island``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.engine import STOP
from solver.errors import InputError
from solver.names import normalise_name
from solver.sabords.dice import format_dice, parse_dice
from solver.sabords.objective import Objective
from solver.sabords.rules import NO_LIMIT, Card, Rules
from solver.sabords.turn.model import build_model
from solver.sabords.turn.solve import TurnSolution, action_table, solve_turn
from solver.text import table


def turn_mode(card: Card, sorceress_used: bool, rerolled: bool) -> int:
    """The turn's mode (see :mod:`solver.sabords.turn.model`) from what the player says was done."""
    if card.skull_rerolls:
        return 1 if sorceress_used else 0
    if card.rerolls < NO_LIMIT:
        return min(int(rerolled), card.rerolls)
    return 0


def protect_choices(sol: TurnSolution) -> np.ndarray:
    """For every node of the dice lattice, the node of the dice to put on Treasure Island
    when keeping it, for the turn's objective (see :func:`best_protect`)."""
    from solver.sabords.scoring import protected_outcomes

    model = sol.model
    counts = model.space.counts
    out = protected_outcomes(counts, model.card, model.rules)
    payoff = np.broadcast_to(np.asarray(model.objective.payoff(out.own, out.opponents, out.win),
                                        dtype=np.float64), (len(counts),))
    return best_protect(model.space, model.skull, payoff)


def best_protect(space, skull: int, payoff: np.ndarray) -> np.ndarray:
    """For every node ``K`` of the dice lattice, the node of the dice to put on Treasure Island
    when keeping ``K``: the sub-multiset of ``K`` without skulls whose bust ``payoff`` (one per
    node) is best, the largest on ties, then the first in face order. Nodes are ranked in that
    order and one max walk up the lattice
    (:meth:`~solver.engine.multiset.DiceSpace.best_below`) finds each node's best-ranked
    sub-multiset, instead of enumerating them for every keep."""
    counts = space.counts
    payoff = np.where(counts[:, skull] > 0, -np.inf, payoff)
    faces = [counts[:, f] for f in reversed(range(counts.shape[1]))]
    order = np.lexsort([*faces, counts.sum(axis=1), payoff])
    rank = np.empty(len(order), dtype=np.float64)
    rank[order] = np.arange(len(order))
    return order[space.best_below(rank).astype(np.int64)]


def protect_text(sol: TurnSolution, choices: np.ndarray, keep_counts: np.ndarray) -> str:
    """The dice to put on Treasure Island when keeping ``keep_counts`` (see protect_choices)."""
    space = sol.model.space
    return format_dice(space.counts[choices[space.index(keep_counts)]], sol.model.rules)


def advise(card: str, objective: Objective, rules: Rules, dice: str, *,
           sorceress_used: bool = False, rerolled: bool = False,
           use_cache: bool = True) -> dict:
    """Every option in the state the dice show, best first."""
    card = rules.card(card).name
    counts = np.array(parse_dice(dice, rules))
    the_card = rules.card(card)
    _check_flags(the_card, sorceress_used, rerolled)
    check_reachable(card, objective, rules)
    sol = solve_turn(card, objective, rules, use_cache)
    model = sol.model
    space = model.space
    mode = turn_mode(model.card, sorceress_used, rerolled)
    pos = int(space.index(counts) - space.full[0])
    if model.first_island[pos]:
        return island_advice(model, counts, pos)
    if not model.problem.live[mode, pos]:
        raise InputError(f"{format_dice(counts, rules)}: {_skulls_text(counts, model)}: "
                         f"{bust_text(model, counts)}")
    stop_value = float(model.problem.stop_value[mode, pos])
    options = [{
        "action": "stop",
        "keep": format_dice(counts, rules),
        "value": stop_value,
        "bust_next": 1.0 if model.stop_is_bust[mode, pos] else 0.0,
        "bust": 1.0 if model.stop_is_bust[mode, pos] else 0.0,
    }]
    choices = protect_choices(sol) if model.card.protect else None
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
            option["protect"] = protect_text(sol, choices, keep)
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


def _check_flags(card: Card, sorceress_used: bool, rerolled: bool) -> None:
    """Reject a state flag the card gives no meaning to."""
    if sorceress_used and not card.skull_rerolls:
        raise InputError(f"--sorceress-used means nothing with the {card.name} card: only the "
                         "Sorceress has a skull reroll")
    if rerolled and card.rerolls >= NO_LIMIT:
        raise InputError(f"--rerolled means nothing with the {card.name} card: only a card "
                         "that limits rerolls (after-the-storm) counts them")


def check_reachable(card: str, objective: Objective, rules: Rules) -> None:
    """Reject ``reach:T`` with a target no turn under this card can reach, before solving
    (and caching) a turn whose every value would be 0."""
    if objective.kind == "reach":
        _check_reachable(build_model(rules.card(card), rules, objective), objective)


def _check_reachable(model, objective: Objective) -> None:
    """Reject ``reach:T`` with a target no turn under this card can reach."""
    if objective.kind != "reach" or model.stops.win.any():
        return
    best = int(max(model.stops.own.max(), model.busts.own.max()))
    if objective.target > best:
        raise InputError(f"reach:{objective.target} cannot be reached with the "
                         f"{model.card.name} card: a turn scores at most {best}")


def _skulls_text(counts: np.ndarray, model) -> str:
    """How many skulls the dice and the card show, e.g. ``2 skulls on the dice and 1 on the
    skulls-1 card (3 in all)``."""
    on_dice = int(counts[model.skull])
    on_card = model.card.extra_skulls
    if not on_card:
        return f"{on_dice} skulls on the dice"
    return (f"{on_dice} skulls on the dice and {on_card} on the {model.card.name} card "
            f"({on_dice + on_card} in all)")


def bust_text(model, counts: np.ndarray) -> str:
    """What a bust showing ``counts`` means for the player: the turn is lost, and what it
    costs (the sea battle's penalty, the Truce's sabres, each opponent's loss), from the
    scoring rules; with enough skulls for the Island on a card without one, why not."""
    from solver.sabords.scoring import bust_outcomes, first_roll_lost

    card, rules = model.card, model.rules
    out = bust_outcomes(counts, card, rules)
    own, opponents = int(out.own[0]), int(out.opponents[0])
    why = ""
    if not card.island and int(counts[model.skull]) >= rules.island_skulls:
        why = f" (no Island of Skulls with the {card.name} card)"
    cost = f"it costs you {-own} points" if own < 0 else "it scores nothing"
    if opponents:
        cost += f" and each opponent loses {opponents}"
    if first_roll_lost(int(counts[model.skull]), card, rules) and cost != "it scores nothing":
        cost = f"on a first roll it costs nothing under this reading; after a reroll {cost}"
    return f"the turn is bust and lost{why}: {cost}"


def island_advice(model, counts: np.ndarray, pos: int) -> dict:
    """The dice show an Island of Skulls roll (a first roll, or a roll on the Island; after a
    reroll outside the Island the same dice are a bust): the turn goes on, every roll must add
    a skull, and each opponent loses points per skull. Under the default reading every
    non-skull die is rolled (nothing to choose); under ``island-choose-dice`` the advice names
    which."""
    from solver.sabords.scoring import island_choice, island_count, island_distribution

    rules, card = model.rules, model.card
    on_dice = int(counts[model.skull])
    dist = island_distribution(on_dice, card, rules)
    loss = sum(float(p) * loss for loss, p in dist.items())
    others = counts.copy()
    others[model.skull] = 0
    left = int(others.sum())
    rolled = left
    if rules.island_reroll == "choose":
        rolled = island_choice(left, card.island_rerolls, len(rules.faces))[1]
    reroll = _pick_dice(others, rolled, rules)
    best = {"action": "island", "reroll": reroll,
            "choose": rules.island_reroll == "choose"}
    return {
        "card": card.name,
        "dice": format_dice(counts, rules),
        "objective": model.objective.name,
        "variants": list(rules.variants),
        "island": True,
        "skulls": island_count(on_dice, card, rules),
        "best": best,
        "value": round(float(model.island_value[pos]), 10),
        "opponents_loss": round(loss, 10),
        "loss_distribution": {str(k): round(float(p), 10) for k, p in dist.items()},
        "options": [],
    }


def island_text(advice: dict) -> str:
    """An Island of Skulls answer for people."""
    best = advice["best"]
    head = f"{advice['card']}, {advice['dice']}: ISLAND OF SKULLS ({advice['skulls']} skulls)"
    lost = (f"you score nothing, and each opponent loses {advice['opponents_loss']:.2f} points "
            f"on average (value {advice['value']:.2f}, objective {advice['objective']})")
    if not best["reroll"]:
        lines = [f"{head}: no die is left to roll, the turn ends at once", lost]
    else:
        how = (f"roll {best['reroll']} (the best choice under island-choose-dice)"
               if best["choose"] else f"roll every non-skull die ({best['reroll']}): nothing "
               "to choose under the default reading")
        lines = [f"{head}: the turn goes on; {how}",
                 f"each roll must add a skull or the turn ends; {lost}"]
    lines.append(f"(on a roll after the first these dice are a bust: {advice['skulls']} skulls)")
    rows = [[loss, f"{p:.4f}"] for loss, p in advice["loss_distribution"].items()]
    lines.append(table(["loss", "probability"], rows, "rr", rule=False).rstrip("\n"))
    return "\n".join(lines)


def _pick_dice(others: np.ndarray, count: int, rules: Rules) -> str:
    """``count`` of the non-skull dice to roll on the Island: sabres first (under Truce the
    sabres showing at the end void the opponents' losses), then in face order."""
    order = [rules.face(rules.sabre)] + [i for i in range(len(rules.faces))
                                         if i != rules.face(rules.sabre)]
    picked = np.zeros_like(others)
    for face in order:
        take = min(int(others[face]), count - int(picked.sum()))
        picked[face] = take
    return format_dice(picked, rules)


def card_values(card: str, objective: Objective, rules: Rules, use_cache: bool = True,
                progress: Callable[[str], None] | None = None) -> dict:
    """The value of a turn before the first roll, for one card or the deck average.
    ``progress``, if given, is told which card's turn is being solved (for a status line)."""
    if normalise_name(card) in ("deck", "stapel", "pioche"):
        card = "deck"
        weights = dict(rules.deck)
    else:
        card = rules.card(card).name
        weights = {card: 1}
    total = sum(weights.values())
    rows = []
    unreachable = []
    for number, (name, weight) in enumerate(weights.items(), 1):
        if progress:
            progress(f"solving the {name} turn ({number} of {len(weights)}), "
                     f"objective {objective.name}")
        sol = solve_turn(name, objective, rules, use_cache)
        try:
            _check_reachable(sol.model, objective)
        except InputError as err:
            unreachable.append(err)
        rows.append({
            "card": name,
            "weight": weight,
            "expected": round(sol.start, 10),
            "bust": round(sol.p_bust, 10),
            "island": round(sol.p_island, 10),
            "chest": round(sol.p_chest, 10),
        })
    if len(unreachable) == len(weights):
        raise unreachable[0] if len(weights) == 1 else InputError(
            f"reach:{objective.target} cannot be reached with any card of the deck")
    result = {
        "card": card,
        "objective": objective.name,
        "variants": list(rules.variants),
        "cards": rows,
    }
    for key in ("expected", "bust", "island", "chest"):
        result[key] = round(sum(r[key] * r["weight"] for r in rows) / total, 10)
    return result
