"""Die Dracheninsel's executable rulebook for one turn: the legal moves and what they do.

In the style of python-chess: a :class:`Turn` (the mover, its hand, the readings of unclear
rules) offers ``legal_moves(state)`` and ``apply(state, move)`` over a :class:`TurnState`,
which holds everything a turn can change: the mover's place and mode, the cards left, the
terrains made free by Weite Reise, every tile, the dragons and every other hunter. The
exhaustive search (``route_search``) walks it; replay, repair, the simulations, the SVG
drawing and the command line consume its :class:`~solver.dragon.move.Move`. The CP-SAT router
is a separate encoding of the same rules, checked against this one in the tests.

Each rule is written here once: who may enter a node (:func:`entry_cost`), which tiles may be
swapped (:func:`may_swap`, :func:`swap_reach`), where a dragon may be set
(:func:`dragon_sites`), and the moves of each card.
"""

from __future__ import annotations

import itertools
from collections.abc import Container, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from solver.dragon.board import Island
from solver.dragon.move import Move
from solver.dragon.position import Hunter, Position

if TYPE_CHECKING:
    from solver.dragon.route import RouteQuery

FREE, CARRY, GUARD, SECOND, DONE = range(5)
# other hunters: (colour, node, status, partner); status one of
LONE, WAIT, BOAT, GUARDING, PAIR = "lone", "wait", "boat", "guard", "pair"


class IllegalMove(ValueError):
    """A move the rules do not allow in the state it is played in."""


class TurnState(NamedTuple):
    """Everything one turn can change (hashable: the search keys on it)."""

    at: int
    mode: int  # FREE, CARRY, GUARD (a lone hunter guarding a treasure), SECOND, DONE
    partner: str  # the hunter carrying with the mover ("" when none)
    leavable: bool  # a guard may walk away (False after a fright sent its partner home)
    cards: tuple[int, ...]  # how many of each kind of the hand are left
    free_terrains: int  # bit t: terrain t is free this turn (Weite Reise)
    tiles: tuple[int, ...]  # terrain index of every node's tile
    dragons: tuple[int, ...]
    dragons_off: int  # dragons set or lifted by Drachenpatrouille, placed after the turn
    others: tuple[tuple[str, int, str, str], ...]  # (colour, node, status, partner), sorted


# -- the rules, each once -------------------------------------------------------------------
def entry_cost(isl: Island, v: int, tiles: Sequence, free: Container, me: str, partner: str,
               occupied: Container[int], treasure_left: bool,
               carriers_cross_empty: bool) -> int | None:
    """Terrain cards it costs ``me`` (carrying with ``partner``, or "" alone) to enter node
    ``v`` on a plain step: 0, 1, or None when ``v`` is closed to it. Dragons are not counted.

    A boat takes only its owner, and a carrying pair only at either carrier's boat; an empty
    boat only (a hunter frightened home waits in it). The treasure field is open to a hunter
    without treasure; a carrying pair crosses it only when it is empty and the reading
    ``empty-treasure-field-carriers`` is ``open``. A field with another hunter on it is closed
    to a plain step (joining a guard or raiding a pair is its own move). Any other field costs
    one card unless its tile is in ``free``."""
    if isl.kind[v] == "boat":
        owner = isl.boat_owner[v]
        if partner:
            return 0 if owner in (me, partner) else None
        return 0 if owner == me and v not in occupied else None
    if v == isl.treasure:
        if partner:
            return 0 if not treasure_left and carriers_cross_empty else None
        return 0
    if v in occupied:
        return None
    return 0 if tiles[v] in free else 1


def may_swap(tiles: Sequence, f: int, g: int, taken: Container[int]) -> bool:
    """May the tiles on fields ``f`` and ``g`` trade places? Never under a hunter or a dragon
    (``taken``); two equal tiles are not worth a card (the swap changes nothing)."""
    return f not in taken and g not in taken and tiles[f] != tiles[g]


def swap_reach(isl: Island, any_field: bool, f: int) -> list[int]:
    """Fields a swap card can trade ``f``'s tile with: its neighbours (Zerstörende Kräfte), or
    any field (Tosende Elemente, ``any_field``)."""
    if any_field:
        return [g for g in isl.fields if g != f]
    return [g for g in isl.adj[f] if isl.is_field(g)]


def dragon_sites(isl: Island, taken: Iterable[int]) -> list[int]:
    """Fields a dragon may be set on: no hunter or dragon there (``taken``), not a field in
    front of a boat."""
    taken = set(taken)
    return [f for f in isl.fields if f not in taken and f not in isl.fronts]


