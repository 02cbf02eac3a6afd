"""Reading a solved route model: the continuation's cells and the playable plan (which card
pays for what, in order), shared by the full model and its relaxations."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from solver.dragon.move import Move
from solver.dragon.router.relax import JOKERS
from solver.dragon.router.travel import ANY_TILE
from solver.dragon.rulebook import dragon_sites

if TYPE_CHECKING:
    from collections.abc import Callable

    from ortools.sat.python import cp_model

    from solver.dragon.router.variables import Layer, RouterModel


class PlanReader:
    """The plan of a solved router model (its solution ``sol``), read through the variables'
    names (:class:`~solver.dragon.router.variables.RouterModel`)."""

    def __init__(self, model: RouterModel, sol: cp_model.CpSolver) -> None:
        self.model = model
        self.sol = sol
        self.raided: set[int] = set()  # carrying pairs raided so far (each once)
        # the real tiles as the plan's swaps leave them (the model knows terrain classes only)
        self.tiles = list(model.q.position.tiles)

    def continuation(self) -> list[int]:
        """The solved continuation's cells, in order (empty when the goal is reached)."""
        r = self.model
        val = self.sol.Value
        succ = {u: v for (u, v), x in r.cont.steps.items() if val(x)}
        for h, x in r.cont.leave_steps.items():
            if val(x):
                succ[r.treasure_field] = h
        start = [v for L in r.layers for v, x in L.end.items() if val(x)]
        out, at = [], start[0] if start else None
        while at is not None and at in succ and len(out) < 200:
            at = succ.pop(at)
            out.append(at)
        return out

    def plan(self) -> list[Move]:
        """Order the chosen actions into a playable sequence and name the cards."""
        r = self.model
        val = self.sol.Value
        isl = r.isl
        names = isl.names
        pools: dict = defaultdict(list)
        for (k, key), x in sorted(r.use.items(), key=lambda kv: (str(kv[0][1]), kv[0][0])):
            pools[key] += [r.kinds[k][0].name] * int(val(x))

        last: dict = {}

        def take(key: str | tuple[str, int]) -> str:
            if key == "swap-joker":  # the relaxation: one swap card may stand in twice
                key = "credit"
                if not pools[key]:
                    return last[key]
            last[key] = pools[key].pop(0)
            return last[key]

        here = names[r.start]
        plan: list[Move] = []
        for t, x in sorted(r.long_journey.items()):
            if val(x):
                plan.append(Move("long-journey", here, take("long-journey"),
                                 with_card=take(("ljw", t)), terrain=r.terrains[t]))
        touched = self._touched_cells()
        places = self._dragon_places(touched)
        removed = [d for d in r.dragons if val(r.patrol_moves.get(d, 0))]
        if removed and len(r.dragons) < r.dragons_in_play:
            plan.append(Move("patrol", here, take("patrol"), place=places.pop(0)))
        for d in removed:
            plan.append(Move("patrol", here, take("patrol"), dragon=names[d], place=places.pop(0)))
        for f, who in sorted(r.lone.items()):
            if val(r.fright_lone.get(f, 0)):
                plan.append(Move("fright", here, take("fright"), target=who[0]))
        for p, who in sorted(r.pairs.items()):
            if val(r.fright_pair.get(p, 0)):
                for colour in sorted(who):
                    plan.append(Move("fright", here, take("fright"), target=colour))
        if r.fright_waiter is not None and val(r.fright_waiter):
            plan.append(Move("fright", here, take("fright"), target=r.waiter))
        at = r.start
        for e, L in enumerate(r.layers):
            at, done = self._walk(L, at, plan, take)
            if done or e == len(r.layers) - 1:
                break
            sw_adj, sw_any, a = r.stay_swap[e]
            if not val(sw_adj) and not (sw_any is not None and val(sw_any)):
                break
            f, g = [f for f in sorted(a) if val(a[f])]  # a swap touches two fields
            self.tiles[f], self.tiles[g] = self.tiles[g], self.tiles[f]
            ends = (names[f], names[g])
            card = take("swap-any") if sw_any is not None and val(sw_any) else take("swap-adjacent")
            plan.append(Move("swap", names[at], card, swap=ends))
        return plan

    def _walk(self, L: Layer, at: int, plan: list[Move],
              take: Callable[[str | tuple[str, int]], str]) -> tuple[int, bool]:
        """Follow one layer's flow from ``at``, appending its moves; return (end, goal reached)."""
        r = self.model
        val = self.sol.Value
        isl, names = r.isl, r.isl.names
        succ: dict[int, tuple] = {}
        for (u, v), x in L.steps.items():
            if val(x):
                succ[u] = ("step", v, None)
        for (u, b, v), x in L.flights.items():
            if val(x):
                succ[u] = ("flight", v, b)
        for u, x in L.teleports.items():
            if val(x):
                succ[u] = ("home", isl.boat_node[r.q.hunter], None)
        for h, x in L.leave_steps.items():
            if val(x):
                succ[r.treasure_field] = ("leave-step", h, None)
        for (b, v), x in L.leave_flights.items():
            if val(x):
                succ[r.treasure_field] = ("leave-flight", v, b)
        guard = 0
        while at in succ:
            guard += 1
            if guard > 500:
                raise RuntimeError("route flow does not end")
            kind, v, over = succ.pop(at)
            if kind == "home":
                plan.append(Move("fright", names[v], take("fright"), target=r.q.hunter))
                at = v
                continue
            card = use = relaxed_pay = None
            free, paid = (L.lfree, L.lpaid) if kind.startswith("leave") else (L.efree, L.epaid)
            if isl.is_field(v) and not val(free.get(v, 1)):
                (t,) = [t for (f, t), x in paid.items() if f == v and val(x)]
                if t in JOKERS:  # the relaxation's joker
                    card, use = take("swap-joker"), self.tiles[v]
                    if t == "swap-pay":
                        relaxed_pay = take("pay-any")
                elif t == ANY_TILE:  # (the relaxation: a tile that came in place of a free one)
                    card = take("pay-any")
                else:
                    card, use = take(("pay", t)), self.tiles[v]
            leave = kind.startswith("leave")
            raid = None
            if v in r.raid and val(r.raid[v]) and v not in self.raided:
                self.raided.add(v)
                home, stay = sorted(r.pairs[v])
                raid = home
            if kind.endswith("flight"):
                plan.append(Move("flight", names[v], take("flight"), over=names[over], pay=card,
                                 use=use, leave=leave, raid=raid, relaxed_pay=relaxed_pay))
            else:
                plan.append(Move("step", names[v], card, use=use, leave=leave, raid=raid,
                                 relaxed_pay=relaxed_pay))
            if raid:
                plan.append(Move("fright", names[v], take("fright"), target=stay))
            at = v
            if leave or v in L.goal and val(L.goal[v]):
                return at, True
        return at, False

    def _touched_cells(self) -> set[int]:
        """Cells the route enters, flies over or swaps, and the continuation's cells."""
        r = self.model
        val = self.sol.Value
        out = {r.start}
        for L in r.layers + [r.cont]:
            for (u, v), x in L.steps.items():
                if val(x):
                    out |= {u, v}
            for (u, b, v), x in L.flights.items():
                if val(x):
                    out |= {u, b, v}
            for h, x in L.leave_steps.items():
                if val(x):
                    out.add(h)
            for (b, v), x in L.leave_flights.items():
                if val(x):
                    out |= {b, v}
        for _adj, _any, a in r.stay_swap:
            out |= {f for f, x in a.items() if val(x)}
        return out

    def _dragon_places(self, touched: set[int]) -> list[str]:
        """Legal fields for dragons moved out of the way, away from everything the route uses."""
        r = self.model
        isl = r.isl
        taken = set(r.dragons) | set(r.lone) | set(r.pairs) | touched
        return [isl.names[f] for f in dragon_sites(isl, taken)][:4]
