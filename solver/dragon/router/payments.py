"""Paying for an entry: free on a free tile, else a terrain card able to pay for the tile
(or, in the relaxation, a swap card as a joker).

Functions of the model being built (:class:`~solver.dragon.router.variables.RouterModel`);
see README.md for the rule each function enforces.
"""

from __future__ import annotations

from solver.dragon.router.travel import ANY_TILE
from solver.dragon.router.variables import Expr, Layer, RouterModel


def pay_entry(r: RouterModel, e: int, L: Layer, f: int, entered: Expr,
              leave: bool = False) -> None:
    """An entry into field f is free (own terrain, Weite Reise) or paid by one card.
    The pair leaving the treasure field pays apart (it may step back where it came from)."""
    m, own = r.m, r.own
    tile = r.tile[e]
    tag = "l" if leave else "e"
    free = m.NewBoolVar(f"{tag}f{e}_{f}")
    (L.lfree if leave else L.efree)[f] = free
    paid = []
    for t in range(r.n_terrains):
        if t == own or isinstance(tile[f, t], int) and not tile[f, t]:
            continue
        if not r.can_pay[t]:
            continue
        x = m.NewBoolVar(f"{tag}p{e}_{f}_{t}")
        if not isinstance(tile[f, t], int):
            m.Add(x <= tile[f, t])
        (L.lpaid if leave else L.epaid)[f, t] = x
        paid.append(x)
    if not leave and r.counts_travel and r.origin(f):
        # a free printed tile whose token has left (``router.travel``): a card pays for
        # whatever tile came in its place
        x = m.NewBoolVar(f"ea{e}_{f}")
        L.epaid[f, ANY_TILE] = x
        paid.append(x)
    if r.relax and r.swap_kinds:
        free_near, pay_near = joker_reasons(r, f)
        for kind, near in (("swap", free_near), ("swap-pay", pay_near)):
            if near is None:
                continue
            x = m.NewBoolVar(f"{tag}j{kind}{e}_{f}")
            if not isinstance(near, int):
                m.Add(x <= near)
            (L.lpaid if leave else L.epaid)[f, kind] = x
            paid.append(x)
    m.Add(entered == free + sum(paid))
    # free only on the own terrain or a terrain made free by Weite Reise
    reasons = []
    for t in range(r.n_terrains):
        if isinstance(tile[f, t], int):
            if not tile[f, t]:
                continue
            if t == own:
                return  # always free
            if t in r.long_journey:
                reasons.append(r.long_journey[t])
        else:
            if t == own:
                reasons.append(tile[f, t])
            elif t in r.long_journey:
                z = m.NewBoolVar(f"{tag}z{e}_{f}_{t}")
                m.Add(z <= tile[f, t])
                m.Add(z <= r.long_journey[t])
                reasons.append(z)
    m.Add(free <= sum(reasons))


def joker_reasons(r: RouterModel, f: int) -> tuple:
    """When may a swap card stand in for the payment of field f in the relaxation?

    A swap pays off only by bringing a free tile (own terrain, or one made free by Weite
    Reise) or a tile that another card in hand then pays for. With no Tosende Elemente in
    hand a tile moves one field per swap, so it must lie within as many fields of f as
    there are Zerstörende Kräfte. Returns the reasons for (a free tile, a payable tile):
    each None (impossible), 1 (possible) or an expression of the Weite Reise choices."""
    isl = r.isl
    if r.count["swap-any"]:
        reach = set(isl.fields)
    else:
        reach, frontier = {f}, [f]
        for _ in range(r.count["swap-adjacent"]):
            frontier = [g for v in frontier for g in isl.adj[v]
                        if isl.is_field(g) and g not in reach]
            reach |= set(frontier)
    terrains = {r.tiles0[g] for g in reach}
    if r.own in terrains:
        free = 1
    else:
        lits = [r.long_journey[t] for t in sorted(terrains) if t in r.long_journey]
        free = sum(lits) if lits else None
    payable = any(t != r.own and r.can_pay[t] for t in terrains)
    return free, (1 if payable else None)
