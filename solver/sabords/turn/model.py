"""A Mille Sabords turn under one card, as a :class:`~solver.engine.StoppingProblem`.

States are the dice showing (a multiset of the eight dice, skulls included) and a *mode*: the
Sorceress still unused (0) or used (1), the number of rerolls made under After the Storm, or
(a sea battle under ``battle_sabres_shown = "any-roll"``) whether the card's sabres showed on
a roll before the dice showing (1) or not (0): a reroll from dice that show them continues in
mode 1.
The dice engine does the rest; this module only says which states are live, what stopping and
busting are worth, and which keeps the rules allow.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.engine import DiceSpace, StoppingProblem
from solver.engine.keeps import KeepRule, expand
from solver.sabords.objective import Objective
from solver.sabords.rules import NO_LIMIT, Card, Rules
from solver.sabords.scoring import (
    Outcomes,
    bust_outcomes,
    first_roll_lost,
    goes_to_island,
    island_distribution,
    protected_outcomes,
    stop_outcomes,
)


@dataclass
class TurnModel:
    """The problem plus what the first roll needs (the Island of Skulls is first-roll only)."""

    card: Card
    rules: Rules
    objective: Objective
    space: DiceSpace
    problem: StoppingProblem
    stops: Outcomes  # (modes, F): scoring each full state if the player stops there
    busts: Outcomes  # (modes, F): how a bust showing each full state ends
    first_island: np.ndarray  # (F,) bool: this first roll goes to the Island
    island_value: np.ndarray  # (F,) expected payoff of the Island from this first roll
    protect_payoff: np.ndarray | None  # per node: best payoff of protecting part of it
    stop_is_bust: np.ndarray  # (modes, F): live, but stopping means accepting a bust
    first_lost: np.ndarray  # (F,) bool: this first roll ends the turn with nothing (no Island)

    @property
    def skull(self) -> int:
        return self.rules.face(self.rules.skull)

    def first_roll_landing(self, values: np.ndarray) -> np.ndarray:
        """Payoff of each possible first roll, given mode-0 state values (live or terminal)."""
        lost = float(self.objective.payoff(0, 0, False))
        return np.where(self.first_island, self.island_value,
                        np.where(self.first_lost, lost, values))


def _remembers_sabres(card: Card, rules: Rules) -> bool:
    """Does the turn remember whether the card's sabres have shown (a sea battle won on any
    roll)?"""
    return bool(card.battle_sabres) and rules.battle_sabres_shown == "any-roll"


def _mode_count(card: Card, rules: Rules) -> int:
    kinds = [bool(card.skull_rerolls), card.rerolls < NO_LIMIT, _remembers_sabres(card, rules)]
    if sum(kinds) > 1:
        raise ValueError(f"card {card.name}: the turn model has one kind of mode per card")
    if card.skull_rerolls:
        return 2
    if card.rerolls < NO_LIMIT:
        return card.rerolls + 1
    if kinds[2]:
        return 2
    return 1


def _per_mode(score, counts: np.ndarray, card: Card, rules: Rules, modes: int) -> Outcomes:
    """``score`` (stop or bust outcomes) for every mode: in mode 1 of a turn that remembers
    the sabres, they have shown before."""
    rows = [score(counts, card, rules, shown=_remembers_sabres(card, rules) and mode == 1)
            for mode in range(modes)]
    return Outcomes(*(np.stack([getattr(r, f) for r in rows])
                      for f in ("own", "opponents", "win", "chest")))


def end_outcomes(card: Card, rules: Rules) -> tuple[Outcomes, Outcomes]:
    """What stopping, and busting, on each full dice state scores, per mode (``(modes, F)``):
    the turn's outcomes without its stopping problem (cheap: no keeps)."""
    space = DiceSpace.of(len(rules.faces), rules.dice)
    full_counts = space.counts[space.full].astype(np.int64)
    modes = _mode_count(card, rules)
    return (_per_mode(stop_outcomes, full_counts, card, rules, modes),
            _per_mode(bust_outcomes, full_counts, card, rules, modes))


