"""The facts of one route query that the router's model is built from (:class:`Facts`): who
stands where, what the hand can do, the terrain classes, and the model's options. No CP-SAT
here; :mod:`solver.dragon.router.build` turns facts into a model (README.md in this folder
explains the model once).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.dragon.board import Island
from solver.dragon.cards import Card
from solver.dragon.position import Hunter
from solver.dragon.route import RouteQuery
from solver.dragon.router.travel import travels
from solver.dragon.rules import Rules

USES = ("flight", "long-journey", "swap-adjacent", "swap-any", "patrol", "fright")


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


@dataclass
class Facts:
    """One route query as the router's model sees it, and the model's options (see
    :meth:`of` for what each option means)."""

    q: RouteQuery
    # options
    exact_swaps: bool  # every swap layer swaps
    relax: bool  # the swap relaxation (no swap layers; jokers and tokens)
    sources: bool  # the relaxation's tighter forms (named sources, travel counts)
    strict: bool  # the strict proposal (not a relaxation)
    min_swaps: int  # swap cards the relaxation must play
    counts_travel: bool  # the relaxation counts the free tiles' travel (``router.travel``)
    # the board and the rules
    isl: Island
    model_data: Rules
    var: dict[str, str]  # the query's rule variants
    dragons_in_play: int
    treasure_field: int
    # the mover
    me: Hunter
    carrying: bool
    partner: str | None
    start: int
    treasure: bool  # a treasure lies on the treasure field
    # the hand
    kinds: list[tuple[Card, int]]  # (card, count) per kind of card in hand
    can: dict[str, list[int]]  # use -> the card kinds able to make it
    count: dict[str, int]  # use -> how many cards in hand can make it
    swap_kinds: list[int]
    n_swaps: int  # swap layers of the model
    # terrains: the model's are classes of real terrains (``terrain_classes``)
    terrain_class: dict[str, int]  # real terrain -> its class
    terrains: list[str]  # a name for each class
    n_terrains: int
    own: int  # the mover's own terrain class
    tiles0: list[int]  # the printed tiles' classes, per node
    can_pay: dict[int, list[int]]  # terrain class -> the card kinds paying for it
    # who stands where (the mover and its partner excepted)
    lone: dict[int, list[str]]  # field -> a lone hunter or a guard
    pairs: dict[int, list[str]]  # field -> the two carriers
    waiter: str | None  # the hunter waiting on the treasure field
    in_boats: set[int]
    dragons: list[int]

    @classmethod
    def of(cls, q: RouteQuery, swaps: int | None = None, relax_swaps: bool = False,
           min_swaps: int = 0, strict: bool = False, sources: bool = True,
           merge_terrains: bool = True, exact_swaps: bool = False) -> Facts:
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
        pos = q.position
        isl = pos.island
        me = pos.hunters[q.hunter]
        kinds = q.kinds()
        can = {use: [k for k, (c, _) in enumerate(kinds) if c.does(use, isl.model)]
               for use in USES}
        count = {use: sum(kinds[k][1] for k in ks) for use, ks in can.items()}
        names = isl.model.terrains
        classes = terrain_classes(q, merge_terrains)
        terrain_class = {names[t]: c for c, members in enumerate(classes) for t in members}
        joker = q.variants["double-card-joker"] == "joker"
        swap_kinds = sorted(set(can["swap-adjacent"]) | set(can["swap-any"]))
        n_swaps = sum(n for k, (_c, n) in enumerate(kinds) if k in swap_kinds)
        if swaps is not None:
            n_swaps = min(n_swaps, swaps)
        if relax_swaps:
            n_swaps = 0
        facts = cls(
            q=q, exact_swaps=exact_swaps, relax=relax_swaps, sources=sources,
            strict=strict and relax_swaps, min_swaps=min_swaps, counts_travel=False,
            isl=isl, model_data=isl.model, var=q.variants,
            dragons_in_play=int(isl.model.components["dragons_in_play"]),
            treasure_field=isl.treasure, me=me, carrying=me.partner is not None,
            partner=me.partner, start=me.at, treasure=pos.treasure is not None,
            kinds=kinds, can=can, count=count, swap_kinds=swap_kinds, n_swaps=n_swaps,
            terrain_class=terrain_class, terrains=[names[members[0]] for members in classes],
            n_terrains=len(classes), own=terrain_class[q.own],
            tiles0=[terrain_class[t] for t in pos.tiles],
            can_pay={c: [k for k, (card, _) in enumerate(kinds)
                         if card.pays(names[classes[c][0]], q.own, joker)]
                     for c in range(len(classes))},
            lone={}, pairs={}, waiter=None, in_boats=set(), dragons=sorted(pos.dragons))
        # the relaxation's tighter form for three or more swap cards (``router.travel``)
        facts.counts_travel = relax_swaps and sources and not facts.strict and travels(facts)
        for h in pos.hunters.values():
            if h.colour in (q.hunter, me.partner):
                continue
            if isl.kind[h.at] == "boat":
                facts.in_boats.add(h.at)
            elif h.at == facts.treasure_field:
                facts.waiter = h.colour
            elif h.partner:
                facts.pairs.setdefault(h.at, []).append(h.colour)
            else:
                facts.lone[h.at] = [h.colour]
        return facts

    def goal_nodes(self) -> list[int]:
        if self.carrying:
            return [self.isl.boat_node[self.q.hunter], self.isl.boat_node[self.partner]]
        return [self.treasure_field]

    def terminal(self, v: int) -> bool:
        """Entering v ends the turn (or, for the second hunter, forces the leaving move)."""
        if v == self.treasure_field:
            return self.treasure and not self.carrying
        return v in self.goal_nodes()

    def swap_cards(self) -> int:
        """How many cards in hand can swap two tiles."""
        return sum(self.kinds[k][1] for k in self.swap_kinds)

    def hand_count(self) -> int:
        return sum(n for _, n in self.kinds)

    def names_sources(self) -> bool:
        """Can the relaxation name its jokers' sources (one or two swap cards, each of one
        kind)?"""
        n = self.swap_cards()
        return n in (1, 2) and self.count["swap-adjacent"] + self.count["swap-any"] == n

    def refines_relaxation(self) -> bool:
        """Has the relaxation a tighter form for this hand: named sources (one or two swap
        cards) or the free tiles' travel (three or more, ``router.travel``)?"""
        return self.names_sources() or travels(self)

    def kinds_any(self, card_name: str) -> bool:
        """Is the named card a Tosende Elemente (any two tiles)?"""
        return any(self.kinds[k][0].name == card_name for k in self.can["swap-any"])
