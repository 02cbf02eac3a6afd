"""Drachenpatrouille: the dragon placement that slows opponents down the most.

With fewer than two dragons on the island the card sets a new one; with two it moves one of
them. A dragon may never stand on a boat, a field in front of a boat, the treasure field or an
occupied field. An opponent's "cards needed" is the measure of ``distance``: terrain cards alone
from where it stands to its goal. The best placement raises the sum over the chosen opponents
most; ties go to the placement that hurts the player least, then to the first in board order.

``cp_patrol`` decides with CP-SAT (shortest-path potentials under interdiction: an opponent's
potential at its goal is at most its shortest distance, and maximising it reaches exactly that);
``enumerate_patrol`` tries every placement with Dijkstra. The tests require the same answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.dragon.distance import EntryCosts, entry_costs
from solver.dragon.position import Position
from solver.dragon.route import WORK_LIMIT
from solver.dragon.rulebook import dragon_sites
from solver.dragon.rules import resolve_variants
from solver.errors import InputError, SolveError

Blocked = cp_model.LinearExprT  # 1 where a dragon stands after the patrol (or a constant)

CAP = 40  # "cut off": more cards than any route could need
W_OWN = 300  # weights of the lexicographic objective (rank < W_OWN, own * W_OWN < W_OPP)
W_OPP = W_OWN * (CAP + 1) + W_OWN


@dataclass
class PatrolResult:
    """The chosen placement and every chosen opponent's cards before and after."""

    moved_from: str | None  # the dragon moved (None: a new dragon is set)
    to: str
    before: dict[str, int]
    after: dict[str, int]
    own_before: int | None
    own_after: int | None
    method: str = ""
    options: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def increase(self) -> int:
        return sum(self.after.values()) - sum(self.before.values())

    def to_json(self) -> dict:
        return {
            "moved_from": self.moved_from,
            "to": self.to,
            "increase": self.increase,
            "opponents": {
                c: {"before": self.before[c], "after": self.after[c]} for c in sorted(self.before)
            },
            "own": {"before": self.own_before, "after": self.own_after},
            "options": self.options,
            "cut_off_value": CAP,
        }


