"""A seeded simulation of a lone hunter: from its boat to the treasure field and back.

One hunter alone on the opening board (no other hunters, no dragons) plays turn after turn:
draw up to six cards from the 99-card deck (assumed action-card counts), play the router's best
turn, discard the cards played. A turn that would play no card and not reach the goal is a
pass instead: the whole hand is exchanged. Once on the treasure field, a partner of a random
other colour joins; the pair starts on the field next to the treasure field from which the
hunter's own way home is shortest, and the hunter carries the treasure to its own or the
partner's boat under its own rules (the partner's turns are not simulated). Swapped tiles stay
swapped. The counted turns are the hunter's own. Each turn's route is
``route_method.best_route``'s; the cards move on the players' :class:`~solver.dragon.table.Table`
with one seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from solver.dragon.board import Island
from solver.dragon.cards import Card, deck
from solver.dragon.distance import distances_to_goal
from solver.dragon.move import played
from solver.dragon.position import Hunter, Position
from solver.dragon.route import RouteQuery
from solver.dragon.route_method import best_route
from solver.dragon.rulebook import Turn
from solver.dragon.rules import table_readings
from solver.dragon.table import Table

MAX_TURNS = 60  # a safety stop; never reached in practice


@dataclass
class Journey:
    """One simulated journey: turns to the treasure field, turns back, and the card plays."""

    there: int
    back: int
    plays: dict[str, int]

    @property
    def total(self) -> int:
        return self.there + self.back


def blank(cards: list[Card], action: str) -> list[Card]:
    """The deck with ``action`` struck off every card showing it (a card left without any
    action becomes a counterspell, which no route uses), so the deck keeps its size."""
    out = []
    for c in cards:
        if action in c.actions:
            rest = tuple(a for a in c.actions if a != action)
            c = Card(actions=rest or ("counterspell",))
        out.append(c)
    return out


def _take_turn(table: Table, pos: Position, colour: str, goal: str,
               plays: dict[str, int]) -> tuple[Position, bool]:
    table.refill(0)
    hand = table.hands[0]
    q = RouteQuery(pos, colour, list(hand), goal)
    result = best_route(q)
    used = played(result.plan)
    if not used and not result.reachable:
        table.spend(0, [c.name for c in hand])  # the pass: the whole hand exchanged
        return pos, False
    for move in result.plan:
        if move.card and move.action != "step":
            plays[move.card] = plays.get(move.card, 0) + 1
    table.spend(0, used)
    turn = Turn(q)
    after, _ = turn.position(turn.play(result.plan)[0])
    # the lone simulation keeps no dragons (a patrol card is never worth playing alone)
    return Position(pos.island, after.tiles, [], after.hunters, after.treasure), result.reachable


def _pickup_field(pos: Position, colour: str, partner: str) -> int:
    """The field next to the treasure field from which the pair's way home is shortest."""
    isl = pos.island
    own = isl.model.terrain_of(colour)
    dist = distances_to_goal(isl, pos.tiles, own, colour, partner, set(), set(), False, True,
                             False)
    ring = [v for v in isl.adj[isl.treasure] if isl.is_field(v)]
    return min(ring, key=lambda v: (dist[v] + (pos.tiles[v] != own), v))


def journey(island: Island, colour: str, rng: random.Random, cards: list[Card]) -> Journey:
    """Simulate one journey of ``colour`` with its own random draws."""
    table = Table.shuffled(rng, cards, 1, island.model.hand_size, table_readings())
    pos = Position(island, island.start_tiles(), [],
                   {colour: Hunter(colour, island.boat_node[colour])}, 100)
    plays: dict[str, int] = {}
    there = 0
    reached = False
    while not reached and there < MAX_TURNS:
        there += 1
        pos, reached = _take_turn(table, pos, colour, "treasure", plays)
    partner = rng.choice([c for c in island.boat_colours if c != colour])
    field = _pickup_field(pos, colour, partner)
    pair = {colour: Hunter(colour, field, partner), partner: Hunter(partner, field, colour)}
    pos = Position(island, pos.tiles, [], pair, 100)
    back = 0
    reached = False
    while not reached and back < MAX_TURNS:
        back += 1
        pos, reached = _take_turn(table, pos, colour, "boat", plays)
    return Journey(there, back, plays)


def simulate(island: Island, games: int, seed: int, blank_action: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> list[Journey]:
    """``games`` journeys; game i uses seed (seed, i), so runs with a card struck off share
    their random draws with the baseline as far as the play allows."""
    cards = deck(island.model)
    if blank_action:
        cards = blank(cards, blank_action)
    out = []
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        colour = island.boat_colours[i % len(island.boat_colours)]
        out.append(journey(island, colour, rng, cards))
        if progress:
            progress(i + 1, games)
    return out
