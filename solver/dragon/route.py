"""A route query (one turn of one hunter) and its answer, shared by both route finders
(``route_method.best_route`` chooses between them).

The answer's value is the pair ``(remaining, cards_used)``, compared in that order: a route that
reaches the goal has ``remaining == 0``; otherwise ``remaining`` is the fewest cards the hunter
would still need from where it stops, with terrain cards alone, on the island as the turn leaves
it (``None`` when even that cannot reach the goal).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from solver.dragon.cards import Card
from solver.dragon.move import Move, plan_json
from solver.dragon.position import Position
from solver.dragon.rules import resolve_variants
from solver.errors import InputError

INF = 10**6  # "cannot reach the goal even with any number of terrain cards"
WORK_LIMIT = 120.0  # CP-SAT's deterministic time per model: the same cut-off on every machine
# CP-SAT's deterministic time for a whole route query as the command line and the page ask it
# (``router.rounds.cp_route(budget=...)``). Most hands are proved optimal well within it; a
# few hands with three swap cards need far more to prove their route optimal, and are then
# answered with the best route found and ``optimal`` false. Deterministic, so the same query
# gets the same answer on every machine; the wall time it buys depends on the machine and on
# the Python work around the models (``make bench`` measures both, and how many it proves).
WORK_BUDGET = 0.5
# Wall-clock seconds for a whole route query as the command line and the page ask it
# (``router.rounds.cp_route(deadline=...)``): the answer's latency at the table on any machine
# under any load. Within the work budget few hands come near it on an idle machine; those that
# reach it are answered with the best route found by then, ``optimal`` and
# ``deadline_reached`` saying so, and only they depend on the machine (``make bench``).
DEADLINE = 2.0


@dataclass
class RouteQuery:
    """Position, mover, hand, goal and the readings of unclear rules."""

    position: Position
    hunter: str
    hand: list[Card]
    goal: str | None = None  # "treasure" | "boat"; None: boat when carrying, else treasure
    variants: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        pos = self.position
        model = pos.island.model
        self.variants = resolve_variants(self.variants, model)
        if self.hunter not in pos.hunters:
            raise InputError(f"hunter {self.hunter} is not on the board in this position")
        if len(self.hand) > model.hand_size:
            raise InputError(f"a hand holds at most {model.hand_size} cards, got {len(self.hand)}")
        me = pos.hunters[self.hunter]
        carrying = me.partner is not None
        if self.goal is None:
            self.goal = "boat" if carrying else "treasure"
        if self.goal not in ("treasure", "boat"):
            raise InputError(f"unknown goal {self.goal!r}; use treasure or boat")
        if self.goal == "boat" and not carrying:
            raise InputError(f"{self.hunter} carries no treasure: its goal is the treasure field")
        if self.goal == "treasure" and carrying:
            raise InputError(f"{self.hunter} carries a treasure: its goal is a boat (--goal boat)")
        if self.goal == "treasure" and pos.treasure is None:
            raise InputError("no treasure is left on the treasure field")

    @property
    def own(self) -> str:
        return self.position.island.model.terrain_of(self.hunter)

    def kinds(self) -> list[tuple[Card, int]]:
        """The hand as (card, count), in a fixed order."""
        return sorted(Counter(self.hand).items())


@dataclass
class RouteResult:
    """The best sequence of moves and card plays for the turn."""

    reachable: bool
    cards_used: int
    remaining: int | None
    plan: list[Move]
    method: str = ""
    seconds: float = 0.0
    optimal: bool = True  # False: a solver's work limit cut the proof short (best found)
    work: float = 0.0  # CP-SAT's deterministic time over the query's models (the same anywhere)
    deadline_reached: bool = False  # the query's deadline cut the search short

    @property
    def value(self) -> tuple[int, int]:
        rem = INF if self.remaining is None else self.remaining
        return (rem, self.cards_used)

    def to_json(self) -> dict:
        return {
            "reachable": self.reachable,
            "cards_used": self.cards_used,
            "remaining": self.remaining,
            "plan": plan_json(self.plan),
            "optimal": self.optimal,
            "deadline_reached": self.deadline_reached,
        }


def route_document(q: RouteQuery, result: RouteResult) -> dict:
    """``treasure dragon route --json`` (and the API's answer): the result, the mover, its goal
    and the field it starts from."""
    out = result.to_json()
    pos = q.position
    out.update(hunter=q.hunter, goal=q.goal,
               start=pos.island.names[pos.hunters[q.hunter].at])
    return out
