"""Answers that read the scoreboard: the chance to win from a position, and what to hold.

The game table keeps one value per state; a question about a turn solves that one turn again,
with the table's values as its payoffs (the engine's stopping problem in NumPy: no compilation,
a few tens of milliseconds). The JSON fields are a contract: ``win`` for a position; ``best``,
``value`` (now P(win)), ``options`` and ``points_best`` for a hold.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from solver.engine import solve
from solver.errors import InputError
from solver.sabords.dice import format_dice, parse_dice
from solver.sabords.game.two_player import GameSpec, GameTable
from solver.sabords.objective import Objective
from solver.sabords.turn.advice import advise, best_protect, turn_mode
from solver.sabords.turn.lanes import UNIT, card_turn


def phase_of(spec: GameSpec, me: int, opponent: int, sudden_death: bool) -> str:
    """The phase a position is in, or a one-line error for one that cannot happen."""
    target = spec.target
    for what, score in (("my score", me), ("the opponent's score", opponent)):
        if abs(score) > 100 * target:
            raise InputError(f"{what} {score} is not a score this game reaches")
        if score % UNIT:
            raise InputError(f"{what} {score} is not a multiple of {UNIT}")
        if score < spec.low:  # the table would answer for the lowest score instead
            why = ("no score goes below zero under score-floor-zero"
                   if spec.rules.score_floor == "zero" else
                   f"the solved game keeps scores down to {spec.low}")
            raise InputError(f"{what} {score} is below the lowest score: {why}")
    if me >= target:
        raise InputError(f"my score {me} is at or above the target {target}: the turn would "
                         "be the other player's (the last round gives it to them)")
    if opponent >= target:
        if sudden_death:
            raise InputError("sudden death comes after the trigger player dropped below the "
                             f"target; the opponent's {opponent} is at or above it")
        return "last"
    if sudden_death and spec.rules.endgame != "race-wins-at-once":
        raise InputError("there is no sudden death under endgame-new-final-round: a drop "
                         "below the target goes back to normal play")
    return "sudden-death" if sudden_death else "normal"


def _payoffs(table: GameTable, phase: str, me: int, opponent: int, own, loss, win):
    a, b = np.array([me // UNIT]), np.array([opponent // UNIT])  # checked by phase_of
    pay = {"normal": table.pay_normal, "last": table.pay_last, "sudden-death": table.pay_sudden}
    return pay[phase](a, b, own, loss, win)[0]


# Turns solved at a position, kept by a long-lived process (the web server): within a turn the
# dice change with each roll while the position stays, and each solve takes tens of ms. About
# 1 MB each (the solution's value of every action).
TURNS_AT_POSITIONS = 32
_turns: OrderedDict[tuple, tuple] = OrderedDict()
_turns_lock = threading.Lock()


def card_turn_values(table: GameTable, card: str, me: int, opponent: int, phase: str):
    """The card's turn at this position: (outcome map, payoffs per outcome, solution), read
    only. The last :data:`TURNS_AT_POSITIONS` are kept, each for the very table it was solved
    from (the entry holds it, so its identity is not reused)."""
    card = table.spec.rules.card(card).name
    key = (id(table), card, me, opponent, phase)
    with _turns_lock:
        kept = _turns.get(key)
        if kept is not None and kept[0] is table:
            _turns.move_to_end(key)
            return kept[1]
    om, pay, sol = card_turn_by_payoffs(
        table.spec.rules, card,
        lambda own, loss, win: _payoffs(table, phase, me, opponent, own, loss, win))
    for array in (pay, sol.value, sol.policy, sol.action_value):
        array.flags.writeable = False  # shared by every later answer at this position
    with _turns_lock:
        _turns[key] = (table, (om, pay, sol))
        while len(_turns) > TURNS_AT_POSITIONS:
            _turns.popitem(last=False)
    return om, pay, sol


def card_turn_by_payoffs(rules, card: str, pay_of):
    """The card's turn with ``pay_of(own, loss, win)`` the mover's payoff of each outcome of
    the card's own outcome table: (outcome map, payoffs, solution)."""
    om, own, loss, win = card_turn(rules.card(card).name, rules)
    pay = pay_of(own, loss, win)
    return om, pay, solve(om.explicit(pay))


