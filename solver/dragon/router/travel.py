"""How far the free tiles must travel: a refinement of the router's swap relaxation for hands
of three or more swap cards (``router.relax`` names the sources of one or two).

Free tiles are tokens. A field is free while it holds a tile of the hunter's own terrain or of
the terrain Weite Reise made free (played first in the turn, which never costs more, so the
free terrains are fixed for the whole turn). Follow free *status*, not tiles: a swap between a
free and a non-free field moves one token from the first to the second; any other swap moves
none. So each swap moves at most one token, a Zerstörende Kräfte one field along the island,
a Tosende Elemente anywhere; a token starts on a field whose printed tile is free (its origin)
and passes only fields that can be swapped (no dragon or hunter that cannot be sent away).

A joker of the relaxed route (an entry made free by swaps: a field whose printed tile is not
free, entered on a free tile) is entered while some token stands on it, and so is a paid field
of the continuation that a token (a swap at the end of the turn) frees. Take the relaxed route
to be the real route with its loops erased, each field's entry being its last one (the entry
from which the route goes on). Then:

* A token reaching a joker f by Zerstörende Kräfte alone has travelled at least the distance
  d(o, f) from its origin o; one at a and then at b at least d(o, a) + d(a, b). Its places
  come in time order: the entries in the relaxed route's order (erasing loops keeps the
  order of the last entries: the move after a field's last visit enters the next field of
  the erased route, whose last visit is no earlier), then the pair's way out of the treasure
  field (the turn's last move), then the end of the turn.
* A token counts as a new one from each Tosende Elemente that jumps it (a token jumped twice
  is two, each taking a Tosende Elemente of its own). Between its jump and the next, its
  jokers are distinct fields, all but one entered by a step of its own, and it travels at
  least d(a, b) between two of them.
* Two jokers the hunter enters one straight after the other hold different tokens: the hunter
  stands on the first until it moves on, and a field under the hunter is never swapped.
* A token that left its origin o leaves o without a free tile until it or another token comes
  back: the hunter enters o on it only before the joker it serves (and not straight before),
  and the continuation, should it pass o, pays there unless a token came back.
* A token stands still while the hunter stands on its field. Where the hunter goes straight
  on from f to o, entering o on the token from o that served f (it came back), the move
  straight after f's last entry enters o while the token is on f: on another tile, before
  o's last entry. Where the token from o serves a joker f entered straight from o, o being
  the hunter's first field: at o's last visit (where the relaxed route starts) the hunter
  came back to o on another tile (the token had left while it was away), or the hunter came
  back on it, or never left, and then the move straight after enters f while the token is
  on o, before f's last entry. Each such erased entry (a *side entry*) is paid with a card
  the relaxed route does not spend (a terrain card it leaves in hand: the card pays for the
  tile there, whatever it is), or made on another token: a place of that token, which must
  have come there (its order with the token's other places is left out).
* A token passes only fields that can be swapped: a field whose dragon or hunter is not sent
  away (a choice for the whole turn) holds them all turn, so the token goes around it. Where
  every way from o to f shorter than the way around such fields passes one of them, none of
  those is sent away, or the token took the way around.
* A joker paying with a card for a tile that is not its field's printed one (a tile a swap
  brought, of a terrain a card pays for: not free) at a field f whose printed tile is not
  free: the last swap touching f before the entry brought that tile from a field g where
  it was not free, so it moved a token only if f was free just before, and f's free tile
  was then a token that had come there (a place of it, "pass": before the hunter enters f,
  so before every later entry, the pair's way out and the end). Otherwise the swap moved no
  token, and as it touched two fields, it is the last swap touching f for at most two such
  jokers.

Each swap moves at most one token, so the travel so counted, plus one per teleported token,
plus the swaps that moved none (half the jokers above whose tile came with no token, at
least), is at most the number of swap cards played; a side entry paid adds a card to those
spent. (The swaps bringing a payable tile onto a field whose printed tile may be free, or
for the pair's way out, are left out of that count, and so are the continuation's tokens:
both only loosen the bound.)
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import networkx as nx

from solver.dragon.router.relax import continuation_entries, saved_twice, turn_ends

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import BoundedLinearExpression

    from solver.dragon.router.facts import Facts
    from solver.dragon.router.variables import Choice, Expr, RouterModel, Var

ANY_TILE = "any-tile"  # a relaxed payment: a card for the tile that replaced a free one


def travels(r: Facts) -> bool:
    """Does the refinement apply (three or more swap cards, none with another action)?"""
    n = r.swap_cards()
    return n >= 3 and r.count["swap-adjacent"] + r.count["swap-any"] == n


def _vacated(r: RouterModel, f: int) -> Choice | Expr | None:
    """Can f be swapped: 1 (nobody stays on it), the literals sending away whoever stands
    there (a dragon or another hunter), or None (they stay for the whole turn)."""
    if f in r.dragons:
        return r.patrol_moves.get(f)
    if f in r.lone:
        return r.fright_lone.get(f)
    if f in r.pairs:
        ways = [d[f] for d in (r.fright_pair, r.raid) if f in d]
        return sum(ways) if ways else None
    return 1


def token_travel(r: RouterModel) -> None:
    """Add the travel constraints (see the module text) to a relaxed router's model."""
    t = _Travel(r)
    L = r.layers[0]
    jokers = {}  # phase -> field -> the free-tile joker payment of an entry ("in") or of
    # the pair leaving the treasure field ("out", the turn's last move)
    for phase, paid in (("in", L.epaid), ("out", L.lpaid)):
        jokers[phase] = {f: x for (f, kind), x in paid.items() if kind == "swap"}
        for f, x in sorted(jokers[phase].items()):
            t.need(f, phase, [x])
    for f, pick in sorted(_continuation_tokens(r).items()):
        t.need(f, "end", [pick])
    t.payable_tiles_brought({f: x for (f, kind), x in L.epaid.items() if kind == "swap-pay"})
    t.side_entries()
    t.cards_for_side_entries()
    refills = {}  # own tile's origin on the continuation -> "another token is there at the end"
    for o in t.origins:
        if r.cont.ins[o] and r.tiles0[o] == r.own:
            refills[o] = r.m.NewBoolVar(f"refill_{o}")
            t.need(o, "end", [refills[o]])
    t.count_moves()
    t.one_place_at_the_end()
    t.two_places_one_token()
    t.no_token_follows_the_hunter(set(jokers["in"]))
    t.origins_left_behind()
    t.origins_on_the_continuation(refills)


