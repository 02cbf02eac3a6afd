"""Where a relaxed joker's tile comes from: two refinements of the router's swap relaxation.

In the relaxation (``CpRouter(relax_swaps=True)``) a swap card may pay for entering a field f
like a joker, standing for a real swap that brings a free tile (or one a card can pay for) onto
f just before the entry. Naming the field g the tile comes from makes the relaxation tighter.

``single_swap_sources``, for a hand whose one swap card is a Zerstörende Kräfte (a Tosende
Elemente finds a free tile almost anywhere, so naming it gains little), keeps it a relaxation
of the routes it must bound: those with one swap that no route with fewer swaps matches (the
previous round bounds those). Take such a route, with the swap (f, g) and the joker on f:

* g holds its printed tile (there is no other swap) and is not the field the hunter enters f
  from: the hunter stands there while swapping.
* g is not entered after f, nor is it the first field entered after the swap: there it would
  pay for f's old tile, and not swapping at all pays the same cards for the two entries, the
  swap card less, with the same continuation (an optimal continuation never passes a field the
  turn entered, or the turn could have ended there).
* Should the continuation pass g, it pays there for f's old tile.
* A swap card kept for the end of the turn (a token taking one paid field off the
  continuation) is a swap (f, g) with f a paid field of the continuation and g a free printed
  tile neither under the hunter nor on the continuation (there it would cost what it saves).
  Not so when a hunter waits on the treasure field: the continuation may then enter a field
  beside it twice (in, and out with the pair), and freeing it saves two cards.

``last_joker_sources``, for a hand of two Zerstörende Kräfte, uses that every argument above
is about the turn's last swap (f, g) alone: nothing changes its two tiles afterwards. So the
last swap's joker comes after every other joker and obeys the same rules, except that the tile
on g may have come from a neighbour h of g by the first swap, which was then played for an
entry into g or h or thrown away. The first swap's joker takes a printed tile from beside f
(nothing was swapped before it); that field then holds f's old tile, so after f it can only
be entered through the last swap's joker, never free. When the last swap serves the pair
leaving the treasure field or the continuation (a token), only the general rules apply.

The order of entries is kept by position numbers along the route (o[v] > o[u] on every move
u -> v). ``strict_sources`` asks more (g never entered, each g used once, no occupant): no
longer a relaxation, it only proposes routes that ``route_repair`` can turn into real ones.
"""

from __future__ import annotations

from collections import defaultdict

JOKERS = ("swap", "swap-pay")  # the relaxation's swap cards standing in for a payment


def _candidates(router, f: int, kind: str, same_ok: bool = False) -> list[tuple[int, object]]:
    """Fields g whose printed tile a swap could bring onto f for this kind of joker, each with
    its condition (1, or a Weite Reise choice making the tile free). A tile like f's own is
    left out unless ``same_ok`` (after another swap, f may no longer hold its printed tile)."""
    isl = router.isl
    pool = isl.fields if router.count["swap-any"] else isl.adj[f]
    out = []
    for g in pool:
        if g == f or not isl.is_field(g):
            continue
        t = router.tiles0[g]
        if t == router.tiles0[f] and not same_ok:
            continue
        if kind == "swap":
            ok = 1 if t == router.own else router.lj.get(t)
        else:
            ok = 1 if t != router.own and router.can_pay[t] else None
        if ok is not None:
            out.append((g, ok))
    return out


def _jokers(router):
    """(field, kind, variable) of every joker payment of an entry (not of leaving the
    treasure field, which ends the turn: nothing is entered after it)."""
    L = router.layers[0]
    return [(f, kind, x) for (f, kind), x in L.epaid.items() if kind in JOKERS]