class Patrol:
    """The placement problem for one position, player and set of opponents."""

    def __init__(self, pos: Position, player: str, against: str = "all",
                 variants: dict | None = None) -> None:
        self.pos, self.isl = pos, pos.island
        self.var = resolve_variants(variants or {}, self.isl.model)
        self._costs: dict[str, EntryCosts] = {}  # each hunter's, for ``cards``
        hunters = pos.hunters
        if player not in hunters:
            raise InputError(f"hunter {player} is not on the board in this position")
        self.player = player
        mate = hunters[player].partner
        if against == "all":
            self.targets = [c for c in sorted(hunters)
                            if c not in (player, mate) and self._has_goal(c)]
        else:
            if against not in hunters:
                raise InputError(f"hunter {against} is not on the board in this position")
            if against == player:
                raise InputError("a player does not set a dragon against itself")
            if not self._has_goal(against):
                raise InputError(f"{against} is not on its way anywhere (waiting for a partner)")
            self.targets = [against]
        if not self.targets:
            raise InputError("no opponent on its way to a goal in this position")
        self.sites = self._sites()
        if len(pos.dragons) < int(self.isl.model.components["dragons_in_play"]):
            self.options = [(None, f) for f in self.sites]
        else:
            self.options = [(d, f) for d in sorted(pos.dragons) for f in self.sites]
        if not self.options:
            raise InputError("no legal field for a dragon")

    def _has_goal(self, colour: str) -> bool:
        h = self.pos.hunters[colour]
        if h.at == self.isl.treasure or h.guarding:
            return False
        return h.partner is not None or self.pos.treasure is not None

    def _sites(self) -> list[int]:
        """Fields a dragon may be set on now."""
        taken = {h.at for h in self.pos.hunters.values()} | set(self.pos.dragons)
        return dragon_sites(self.isl, taken)

    # -- the measure --------------------------------------------------------------------
    def _setting(self, colour: str) -> tuple:
        h = self.pos.hunters[colour]
        partner = h.partner or ""
        occupied = {x.at for c, x in self.pos.hunters.items() if c not in (colour, partner)}
        return h, partner, occupied

    def cards(self, colour: str, dragons: set[int]) -> int:
        """Cards ``colour`` needs to its goal with these dragons (capped at CAP)."""
        h, partner, occupied = self._setting(colour)
        costs = self._costs.get(colour)
        if costs is None:  # (the same for every placement: worked out once per hunter)
            costs = self._costs[colour] = EntryCosts(
                self.isl, self.isl.model.terrain_of(colour), colour, partner, occupied,
                self.pos.treasure is not None,
                self.var["empty-treasure-field-carriers"] == "open")
        dist = costs.distances(self.pos.tiles, dragons, self.isl.treasure in occupied)
        return min(dist[h.at], CAP)

    def dragons_after(self, option: tuple) -> set[int]:
        moved, to = option
        out = set(self.pos.dragons) - ({moved} if moved is not None else set())
        return out | {to}

    def result(self, option: tuple, method: str) -> PatrolResult:
        now = set(self.pos.dragons)
        after = self.dragons_after(option)
        own = self._has_goal(self.player)
        names = self.isl.names
        return PatrolResult(
            moved_from=names[option[0]] if option[0] is not None else None,
            to=names[option[1]],
            before={c: self.cards(c, now) for c in self.targets},
            after={c: self.cards(c, after) for c in self.targets},
            own_before=self.cards(self.player, now) if own else None,
            own_after=self.cards(self.player, after) if own else None,
            method=method,
            options=len(self.options),
        )

    def rank(self, option: tuple) -> int:
        moved, to = option
        d_rank = 0 if moved is None else sorted(self.pos.dragons).index(moved)
        return 100 * d_rank + self.sites.index(to)


def enumerate_patrol(pos: Position, player: str, against: str = "all",
                     variants: dict | None = None) -> PatrolResult:
    """Try every placement (the check of ``cp_patrol``)."""
    p = Patrol(pos, player, against, variants)
    own = p._has_goal(player)

    def key(option: tuple) -> tuple:
        dragons = p.dragons_after(option)
        total = sum(p.cards(c, dragons) for c in p.targets)
        mine = p.cards(player, dragons) if own else 0
        return (-total, mine, p.rank(option))

    return p.result(min(p.options, key=key), "enumeration")


def cp_patrol(pos: Position, player: str, against: str = "all",
              variants: dict | None = None) -> PatrolResult:
    """The best placement by CP-SAT."""
    p = Patrol(pos, player, against, variants)
    m = cp_model.CpModel()
    place = {f: m.NewBoolVar(f"place{f}") for f in p.sites}
    m.AddExactlyOne(place.values())
    moving = p.options[0][0] is not None
    mv = {d: m.NewBoolVar(f"mv{d}") for d in sorted(pos.dragons)} if moving else {}
    if mv:
        m.AddExactlyOne(mv.values())

    def blocked(v: int) -> Blocked:
        """1 when a dragon stands on field v after the patrol (an expression)."""
        if v in place:
            return place[v]
        if v in pos.dragons:
            return 1 - mv[v] if v in mv else 1
        return 0

    totals = []
    for colour in p.targets:
        totals.append(_potential(m, p, colour, blocked))
    terms = W_OPP * sum(totals)
    if p._has_goal(player):
        terms -= W_OWN * _shortest(m, p, player, blocked)
    rank = sum(p.sites.index(f) * x for f, x in place.items())
    rank += sum(100 * i * mv[d] for i, d in enumerate(sorted(mv)))
    m.Maximize(terms - rank)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = WORK_LIMIT
    status = solver.Solve(m)
    if status != cp_model.OPTIMAL:
        raise SolveError(f"patrol model not solved to optimality ({solver.StatusName(status)})")
    to = next(f for f, x in place.items() if solver.Value(x))
    moved = next((d for d, x in mv.items() if solver.Value(x)), None)
    return p.result((moved, to), "cp-sat")


