"""The hand: each use (paid entry, flight, swap, patrol, fright, Weite Reise) takes one card
able to do it, and no kind of card is played more often than the hand holds it.

Functions of the model being built (:class:`~solver.dragon.router.variables.RouterModel`);
see README.md for the rule each function enforces.
"""

from __future__ import annotations

from collections import defaultdict

from solver.dragon.router.continuation import entered_twice_after
from solver.dragon.router.relax import JOKERS
from solver.dragon.router.travel import ANY_TILE
from solver.dragon.router.variables import RouterModel


def card_budget(r: RouterModel) -> None:
    """Every card play of the route takes one card of the hand that can make it."""
    m = r.m
    demand: dict[tuple, object] = {}
    credit_needed = 0
    if r.relax:
        jokers = [(k[1], x) for L in r.layers for k, x in L.paid_items()
                  if k[1] in JOKERS]
        # One swap frees one field; only a field next to the treasure field is entered
        # twice (in, and back out with the waiting hunter) on the same tile: a joker on
        # the way out needs no swap of its own if the way in had one on that field.
        inward: dict[int, list] = defaultdict(list)
        for L in r.layers:
            for (f, kind), x in L.epaid.items():
                if kind in JOKERS:
                    inward[f].append(x)
        credit_needed = sum(x for xs in inward.values() for x in xs)
        for L in r.layers:
            for (f, kind), x in L.lpaid.items():
                if kind in JOKERS:
                    extra = m.NewBoolVar(f"xtra_{f}")
                    m.Add(extra >= x - sum(inward[f]))
                    credit_needed += extra
        # a swap that brings a payable (not free) tile still needs a card to pay it, as
        # does a free printed tile whose token has left (``router.travel``)
        demand["pay-any"] = sum(x for kind, x in jokers if kind == "swap-pay") + sum(
            x for L in r.layers for (_f, kind), x in L.paid_items() if kind == ANY_TILE)
        demand["waste"] = r.waste = m.NewIntVar(0, r.hand_count(), "waste")
    for t in range(r.n_terrains):
        if t == r.own:
            continue
        paid = [x for L in r.layers for key, x in L.paid_items() if key[1] == t]
        demand["pay", t] = sum(paid)
        if t in r.long_journey:
            demand["ljw", t] = r.long_journey[t]
    demand["long-journey"] = sum(r.long_journey.values())
    demand["flight"] = sum(
        sum(L.flights.values()) + sum(L.leave_flights.values()) for L in r.layers)
    demand["swap-any"] = sum(s[1] for s in r.stay_swap if s[1] is not None)
    demand["swap-adjacent"] = sum(s[0] for s in r.stay_swap)
    patrol_cost = 1 if len(r.dragons) == r.dragons_in_play else 2
    demand["patrol"] = patrol_cost * sum(r.patrol_moves.values())
    if r.relax:
        # a swap card may take one paid field off the continuation instead
        most = r.count["swap-adjacent"] + r.count["swap-any"]
        twice = 2 if r.waiter and not r.carrying else 1  # (the same, after the turn)
        tokens = r.m.NewIntVar(0, twice * most, "tok")
        r.tokens = tokens
        r.m.Add(tokens <= r.rem)
        r.rem = r.rem - tokens
        credit = r.m.NewIntVar(0, most, "credit")
        for_tokens = r.m.NewIntVar(0, most, "credit_tokens")
        r.m.Add(tokens <= twice * for_tokens)
        r.cont_twice = {}  # field -> "the continuation enters it twice"
        if twice == 2:  # a second token needs a field the continuation enters twice
            r.cont_twice = entered_twice_after(r)
            r.m.Add(tokens <= for_tokens + sum(r.cont_twice.values()))
        r.m.Add(credit_needed + for_tokens <= credit)
        demand["credit"] = credit
    demand["fright"] = (sum(r.fright_lone.values()) + sum(r.raid.values())
                        + 2 * sum(r.fright_pair.values())
                        + (r.fright_waiter if r.fright_waiter is not None else 0)
                        + sum(sum(L.teleports.values()) for L in r.layers))
    r.use = {}
    supply = defaultdict(list)
    for k, (_card, n) in enumerate(r.kinds):
        mine = []
        for t in range(r.n_terrains):
            if t != r.own and k in r.can_pay[t]:
                for key in (("pay", t), ("ljw", t)):
                    if key in demand:
                        mine.append(key)
        for use in ("long-journey", "flight", "patrol", "fright", "swap-any"):
            if k in r.can[use]:
                mine.append(use)
        if r.relax and k in r.swap_kinds:
            mine += ["credit", "waste"]
        if r.relax and _card.terrains:
            mine.append("pay-any")
        if k in r.can["swap-adjacent"] or k in r.can["swap-any"]:
            mine.append("swap-adjacent")
        xs = []
        for key in mine:
            x = m.NewIntVar(0, n, f"u{k}_{key}")
            r.use[k, key] = x
            supply[key].append(x)
            xs.append(x)
        if xs:
            m.Add(sum(xs) <= n)
    for key, need in demand.items():
        m.Add(sum(supply[key]) == need)
    if r.relax and r.min_swaps:
        require_swaps(r, r.min_swaps)
    r.cards_used = sum(r.use.values())


def require_swaps(r: RouterModel, n: int) -> None:
    """At least ``n`` swap cards played (a relaxation's ``min_swaps``; raised between two
    solves of one built model by ``rounds.cp_route``)."""
    r.min_swaps = n
    r.m.Add(sum(x for (k, _key), x in r.use.items() if k in r.swap_kinds) >= n)