# -- one turn -------------------------------------------------------------------------------
class Turn:
    """The legal moves of one route query's mover, and the states they lead to."""

    def __init__(self, q: RouteQuery) -> None:
        pos = q.position
        isl = pos.island
        model = isl.model
        self.q, self.isl = q, isl
        self.dragons_in_play = int(model.components["dragons_in_play"])
        self.treasure_field = isl.treasure
        self.me = q.hunter
        self.terrains = model.terrains
        self.own = self.terrains.index(q.own)
        self.treasure_left = pos.treasure is not None
        self.var = q.variants
        self.carriers_cross_empty = self.var["empty-treasure-field-carriers"] == "open"
        self.kinds = q.kinds()
        joker = self.var["double-card-joker"] == "joker"
        self.pays = {
            t: [k for k, (c, _) in enumerate(self.kinds) if c.pays(name, q.own, joker)]
            for t, name in enumerate(self.terrains)
        }
        self.with_use = {
            use: [k for k, (c, _) in enumerate(self.kinds) if c.does(use, model)]
            for use in ("flight", "long-journey", "swap-adjacent", "swap-any", "patrol", "fright")
        }
        self.adj_pairs = [(f, g) for f in isl.fields for g in isl.adj[f]
                          if isl.is_field(g) and f < g]
        self.any_pairs = list(itertools.combinations(list(isl.fields), 2))
        self.partner0 = pos.hunters[q.hunter].partner  # the treasure this turn is about
        self._free_sets: dict[int, frozenset[int]] = {}

    # -- states ------------------------------------------------------------------------
    def initial(self) -> TurnState:
        pos = self.q.position
        me = pos.hunters[self.me]
        others = tuple(sorted((h.colour, h.at, self._status(h), h.partner or "")
                              for h in pos.hunters.values()
                              if h.colour not in (self.me, me.partner)))
        mode = CARRY if me.partner else GUARD if me.guarding else FREE
        tiles = tuple(self.terrains.index(t) for t in pos.tiles)
        cards = tuple(n for _, n in self.kinds)
        return TurnState(me.at, mode, me.partner or "", True, cards, 0, tiles,
                         tuple(sorted(pos.dragons)), 0, others)

    def _status(self, h: Hunter) -> str:
        if self.isl.kind[h.at] == "boat":
            return BOAT
        if h.at == self.treasure_field:
            return WAIT
        if h.partner:
            return PAIR
        return GUARDING if h.guarding else LONE

    def is_free(self, st: TurnState, terrain: int) -> bool:
        return terrain == self.own or bool((st.free_terrains >> terrain) & 1)

    def free_set(self, st: TurnState) -> frozenset[int]:
        """The terrains free to enter in this state (the own one, and Weite Reise's)."""
        free = self._free_sets.get(st.free_terrains)
        if free is None:
            free = frozenset(t for t in range(len(self.terrains)) if self.is_free(st, t))
            self._free_sets[st.free_terrains] = free
        return free

    # -- python-chess style ------------------------------------------------------------
    def legal_moves(self, st: TurnState) -> list[Move]:
        return [move for move, _, _ in self.successors(st)]

    def apply(self, st: TurnState, move: Move) -> tuple[TurnState, int]:
        """The state after ``move`` and the cards it spent; IllegalMove when not legal."""
        want = move.key()
        for m, nst, spent in self.successors(st, move.action):
            if m.key() == want:
                return nst, spent
        raise IllegalMove(f"not legal here: {move.to_json()}")

    def play(self, plan: Sequence[Move]) -> tuple[TurnState | None, int]:
        """Play a plan from the start: (the state it ends in, cards spent); the state is None
        for a hunter waiting on the treasure field, who has no route. IllegalMove names the
        first move that is not legal."""
        if self.q.position.hunters[self.me].at == self.treasure_field:
            if plan:
                raise IllegalMove("a hunter waiting on the treasure field has no route to play")
            return None, 0
        st, spent = self.initial(), 0
        for i, move in enumerate(plan):
            try:
                st, cost = self.apply(st, move)
            except IllegalMove as err:
                raise IllegalMove(f"step {i + 1} is {err}") from None
            spent += cost
        if st.mode == SECOND:
            raise IllegalMove("the plan leaves the mover on the treasure field as second hunter")
        return st, spent

    def successors(self, st: TurnState,
                   action: str | None = None) -> list[tuple[Move, TurnState, int]]:
        """Every legal move from ``st``: (move, new state, cards spent). With ``action``, the
        swaps are listed only for "swap" and only they are (the one kind of move only
        ``_swaps`` makes, and the most numerous: a plan replayed need not list them for its
        other moves); the order of the moves is the same."""
        if st.mode == DONE:
            return []
        if st.mode == SECOND:
            return self._leave_moves(st)
        out: list[tuple[Move, TurnState, int]] = []
        if action == "swap":
            return self._swaps(st)
        if st.mode != GUARD or st.leavable:
            out += self._walks(st)
        out += self._long_journeys(st)
        if action is None:
            out += self._swaps(st)
        out += self._patrols(st)
        out += self._frights(st)
        return out

    # -- entering a node ---------------------------------------------------------------
    def _entries(self, st: TurnState, v: int) -> list[tuple[dict, TurnState, int | None]]:
        """Ways to enter ``v`` now: (what the move adds, new state before payment, the
        terrain to pay for or None)."""
        if v in st.dragons:
            return []
        isl, T = self.isl, self.treasure_field
        carrying = st.mode == CARRY
        here = [h for h in st.others if h[1] == v]
        if here and isl.is_field(v) and v != T:
            return [] if carrying else self._join_or_raid(st, v, here)
        cost = entry_cost(isl, v, st.tiles, self.free_set(st), self.me,
                          st.partner if carrying else "", {h[1] for h in here},
                          self.treasure_left, self.carriers_cross_empty)
        if cost is None:
            return []
        keep = st._replace(at=v, mode=CARRY if carrying else FREE, leavable=True)
        if v == T and self.treasure_left:
            if self.q.goal != "treasure":
                return []  # (a hunter that set out carrying has no business here)
            if here:  # the second hunter on the treasure field
                rest = tuple(h for h in st.others if h[1] != T)
                return [({}, keep._replace(mode=SECOND, partner=here[0][0], others=rest), None)]
            return [({}, keep._replace(mode=DONE, partner=""), None)]
        if isl.kind[v] == "boat":
            if carrying:
                # delivering ends the turn; the route is about the treasure the mover set
                # out with (a treasure picked up by a raid on the way is another errand)
                if st.partner != self.partner0:
                    return []
                return [({}, keep._replace(mode=DONE), None)]
            return [({}, keep._replace(partner=""), None)]
        return [({}, keep, st.tiles[v] if cost else None)]

    def _join_or_raid(self, st: TurnState, v: int, here: list) -> list:
        """Entering a field with hunters on it: join a lone guard (the two carry), or raid a
        carrying pair (one goes home, the mover carries with the other)."""
        pay = None if self.is_free(st, st.tiles[v]) else st.tiles[v]
        rest = tuple(h for h in st.others if h[1] != v)
        enter = st._replace(at=v, mode=CARRY, leavable=True)
        if len(here) == 1 and here[0][2] == GUARDING:
            return [({"join": here[0][0]}, enter._replace(partner=here[0][0], others=rest), pay)]
        if len(here) == 2:
            out = []
            for home, stay in ((here[0], here[1]), (here[1], here[0])):
                sent = (home[0], self.isl.boat_node[home[0]], BOAT, "")
                out.append(({"raid": home[0]},
                            enter._replace(partner=stay[0], others=tuple(sorted(rest + (sent,)))),
                            pay))
            return out
        return []

    def _payments(self, cards: tuple, terrain: int | None) -> list[tuple[int | None, tuple]]:
        if terrain is None:
            return [(None, cards)]
        return [(k, _take(cards, k)) for k in self.pays[terrain] if cards[k] > 0]

    def _moves_into(self, st: TurnState, v: int, base: dict, spent: int, cards: tuple):
        """Moves entering ``v``: a step, or a flight's landing (its card already taken)."""
        out = []
        for extra, nst, terrain in self._entries(st, v):
            for k, left in self._payments(cards, terrain):
                fields = dict(base, **extra)
                if k is not None:
                    fields["pay" if base["action"] == "flight" else "card"] = self._name(k)
                    fields["use"] = self.terrains[terrain]
                out.append((Move(**fields), nst._replace(cards=left), spent + (k is not None)))
        return out

    # -- the moves of each card ----------------------------------------------------------
    def _walks(self, st: TurnState) -> list:
        isl, out = self.isl, []
        for v in isl.adj[st.at]:
            out += self._moves_into(st, v, {"action": "step", "to": isl.names[v]}, 0, st.cards)
        if isl.kind[st.at] == "boat" and self.var["flight-from-boat"] == "forbidden":
            return out
        for k in self._held(st, "flight"):
            for b, land in isl.flights(st.at):
                if b not in st.dragons:
                    base = {"action": "flight", "card": self._name(k), "over": isl.names[b],
                            "to": isl.names[land]}
                    out += self._moves_into(st, land, base, 1, _take(st.cards, k))
        return out

    def _long_journeys(self, st: TurnState) -> list:
        """Weite Reise, played with a terrain card: that terrain is free this turn."""
        if self.var["long-journey-stacking"] != "stack" and st.free_terrains:
            return []
        out, here = [], self.isl.names[st.at]
        for k in self._held(st, "long-journey"):
            left = _take(st.cards, k)
            for t in range(len(self.terrains)):
                if self.is_free(st, t):
                    continue
                for k2 in self.pays[t]:
                    if left[k2]:
                        move = Move("long-journey", here, self._name(k),
                                    with_card=self._name(k2), terrain=self.terrains[t])
                        out.append((move, st._replace(cards=_take(left, k2),
                                                      free_terrains=st.free_terrains | 1 << t), 2))
        return out

    def swap_pairs(self, st: TurnState) -> list[tuple[list[int], list[tuple[int, int]]]]:
        """The pairs of fields each kind of swap card may be tried on: every pair of
        neighbours for both cards, every pair for Tosende Elemente. A heuristic search may
        offer fewer (``router.primal``): each pair is still checked by ``may_swap``."""
        adjacent = sorted(set(self.with_use["swap-adjacent"]) | set(self.with_use["swap-any"]))
        return [(adjacent, self.adj_pairs), (self.with_use["swap-any"], self.any_pairs)]

    @staticmethod
    def taken(st: TurnState) -> set[int]:
        """The nodes under the mover, another hunter or a dragon (no swap touches them)."""
        return {h[1] for h in st.others} | {st.at} | set(st.dragons)

    def _swaps(self, st: TurnState) -> list:
        isl, out, here = self.isl, [], self.isl.names[st.at]
        taken = self.taken(st)
        for kinds, pairs in self.swap_pairs(st):
            for k in kinds:
                if not st.cards[k]:
                    continue
                left = _take(st.cards, k)
                for f, g in pairs:
                    if may_swap(st.tiles, f, g, taken):
                        tiles = list(st.tiles)
                        tiles[f], tiles[g] = tiles[g], tiles[f]
                        move = Move("swap", here, self._name(k),
                                    swap=(isl.names[f], isl.names[g]))
                        out.append((move, st._replace(cards=left, tiles=tuple(tiles)), 1))
        return out

    def _patrols(self, st: TurnState) -> list:
        """Drachenpatrouille: the first cards set dragons (two in play), later ones move one."""
        out, here = [], self.isl.names[st.at]
        for k in self._held(st, "patrol"):
            left = _take(st.cards, k)
            off = st.dragons_off + 1
            if len(st.dragons) + st.dragons_off < self.dragons_in_play:
                out.append((Move("patrol", here, self._name(k)),
                            st._replace(cards=left, dragons_off=off), 1))
                continue
            for d in st.dragons:
                rest = tuple(x for x in st.dragons if x != d)
                out.append((Move("patrol", here, self._name(k), dragon=self.isl.names[d]),
                            st._replace(cards=left, dragons=rest, dragons_off=off), 1))
        return out

    def _frights(self, st: TurnState) -> list:
        """Angst & Schrecken: one hunter (the mover too) goes home to its boat."""
        isl, out = self.isl, []
        for k in self._held(st, "fright"):
            left = _take(st.cards, k)
            for target, nst in self._sent_home(st):
                out.append((Move("fright", isl.names[nst.at], self._name(k), target=target),
                            nst._replace(cards=left), 1))
        return out

    def _sent_home(self, st: TurnState) -> list[tuple[str, TurnState]]:
        isl = self.isl
        home = isl.boat_node[self.me]
        out = []
        if st.mode == CARRY:  # either carrier goes home; the other guards the treasure
            guard = (st.partner, st.at, GUARDING, "")
            out.append((self.me, st._replace(at=home, mode=FREE, partner="", leavable=True,
                                             others=tuple(sorted(st.others + (guard,))))))
            sent = (st.partner, isl.boat_node[st.partner], BOAT, "")
            out.append((st.partner, st._replace(
                mode=GUARD, partner="", leavable=self.var["raid-and-abandon"] == "allowed",
                others=tuple(sorted(st.others + (sent,))))))
        else:
            out.append((self.me, st._replace(at=home, mode=FREE, partner="", leavable=True)))
        for colour, at, status, mate in st.others:
            if status == BOAT:
                continue
            new = [x for x in st.others if x[0] != colour]
            new.append((colour, isl.boat_node[colour], BOAT, ""))
            if status == PAIR:
                new = [x for x in new if x[0] != mate] + [(mate, at, GUARDING, "")]
            out.append((colour, st._replace(others=tuple(sorted(new)))))
        return out

    def _leave_moves(self, st: TurnState) -> list:
        """The second hunter on the treasure field leaves it at once with the pair."""
        isl, out = self.isl, []
        occupied = {h[1] for h in st.others}

        def land(v: int, base: dict, spent: int, cards: tuple) -> None:
            if not isl.is_field(v) or v in st.dragons:
                return
            cost = entry_cost(isl, v, st.tiles, self.free_set(st), self.me, st.partner,
                              occupied, self.treasure_left, self.carriers_cross_empty)
            if cost is None:
                return
            for k, left in self._payments(cards, st.tiles[v] if cost else None):
                fields = dict(base, leave=True)
                if k is not None:
                    fields["pay" if base["action"] == "flight" else "card"] = self._name(k)
                    fields["use"] = self.terrains[st.tiles[v]]
                out.append((Move(**fields), st._replace(at=v, mode=DONE, cards=left),
                            spent + (k is not None)))

        for v in isl.adj[st.at]:
            land(v, {"action": "step", "to": isl.names[v]}, 0, st.cards)
        if self.var["treasure-leave-by-flight"] == "allowed":
            for k in self._held(st, "flight"):
                for b, v in isl.flights(st.at):
                    if b not in st.dragons:
                        base = {"action": "flight", "card": self._name(k), "over": isl.names[b],
                                "to": isl.names[v]}
                        land(v, base, 1, _take(st.cards, k))
        return out

    def _held(self, st: TurnState, use: str) -> list[int]:
        """The kinds of card in hand that can be played for ``use``."""
        return [k for k in self.with_use[use] if st.cards[k]]

    def _name(self, k: int) -> str:
        return self.kinds[k][0].name

    # -- the position a turn leaves --------------------------------------------------------
    def position(self, st: TurnState, dragons_placed: Sequence[int] = ()) -> tuple[Position, int]:
        """The position after the turn ends in ``st`` and the treasures delivered (0 or 1);
        ``dragons_placed``: where the dragons set or lifted by patrols went (the player's
        choice, ``st.dragons_off`` of them, from :func:`dragon_sites`)."""
        pos, isl, me = self.q.position, self.isl, self.me
        hunters: dict[str, Hunter] = {}
        for colour, node, status, mate in st.others:
            if status == PAIR:
                hunters[colour] = Hunter(colour, node, mate)
            elif status == GUARDING:
                hunters[colour] = Hunter(colour, node, None, True)
            else:  # BOAT, WAIT, LONE: a place and nothing else
                hunters[colour] = Hunter(colour, node)
        treasure, delivered = pos.treasure, 0
        at, partner = st.at, st.partner
        if st.mode == DONE and self.q.goal == "boat":
            delivered = 1
            hunters[me] = Hunter(me, at)
            hunters[partner] = Hunter(partner, at)
        elif st.mode == DONE and partner:  # the second on the treasure field left with the pair
            hunters[me] = Hunter(me, at, partner)
            hunters[partner] = Hunter(partner, at, me)
            treasure = next_treasure(isl, pos.treasure)
        elif st.mode == DONE:  # the first on the treasure field waits there
            hunters[me] = Hunter(me, self.treasure_field)
        elif st.mode == CARRY:
            hunters[me] = Hunter(me, at, partner)
            hunters[partner] = Hunter(partner, at, me)
        elif st.mode == GUARD:
            hunters[me] = Hunter(me, at, None, True)
        else:
            hunters[me] = Hunter(me, at)
        tiles = [self.terrains[t] for t in st.tiles]
        return Position(isl, tiles, list(st.dragons) + list(dragons_placed), hunters,
                        treasure), delivered


def next_treasure(isl: Island, value: int | None) -> int | None:
    """The coin that comes up on the treasure field after the one worth ``value`` leaves it
    (None: the stack is empty)."""
    values = list(isl.model.coins["values"])
    if value is None or values.index(value) + 1 >= len(values):
        return None
    return values[values.index(value) + 1]


def _take(cards: tuple, k: int) -> tuple:
    return cards[:k] + (cards[k] - 1,) + cards[k + 1:]