def build_model(card: Card, rules: Rules, objective: Objective) -> TurnModel:
    """Build the turn's stopping problem (payoffs under ``objective``)."""
    space = DiceSpace.of(len(rules.faces), rules.dice)
    full_counts = space.counts[space.full].astype(np.int64)
    skull = rules.face(rules.skull)
    modes = _mode_count(card, rules)
    skulls_total = full_counts[:, skull] + card.extra_skulls

    stops, busts = end_outcomes(card, rules)
    stop_pay = objective.payoff(stops.own, stops.opponents, stops.win).astype(np.float64)
    bust_pay = objective.payoff(busts.own, busts.opponents, busts.win).astype(np.float64)

    live = np.zeros((modes, len(space.full)), dtype=bool)
    stop_is_bust = np.zeros_like(live)
    for mode in range(modes):
        live[mode] = skulls_total < rules.bust_skulls
        if rules.sorceress_saves_bust and card.skull_rerolls and mode == 0:
            stop_is_bust[mode] = skulls_total == rules.bust_skulls
    live |= stop_is_bust
    stop_value = np.where(stop_is_bust, bust_pay, stop_pay)
    terminal_value = bust_pay

    keeps = keep_rules(card, rules, modes)
    act_mode, act_state, act_keep, act_next = expand(space, live, keeps)
    act_bonus = bonus_mask = protect = None
    if card.protect:
        protect = _protect_payoffs(space, card, rules, objective)
        base = objective.payoff(0, 0, False)
        act_bonus = protect[act_keep] - float(base)
        bonus_mask = ~live
    problem = StoppingProblem(
        space=space,
        live=live,
        stop_value=stop_value,
        terminal_value=terminal_value,
        act_mode=act_mode,
        act_state=act_state,
        act_keep=act_keep,
        act_next=act_next,
        act_bonus=act_bonus,
        bonus_mask=bonus_mask,
        keep_rules=keeps,
    )
    first_island = np.array([goes_to_island(int(c), card, rules) for c in full_counts[:, skull]])
    island_value = np.zeros(len(space.full))
    for pos in np.flatnonzero(first_island):
        dist = island_distribution(int(full_counts[pos, skull]), card, rules)
        island_value[pos] = sum(
            float(p) * float(objective.payoff(0, loss, False)) for loss, p in dist.items()
        )
    first_lost = np.array([first_roll_lost(int(c), card, rules) for c in full_counts[:, skull]])
    return TurnModel(card, rules, objective, space, problem, stops, busts, first_island,
                     island_value, protect, stop_is_bust, first_lost)


def keep_rules(card: Card, rules: Rules, modes: int) -> tuple[KeepRule, ...]:
    """Which dice a reroll may keep, per mode: any non-skull dice rolled (at least
    ``min_reroll``, keeping at least ``min_keep``, which must be non-skull dice unless
    ``min_keep_counts_skulls``; one fewer under ``card_counts_as_kept_die`` with a card
    counted as a die); in the Sorceress's unused mode also a roll
    that frees up to ``skull_rerolls`` skulls (then she is used); under After the Storm each
    reroll moves to the next mode, and the last mode has none; in a turn that remembers a sea
    battle's sabres, a reroll from dice showing them moves to mode 1."""
    skull = rules.face(rules.skull)
    faces = len(rules.faces)
    free = tuple(f != skull for f in range(faces))
    nothing = (0,) * faces
    plain_max = rules.dice - rules.min_reroll
    keep = rules.min_keep
    if rules.card_counts_as_kept_die and (card.extra or card.extra_skulls):
        keep = max(0, keep - 1)  # the card is one of the dice kept
    non_skull = 0 if rules.min_keep_counts_skulls else keep

    def plain(mode: int, nxt: int, **shown) -> KeepRule:
        return KeepRule(mode, nxt, nothing, free, keep, plain_max, non_skull, **shown)

    out = []
    if _remembers_sabres(card, rules):
        sabre, need = rules.face(rules.sabre), card.battle_sabres
        below = tuple(need - 1 if f == sabre else rules.dice for f in range(faces))
        showing = tuple(need if f == sabre else 0 for f in range(faces))
        return (plain(0, 0, shown_max=below), plain(0, 1, shown_min=showing), plain(1, 1))
    for mode in range(modes):
        if card.skull_rerolls:
            out.append(plain(mode, mode))
            if mode == 0:
                for freed in range(1, card.skull_rerolls + 1):
                    forced = tuple(freed if f == skull else 0 for f in range(faces))
                    out.append(KeepRule(0, 1, forced, free, keep,
                                        rules.dice - rules.sorceress_min_reroll, non_skull))
        elif card.rerolls < NO_LIMIT:
            if mode < card.rerolls:
                out.append(plain(mode, mode + 1))
        else:
            out.append(plain(mode, mode))
    return tuple(out)


def _protect_payoffs(space: DiceSpace, card: Card, rules: Rules, objective: Objective):
    """For every node K: the best payoff of protecting a sub-multiset of K on Treasure Island
    when the roll busts (skulls protect nothing)."""
    protected = protected_outcomes(space.counts, card, rules)
    best = objective.payoff(protected.own, protected.opponents, protected.win)
    return space.best_below(best)