class _Sources:
    """Position numbers along the relaxed route, and the constraints a joker's named source
    g must meet (see the module text)."""

    def __init__(self, router) -> None:
        m, isl = router.m, router.isl
        L = router.layers[0]
        n = len(isl.names)
        self.router, self.m = router, m
        self.order = {v: m.NewIntVar(0, n, f"o{v}") for v in range(n)}
        m.Add(self.order[router.start] == 0)
        self.arcs_into = defaultdict(list)  # f -> [(from, arc)]
        for (u, v), x in L.steps.items():
            m.Add(self.order[v] >= self.order[u] + 1).OnlyEnforceIf(x)
            self.arcs_into[v].append((u, x))
        for (u, _b, v), x in L.flights.items():
            m.Add(self.order[v] >= self.order[u] + 1).OnlyEnforceIf(x)
            self.arcs_into[v].append((u, x))
        home = isl.boat_node[router.q.hunter]
        for u, x in L.teleports.items():
            m.Add(self.order[home] >= self.order[u] + 1).OnlyEnforceIf(x)
        self.entered = L.ents
        self.cont_in = router.cont.ins
        self.is_entered: dict[int, object] = {}
        self.charged: list = []

    def entered_flag(self, g: int):
        if g not in self.is_entered:
            self.is_entered[g] = self.m.NewBoolVar(f"in_{g}")
            self.m.Add(self.is_entered[g] == sum(self.entered[g]))
        return self.is_entered[g]

    def source(self, f: int, g: int, name: str):
        """A named source g of the joker on f: not under the hunter, not entered after f, and
        paid for on the continuation."""
        m = self.m
        y = m.NewBoolVar(name)
        from_g = [a for u, a in self.arcs_into[f] if u == g]
        if from_g:
            m.Add(y + sum(from_g) <= 1)
        if self.entered[g]:
            m.Add(self.order[g] + 1 <= self.order[f]).OnlyEnforceIf([y, self.entered_flag(g)])
        if self.cont_in[g]:  # g now holds f's tile: the continuation pays for it
            z = m.NewBoolVar(f"pay_{name}")
            m.Add(z >= y + sum(self.cont_in[g]) - 1)
            self.charged.append(z)
        return y

    def finish(self) -> None:
        self.router.rem = self.router.rem + sum(self.charged)


def single_swap_sources(router) -> None:
    """Each joker names the field its tile comes from (see the module text)."""
    src = _Sources(router)
    m = router.m
    for f, kind, x in _jokers(router):
        options = []
        for g, ok in _candidates(router, f, kind):
            y = src.source(f, g, f"src_{f}_{kind}_{g}")
            if not isinstance(ok, int):
                m.Add(y <= ok)
            options.append(y)
        m.Add(sum(options) == x)
    src.finish()
    if not (router.waiter and not router.carrying):
        _token_sources(router)


def last_joker_sources(router) -> None:
    """Two Zerstörende Kräfte (see the module text): when the turn's last swap serves an entry,
    that joker comes after every other and names its source g, with g's printed tile or, when
    both swap cards are played, a tile the first swap brought onto g from a neighbour h."""
    src = _Sources(router)
    m, isl = router.m, router.isl
    jokers = _jokers(router)
    joker_at = defaultdict(list)
    for f, _kind, x in jokers:
        joker_at[f].append(x)
    thrown = m.NewBoolVar("thrown")  # a swap card played with no joker or token of its own
    m.Add(thrown <= router.waste)
    lasts = []
    last_at = m.NewIntVar(0, len(isl.names), "last_at")  # the last joker's position
    for f, kind, x in jokers:
        last = m.NewBoolVar(f"last_{f}_{kind}")
        m.Add(last <= x)
        lasts.append(last)
        m.Add(src.order[f] == last_at).OnlyEnforceIf(last)
        # every other joker's swap, and entry, came first
        m.Add(src.order[f] + 1 <= last_at).OnlyEnforceIf([x, last.Not()])
        direct = dict(_candidates(router, f, kind, same_ok=True))
        options = []
        for g in isl.adj[f]:
            if not isl.is_field(g):
                continue
            if g in direct:
                y = src.source(f, g, f"src_{f}_{kind}_{g}")
                if not isinstance(direct[g], int):
                    m.Add(y <= direct[g])
                options.append(y)
            chained = [(h, ok) for h, ok in _candidates(router, g, kind, same_ok=True)
                       if h != f]
            if chained:
                # the first swap (g, h) was played for an entry into g or h, or thrown away
                y = src.source(f, g, f"chain_{f}_{kind}_{g}")
                first = joker_at[g] + [x2 for h, _ok in chained for x2 in joker_at[h]]
                m.Add(y <= sum(first) + thrown)
                if all(not isinstance(ok, int) for _h, ok in chained):
                    m.Add(y <= sum(ok for _h, ok in chained))
                options.append(y)
        m.Add(sum(options) >= last)
        # the first swap's joker: a printed tile from beside f; its field now holds f's old
        # tile, so it is entered free after f only by the last swap's joker (not free)
        free_entry = router.layers[0].efree
        firsts = []
        for g, ok in _candidates(router, f, kind):
            y = m.NewBoolVar(f"first_{f}_{kind}_{g}")
            if not isinstance(ok, int):
                m.Add(y <= ok)
            if g in free_entry:
                m.Add(src.order[g] + 1 <= src.order[f]).OnlyEnforceIf([y, free_entry[g]])
            firsts.append(y)
        m.Add(sum(firsts) >= x - last)
    m.Add(sum(lasts) <= 1)
    if router.min_swaps >= 1:
        # the last swap serves an entry (above), the pair leaving the treasure field, or the
        # continuation (a token); any other last swap is matched by a route without it
        escapes = []
        # (a joker on leaving into a field the pair entered by a joker needs no swap of its
        # own: the tile is still there)
        for (h, kind), x in router.layers[0].lpaid.items():
            if kind in JOKERS:
                by_leave = m.NewBoolVar(f"last_leave_{h}_{kind}")
                m.Add(by_leave <= x)
                if joker_at[h]:
                    m.Add(by_leave + sum(joker_at[h]) <= 1)
                escapes.append(by_leave)
        by_token = m.NewBoolVar("last_token")
        m.Add(by_token <= router.tokens)
        escapes.append(by_token)
        m.Add(sum(lasts) + sum(escapes) >= 1)
    src.finish()


