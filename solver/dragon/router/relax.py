"""Where a relaxed joker's tile comes from: refinements of the router's swap relaxation.

In the relaxation (``CpRouter(relax_swaps=True)``) a swap card may pay for entering a field f
like a joker, standing for a real swap that brings a free tile (or one a card can pay for) onto
f just before the entry, or take a paid field off the continuation (a token). Naming the field
g the tile comes from makes the relaxation tighter.

``swap_sources``, for a hand of one or two swap cards (Zerstörende Kräfte swaps neighbours,
Tosende Elemente any two fields), keeps it a relaxation of the routes it must bound: those
with at least one swap that no route with fewer swaps matches (the previous round bounds
those). Take such a route and its last swap (f, g) in time: nothing changes f or g afterwards.
It serves the first entry into f or g after it (call that field f), the pair leaving the
treasure field, or the continuation (a token); a swap serving none of them can be dropped,
and it serves one of them only (after it g holds f's old tile, which is not free). When it
serves the entry into f:

* g is not the field the hunter enters f from: the hunter stood there while swapping, or it
  entered g after the swap too.
* g is not entered after f: g then holds f's old tile, and not swapping at all pays the same
  cards for the two entries, the swap card less, with the same continuation (an optimal
  continuation never passes a field the turn entered, or the turn could have ended there).
* Should the continuation pass g, it pays there for f's old tile.
* No dragon or other hunter stands on g (unless sent away), as on any swapped field.
* g's tile before the swap is printed, or it came with the first swap (g, h) from h. That
  first swap is a card of its own: it served an entry into g (before f) or h, the pair
  leaving into h, a token on h, or nothing (thrown away); no other joker has a swap left.
  h now holds g's old tile, so the hunter enters h free only before f, and then not
  straight before f: it stood on h during the first swap otherwise (or came back to h,
  paying for g's old tile there, where paying for it on f saves that swap).

A Zerstörende Kräfte takes g (and h) beside f (beside g); a Tosende Elemente anywhere, and
then the source is not named (there is almost always a fitting tile somewhere); each such far
swap takes a Tosende Elemente of its own. With two swap cards the other joker, if any, is
served by the first swap (f1, g1): f1 receives g1's printed tile. The hunter does not stand on
g1 during that swap, so if it enters g1 free (on its printed tile: after the swap g1 holds
f1's old tile, which is not free) it does so before f1, and not straight before f1; the
continuation pays on g1 (or a token frees it again). No two swaps take the printed tile of the
same field, and a printed tile for the last swap means the first swap did not touch its field.
Nothing is claimed about the order of the two jokers' entries: the first swap's joker may well
be entered after the last swap's.

A token is a swap (f, g) with f a paid field of the continuation and g a free printed tile
beside f (or anywhere, with Tosende Elemente) off the continuation (there it would cost what it
saves). If the turn ends on g, the swap came before the hunter entered g, which then paid for
f's tile. With two swap cards g may instead have received its free tile from h by the first
swap, which then served at most an entry into g: the last swap is then the token's, and it
serves no joker. With a hunter waiting on the treasure field the continuation may enter a
field beside it twice (in, and out with the pair): freeing that field saves two cards.

The order of entries is kept by position numbers along the route (o[v] > o[u] on every move
u -> v). ``strict_sources`` asks more (g never entered, each g used once, no occupant): no
longer a relaxation, it only proposes routes that ``router.repair`` can turn into real ones.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from solver.dragon.board import Island
    from solver.dragon.router.variables import Choice, Expr, RouterModel, Var

JOKERS = ("swap", "swap-pay")  # the relaxation's swap cards standing in for a payment


def _candidates(r: RouterModel, f: int, kind: str, same_ok: bool = False,
                pool: list[int] | None = None) -> list[tuple[int, Choice]]:
    """Fields g (of ``pool``; by default beside f, or anywhere with Tosende Elemente in hand)
    whose printed tile a swap could bring onto f for this kind of joker, each with its
    condition (1, or a Weite Reise choice making the tile free). A tile like f's own is left
    out unless ``same_ok`` (after another swap, f may no longer hold its printed tile)."""
    isl = r.isl
    if pool is None:
        pool = isl.fields if r.count["swap-any"] else isl.adj[f]
    out = []
    for g in pool:
        if g == f or not isl.is_field(g):
            continue
        t = r.tiles0[g]
        if t == r.tiles0[f] and not same_ok:
            continue
        if kind == "swap":
            ok = 1 if t == r.own else r.long_journey.get(t)
        else:
            ok = 1 if t != r.own and r.can_pay[t] else None
        if ok is not None:
            out.append((g, ok))
    return out


def _require(m: cp_model.CpModel, y: Var, cond: Choice | Expr) -> None:
    """y only where ``cond`` holds: a constant (0 forbids y, 1 leaves it free) or a sum of
    literals (y <= cond)."""
    if isinstance(cond, int):
        if not cond:
            m.Add(y == 0)
    else:
        m.Add(y <= cond)


def _either(m: cp_model.CpModel, oks: list[Choice], name: str) -> Choice | None:
    """A literal true when any of the conditions ``oks`` may hold (None when none can)."""
    if not oks:
        return None
    if any(isinstance(ok, int) for ok in oks):
        return 1
    y = m.NewBoolVar(name)
    m.Add(y <= sum(oks))
    return y


def _jokers(r: RouterModel) -> list[tuple[int, str, Var]]:
    """(field, kind, variable) of every joker payment of an entry (not of leaving the
    treasure field, which ends the turn: nothing is entered after it)."""
    L = r.layers[0]
    return [(f, kind, x) for (f, kind), x in L.epaid.items() if kind in JOKERS]


class _Sources:
    """Position numbers along the relaxed route, and the constraints a joker's named source
    g must meet (see the module text)."""

    def __init__(self, r: RouterModel) -> None:
        m, isl = r.m, r.isl
        L = r.layers[0]
        n = len(isl.names)
        self.r, self.m = r, m
        self.order = {v: m.NewIntVar(0, n, f"o{v}") for v in range(n)}
        m.Add(self.order[r.start] == 0)
        self.arcs_into = defaultdict(list)  # f -> [(from, arc)]
        for (u, v), x in L.steps.items():
            m.Add(self.order[v] >= self.order[u] + 1).OnlyEnforceIf(x)
            self.arcs_into[v].append((u, x))
        for (u, _b, v), x in L.flights.items():
            m.Add(self.order[v] >= self.order[u] + 1).OnlyEnforceIf(x)
            self.arcs_into[v].append((u, x))
        home = isl.boat_node[r.q.hunter]
        for u, x in L.teleports.items():
            m.Add(self.order[home] >= self.order[u] + 1).OnlyEnforceIf(x)
        self.entered = L.ents
        self.free_entry = L.efree
        self.cont_in = r.cont.ins
        self.is_entered: dict[int, object] = {}
        self.charged: list = []
        self.jokers = _jokers(r)
        self.joker_at: dict[int, list] = defaultdict(list)
        for f, _kind, x in self.jokers:
            self.joker_at[f].append(x)
        self.leaves = [(h, kind, x) for (h, kind), x in L.lpaid.items() if kind in JOKERS]
        self._joker_count = None
        self.far_uses: list = []  # swaps between fields apart: each takes a Tosende Elemente
        self.chains: list = []  # (option, g, the fields h) of each chained source
        self.token_at: dict[int, object] = {}  # field -> the token on it
        self.lasts: list = []  # the joker served by the last swap (one of them, at most)
        # sources giving their printed tile (no two swaps can), those of the last swap apart
        self.printed_at: dict[int, list] = defaultdict(list)
        self.last_printed_at: dict[int, list] = defaultdict(list)

    def entered_flag(self, g: int) -> Var:
        if g not in self.is_entered:
            self.is_entered[g] = self.m.NewBoolVar(f"in_{g}")
            self.m.Add(self.is_entered[g] == sum(self.entered[g]))
        return self.is_entered[g]

    def vacant(self, y: Var, g: int) -> None:
        """A swap with g (chosen by y) needs g free of dragons and other hunters."""
        _require(self.m, y, self.r.may_enter(g))

    def joker_count(self) -> Var:
        """How many entries the relaxed route pays with a joker (one variable, shared)."""
        if self._joker_count is None:
            self._joker_count = self.m.NewIntVar(0, len(self.r.isl.names), "jokers")
            self.m.Add(self._joker_count == sum(x for _f, _k, x in self.jokers))
        return self._joker_count

    def from_g(self, f: int, g: int) -> list:
        """The moves entering f straight from g."""
        return [a for u, a in self.arcs_into[f] if u == g]

    def source(self, f: int, g: int, name: str, printed: bool = True) -> Var:
        """A source g of the last swap's joker on f: not under the hunter, not entered after
        f, and paid for on the continuation. ``printed``: g gives its printed tile."""
        m = self.m
        y = m.NewBoolVar(name)
        self.vacant(y, g)
        if printed:
            self.printed_at[g].append(y)
            self.last_printed_at[g].append(y)
        from_g = self.from_g(f, g)
        if from_g:
            m.Add(y + sum(from_g) <= 1)
        if self.entered[g]:
            m.Add(self.order[g] + 1 <= self.order[f]).OnlyEnforceIf([y, self.entered_flag(g)])
        self.charge(y, g, name)
        return y

    def charge(self, y: Var, g: int, name: str) -> None:
        """g now holds f's old tile (not free), which the continuation pays for should it
        pass g; a printed tile of another terrain than the own is paid for there already."""
        r = self.r
        if self.cont_in[g] and r.tiles0[g] == r.own:
            z = self.m.NewBoolVar(f"pay_{name}")
            self.m.Add(z >= y + sum(self.cont_in[g]) - 1)
            self.charged.append(z)

    def first_source(self, f: int, g: int, name: str) -> Var:
        """A source g of the first swap's joker on f: entered free (on its printed tile) only
        before f, and then not straight before f; paid for on the continuation."""
        m = self.m
        y = m.NewBoolVar(name)
        self.vacant(y, g)
        self.printed_at[g].append(y)
        self.free_only_before(y, g, f)
        self.charge(y, g, name)  # (unless the last swap frees g again: a token pays that)
        return y

    def free_only_before(self, y: Var, g: int, f: int) -> None:
        """Where y holds, g gave its printed tile away by a swap made before f's entry, so the
        hunter enters g free only before f, and then not straight before f (see the module
        text). The hunter's first field counts as entered free at the start: unless it comes
        back to g, it leaves g before the swap, so it never reaches f straight from g."""
        from_g = self.from_g(f, g)
        if g == self.r.start and from_g:
            back = self.entered_flag(g) if self.entered[g] else 0
            self.m.Add(y + sum(from_g) <= 1 + back)
        free = self.free_entry.get(g)
        if free is None:
            return
        self.m.Add(self.order[g] + 1 <= self.order[f]).OnlyEnforceIf([y, free])
        if from_g:
            self.m.Add(y + free + sum(from_g) <= 2)

    def finish(self) -> None:
        self.r.charge_remaining(sum(self.charged))


def swap_sources(r: RouterModel) -> None:
    """One or two swap cards of either kind: the last swap's joker names its source; with two
    cards the other joker takes a printed tile (see the module text)."""
    src = _Sources(r)
    m = r.m
    n_adjacent, n_any = r.count["swap-adjacent"], r.count["swap-any"]
    two = n_adjacent + n_any == 2
    # is the last swap a Tosende Elemente? (with two cards the first is then the other one)
    if n_any and n_adjacent:
        any_last = m.NewBoolVar("any_last")
    else:
        any_last = 1 if n_any else 0
    any_first = n_any - any_last if two else 0
    jokers, joker_at = src.jokers, src.joker_at
    lasts = []
    for f, kind, x in jokers:
        last = m.NewBoolVar(f"last_{f}_{kind}") if two else x
        if two:
            m.Add(last <= x)
        lasts.append(last)
        options = _last_options(r, src, f, kind, two, any_last, any_first)
        m.Add(sum(options) >= last)
        if two:
            m.Add(sum(_first_options(r, src, f, kind, any_first)) >= x - last)
    m.Add(sum(lasts) <= 1)
    src.lasts = lasts
    if two:
        # a printed tile on g for the last swap: the first swap served no entry into g
        for (f, _kind, x), last in zip(jokers, lasts, strict=True):
            if src.last_printed_at[f]:
                m.Add(sum(src.last_printed_at[f]) + x - last <= 1)
    if r.min_swaps >= 1:
        # the last swap serves an entry (above), the pair leaving the treasure field, or the
        # continuation (a token); any other last swap is matched by a route without it
        escapes = []
        # (a joker on leaving into a field the pair entered by a joker needs no swap of its
        # own: the tile is still there)
        for h, kind, x in src.leaves:
            by_leave = m.NewBoolVar(f"last_leave_{h}_{kind}")
            m.Add(by_leave <= x)
            if joker_at[h]:
                m.Add(by_leave + sum(joker_at[h]) <= 1)
            escapes.append(by_leave)
        by_token = m.NewBoolVar("last_token")
        m.Add(by_token <= r.tokens)
        escapes.append(by_token)
        m.Add(sum(lasts) + sum(escapes) >= 1)
    _token_sources(r, src)
    if src.far_uses:
        m.Add(sum(src.far_uses) <= n_any)
    _chains_take_both_cards(r, src)
    for ys in src.printed_at.values():
        if len(ys) > 1:
            m.Add(sum(ys) <= 1)
    src.finish()


def _chains_take_both_cards(r: RouterModel, src: _Sources) -> None:
    """A chained source's first swap (g, h) is a card of its own: it serves an entry into g or
    h, the pair leaving into h, a token on h, or nothing (thrown away)."""
    m, joker_at = r.m, src.joker_at
    leave_at = defaultdict(list)
    for h, _kind, x in src.leaves:
        leave_at[h].append(x)
    for y, g, hs in src.chains:
        # (after the last swap g holds f's old tile: only an entry before it is served on g)
        served = joker_at[g] + [x for h in hs for x in joker_at[h] + leave_at[h]]
        served += [src.token_at[h] for h in hs if h in src.token_at]
        m.Add(sum(served) + r.waste >= 1).OnlyEnforceIf(y)


def _far(isl: Island, f: int) -> list[int]:
    near = set(isl.adj[f])
    return [g for g in isl.fields if g != f and g not in near]


def _last_options(r: RouterModel, src: _Sources, f: int, kind: str, two: bool,
                  any_last: Choice, any_first: Expr) -> list[Var]:
    """Ways the last swap can bring the joker's tile onto f."""
    m, isl = r.m, r.isl
    options = []
    beside = [g for g in isl.adj[f] if isl.is_field(g)]
    for g, ok in _candidates(r, f, kind, same_ok=two, pool=beside):
        y = src.source(f, g, f"src_{f}_{kind}_{g}")
        _require(m, y, ok)
        options.append(y)
    # a Tosende Elemente from anywhere (its source left unnamed)
    options += _far_option(r, src, f, kind, two, any_last, f"far_{f}_{kind}")
    if not two:
        return options
    for g in beside:
        # g's tile came with the first swap (g, h): that swap served an entry into g or h, or
        # none; h lies beside g, or anywhere for a Tosende Elemente
        near = [h for h in isl.adj[g] if h != f and isl.is_field(h)]
        far = [h for h in _far(isl, g) if h != f]
        for tag, pool, needs in (("near", near, 1), ("far", far, any_first)):
            if isinstance(needs, int) and not needs:
                continue
            chained = _candidates(r, g, kind, same_ok=True, pool=pool)
            if not chained:
                continue
            y = src.source(f, g, f"chain_{tag}_{f}_{kind}_{g}", printed=False)
            _require(m, y, needs)
            if tag == "near":
                # h now holds g's old tile: entered free (its printed tile) only before f,
                # and then not straight before f (see the module text)
                picks = []
                for h, ok in chained:
                    z = m.NewBoolVar(f"chain_h_{f}_{kind}_{g}_{h}")
                    src.vacant(z, h)
                    _require(m, z, ok)
                    src.free_only_before(z, h, f)
                    _first_swap_is(src, z, f, g, [h])
                    picks.append(z)
                m.Add(y <= sum(picks))
            else:
                _require(m, y, _either(m, [ok for _h, ok in chained], f"chain_ok_{f}_{kind}_{g}"))
                src.far_uses.append(y)
                _first_swap_is(src, y, f, g, [h for h, _ok in chained])
            options.append(y)
    return options


