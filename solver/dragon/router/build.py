"""Building one CP-SAT model of a turn (:func:`build_model`): the whole-turn choices, the tiles
of each layer, then the constraints grouped by rule (``moves``, ``continuation``, ``budget``;
``swaps`` and ``payments`` through ``moves``), the relaxation's refinements (``relax``,
``travel``) and the objective. README.md in this folder explains the model once.
"""

from __future__ import annotations

from solver.dragon.router.budget import card_budget
from solver.dragon.router.continuation import build_continuation
from solver.dragon.router.facts import Facts
from solver.dragon.router.moves import build_layer, link_layers
from solver.dragon.router.relax import strict_sources, swap_sources
from solver.dragon.router.travel import token_travel
from solver.dragon.router.variables import Expr, RouterModel


def build_model(facts: Facts) -> RouterModel:
    """The model of the query ``facts`` describe, its objective set."""
    r = RouterModel.empty(facts)
    m, isl, nt, own = r.m, r.isl, r.n_terrains, r.own
    F = list(isl.fields)
    S = r.n_swaps
    # order-free choices --------------------------------------------------------------
    if r.count["long-journey"]:
        for t in range(nt):
            if t != own and r.can_pay[t]:
                r.long_journey[t] = m.NewBoolVar(f"lj{t}")
        if r.var["long-journey-stacking"] == "single":
            m.Add(sum(r.long_journey.values()) <= 1)
    patrol_cost = 1 if len(r.dragons) == r.dragons_in_play else 2
    if r.count["patrol"] >= patrol_cost:
        for d in r.dragons:
            r.patrol_moves[d] = m.NewBoolVar(f"rm{d}")
    if r.count["fright"]:
        for f in r.lone:
            r.fright_lone[f] = m.NewBoolVar(f"fo{f}")
        for p in r.pairs:
            if not r.carrying and r.var["raid-and-abandon"] == "allowed":
                r.raid[p] = m.NewBoolVar(f"raid{p}")
            if r.count["fright"] >= 2:
                r.fright_pair[p] = m.NewBoolVar(f"f2{p}")
        if r.waiter and not r.carrying:
            r.fright_waiter = m.NewBoolVar("fw")
    # tiles per layer -------------------------------------------------------------------
    r.tile = [{(f, t): int(r.tiles0[f] == t) for f in F for t in range(nt)}]
    for e in range(1, S + 1):
        lay = {(f, t): m.NewBoolVar(f"T{e}_{f}_{t}") for f in F for t in range(nt)}
        for f in F:
            m.AddExactlyOne(lay[f, t] for t in range(nt))
        r.tile.append(lay)
    # layers ------------------------------------------------------------------------------
    r.layers = [build_layer(r, e) for e in range(S + 1)]
    link_layers(r)
    if r.exact_swaps:
        for sw_adj, sw_any, _fields in r.stay_swap:
            m.Add(sw_adj + (sw_any if sw_any is not None else 0) == 1)
    build_continuation(r)
    card_budget(r)
    # refinements add constraints, and charge the continuation through charge_remaining
    if r.strict:
        strict_sources(r)
    elif r.relax and r.sources and r.names_sources():
        swap_sources(r)
    elif r.counts_travel:
        token_travel(r)
    # reaching the goal first, then ending closest, then spending few cards
    m.Minimize(objective(r))
    return r


def objective(r: RouterModel) -> Expr:
    """Cards still needed first, cards spent second: a turn spends at most a hand's
    cards, so one card still needed weighs a hand plus one (the rules' hand size)."""
    weight = int(r.model_data.hand_size) + 1
    return weight * (r.rem + r.ended) + r.cards_used
