"""A route reading's situation (``[NAME.situation]`` in ``models/dracheninsel/variants.toml``)
and whether the reading decides a turn: shared by the measurement on sampled turns
(``ambiguity.py``) and the counts in simulated games (``playcount.py``).

A turn **is** the situation when the mover, the island and the hand are as the spec says; a
reading **decides** the turn when the default's optimal plan is illegal or no longer optimal
under the other reading.
"""

from __future__ import annotations

from solver.dragon.cards import parse_card
from solver.dragon.move import Move
from solver.dragon.position import Position
from solver.dragon.route import RouteQuery
from solver.dragon.route_search import replay


def fits(pos: Position, mover: str, spec: dict) -> bool:
    """Do the mover and the island match the situation ``spec`` (the hand aside)?"""
    isl = pos.island
    me = pos.hunters[mover]
    where = spec.get("mover", "any")
    if me.at == isl.treasure:
        return False
    if where == "boat" and me.at != isl.boat_node[mover]:
        return False
    if where in ("boat", "lone") and me.partner is not None:
        return False
    if where == "carrying" and me.partner is None:
        return False
    others = [h for c, h in pos.hunters.items() if c not in (mover, me.partner)]
    need = set(spec.get("position", []))
    if "waiter" in need and not any(h.at == isl.treasure for h in others):
        return False
    if "carrying-pair" in need and not any(h.partner for h in others):
        return False
    if "no-treasure" in need and pos.treasure is not None:
        return False
    return True


def _actions_needed(spec: dict) -> list[str]:
    """The actions the situation's hand must show (``own-double`` is checked apart)."""
    out = []
    for name in spec.get("cards", []):
        if name != "own-double":
            out += list(parse_card(name).actions)
    return out


def arises(q: RouteQuery, spec: dict) -> bool:
    """Is this turn the point's situation: the mover, the island and the hand as the spec says?"""
    if not fits(q.position, q.hunter, spec):
        return False
    hand = list(q.hand)
    if "own-double" in spec.get("cards", []):
        if not any(len(c.terrains) == 2 and q.own in c.terrains for c in hand):
            return False
    for action in _actions_needed(spec):
        card = next((c for c in hand if action in c.actions), None)
        if card is None:
            return False
        hand.remove(card)  # two Weite Reise need two cards
    return True


def with_reading(q: RouteQuery, variant: str) -> RouteQuery:
    """The same situation under the reading NAME=CHOICE."""
    name, _, choice = variant.partition("=")
    return RouteQuery(q.position, q.hunter, q.hand, q.goal, {**q.variants, name: choice})


def plan_still_best(q_variant: RouteQuery, plan: list[Move], best: tuple[int, int]) -> bool:
    """Is the default's optimal ``plan`` legal under the variant and as good as its optimum?"""
    try:
        (rem, spent), _ = replay(q_variant, plan)
    except ValueError:
        return False
    return (rem, spent) <= best