def _first_swap_is(src: _Sources, y: Var, f: int, g: int, hs: list[int]) -> None:
    """Where y holds, the first swap is (g, h) for one of ``hs``: no joker is paid outside f, g
    and those fields (both cards are spent), and the first swap serves one there or is thrown
    away (``_chains_take_both_cards``)."""
    allowed = {f, g, *hs}
    inside = [x for f1, _k, x in src.jokers if f1 in allowed]
    src.m.Add(src.joker_count() <= sum(inside)).OnlyEnforceIf(y)
    src.chains.append((y, g, hs))


def _far_option(r: RouterModel, src: _Sources, f: int, kind: str, same_ok: bool,
                by_any: Expr, name: str) -> list[Var]:
    """A swap with any field not beside f (a Tosende Elemente, when ``by_any`` may hold)."""
    if isinstance(by_any, int) and not by_any:
        return []
    m = r.m
    oks = [ok for _g, ok in _candidates(r, f, kind, same_ok, pool=_far(r.isl, f))]
    anywhere = _either(m, oks, f"{name}_ok")
    if anywhere is None:
        return []
    y = m.NewBoolVar(name)
    _require(m, y, by_any)
    _require(m, y, anywhere)
    src.far_uses.append(y)
    return [y]


def _first_options(r: RouterModel, src: _Sources, f: int, kind: str,
                   any_first: Expr) -> list[Var]:
    """Ways the first swap can bring a printed tile onto f."""
    m, isl = r.m, r.isl
    options = []
    beside = [g for g in isl.adj[f] if isl.is_field(g)]
    for g, ok in _candidates(r, f, kind, pool=beside):
        y = src.first_source(f, g, f"first_{f}_{kind}_{g}")
        _require(m, y, ok)
        options.append(y)
    options += _far_option(r, src, f, kind, False, any_first, f"first_far_{f}_{kind}")
    return options


