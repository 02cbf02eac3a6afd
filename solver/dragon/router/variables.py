"""The router's variables, named and typed: what a model of a turn is made of, and what a
solved one offers its readers (:mod:`solver.dragon.router.decode`), which thereby depend on
these names and not on the model builder (:mod:`solver.dragon.router.model`)."""

from __future__ import annotations

from typing import Any, Protocol

from ortools.sat.python import cp_model

Var = cp_model.IntVar
Choice = Var | int  # a decision, or a constant where the rules leave no choice


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

    def paid_items(self):
        return list(self.epaid.items()) + list(self.lpaid.items())


class SolvedRouter(Protocol):
    """What a solved router model offers the plan decoder."""

    q: Any  # the RouteQuery
    isl: Any  # the Island
    sol: cp_model.CpSolver  # its solution
    start: int  # where the mover starts
    kinds: list  # (card, count) per kind of card in hand
    terrains: list[str]  # a name per terrain class
    layers: list[Layer]  # the turn's layers, first to last
    cont: Layer  # the continuation
    use: dict  # (use, card kind) -> cards of that kind played so
    stay_swap: list  # per swap layer: (adjacent swap, any swap) choices
    treasure_field: int
    dragons: list[int]
    dragons_in_play: int
    lone: dict[int, list[str]]  # field -> a lone hunter or a guard
    pairs: dict[int, list[str]]  # field -> the two carriers
    waiter: str | None  # the hunter waiting on the treasure field
    long_journey: dict[int, Var]  # terrain class made free by Weite Reise
    patrol_moves: dict[int, Var]  # dragon field -> the dragon is moved away
    fright_lone: dict[int, Var]  # field -> its lone hunter is sent home
    fright_pair: dict[int, Var]  # field -> both carriers are sent home
    raid: dict[int, Var]  # field -> a carrying pair raided
    fright_waiter: Var | None  # the waiting hunter sent home


def closed(x: Choice) -> bool:
    """An openness that is the constant 0 (never a model expression)."""
    return isinstance(x, int) and x == 0


def add_and(m: cp_model.CpModel, z, x, y) -> None:
    """z == x and y, as three linear inequalities."""
    m.Add(z <= x)
    m.Add(z <= y)
    m.Add(z >= x + y - 1)