def position(table: GameTable, me: int, opponent: int, phase: str,
             card: str | None = None) -> dict:
    """P(win) + 1/2 P(tie) before the card is drawn, or once ``card`` is drawn."""
    if card is None:
        value = table.win(me, opponent, phase)
    else:
        om, pay, sol = card_turn_values(table, card, me, opponent, phase)
        value = om.first_roll_value(sol.value, pay)
    return {"me": me, "opponent": opponent, "phase": phase, "target": table.spec.target,
            "card": card, "win": value}


def game_hold(table: GameTable, card: str, me: int, opponent: int, phase: str, dice: str, *,
              sorceress_used: bool = False, rerolled: bool = False,
              points: dict | None = None) -> dict:
    """Every option for the dice showing, valued by P(win) + 1/2 P(tie), best first; and the
    option that maximises the turn's expected points (``points_best``; ``points``: the
    points advice for these dice when the caller has it already)."""
    return hold_by_payoffs(
        table.spec.rules, card, dice,
        lambda own, loss, win: _payoffs(table, phase, me, opponent, own, loss, win),
        {"me": me, "opponent": opponent, "phase": phase},
        sorceress_used=sorceress_used, rerolled=rerolled,
        turn=lambda: card_turn_values(table, card, me, opponent, phase), points=points)


def hold_by_payoffs(rules, card: str, dice: str, pay_of, position: dict, *,
                    sorceress_used: bool = False, rerolled: bool = False,
                    turn: Callable[[], tuple] | None = None,
                    points: dict | None = None) -> dict:
    """:func:`game_hold` for any scoreboard: ``pay_of(own, loss, win)`` gives the mover's
    P(win) after each outcome of the card's outcome table, ``position`` the fields that
    describe the position in the answer; ``turn()``, when given, is the turn solved with
    those payoffs (kept by the caller), called once the dice are checked; ``points``, when
    given, is :func:`advise`'s points answer for these dice (which checks them)."""
    card = rules.card(card).name
    if points is None:
        points = advise(card, Objective("points"), rules, dice,
                        sorceress_used=sorceress_used, rerolled=rerolled)
    om, pay, sol = card_turn_by_payoffs(rules, card, pay_of) if turn is None else turn()
    counts = np.array(parse_dice(dice, rules))
    space = om.problem.space
    pos = int(space.index(counts) - space.full[0])
    head = {"card": card, "dice": format_dice(counts, rules), **position, "objective": "win"}
    if "island" in points:  # the Island of Skulls: nothing is chosen under the default reading
        value = sum(q * pay[o] for o, q in om.first_rows[pos].items())
        return {**points, **head, "value": float(value), "points_best": points.get("best")}
    mode = turn_mode(rules.card(card), sorceress_used, rerolled)
    problem = om.problem
    options = [{"action": "stop", "keep": format_dice(counts, rules),
                "value": float(pay[om.stop_out[mode, pos]])}]
    rows = np.flatnonzero((problem.act_mode == mode) & (problem.act_state == pos))
    # Treasure Island: the dice to protect are the kept ones whose bust pays best, here in P(win)
    chest = None if om.protect_out is None else best_protect(
        space, rules.face(rules.skull), pay[om.protect_out])
    for a in rows:
        keep = space.counts[problem.act_keep[a]].astype(int)
        option = {"action": "reroll", "reroll": format_dice(counts - keep, rules),
                  "keep": format_dice(keep, rules), "value": float(sol.action_value[a])}
        if chest is not None:
            option["protect"] = format_dice(space.counts[chest[problem.act_keep[a]]], rules)
        options.append(option)
    order = sorted(range(len(options)), key=lambda i: -options[i]["value"])
    options = [options[i] for i in order]  # stable: ties keep stop, then the larger keep, first
    best = options[0]
    points_best = dict(points["best"])
    match = [o for o in options if o["action"] == points_best["action"]
             and o.get("reroll") == points_best.get("reroll")]
    points_best["win"] = match[0]["value"]
    # the points-optimal option costs P(win) only if it is worse by more than rounding
    differs = best["value"] - points_best["win"] > 1e-12
    return {**head, "best": best, "value": best["value"], "options": options,
            "points_best": points_best, "points_differs": differs}