def _arcs(p: Patrol, colour: str) -> tuple[int, list[tuple[int, int, int]], list[tuple]]:
    """(u, v, cost of entering v) for every move ``colour`` may make, ignoring dragons, plus
    the goal arcs: (node, "goal", cost)."""
    isl = p.isl
    h, partner, occupied = p._setting(colour)
    own = isl.model.terrain_of(colour)
    T = isl.treasure
    cost = entry_costs(isl, p.pos.tiles, own, colour, partner, occupied,
                       p.pos.treasure is not None, p.var["empty-treasure-field-carriers"] == "open")

    arcs = []
    for u in range(len(isl.names)):
        if u == T and not partner:
            continue  # the treasure field is the goal (or left at once), never crossed
        for v in isl.adj[u]:
            c = cost(v)
            if c is not None:
                arcs.append((u, v, c))
    goals = []
    if partner:
        goals = [(isl.boat_node[colour], 0), (isl.boat_node[partner], 0)]
    elif T in occupied:
        goals = [("leave", hx, cost(hx)) for hx in isl.adj[T]
                 if isl.is_field(hx) and cost(hx) is not None]
    else:
        goals = [(T, 0)]
    return h.at, arcs, goals


def _potential(m: cp_model.CpModel, p: Patrol, colour: str,
               blocked: Callable[[int], Blocked]) -> cp_model.IntVar:
    """min(cards to goal, CAP) of an opponent, as a potential to maximise."""
    start, arcs, goals = _arcs(p, colour)
    n = len(p.isl.names)
    pi = [m.NewIntVar(0, CAP, f"pi_{colour}_{v}") for v in range(n)]
    m.Add(pi[start] == 0)
    for u, v, c in arcs:
        m.Add(pi[v] <= pi[u] + c + CAP * blocked(v))
    goal = m.NewIntVar(0, CAP, f"goal_{colour}")
    for g in goals:
        if g[0] == "leave":
            _, hx, c = g
            m.Add(goal <= pi[p.isl.treasure] + c + CAP * blocked(hx))
        else:
            m.Add(goal <= pi[g[0]] + g[1])
    return goal


def _shortest(m: cp_model.CpModel, p: Patrol, colour: str,
              blocked: Callable[[int], Blocked]) -> cp_model.LinearExprT:
    """min(cards to goal, CAP) of the player, as a path flow to minimise."""
    start, arcs, goals = _arcs(p, colour)
    n = len(p.isl.names)
    x = {(u, v): m.NewBoolVar(f"x_{colour}_{u}_{v}") for u, v, _ in arcs}
    cost = {(u, v): c for u, v, c in arcs}
    sinks, sink_cost = {}, []
    for g in goals:
        if g[0] == "leave":
            _, hx, c = g
            y = m.NewBoolVar(f"leave_{colour}_{hx}")
            m.Add(y <= 1 - blocked(hx))
            sinks.setdefault(p.isl.treasure, []).append(y)
            sink_cost.append(c * y)
        else:
            y = m.NewBoolVar(f"sink_{colour}_{g[0]}")
            sinks.setdefault(g[0], []).append(y)
    give_up = m.NewBoolVar(f"giveup_{colour}")
    for v in range(n):
        inflow = sum(x[a] for a in x if a[1] == v)
        outflow = sum(x[a] for a in x if a[0] == v) + sum(sinks.get(v, []))
        if v == start:
            m.Add(1 + inflow == outflow + give_up)
        else:
            m.Add(inflow == outflow)
        if p.isl.is_field(v):
            m.Add(inflow <= 1 - blocked(v))
    return sum(cost[a] * x[a] for a in x) + sum(sink_cost) + CAP * give_up