def _continuation_tokens(r: RouterModel) -> dict[int, Var]:
    """For each paid field of the continuation, the literal "a token frees it at the end of
    the turn"; the relaxation's continuation tokens are at most their number (a field the
    continuation enters twice, in and out with the pair, counts twice)."""
    m = r.m
    picks, twice = {}, []
    for f, entries in continuation_entries(r).items():
        if not entries or r.tiles0[f] == r.own:
            continue
        pick = picks[f] = m.NewBoolVar(f"end_token_{f}")
        m.Add(pick <= sum(entries))
        twice += saved_twice(r, f, pick, "end_token")
    m.Add(r.tokens <= sum(picks.values()) + sum(twice))
    return picks


class _AtLeast:
    """The constraints "a token's travel is at least n", each made once."""

    def __init__(self, travel: Var) -> None:
        self.travel, self._made = travel, {}

    def __call__(self, n: int) -> BoundedLinearExpression:
        found = self._made.get(n)
        if found is None:
            found = self._made[n] = self.travel >= n
        return found


class _Travel:
    """The tokens of one relaxed model: for each token (("origin", o) until its first jump, or
    ("te", j) from Tosende Elemente j's jump until the next) the places it must be, each a
    (field, phase) with its literal: "in" where the hunter enters on it, "side" where the
    hunter enters on it in a loop the relaxed route leaves out, "out" where the pair leaving
    the treasure field steps on it, "end" where it stands at the end of the turn."""

    def __init__(self, r: RouterModel) -> None:
        self.r, self.m, self.isl = r, r.m, r.isl
        self.vacated = {f: _vacated(r, f) for f in self.isl.fields}
        self.ok = {f for f, cond in self.vacated.items() if cond is not None}
        self.graph = nx.Graph()  # the fields a token can pass
        self.graph.add_nodes_from(self.ok)
        self.graph.add_edges_from((f, g) for f in self.ok for g in self.isl.adj[f] if g in self.ok)
        # fields a token passes only once their dragon or hunter is sent away, each with the
        # literal "it stays" (true unless sent away)
        self.stays = {f: self._stays(f, cond) for f, cond in self.vacated.items()
                      if f in self.ok and not isinstance(cond, int)}
        L = r.layers[0]
        self.moves = [((u, v), x) for (u, v), x in L.steps.items()]
        self.moves += [((u, v), x) for (u, _b, v), x in L.flights.items()]
        self.ended = turn_ends(r)
        self.budget = r.swap_cards()
        self.n_any = r.count["swap-any"]
        own, long_journey = r.own, r.long_journey
        self.origins = {o: 1 if r.tiles0[o] == own else long_journey[r.tiles0[o]]
                        for o in sorted(self.ok) if r.origin(o)}
        self._apart: dict[int, dict] = {}
        self._around: dict[tuple, dict] = {}  # from o, around fields whose occupant may stay
        self.dist = {o: self.apart(o) for o in self.origins}
        self.travel = {o: self.m.NewIntVar(0, self.budget, f"travel_{o}")
                       for o in self.origins}
        self.places: dict[tuple, dict] = defaultdict(dict)  # token -> (field, phase) -> lit
        self._order: dict | None = None
        self._before: dict[tuple[int, int], Var] = {}  # (a, b), a < b -> "a is entered first"
        self._precedes: dict[tuple[int, int], BoundedLinearExpression] = {}
        self._entered: dict[int, Var] = {}
        self.idle: Var | int = 0  # swaps that moved no token (``payable_tiles_brought``)
        self.side_paid: list[Var] = []  # side entries paid with a card

    def _stays(self, f: int, cond: Choice | Expr) -> Var:
        """The literal "whoever stands on f stays" (true where ``cond``, sending them away,
        does not hold)."""
        stays = self.m.NewBoolVar(f"stays_{f}")
        self.m.Add(stays + cond >= 1)
        return stays

    def apart(self, f: int) -> dict[int, int]:
        """Neighbour swaps from f to each field (through fields that can be swapped)."""
        if f not in self._apart:
            self._apart[f] = nx.single_source_shortest_path_length(self.graph, f)
        return self._apart[f]

    def need(self, f: int, phase: str, xs: list, besides: int | None = None) -> None:
        """Where any of ``xs`` holds, some token (not the one from ``besides``) is at
        (f, phase)."""
        m, options = self.m, []
        for o, free in self.origins.items():
            d = self.dist[o].get(f)
            if not d or d > self.budget or o == besides:
                continue
            y = m.NewBoolVar(f"serves_{f}_{phase}_{o}")
            for cond in (free, self.vacated[o]):
                if not isinstance(cond, int):
                    m.Add(y <= cond)
            m.Add(self.travel[o] >= d).OnlyEnforceIf(y)
            self.around_the_occupied(o, f, d, y)
            self.places["origin", o][f, phase] = y
            options.append(y)
        for j in range(self.n_any):
            z = m.NewBoolVar(f"teleported_{f}_{phase}_{j}")
            self.places["te", j][f, phase] = z
            options.append(z)
        for x in xs:
            m.Add(sum(options) >= x)

    def around_the_occupied(self, o: int, f: int, d: int, y: Var) -> None:
        """The token from o at f (y) passes only fields that can be swapped: where the
        shortest ways pass fields whose dragon or hunter may be sent away, it goes around
        those that stay (see the module text)."""
        inner = set(self.stays) - {o, f}
        if not inner:
            return
        key = (o, frozenset(inner))
        if key not in self._around:
            around = self.graph.subgraph(set(self.graph) - inner)
            self._around[key] = nx.single_source_shortest_path_length(around, o)
        far = self._around[key].get(f, self.budget + 1)
        if far <= d:
            return
        # (a way through c is no shorter than d(o, c) + d(c, f))
        kept = [y] + [self.stays[c] for c in sorted(inner)
                      if self.dist[o].get(c, far) + self.apart(c).get(f, far) < far]
        if far > self.budget:
            self.m.AddBoolOr([lit.Not() for lit in kept])
        else:
            self.m.Add(self.travel[o] >= far).OnlyEnforceIf(kept)

    def payable_tiles_brought(self, brought: dict) -> None:
        """Jokers paying for a tile a swap brought (``brought``: field -> literal): a token
        stood on f just before that swap ("pass", a place of it), or the swap moved none
        (see the module text). Where f's printed tile may be free, its own token may have
        stood there: nothing is counted."""
        m, idle = self.m, []
        for f, x in sorted(brought.items()):
            if self.r.origin(f):
                continue
            passed = m.NewBoolVar(f"passed_{f}")
            m.Add(passed <= x)
            self.need(f, "pass", [passed])
            idle.append(x - passed)
        if idle:
            self.idle = m.NewIntVar(0, self.budget, "idle_swaps")
            m.Add(2 * self.idle >= sum(idle))

    def side_entries(self) -> None:
        """A side entry (see the module text) where the token from o serves a joker f and
        the hunter goes straight from o to f, o its first field, or straight from f back to
        o, entering o on that token: a card more, or another token at o ("side")."""
        m, r = self.m, self.r
        L = r.layers[0]
        straight = defaultdict(list)
        for arc, x in self.moves:
            straight[arc].append(x)
        for o in self.origins:
            first = o == r.start
            if not first and o not in L.efree:
                continue
            sides = []
            for (f, phase), y in list(self.places["origin", o].items()):
                arcs = straight[o, f] if first else straight[f, o]
                if phase != "in" or not arcs:
                    continue
                side = m.NewBoolVar(f"side_{o}_{f}")
                conds = [y] if first else [y, L.efree[o]]
                m.Add(side >= sum(conds) + sum(arcs) - len(conds))
                sides.append((f, side))
            if not sides:
                continue
            entry = self.side_entry(o)
            for f, side in sides:
                # (at the first field: back on another tile, or a side entry into f)
                m.Add(entry + (self.side_entry(f, besides=o) if first else 0) >= side)

    def side_entry(self, f: int, besides: int | None = None) -> Expr:
        """The expression "a side entry into f (see the module text)": on a token (not the
        one from ``besides``), or paid with a card of its own (charged)."""
        m = self.m
        token, paid = m.NewBoolVar(f"side_token_{f}"), m.NewBoolVar(f"side_paid_{f}")
        self.need(f, "side", [token], besides)
        self.r.charge_cards(paid)
        self.side_paid.append(paid)
        return token + paid

    def cards_for_side_entries(self) -> None:
        """A side entry paid takes a terrain card that the relaxed route leaves in hand
        (cards of kinds paying for some terrain, less those the relaxed route plays)."""
        if not self.side_paid:
            return
        r = self.r
        payers = {k for t, ks in r.can_pay.items() if t != r.own for k in ks}
        spare = [n - sum(x for (k2, _key), x in r.use.items() if k2 == k)
                 for k, (_card, n) in enumerate(r.kinds) if k in payers]
        self.m.Add(sum(self.side_paid) <= sum(spare))

    def count_moves(self) -> None:
        """Each swap moves at most one token: the travel, and one jump per teleported token,
        take at most the swap cards played. Between its jump and the next, a token moves by
        neighbour swaps: d(a, b) between two of its fields, and each further field one."""
        m, r = self.m, self.r
        moves = list(self.travel.values())
        for j in range(self.n_any):
            places = self.places["te", j]
            if not places:
                continue
            used = m.NewBoolVar(f"teleport_{j}")
            at = defaultdict(list)
            for (f, _phase), z in places.items():
                m.Add(used >= z)
                at[f].append(z)
            fields = {}
            for f, zs in at.items():
                fields[f] = zs[0]
                if len(zs) > 1:
                    fields[f] = m.NewBoolVar(f"teleported_{f}_{j}")
                    for z in zs:
                        m.Add(fields[f] >= z)
            after = m.NewIntVar(0, self.budget, f"travel_te_{j}")
            m.Add(after >= sum(fields.values()) - 1)
            pairs = list(fields.items())
            for i, (a, za) in enumerate(pairs):
                for b, zb in pairs[i + 1:]:
                    need = self.apart(a).get(b, self.budget + 1)
                    if need >= self.budget:  # (after <= budget - 1: the jump is one)
                        m.AddBoolOr([za.Not(), zb.Not()])
                    elif need > 1:
                        m.Add(after >= need * (za + zb - 1))
            moves += [used, after]
        played = sum(x for (k, key), x in r.use.items()
                     if k in r.swap_kinds and key in ("credit", "waste"))
        m.Add(sum(moves) + self.idle <= played)

    def one_place_at_the_end(self) -> None:
        """A token stands on one field at the end of the turn: on the field the turn ends
        on, if the hunter entered that field on it."""
        m, ended = self.m, self.ended
        for places in self.places.values():
            ends = {f: y for (f, phase), y in places.items() if phase == "end"}
            if not ends:
                continue
            somewhere = sum(ends.values())
            m.Add(somewhere <= 1)
            for (v, phase), y in places.items():
                if phase == "in" and ended[v]:
                    m.Add(y + sum(ended[v]) + somewhere - ends.get(v, 0) <= 2)

    def two_places_one_token(self) -> None:
        """The token from o at fields a and b, in that order, travels d(o, a) + d(a, b) at
        least (never, when b is out of its reach). Its place where the hunter enters a field
        comes before its place on the pair's way out (the turn's last move), which comes
        before its place at the end; two entries come in the route's order (positions along
        the relaxed route, which keeps the order of the real route's last entries).

        (Tens of thousands of pairs on a hand of three swap cards: the loop adds to the
        model directly, with each expression made once.)"""
        m, budget = self.m, self.budget
        exclude = m.add_bool_or  # (the camel-case names add a wrapper's call to each)
        rank = {"in": 0, "pass": 0, "out": 1, "end": 2}
        for o in self.origins:
            dist = self.dist[o]
            at_least = _AtLeast(self.travel[o])
            places = [(a, pa, ya, ya.Not(), dist[a], self.apart(a))
                      for (a, pa), ya in self.places["origin", o].items()
                      if pa in rank]  # (at a side entry: only its way there counts)
            for i, (a, pa, ya, not_a, da, from_a) in enumerate(places):
                for b, pb, yb, not_b, db, _ in places[i + 1:]:
                    if a == b or pa == pb and pa in ("end", "pass"):
                        continue  # (one place at the end; two places passed: left out)
                    dab = from_a.get(b)
                    if dab is None:
                        exclude([not_a, not_b])
                        continue
                    if pa == pb == "in" and da != db:
                        self._two_entries(o, at_least, (a, ya, not_a, da), (b, yb, not_b, db),
                                          dab)
                        continue
                    if (pa == "pass" and pb == "in" or pa == "in" and pb == "pass") and (
                            da > db) == (pa == "pass"):
                        # (a token passing a before the hunter enters a: then at b, if the
                        # route enters b after a; in either order otherwise)
                        passed, entry = ((a, ya, not_a, da), (b, yb, not_b, db)) if (
                            pa == "pass") else ((b, yb, not_b, db), (a, ya, not_a, da))
                        self._two_entries(o, at_least, passed, entry, dab, dab + min(da, db))
                        continue
                    first = min(da, db) if rank[pa] == rank[pb] else (
                        da if rank[pa] < rank[pb] else db)
                    need = dab + first
                    if need > budget:
                        exclude([not_a, not_b])
                    elif need > max(da, db):
                        m.add(at_least.travel >= need * (ya + yb - 1))

    def _two_entries(self, o: int, at_least: _AtLeast, a: tuple, b: tuple, dab: int,
                     b_first: int | None = None) -> None:
        """The token from o where the hunter enters a and b: d(o, a) + d(a, b) if a comes
        first in the route, d(o, b) + d(a, b) if b does. Given ``b_first``, the token passed
        a before the hunter entered it (``payable_tiles_brought``): d(o, a) + d(a, b) if the
        route enters a first, ``b_first`` if it enters b first. ``a`` and ``b``: each field,
        the token's literal there and its negation, d(o, field); ``at_least``: o's travel."""
        m = self.m
        (fa, ya, not_a, da), (fb, yb, not_b, db) = a, b
        if b_first is None:
            self.positions()  # (made before the literal: the model's order of variables)
            a_first = m.new_bool_var(f"first_{o}_{fa}_{fb}")
            b_first_lit = a_first.Not()
            m.add(self.precedes(fa, fb)).only_enforce_if([ya, yb, a_first])
            m.add(self.precedes(fb, fa)).only_enforce_if([ya, yb, b_first_lit])
            b_first = dab + db
        else:
            a_first = self.before(fa, fb)
            b_first_lit = a_first.Not()
        for need, which, not_which in ((dab + da, a_first, b_first_lit),
                                       (b_first, b_first_lit, a_first)):
            if need > self.budget:
                m.add_bool_or([not_a, not_b, not_which])
            elif need > max(da, db):
                m.add(at_least(need)).only_enforce_if([ya, yb, which])

    def precedes(self, a: int, b: int) -> BoundedLinearExpression:
        """The constraint "the relaxed route's position at a is before b's" (made once)."""
        key = (a, b)
        found = self._precedes.get(key)
        if found is None:
            order = self.positions()
            found = self._precedes[key] = order[a] + 1 <= order[b]
        return found

    def before(self, a: int, b: int) -> Var:
        """The literal "the route enters a before b" (one for each two fields, shared by the
        tokens; it says something only where the route enters both)."""
        key = (min(a, b), max(a, b))
        if key not in self._before:
            m = self.m
            self.positions()  # (made before the literal: the model's order of variables)
            lit = self._before[key] = m.NewBoolVar(f"before_{key[0]}_{key[1]}")
            both = [self.entered(f) for f in key]
            m.Add(self.precedes(*key)).OnlyEnforceIf(both + [lit])
            m.Add(self.precedes(key[1], key[0])).OnlyEnforceIf(both + [lit.Not()])
        lit = self._before[key]
        return lit if a < b else lit.Not()

    def entered(self, f: int) -> Var:
        """The literal "the route enters f" (made once)."""
        if f not in self._entered:
            self._entered[f] = self.m.NewBoolVar(f"entered_{f}")
            self.m.Add(self._entered[f] == sum(self.r.layers[0].ents[f]))
        return self._entered[f]

    def no_token_follows_the_hunter(self, jokers: set[int]) -> None:
        """Two jokers entered one straight after the other hold different tokens."""
        m = self.m
        for (u, v), x in self.moves:
            if u not in jokers or v not in jokers:
                continue
            for places in self.places.values():
                if (u, "in") in places and (v, "in") in places:
                    m.Add(places[u, "in"] + places[v, "in"] + x <= 2)

    def origins_left_behind(self) -> None:
        """Where the token from o is at a joker f, the hunter enters o free on it only before
        f, and not straight before f; entering o on it after f, the token came back (travel
        2 d(o, f) at least). Entered on another token, o is a joker of its own; entered on the
        tile that replaced the token, a card pays (``ANY_TILE``). A token the hunter enters o
        on leaves o only after the hunter: never, if the turn ends there."""
        m, r = self.m, self.r
        L = r.layers[0]
        order = self.positions()
        straight = defaultdict(list)
        for arc, x in self.moves:
            straight[arc].append(x)
        ends = self.ended
        for o in self.origins:
            free = L.efree.get(o)
            if free is None or o == r.start:
                continue
            for (f, phase), y in self.places["origin", o].items():
                if phase == "end":
                    # the token leaves o after the hunter: not if the turn ends there
                    if ends[o]:
                        m.Add(y + free + sum(ends[o]) <= 2)
                if phase != "in":
                    continue
                if straight[o, f]:
                    m.Add(y + free + sum(straight[o, f]) <= 2)
                early = m.NewBoolVar(f"early_{o}_{f}")
                m.Add(order[o] + 1 <= order[f]).OnlyEnforceIf([y, free, early])
                m.Add(self.travel[o] >= 2 * self.dist[o][f]).OnlyEnforceIf(
                    [y, free, early.Not()])

    def positions(self) -> dict:
        """Position numbers along the relaxed route: larger on every move's far end (made
        once, shared)."""
        if self._order is not None:
            return self._order
        m = self.m
        n = len(self.isl.names)
        order = {v: m.NewIntVar(0, n, f"pos_{v}") for v in range(n)}
        m.Add(order[self.r.start] == 0)
        for (u, v), x in self.moves:
            m.Add(order[v] >= order[u] + 1).OnlyEnforceIf(x)
        self._order = order
        return order

    def origins_on_the_continuation(self, refills: dict) -> None:
        """An origin o of the own terrain whose token left ends the turn without it unless
        the token came back (travel 2 d(o, f) at least for each joker f it was at; not from
        its place at the end) or another token came: else the continuation, passing o, pays
        there. (The continuation pays for Weite Reise's terrain anyway.)"""
        m, r = self.m, self.r
        charged = []
        for o, refill in refills.items():
            places = self.places["origin", o]
            if not places:
                continue
            gone = m.NewBoolVar(f"left_{o}")
            back = m.NewBoolVar(f"back_{o}")
            for (f, phase), y in places.items():
                m.Add(gone >= y)
                if phase == "end":
                    m.Add(back + y <= 1)
                else:
                    m.Add(self.travel[o] >= 2 * self.dist[o][f]).OnlyEnforceIf([back, y])
            charge = m.NewBoolVar(f"charge_{o}")
            m.Add(charge + back + refill >= gone + sum(r.cont.ins[o]) - 1)
            charged.append(charge)
        r.charge_remaining(sum(charged))