def _token_sources(r: RouterModel, src: _Sources) -> None:
    """A token's swap frees a paid field f of the continuation with a free printed tile g
    beside f (or anywhere, with Tosende Elemente) that is off the continuation (there it would
    cost what it saves); two tokens take two such tiles. If the turn ends on g, the swap came
    before the hunter entered g (so g is not where it started), paying there for f's tile: the
    entry into g is not free unless Weite Reise frees f's terrain. (A hunter who entered g
    before the swap and came back after pays twice for the round trip it could leave out.)
    With two swap cards a token may also take its tile from g after the other swap brought it
    there from h (beside g, or anywhere with Tosende Elemente): that swap served at most an
    entry into g (g's old tile was not free, and h's new one is not), so it is thrown away or
    a joker on g."""
    m, isl = r.m, r.isl
    own, tiles0 = r.own, r.tiles0
    cont_out = r.cont.leave_steps if r.waiter and not r.carrying else {}
    cont_in = continuation_entries(r)
    n_any = r.count["swap-any"]
    two = r.swap_cards() == 2
    own_fields = [g for g in isl.fields if tiles0[g] == own]
    ends = turn_ends(r)
    picks, chain_picks, twice = [], [], []
    src.token_at = {}
    for f in isl.fields:
        if not cont_in[f] or tiles0[f] == own:
            continue
        beside = [g for g in isl.adj[f] if isl.is_field(g)]
        options = []
        for g in beside:
            if tiles0[g] != own:
                continue
            y = m.NewBoolVar(f"tsrc_{f}_{g}")
            src.vacant(y, g)
            _off(m, y, g, r.cont.ins, cont_out)
            if ends[g]:
                # the turn ends on g: the swap came before the hunter entered g, which then
                # held f's tile (or, with two swaps, one the other swap brought onto f), so
                # the hunter paid there, unless Weite Reise made that tile free
                spare = r.waste if two else 0
                if g == r.start or not r.can_pay[tiles0[f]]:
                    m.Add(y + sum(ends[g]) <= 1 + spare)
                elif g in src.free_entry:
                    m.Add(y + sum(ends[g]) + src.free_entry[g]
                          <= 2 + r.long_journey.get(tiles0[f], 0) + spare)
            src.printed_at[g].append(y)
            options.append(y)
        if n_any and any(g not in beside for g in own_fields if g != f):
            y = m.NewBoolVar(f"tfar_{f}")
            src.far_uses.append(y)
            options.append(y)
        if two:
            for g in beside:
                if tiles0[g] == own:
                    continue
                hs = [h for h in (own_fields if n_any else isl.adj[g])
                      if h != f and isl.is_field(h) and tiles0[h] == own]
                if not hs:
                    continue
                y = m.NewBoolVar(f"tchain_{f}_{g}")
                src.vacant(y, g)
                _off(m, y, g, r.cont.ins, cont_out)
                m.Add(y <= r.waste + sum(src.joker_at[g]))
                if ends[g]:
                    # ending on g, the hunter entered it after the last swap, holding f's tile
                    # (a card pays it): the first swap was thrown away
                    thrown = r.waste if r.can_pay[tiles0[f]] else 0
                    m.Add(y + sum(ends[g]) <= 1 + thrown)
                if not any(h in isl.adj[g] for h in hs):
                    src.far_uses.append(y)
                chain_picks.append(y)
                options.append(y)
        pick = m.NewBoolVar(f"tok_{f}")
        m.Add(pick <= sum(cont_in[f]))
        m.Add(sum(options) == pick)
        picks.append(pick)
        src.token_at[f] = pick
        twice += saved_twice(r, f, pick, "tok")
    if chain_picks:
        m.Add(sum(picks) + sum(chain_picks) <= 2)  # a chain takes both swap cards
        # the last swap frees the continuation's field, so it serves no entry
        m.Add(sum(chain_picks) + sum(src.lasts) <= 1)
    m.Add(r.tokens <= sum(picks) + sum(twice))


