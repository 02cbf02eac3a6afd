"""The router's variables, named and typed (:class:`RouterModel`): what a model of a turn is
made of, and what a solved one offers its readers (:mod:`solver.dragon.router.decode`), which
thereby depend on these names and not on the model builder (:mod:`solver.dragon.router.build`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.dragon.router.facts import Facts

Var = cp_model.IntVar
Choice = Var | int  # a decision, or a constant where the rules leave no choice
Expr = cp_model.LinearExprT  # a linear expression of variables


class Layer:
    """Arc and node variables of one layer of the turn (tiles fixed inside a layer), or of
    the continuation."""

    def __init__(self) -> None:
        self.steps: dict[tuple[int, int], Var] = {}  # (from, to): a step
        self.flights: dict[tuple[int, int, int], Var] = {}  # (from, over, to): a flight
        self.teleports: dict[int, Var] = {}  # the mover sent home from this field
        self.leave_steps: dict[int, Var] = {}  # the pair leaves the treasure field to here
        self.leave_flights: dict[tuple[int, int], Var] = {}  # ... by a flight (over, to)
        self.goal: dict[int, Var] = {}  # the turn reaches this goal node
        self.stay: dict[int, Var] = {}  # still here when the tiles are swapped
        self.end: dict[int, Var] = {}  # the turn ends here, short of the goal
        self.efree: dict[int, Var] = {}  # entering this field is free
        self.epaid: dict[tuple, Var] = {}  # entering it is paid: (field, terrain, card kind)
        self.lfree: dict[int, Var] = {}  # the same for the leaving pair
        self.lpaid: dict[tuple, Var] = {}
        self.ins: dict[int, list[Var]] = defaultdict(list)  # node -> the moves arriving
        self.ents: dict[int, list[Var]] = defaultdict(list)  # field -> the moves entering it

    def paid_items(self) -> list[tuple[tuple, Var]]:
        """Every paid entry's variable, the mover's and the leaving pair's."""
        return list(self.epaid.items()) + list(self.lpaid.items())


@dataclass
class RouterModel(Facts):
    """A built model of one turn: the query's facts, the CP-SAT model and its variables. The
    constraint functions (``moves``, ``swaps``, ``payments``, ``continuation``, ``budget``,
    ``relax``, ``travel``) take it and add to ``m``; the decoder reads a solution through it."""

    m: cp_model.CpModel = field(default_factory=cp_model.CpModel)
    # the order-free choices of the whole turn
    long_journey: dict[int, Var] = field(default_factory=dict)  # terrain made free (Weite Reise)
    patrol_moves: dict[int, Var] = field(default_factory=dict)  # dragon field -> moved away
    fright_lone: dict[int, Var] = field(default_factory=dict)  # field -> its hunter sent home
    raid: dict[int, Var] = field(default_factory=dict)  # field -> a carrying pair raided
    fright_pair: dict[int, Var] = field(default_factory=dict)  # field -> both sent home
    fright_waiter: Var | None = None  # the hunter waiting on the treasure field sent home
    # the tiles of each layer: (field, terrain class) -> 0/1 (printed) or a variable
    tile: list[dict[tuple[int, int], Choice]] = field(default_factory=list)
    layers: list[Layer] = field(default_factory=list)  # the turn's layers, first to last
    # per swap layer: (adjacent swap, any swap or None, field -> "the swap touches it")
    stay_swap: list[tuple[Var, Var | None, dict[int, Var]]] = field(default_factory=list)
    cont: Layer = field(default_factory=Layer)  # the continuation
    ended: Expr = 0  # "the turn ends short of the goal"
    rem: Expr = 0  # remaining: the continuation's paid fields (less the relaxation's tokens)
    use: dict[tuple[int, Any], Var] = field(default_factory=dict)  # (card kind, use) -> played
    cards_used: Expr = 0
    # the relaxation's cards: thrown away, and taking a field off the continuation
    waste: Choice = 0
    tokens: Choice = 0
    cont_twice: dict[int, Var] = field(default_factory=dict)  # continuation enters it twice

    @classmethod
    def empty(cls, facts: Facts) -> RouterModel:
        """An empty model of the query ``facts`` describe."""
        return cls(**vars(facts))

    def may_enter(self, v: int) -> Choice | Expr:
        """May v be entered (by a move)? 0, 1, or a linear expression of choices.

        A carrying pair's field opens for two fright cards (both sent home) or, raided by a
        hunter who then sends its new partner home, for one; after the raid the field is empty.
        """
        isl = self.isl
        if isl.kind[v] == "boat":
            owner = isl.boat_owner[v]
            if self.carrying:
                return int(owner in (self.q.hunter, self.partner))
            return int(owner == self.q.hunter and v not in self.in_boats)
        if v == self.treasure_field:
            if self.treasure:
                return int(not self.carrying)
            if self.carrying:
                return int(self.var["empty-treasure-field-carriers"] == "open")
            return 1
        if v in self.dragons:
            return self.patrol_moves.get(v, 0)
        if v in self.lone:
            return self.fright_lone.get(v, 0)
        if v in self.pairs:
            return self.fright_pair.get(v, 0) + self.raid.get(v, 0)
        return 1

    def charge_remaining(self, cards: Expr) -> None:
        """One of the two ways a refinement (``relax``, ``travel``) changes the objective:
        cards the continuation must pay on top of its own fields (a linear expression), added
        to ``remaining`` before the objective is set."""
        self.rem = self.rem + cards

    def charge_cards(self, cards: Expr) -> None:
        """The other: cards the turn pays outside the relaxed route's entries (for an entry
        of a loop the relaxed route leaves out), added to the cards spent before the
        objective is set."""
        self.cards_used = self.cards_used + cards

    def origin(self, f: int) -> bool:
        """Does f's printed tile start a free token (the own terrain, or one Weite Reise may
        make free)?"""
        return self.tiles0[f] == self.own or self.tiles0[f] in self.long_journey


def closed(x: Choice) -> bool:
    """An openness that is the constant 0 (never a model expression)."""
    return isinstance(x, int) and x == 0


def add_and(m: cp_model.CpModel, z: Var, x: Choice, y: Choice) -> None:
    """z == x and y, as three linear inequalities."""
    m.Add(z <= x)
    m.Add(z <= y)
    m.Add(z >= x + y - 1)
