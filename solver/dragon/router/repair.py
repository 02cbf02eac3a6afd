"""Turning the router's relaxation into a real route, to start the full CP-SAT model from.

In the relaxation (``CpRouter(relax_swaps=True)``) a swap card may pay for a field like a joker
or take one paid field off the continuation. Here each such use becomes a real swap: just
before the entry it paid for, a free tile (own terrain, or one made free by Weite Reise) is
swapped onto the field from a neighbour (or from anywhere, for Tosende Elemente); a token
becomes a swap at the end of the turn that frees a field on the way still to go. Partners are
taken from fields the route never uses. Nothing here decides optimality: the plan is only a
starting point (a hint) that the full model checks and, if it meets the relaxation's bound,
accepts as optimal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from solver.dragon.cards import parse_card
from solver.dragon.move import Move
from solver.dragon.router.facts import Facts
from solver.dragon.rulebook import swap_reach

if TYPE_CHECKING:
    from solver.dragon.board import Island
    from solver.dragon.rules import Rules


def repair(facts: Facts, plan: list[Move], tokens: int, continuation: list[int],
           free_first: bool = False) -> list[Move] | None:
    """A real plan from a relaxed one of the query ``facts`` describe, or None when a joker
    has no swap to stand for (a token without one is left out). ``free_first``: a joker
    bringing a tile another card pays for brings a free tile instead where it can (that card
    is saved, and the field stays free should the pair step back onto it)."""
    q, isl = facts.q, facts.isl
    model = isl.model
    own = q.own
    tiles = list(q.position.tiles)
    pos = q.position.hunters[q.hunter].at
    hunters = {c: h.at for c, h in q.position.hunters.items()
               if c not in (q.hunter, q.position.hunters[q.hunter].partner)}
    dragons = set(q.position.dragons)
    free_terrains = {own}
    swap_cards = [c.name for c in q.hand
                  if c.swaps(model)]
    swap_names = set(swap_cards)
    # fields the route uses from each entry on (a swap there would change its way), and
    # those among them a later joker pays for (that joker brings the field a new tile anyway)
    later: list[set[int]] = [set(continuation)]
    jokers_later: list[set[int]] = [set()]
    for entry in reversed(plan):
        later.append(later[-1] | _nodes(isl, entry))
        jokers_later.append(jokers_later[-1] | _joker_field(isl, entry, swap_names))
    later.reverse()
    jokers_later.reverse()
    out: list[Move] = []
    freed: set[int] = set()  # fields a swap gave a free tile
    before_treasure = (pos, 0)  # where the hunter stood, and the plan's length, before it
    # entered the treasure field: a swap for the pair's way out is made there (the second
    # hunter on the treasure field leaves it at once)
    for i, entry in enumerate(plan):
        action = entry.action
        if action == "long-journey":
            free_terrains.add(entry.terrain)
        elif action == "patrol":
            if entry.dragon:
                dragons.discard(isl.node(entry.dragon))
            dragons.add(isl.node(entry.place))
        elif action == "fright":
            hunters[entry.target] = isl.boat_node[entry.target]
        payer = entry.payer()
        if entry.enters() and payer in swap_names and entry.leave \
                and not entry.relaxed_pay and isl.node(entry.to) in freed:
            # the pair steps back onto the field a swap freed on the way in: still free
            entry = replace(entry, use=None, pay=None,
                            card=None if action == "step" else entry.card)
        elif entry.enters() and payer in swap_names:
            target = isl.node(entry.to)
            stand, insert_at = pos, len(out)
            if entry.leave and pos == isl.treasure:
                stand, insert_at = before_treasure
            wants = [(None, free_terrains)]  # (the card paying the tile brought, its tiles)
            other = entry.relaxed_pay
            if other:  # bring a tile the other card can pay for (or, first, a free one)
                card = parse_card(other, model)
                joker = facts.var["double-card-joker"] == "joker"
                wants = [(other, {t for t in model.terrains if card.pays(t, own, joker)})]
                if free_first:
                    wants.insert(0, (None, free_terrains))
            brought = None
            for payer_of_tile, wanted in wants:
                # a joker on a field whose tile needs no swap (the relaxation may spend a swap
                # card there instead of throwing it away): no swap
                if tiles[target] in wanted:
                    brought = (payer_of_tile, [])
                    break
                occupied = _taken(isl, hunters, dragons, stand)
                if target in occupied:
                    return None
                # sources the route leaves alone from here on; else one a later joker refills
                keep = {g for f in jokers_later[i + 1] for g in isl.adj[f]}
                for spare in (set(), jokers_later[i + 1]):
                    swaps = _bring(isl, model, swap_cards, payer, target, stand, tiles, wanted,
                                   occupied | (later[i + 1] - spare), keep)
                    if swaps is not None:
                        brought = (payer_of_tile, swaps)
                        break
                if brought is not None:
                    break
            if brought is None:
                return None
            other, swaps = brought
            out[insert_at:insert_at] = swaps
            if swaps and not other:
                freed.add(target)
            key = "pay" if action == "flight" else "card"
            entry = replace(entry, relaxed_pay=None, use=tiles[target] if other else None,
                            **{key: other})
        if entry.raid:
            hunters[entry.raid] = isl.boat_node[entry.raid]
        if entry.enters() and isl.node(entry.to) == isl.treasure:
            before_treasure = (pos, len(out))
        out.append(entry)
        if entry.enters():
            pos = isl.node(entry.to)
    taken = _taken(isl, hunters, dragons, pos) | later[0]
    # a swap on the way may already have freed a field of the continuation (a chain's first
    # swap can serve a token too): that token needs no swap of its own
    start_tiles = q.position.tiles
    entries = Counter(v for v in continuation if isl.is_field(v))  # (twice: in, out with a pair)
    tokens -= sum(n for v, n in entries.items() if start_tiles[v] != own and tiles[v] == own)
    _end_swaps(isl, model, own, out, tokens, entries, swap_cards, pos, tiles, taken)
    return out


def _bring(isl: Island, model: Rules, swap_cards: list[str], payer: str | None, target: int,
           pos: int, tiles: list[str], wanted: set[str], taken: set[int],
           keep: set[int] = frozenset()) -> list[Move] | None:
    """The swaps (one, or two chained) bringing a wanted tile onto ``target``, made on
    ``tiles`` and taken from ``swap_cards``; None when there are none. The relaxation pools
    its swap cards: any card left that can make the swap will do. A partner outside ``keep``
    (the fields beside later jokers, whose tiles a Zerstörende Kräfte may need there) goes
    first: a Tosende Elemente takes its tile from far away when it can."""
    for avoid in (keep, frozenset()):
        for card in dict.fromkeys([payer] + swap_cards):
            if card not in swap_cards:
                continue
            partner = _partner(isl, model, card, target, pos, tiles, wanted, taken | avoid)
            if partner is not None:
                swap_cards.remove(card)
                return [_swap(isl, card, pos, target, partner, tiles)]
    # two swaps: a free tile brought beside the field first, then onto it
    chain = _chain(isl, model, swap_cards, target, pos, tiles, wanted, taken)
    if chain is None:
        return _walk_tile(isl, model, swap_cards, target, pos, tiles, wanted, taken)
    (first, g, h), (last, partner) = chain
    swap_cards.remove(first)
    swap_cards.remove(last)
    return [_swap(isl, first, pos, g, h, tiles), _swap(isl, last, pos, target, partner, tiles)]


def _end_swaps(isl: Island, model: Rules, own: str, out: list[Move], tokens: int,
               entries: Counter, swap_cards: list[str], pos: int, tiles: list[str],
               taken: set[int]) -> None:
    """Append swaps freeing paid fields of the continuation (``entries``: how often it enters
    each field; the turn is over, so only the own terrain is free there) until they save
    ``tokens`` payments; a field the continuation enters twice (in, and out with the pair)
    saves two and goes first. A token that finds no swap is left out: the plan is a proposal,
    and completing it tells its true value."""
    free_terrains = {own}
    paid = sorted((v for v in entries if tiles[v] not in free_terrains),
                  key=lambda v: -entries[v])
    saved = 0
    while saved < tokens:
        done = False
        for card in list(swap_cards):
            for f in paid:
                if f == pos:  # (f lies on the continuation: "taken" bars it only as a partner)
                    continue
                partner = _partner(isl, model, card, f, pos, tiles, free_terrains, taken)
                if partner is not None:
                    out.append(_swap(isl, card, pos, f, partner, tiles))
                    swap_cards.remove(card)
                    paid.remove(f)
                    taken.add(partner)
                    saved += entries[f]
                    done = True
                    break
            if done:
                break
        if not done:
            return


def _partner(isl: Island, model: Rules, card_name: str, target: int, pos: int,
             tiles: list[str], free_terrains: set[str], taken: set[int]) -> int | None:
    """A field holding a free tile that the card can swap with ``target``."""
    for g in _reach(isl, model, card_name, target):
        if g in (target, pos) or g in taken or tiles[g] not in free_terrains:
            continue
        if tiles[target] == tiles[g]:
            continue
        return g
    return None


def _chain(isl: Island, model: Rules, swap_cards: list[str], target: int, pos: int,
           tiles: list[str], wanted: set[str],
           taken: set[int]) -> tuple[tuple[str, int, int], tuple[str, int]] | None:
    """Two swap cards bringing a wanted tile onto ``target`` by way of a field g beside it:
    ((first card, g, h), (last card, g)), or None."""
    for last in dict.fromkeys(swap_cards):
        rest = list(swap_cards)
        rest.remove(last)
        for g in _reach(isl, model, last, target):
            if g in (target, pos) or g in taken:
                continue
            for first in dict.fromkeys(rest):
                h = _partner(isl, model, first, g, pos, tiles, wanted, taken | {target})
                if h is not None and tiles[h] != tiles[target]:
                    return (first, g, h), (last, g)
    return None


def _walk_tile(isl: Island, model: Rules, swap_cards: list[str], target: int, pos: int,
               tiles: list[str], wanted: set[str], taken: set[int]) -> list[Move] | None:
    """Three or more swaps of neighbours walking the nearest wanted tile to ``target`` along
    fields the route leaves alone (the tiles on the way shift back by one), or None."""
    adjacent = [c for c in swap_cards if parse_card(c, model).does("swap-adjacent", model)]
    cards = adjacent + [c for c in swap_cards if c not in adjacent]
    before = {target: None}
    frontier = [target]
    for _ in range(len(cards)):
        found, nxt = None, []
        for v in frontier:
            for g in isl.adj[v]:
                if g in before or not isl.is_field(g) or g in taken or g == pos:
                    continue
                before[g] = v
                nxt.append(g)
                if found is None and tiles[g] in wanted and tiles[g] != tiles[target]:
                    found = g
        if found is not None:
            path = [found]
            while before[path[-1]] is not None:
                path.append(before[path[-1]])
            swaps = []
            for g, v in zip(path[:-1], path[1:], strict=True):  # from the tile towards the target
                card = cards.pop(0)
                swap_cards.remove(card)
                swaps.append(_swap(isl, card, pos, v, g, tiles))
            return swaps
        frontier = nxt
    return None


def _reach(isl: Island, model: Rules, card_name: str, target: int) -> list[int]:
    """Fields the card can swap with ``target``."""
    return swap_reach(isl, parse_card(card_name, model).does("swap-any", model), target)


def _swap(isl: Island, card: str, pos: int, f: int, g: int, tiles: list[str]) -> Move:
    tiles[f], tiles[g] = tiles[g], tiles[f]
    ends = tuple(isl.names[v] for v in sorted((f, g)))
    return Move("swap", isl.names[pos], card, swap=ends)


def _taken(isl: Island, hunters: dict, dragons: set, pos: int) -> set[int]:
    return {v for v in hunters.values() if isl.is_field(v)} | set(dragons) | {pos}


def _nodes(isl: Island, entry: Move) -> set[int]:
    """The fields a plan entry uses."""
    return {isl.node(name) for name in (entry.to, entry.over, entry.place, entry.dragon) if name}


def _joker_field(isl: Island, entry: Move, swap_names: set[str]) -> set[int]:
    """The field a relaxed entry pays for with a swap card, if any."""
    if entry.enters() and entry.payer() in swap_names:
        return {isl.node(entry.to)}
    return set()