def _token_sources(router) -> None:
    """The token's swap: a paid continuation field f and a free printed tile g beside it (or
    anywhere, with Tosende Elemente) off the continuation and not under the hunter."""
    m, isl = router.m, router.isl
    cont_in = router.cont.ins
    ends = defaultdict(list)
    for L in router.layers:
        for v, x in L.end.items():
            ends[v].append(x)
    free_tiles = [g for g in isl.fields if router.tiles0[g] == router.own]
    free_set = set(free_tiles)
    picks = []
    for f in isl.fields:
        if not cont_in[f] or router.tiles0[f] == router.own:
            continue
        pool = free_tiles if router.count["swap-any"] else [
            g for g in isl.adj[f] if g in free_set]
        sources = []
        for g in pool:
            y = m.NewBoolVar(f"tsrc_{f}_{g}")
            m.Add(y + sum(cont_in[g]) + sum(ends[g]) <= 1)
            sources.append(y)
        pick = m.NewBoolVar(f"tok_{f}")
        m.Add(pick <= sum(cont_in[f]))
        m.Add(pick <= sum(sources))
        picks.append(pick)
    m.Add(router.tokens <= sum(picks))


def strict_sources(router) -> None:
    """Every joker names its partner field: unoccupied, never entered by the route, not the
    start, each partner used once (see the module text)."""
    m = router.m
    entered = router.layers[0].ents
    taken = set(router.dragons) | set(router.lone) | set(router.pairs) | {router.start}
    used_as_source = defaultdict(list)
    far = []  # sources not beside their field: each needs a Tosende Elemente
    L = router.layers[0]
    jokers = [(f, kind, x) for (f, kind), x in L.paid_items() if kind in JOKERS]
    for f, kind, x in jokers:
        options = []
        for g, ok in _candidates(router, f, kind):
            if g in taken:
                continue
            y = m.NewBoolVar(f"src_{f}_{kind}_{g}_{len(options)}")
            if not isinstance(ok, int):
                m.Add(y <= ok)
            if entered[g]:
                m.Add(y + sum(entered[g]) <= 1)
            used_as_source[g].append(y)
            options.append(y)
            if g not in router.isl.adj[f]:
                far.append(y)
        m.Add(sum(options) == x)
    for ys in used_as_source.values():
        m.Add(sum(ys) <= 1)
    if far:
        m.Add(sum(far) <= router.count["swap-any"])
