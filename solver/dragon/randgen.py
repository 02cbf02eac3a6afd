"""Seeded random positions and hands, for the tests, the benchmark and the simulation."""

from __future__ import annotations

import random

from solver.dragon.board import Island
from solver.dragon.cards import Card, deck, parse_card
from solver.dragon.position import Hunter, Position


def random_tiles(island: Island, rng: random.Random, swaps: int) -> list[str]:
    """The start layout after ``swaps`` random swaps of two tiles."""
    tiles = island.start_tiles()
    for _ in range(swaps):
        f, g = rng.sample(list(island.fields), 2)
        tiles[f], tiles[g] = tiles[g], tiles[f]
    return tiles


def random_position(island: Island, rng: random.Random, mover: str | None = None,
                    carrying: bool | None = None) -> tuple[Position, str]:
    """A legal position with a chosen (or random) mover; returns (position, mover colour)."""
    colours = list(island.boat_colours)
    mover = mover or rng.choice(colours)
    others = [c for c in colours if c != mover]
    rng.shuffle(others)
    in_play = others[: rng.randint(1, len(others))]
    fields = [v for v in island.fields]
    free = set(fields)
    hunters: dict[str, Hunter] = {}

    def take_field() -> int:
        v = rng.choice(sorted(free))
        free.discard(v)
        return v

    carrying = rng.random() < 0.2 if carrying is None else carrying
    if carrying and in_play:
        partner = in_play.pop()
        v = take_field()
        hunters[mover] = Hunter(mover, v, partner)
        hunters[partner] = Hunter(partner, v, mover)
    else:
        r = rng.random()
        if r < 0.3:
            hunters[mover] = Hunter(mover, island.boat_node[mover])
        else:
            hunters[mover] = Hunter(mover, take_field(), None, r > 0.95)
    waiter_done = False
    while in_play:
        c = in_play.pop()
        r = rng.random()
        if r < 0.35:
            hunters[c] = Hunter(c, island.boat_node[c])
        elif r < 0.45 and not waiter_done:
            hunters[c] = Hunter(c, island.treasure)
            waiter_done = True
        elif r < 0.6 and in_play:
            d = in_play.pop()
            v = take_field()
            hunters[c] = Hunter(c, v, d)
            hunters[d] = Hunter(d, v, c)
        else:
            hunters[c] = Hunter(c, take_field(), None, r > 0.93)
    dragon_sites = [v for v in sorted(free) if v not in island.fronts]
    dragons = rng.sample(dragon_sites, rng.choice([0, 1, 2, 2]))
    tiles = random_tiles(island, rng, rng.choice([0, 3, 10, 40]))
    carriers_only = not waiter_done and hunters[mover].partner is not None
    treasure = None if carriers_only and rng.random() < 0.25 else 100
    pos = Position(island, tiles, dragons, hunters, treasure)
    return pos.validate("random position"), mover


def random_hand(rng: random.Random, size: int = 6, must: list[str] | None = None,
                limit: dict[str, int] | None = None) -> list[Card]:
    """``size`` cards from the deck; ``must`` names cards put in first; ``limit`` caps how many
    cards with a given route use (e.g. ``{"swap-any": 1}``) the hand may hold."""
    cards = [parse_card(m) for m in (must or [])]
    pool = deck()
    rng.shuffle(pool)
    limit = limit or {}
    for card in pool:
        if len(cards) >= size:
            break
        over = False
        for use, cap in limit.items():
            if card.does(use) and sum(c.does(use) for c in cards) >= cap:
                over = True
        if not over:
            cards.append(card)
    return cards
