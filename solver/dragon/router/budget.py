"""The hand: each use (paid entry, flight, swap, patrol, fright, Weite Reise) takes one card
able to do it, and no kind of card is played more often than the hand holds it.

Part of :class:`~solver.dragon.router.model.CpRouter` (a mixin: the methods read the
router's state as ``self``); see README.md for the rule each method enforces.
"""

from __future__ import annotations

from collections import defaultdict

from solver.dragon.router.relax import JOKERS
from solver.dragon.router.travel import ANY_TILE


class CardBudget:
    def _cards(self) -> None:
        """Every card play of the route takes one card of the hand that can make it."""
        m = self.m
        demand: dict[tuple, object] = {}
        credit_needed = 0
        if self.relax:
            jokers = [(k[1], x) for L in self.layers for k, x in L.paid_items()
                      if k[1] in JOKERS]
            # One swap frees one field; only a field next to the treasure field is entered
            # twice (in, and back out with the waiting hunter) on the same tile: a joker on
            # the way out needs no swap of its own if the way in had one on that field.
            inward: dict[int, list] = defaultdict(list)
            for L in self.layers:
                for (f, kind), x in L.epaid.items():
                    if kind in JOKERS:
                        inward[f].append(x)
            credit_needed = sum(x for xs in inward.values() for x in xs)
            for L in self.layers:
                for (f, kind), x in L.lpaid.items():
                    if kind in JOKERS:
                        extra = m.NewBoolVar(f"xtra_{f}")
                        m.Add(extra >= x - sum(inward[f]))
                        credit_needed += extra
            # a swap that brings a payable (not free) tile still needs a card to pay it, as
            # does a free printed tile whose token has left (``router.travel``)
            demand["pay-any"] = sum(x for kind, x in jokers if kind == "swap-pay") + sum(
                x for L in self.layers for (_f, kind), x in L.paid_items() if kind == ANY_TILE)
            demand["waste"] = self.waste = m.NewIntVar(0, self.hand_count(), "waste")
        for t in range(self.n_terrains):
            if t == self.own:
                continue
            paid = [x for L in self.layers for key, x in L.paid_items() if key[1] == t]
            demand["pay", t] = sum(paid)
            if t in self.long_journey:
                demand["ljw", t] = self.long_journey[t]
        demand["long-journey"] = sum(self.long_journey.values())
        demand["flight"] = sum(
            sum(L.flights.values()) + sum(L.leave_flights.values()) for L in self.layers)
        demand["swap-any"] = sum(s[1] for s in self.stay_swap if s[1] is not None)
        demand["swap-adjacent"] = sum(s[0] for s in self.stay_swap)
        patrol_cost = 1 if len(self.dragons) == self.dragons_in_play else 2
        demand["patrol"] = patrol_cost * sum(self.patrol_moves.values())
        if self.relax:
            # a swap card may take one paid field off the continuation instead
            most = self.count["swap-adjacent"] + self.count["swap-any"]
            twice = 2 if self.waiter and not self.carrying else 1  # (the same, after the turn)
            tokens = self.m.NewIntVar(0, twice * most, "tok")
            self.tokens = tokens
            self.m.Add(tokens <= self.rem)
            self.rem = self.rem - tokens
            credit = self.m.NewIntVar(0, most, "credit")
            for_tokens = self.m.NewIntVar(0, most, "credit_tokens")
            self.m.Add(tokens <= twice * for_tokens)
            self.cont_twice = {}  # field -> "the continuation enters it twice"
            if twice == 2:  # a second token needs a field the continuation enters twice
                self.cont_twice = self._entered_twice_after()
                self.m.Add(tokens <= for_tokens + sum(self.cont_twice.values()))
            self.m.Add(credit_needed + for_tokens <= credit)
            demand["credit"] = credit
        demand["fright"] = (sum(self.fright_lone.values()) + sum(self.raid.values())
                            + 2 * sum(self.fright_pair.values())
                            + (self.fright_waiter if self.fright_waiter is not None else 0)
                            + sum(sum(L.teleports.values()) for L in self.layers))
        self.use = {}
        supply = defaultdict(list)
        for k, (_card, n) in enumerate(self.kinds):
            mine = []
            for t in range(self.n_terrains):
                if t != self.own and k in self.can_pay[t]:
                    for key in (("pay", t), ("ljw", t)):
                        if key in demand:
                            mine.append(key)
            for use in ("long-journey", "flight", "patrol", "fright", "swap-any"):
                if k in self.can[use]:
                    mine.append(use)
            if self.relax and k in self.swap_kinds:
                mine += ["credit", "waste"]
            if self.relax and _card.terrains:
                mine.append("pay-any")
            if k in self.can["swap-adjacent"] or k in self.can["swap-any"]:
                mine.append("swap-adjacent")
            xs = []
            for key in mine:
                x = m.NewIntVar(0, n, f"u{k}_{key}")
                self.use[k, key] = x
                supply[key].append(x)
                xs.append(x)
            if xs:
                m.Add(sum(xs) <= n)
        for key, need in demand.items():
            m.Add(sum(supply[key]) == need)
        if self.relax and self.min_swaps:
            m.Add(sum(x for (k, _key), x in self.use.items() if k in self.swap_kinds)
                  >= self.min_swaps)
        self.cards_used = sum(self.use.values())