def turn_ends(r: RouterModel) -> dict[int, list[Var]]:
    """Field -> the literals "the turn ends here", one per layer."""
    ends = defaultdict(list)
    for L in r.layers:
        for v, x in L.end.items():
            ends[v].append(x)
    return ends


def continuation_entries(r: RouterModel) -> dict[int, list[Var]]:
    """Field -> the continuation's entries into it, the pair's way out of the treasure field
    too."""
    cont_out = r.cont.leave_steps if r.waiter and not r.carrying else {}
    return {v: list(r.cont.ins[v]) + ([cont_out[v]] if v in cont_out else [])
            for v in r.isl.fields}


def saved_twice(r: RouterModel, f: int, pick: Var, name: str) -> list[Var]:
    """Where the continuation enters f, then leaves the treasure field into f with the pair,
    freeing f (``pick``) saves two cards: [the literal of that], else []."""
    if f not in r.cont_twice:
        return []
    both = r.m.NewBoolVar(f"{name}2_{f}")
    r.m.Add(both <= pick)
    r.m.Add(both <= r.cont_twice[f])
    return [both]


def _off(m: cp_model.CpModel, y: Var, g: int, ins: dict[int, list[Var]],
         outs: dict[int, Var]) -> None:
    """A token's source g (chosen by y) is off the continuation: not entered by a step (at
    most one does), nor by the pair's way out of the treasure field."""
    m.Add(y + sum(ins[g]) <= 1)
    if g in outs:
        m.Add(y + outs[g] <= 1)


def strict_sources(r: RouterModel) -> None:
    """Every joker names its partner field: unoccupied, never entered by the route, not the
    start, each partner used once (see the module text)."""
    m = r.m
    entered = r.layers[0].ents
    taken = set(r.dragons) | set(r.lone) | set(r.pairs) | {r.start}
    used_as_source = defaultdict(list)
    far = []  # sources not beside their field: each needs a Tosende Elemente
    L = r.layers[0]
    jokers = [(f, kind, x) for (f, kind), x in L.paid_items() if kind in JOKERS]
    for f, kind, x in jokers:
        options = []
        for g, ok in _candidates(r, f, kind):
            if g in taken:
                continue
            y = m.NewBoolVar(f"src_{f}_{kind}_{g}_{len(options)}")
            _require(m, y, ok)
            if entered[g]:
                m.Add(y + sum(entered[g]) <= 1)
            used_as_source[g].append(y)
            options.append(y)
            if g not in r.isl.adj[f]:
                far.append(y)
        m.Add(sum(options) == x)
    for ys in used_as_source.values():
        m.Add(sum(ys) <= 1)
    if far:
        m.Add(sum(far) <= r.count["swap-any"])
