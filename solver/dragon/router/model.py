"""One CP-SAT model of a turn (:class:`CpRouter`): the cheapest legal turn to the goal, else
the turn that ends closest. The model (layers, the continuation, the objective) is explained
once, in README.md in this folder ("One model of a turn").
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver.dragon.route import RouteQuery
from solver.dragon.router.budget import CardBudget
from solver.dragon.router.continuation import Continuation
from solver.dragon.router.decode import PlanReader
from solver.dragon.router.hints import NotSolved, Solving
from solver.dragon.router.moves import Moves
from solver.dragon.router.payments import Payments
from solver.dragon.router.relax import (
    strict_sources,
    swap_sources,
)
from solver.dragon.router.swaps import Swaps
from solver.dragon.router.travel import token_travel, travels

__all__ = ["CpRouter", "NotSolved", "terrain_classes"]


def terrain_classes(q: RouteQuery, merge: bool = True) -> list[list[int]]:
    """The real terrains (indices into the model's terrains) grouped into classes a route
    cannot tell apart: the same cards of the hand pay for them, and neither is the hunter's
    own terrain or one Weite Reise could make free. Tiles of one class are interchangeable in
    every rule of the turn and its continuation, so the model keeps one tile variable per class
    and field, and swapping two tiles of a class is no move at all (fewer symmetric choices).
    Classes are ordered by their first terrain, so the grouping is deterministic."""
    model = q.position.island.model
    names = model.terrains
    joker = q.variants["double-card-joker"] == "joker"
    kinds = q.kinds()
    journey = any(card.does("long-journey", model) for card, _ in kinds)
    groups: dict[tuple, list[int]] = {}
    for t, name in enumerate(names):
        payers = tuple(k for k, (card, _) in enumerate(kinds) if card.pays(name, q.own, joker))
        alone = not merge or name == q.own or (journey and payers)
        key = ("alone", t) if alone else ("payers", payers)
        groups.setdefault(key, []).append(t)
    return sorted(groups.values())


class CpRouter(Moves, Swaps, Payments, Continuation, CardBudget, Solving):
    """Builds and solves the CP-SAT model of one route query.

    The router's state (the query's facts, the whole-turn choices) lives here; the constraints
    are grouped by rule, one module each: ``moves`` (who may enter a field, steps, flights,
    the flow through the layers), ``swaps``, ``payments``, ``continuation``, ``budget`` (the
    hand), and ``hints`` (solving, warm starts, reading the answer)."""

    def __init__(self, q: RouteQuery, swaps: int | None = None, relax_swaps: bool = False,
                 min_swaps: int = 0, strict: bool = False, sources: bool = True,
                 merge_terrains: bool = True, exact_swaps: bool = False) -> None:
        """``swaps``: at most this many swap layers (a restriction). ``relax_swaps``: no swap
        layers, but each swap card may instead pay for a field near a free tile (a joker), take
        one field off the continuation, or be thrown away; ``min_swaps`` of them must be played
        so (a relaxation of the routes with at least that many swaps: see README.md).
        ``strict`` (with ``relax_swaps``): each joker takes its tile from a field of its own
        that the route never enters, as a real swap could; no longer a relaxation, it only
        proposes routes for ``repair`` to turn into starting points. ``sources``: with one or
        two swap cards, name where each joker's tile comes from (``router.relax``); tighter,
        but a larger model. ``merge_terrains``: terrains no card tells apart are one class
        (``terrain_classes``); off, every terrain is its own (the same routes, more tiles).
        ``exact_swaps``: every one of the ``swaps`` layers swaps (routes with exactly that many
        swaps: ``cp_route``'s rounds know the best route with fewer already)."""
        self.q = q
        self.exact_swaps = exact_swaps
        self.relax = relax_swaps
        self.sources = sources
        self.strict = strict and relax_swaps
        self.min_swaps = min_swaps
        pos = q.position
        isl = self.isl = pos.island
        self.model_data = isl.model
        self.dragons_in_play = int(isl.model.components["dragons_in_play"])
        self.treasure_field = isl.treasure
        self.var = q.variants
        me = pos.hunters[q.hunter]
        self.me = me
        self.carrying = me.partner is not None
        self.partner = me.partner
        self.start = me.at
        self.treasure = pos.treasure is not None
        self.kinds = q.kinds()
        self.can = {
            use: [k for k, (c, _) in enumerate(self.kinds) if c.does(use, isl.model)]
            for use in ("flight", "long-journey", "swap-adjacent", "swap-any", "patrol", "fright")
        }
        self.count = {use: sum(self.kinds[k][1] for k in ks) for use, ks in self.can.items()}
        # the model's terrains are classes of real terrains (see terrain_classes)
        names = isl.model.terrains
        classes = terrain_classes(q, merge_terrains)
        self.terrain_class = {names[t]: c for c, members in enumerate(classes) for t in members}
        self.terrains = [names[members[0]] for members in classes]  # a name for each class
        self.n_terrains = len(classes)
        self.own = self.terrain_class[q.own]
        self.tiles0 = [self.terrain_class[t] for t in pos.tiles]
        joker = self.var["double-card-joker"] == "joker"
        self.can_pay = {
            c: [k for k, (card, _) in enumerate(self.kinds)
                if card.pays(names[classes[c][0]], q.own, joker)]
            for c in range(self.n_terrains)
        }
        self.n_swaps = sum(
            n for k, (c, n) in enumerate(self.kinds)
            if k in self.can["swap-adjacent"] or k in self.can["swap-any"]
        )
        if swaps is not None:
            self.n_swaps = min(self.n_swaps, swaps)
        self.swap_kinds = sorted(set(self.can["swap-adjacent"]) | set(self.can["swap-any"]))
        if relax_swaps:
            self.n_swaps = 0
        # the relaxation's tighter form for three or more swap cards (``router.travel``)
        self.counts_travel = relax_swaps and sources and not self.strict and travels(self)
        # who stands where (the mover and its partner excepted)
        self.lone: dict[int, list[str]] = {}  # field -> a lone hunter or a guard
        self.pairs: dict[int, list[str]] = {}  # field -> the two carriers
        self.waiter: str | None = None
        self.in_boats: set[int] = set()
        for h in pos.hunters.values():
            if h.colour in (q.hunter, me.partner):
                continue
            if isl.kind[h.at] == "boat":
                self.in_boats.add(h.at)
            elif h.at == self.treasure_field:
                self.waiter = h.colour
            elif h.partner:
                self.pairs.setdefault(h.at, []).append(h.colour)
            else:
                self.lone[h.at] = [h.colour]
        self.dragons = sorted(pos.dragons)

    # -- static facts ---------------------------------------------------------------------
    def goal_nodes(self) -> list[int]:
        if self.carrying:
            return [self.isl.boat_node[self.q.hunter], self.isl.boat_node[self.partner]]
        return [self.treasure_field]

    def terminal(self, v: int) -> bool:
        """Entering v ends the turn (or, for the second hunter, forces the leaving move)."""
        if v == self.treasure_field:
            return self.treasure and not self.carrying
        return v in self.goal_nodes()

    # -- model ----------------------------------------------------------------------------
    def build(self) -> None:
        m = self.m = cp_model.CpModel()
        isl, nt, own = self.isl, self.n_terrains, self.own
        F = list(isl.fields)
        S = self.S = self.n_swaps
        # order-free choices --------------------------------------------------------------
        self.long_journey = {}
        if self.count["long-journey"]:
            for t in range(nt):
                if t != own and self.can_pay[t]:
                    self.long_journey[t] = m.NewBoolVar(f"lj{t}")
            if self.var["long-journey-stacking"] == "single":
                m.Add(sum(self.long_journey.values()) <= 1)
        self.patrol_moves = {}
        patrol_cost = 1 if len(self.dragons) == self.dragons_in_play else 2
        if self.count["patrol"] >= patrol_cost:
            for d in self.dragons:
                self.patrol_moves[d] = m.NewBoolVar(f"rm{d}")
        self.fright_lone, self.raid, self.fright_pair = {}, {}, {}
        self.fright_waiter = None
        if self.count["fright"]:
            for f in self.lone:
                self.fright_lone[f] = m.NewBoolVar(f"fo{f}")
            for p in self.pairs:
                if not self.carrying and self.var["raid-and-abandon"] == "allowed":
                    self.raid[p] = m.NewBoolVar(f"raid{p}")
                if self.count["fright"] >= 2:
                    self.fright_pair[p] = m.NewBoolVar(f"f2{p}")
            if self.waiter and not self.carrying:
                self.fright_waiter = m.NewBoolVar("fw")
        # tiles per layer -------------------------------------------------------------------
        self.tile = [{(f, t): int(self.tiles0[f] == t) for f in F for t in range(nt)}]
        for e in range(1, S + 1):
            lay = {(f, t): m.NewBoolVar(f"T{e}_{f}_{t}") for f in F for t in range(nt)}
            for f in F:
                m.AddExactlyOne(lay[f, t] for t in range(nt))
            self.tile.append(lay)
        # layers ------------------------------------------------------------------------------
        self.layers = [self._build_layer(e) for e in range(S + 1)]
        self._link_layers()
        if self.exact_swaps:
            for sw_adj, sw_any, _fields in self.stay_swap:
                m.Add(sw_adj + (sw_any if sw_any is not None else 0) == 1)
        self._build_continuation()
        self._cards()
        # refinements add constraints, and charge the continuation through charge_remaining
        if self.strict:
            strict_sources(self)
        elif self.relax and self.sources and self.names_sources():
            swap_sources(self)
        elif self.counts_travel:
            token_travel(self)
        # reaching the goal first, then ending closest, then spending few cards
        self.m.Minimize(self.objective_expr())

    def charge_remaining(self, cards) -> None:
        """The one way a refinement (``relax``, ``travel``) changes the objective: cards the
        continuation must pay on top of its own fields (a linear expression), added to
        ``remaining`` before the objective is set."""
        self.rem = self.rem + cards

    def names_sources(self) -> bool:
        """Can the relaxation name its jokers' sources (one or two swap cards, each of one
        kind)?"""
        n = self.swap_cards()
        return n in (1, 2) and self.count["swap-adjacent"] + self.count["swap-any"] == n

    def origin(self, f: int) -> bool:
        """Does f's printed tile start a free token (the own terrain, or one Weite Reise may
        make free)?"""
        return self.tiles0[f] == self.own or self.tiles0[f] in self.long_journey

    def refines_relaxation(self) -> bool:
        """Has the relaxation a tighter form for this hand: named sources (one or two swap
        cards) or the free tiles' travel (three or more, ``router.travel``)?"""
        return self.names_sources() or travels(self)

    def swap_cards(self) -> int:
        """How many cards in hand can swap two tiles."""
        return sum(self.kinds[k][1] for k in self.swap_kinds)

    def hand_count(self) -> int:
        return sum(n for _, n in self.kinds)

    def objective_expr(self):
        """Cards still needed first, cards spent second: a turn spends at most a hand's
        cards, so one card still needed weighs a hand plus one (the rules' hand size)."""
        weight = int(self.model_data.hand_size) + 1
        return weight * (self.rem + self.ended) + self.cards_used

    # -- solve and read the plan -------------------------------------------------------
    def kinds_any(self, card_name: str) -> bool:
        """Is the named card a Tosende Elemente (any two tiles)?"""
        return any(self.kinds[k][0].name == card_name for k in self.can["swap-any"])

    def continuation_nodes(self) -> list[int]:
        """The solved continuation's cells, in order (empty when the goal is reached)."""
        return PlanReader(self).continuation()
