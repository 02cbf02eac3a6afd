"""The whole table solved: a fixed point of best responses, and its certificate.

**What is solved.** A way of playing gives every state an outcome distribution of the mover's
turn; its values follow by the linear sweeps of :mod:`solver.sabords.game.table.linear`. It is an
equilibrium when no mover can gain by playing one turn otherwise: the *regret* of a state is
the mover's best turn against the table's values (the engine's stopping problem, payoffs the
next states' entries for the mover) minus the mover's entry. The largest regret is the
certificate a solved table carries; :func:`regret` recomputes it from the values alone.

**Stages.** The phases are solved in the order they read each other
(:meth:`~solver.sabords.game.table.states.Layout.stages`): under the race, the race first (it reads
only itself), then each step of the final round from its end (a state there leads only to
results, the race and the step after it, so its turn is one best response against values
already final, solved once, cold), then normal play. Many final-round states give their mover
the same payoff row (the mover's entry of each outcome's next state: often only the mover's
score against the best opponent's counts); each card's distinct problem (its payoffs on the
outcomes that card can end in) is solved once (:mod:`~solver.sabords.game.table.once`). A
stage whose states lead to each other (normal play, the race; the final round with normal play
when a drop returns to it) is solved as follows, each of its states keeping the policies of its
last turns as warm starts.

**How it is found.** From points play's values (every turn maximising its points), *policy
iteration*: every mover best-responds to the current values, then the values of that way of
playing are computed exactly (sweeps to 1e-15), and again. With two players this is Newton's
method on the zero-sum game. With three or more the best responses at a few states can chase
each other round a cycle (each mover's best turn changes another's, which changes the first's),
and policy iteration need not settle: once the lowest regret met has not fallen (below
``FALL`` times the lowest before: a cycle repeating its regrets to the last bits is not a fall)
for ``WINDOW`` steps, it stops at the way of playing with the lowest regret, and the states
whose best turn kept changing (``cycling``) mix the turns they played there
(:mod:`solver.sabords.game.table.settle`). A mixed state's mover is indifferent between its
turns; the certificate is the same largest regret, and ``stats["mixed"]`` names the states
that mix with their weights (each turn's share of the mover's plays there);
``stats["settle_rounds"]`` counts the oracle rounds and ``stats["newton_residual"]`` is the
mixing condition's largest residual left (both 0 when nothing cycles).

**Turns left unsolved.** Each state of a repeating stage carries a bound on its regret that
needs no turn solved (:mod:`solver.sabords.game.table.margin`: its best turn when last solved,
plus how far its payoffs have risen since). From the third step on, a step solves only the
states whose bound exceeds ``RESOLVE`` times the regret it is expected to reach (the last one
times its last fall: a state left with less does not hold the next regret up), and never
those within the tolerance; the others keep their turns and warm starts, and their regret
entry is their bound. The oracle rounds of mixing solve every state whose bound exceeds the
tolerance. So a stage's certificate is an upper bound on its regret, at most the tolerance
when it has converged (:func:`regret` recomputes every turn); ``stats["turns_solved"]`` lists
per stage the turns each step and oracle round solved.

**Ties.** When a mover's options are equally good for the mover, the others' values can
depend on the choice, so the tie rule is part of the answer (:mod:`solver.sabords.game.table.
payoff`: the engine's order, or ``TIE_SHARE`` of the player after or before the mover added to
the mover's payoff). The best responses and the mixing of cycling states maximise the same
payoff (:func:`~solver.sabords.game.table.payoff.mover_payoff`); the certificate
(:func:`regret`) is the mover's own value alone.
"""

from __future__ import annotations

import sys
import time
from functools import cached_property

import numpy as np

from solver.sabords.game.points import points_play_outcomes
from solver.sabords.game.table.compact import Plays
from solver.sabords.game.table.linear import Successors, evaluate
from solver.sabords.game.table.margin import RegretBound
from solver.sabords.game.table.once import CardTurns
from solver.sabords.game.table.payoff import mover_payoff, tie_weights
from solver.sabords.game.table.settle import settle
from solver.sabords.game.table.solution import TableSolution
from solver.sabords.game.table.states import NORMAL, Layout, Stage, TableSpec
from solver.sabords.game.table.warm import WarmStarts
from solver.sabords.turn.lanes import TurnCost

BLOCK = 4096  # states whose turns are solved in one call
CHUNK = 512  # states solved in one call when each starts from the policy of the one before
ONCE_BLOCK = 65536  # states of a once-solved stage whose payoff rows are compared at once
SUCC_BLOCK = 16384  # states whose successors are computed at once (turn_ends' temporaries)
WINDOW = 4  # the steps looked back on: a state whose best turn changed twice in them cycles
FALL = 0.9  # the lowest regret has fallen when a step's is below this times the lowest before
CHANGED = 1e-9  # a best turn's outcome distribution moved by more: the choice changed
SETTLE_ROUNDS = 10  # oracle rounds of mixing the cycling states' turns (table.settle)
MIXED = 1e-6  # weights below this are reported as a turn not played (the values use them)
RESOLVE = 1.0  # a step solves the turns whose regret bound exceeds this times the regret
# it is expected to reach (_threshold)


class TableSolver:
    """The iterations of a whole-table solve (see the module docstring), stage by stage
    (:meth:`Layout.stages`)."""

    def __init__(self, spec: TableSpec, progress: bool = False, tie: str = "engine") -> None:
        self.layout = Layout(spec)
        self.progress = progress
        layout = self.layout
        self.weights = tie_weights(tie, layout.players)  # the mover's payoff (table.payoff)
        self.lanes = layout.deck.lanes
        self._stage_succ: tuple[tuple[int, int], Successors] | None = None
        self.distinct: dict[tuple[str, ...], int] = {}  # once-solved stages: distinct rows
        self.card_problems: dict[tuple[str, ...], int] = {}  # ... and cards' distinct problems
        self.turn_cost: dict[str, TurnCost] = {}  # per stage of the last solve (make bench)
        self.sweeps = 0  # the linear sweeps made (repeating stages; settling's own not counted)
        self.resolve: float | None = RESOLVE  # 0: only turns within the tolerance stay;
        # None: every turn solved at every step (the reference the bound is tested against)

    def successors(self, rows: np.ndarray) -> np.ndarray:
        """The row each outcome leads to from each state row of ``rows``
        (:meth:`Layout.successors`), computed in blocks (:func:`turn_ends`' temporaries)."""
        layout = self.layout
        rows = np.asarray(rows)
        out = np.empty((len(rows), layout.deck.count), dtype=np.int32)
        for name, phase in layout.phases.items():
            inside = np.flatnonzero((rows >= phase.start) & (rows < phase.start + phase.size))
            for lo in range(0, len(inside), SUCC_BLOCK):
                at = inside[lo:lo + SUCC_BLOCK]
                scores = np.stack(np.unravel_index(rows[at] - phase.start, phase.shape),
                                  axis=1) + layout.low
                out[at] = layout.successors(name, scores)
        return out

    @cached_property
    def succ(self) -> np.ndarray:
        """Every state's successor rows (the table's readers; a solve keeps only those of the
        stage it solves again and again, :meth:`stage_successors`)."""
        return self.successors(np.arange(self.layout.states))

    def stage_successors(self, stage: Stage) -> Successors:
        """The successor rows of a stage's states (the last stage's kept)."""
        if "succ" in self.__dict__:  # the whole table's, computed already: the stage's view
            return Successors(self.succ[stage.start:stage.stop], stage.start)
        span = (stage.start, stage.stop)
        if self._stage_succ is None or self._stage_succ[0] != span:
            self._stage_succ = None  # freed before the next is built
            self._stage_succ = (span, Successors(
                self.successors(np.arange(stage.start, stage.stop)), stage.start))
        return self._stage_succ[1]

    def play(self, dist: np.ndarray | Plays, stages: list[Stage] | None = None) -> np.ndarray:
        """The values of playing ``dist`` (one row per state, or one row for every state),
        stage by stage (``stages``: the layout's unless given)."""
        layout = self.layout
        if not isinstance(dist, Plays):
            dist = Plays.of(dist, layout.states)
        values = layout.empty()
        for stage in layout.stages() if stages is None else stages:
            self._value(stage, values, dist)
        return values

    def solve(self, tol: float = 1e-12, max_steps: int = 30, staged: bool = True,
              settle_rounds: int = SETTLE_ROUNDS, start: np.ndarray | None = None
              ) -> TableSolution:
        """Every stage in turn: a stage whose states lead to each other by policy iteration
        from points play (until no mover gains more than ``tol``, or ``max_steps``, keeping
        the way of playing with the lowest regret), any other by one best response per
        distinct payoff row. ``staged=False``: the whole table as one stage, every state's
        turn solved again at every step (the reference the stages are tested against).
        ``start``: the way of playing policy iteration starts from (one outcome distribution
        per state), instead of points play."""
        started = time.perf_counter()
        layout = self.layout
        self.sweeps = 0
        whole = Stage(tuple(layout.phases), 0, layout.states, True)
        stages = layout.stages() if staged else [whole]
        dist = Plays.of(points_play_outcomes(layout.spec.rules) if start is None else start,
                        layout.states)
        # the values of playing ``dist`` (points play's: the opening's are reported), stage by
        # stage as each is reached, so that a once-solved stage's successors serve both
        points, values = layout.empty(), layout.empty()
        regret = np.zeros(layout.states)
        steps, history, cycling, mixed, converged = {}, [], [], [], True
        resolved: dict[str, list[int]] = {}
        settling = {"settle_rounds": 0, "newton_residual": 0.0}
        ready = np.zeros(layout.rows, dtype=bool)  # the rows a stage may read
        ready[layout.states:] = True
        self.turn_cost = {}
        for stage in stages:
            before = self.lanes.cost.copy()
            ready[stage.start:stage.stop] = stage.repeats
            if stage.repeats:
                self._value(stage, points, dist)
                values[stage.start:stage.stop] = points[stage.start:stage.stop]
                _check(stage, ready, self.stage_successors(stage).rows)
                found = self._iterate(stage, values, dist, regret, tol, max_steps,
                                      settle_rounds)
                steps["/".join(stage.names)] = len(found["history"])
                resolved["/".join(stage.names)] = found["resolved"]
                history += found["history"]
                cycling += found["cycling"]
                mixed += found["mixed"]
                settling["settle_rounds"] += found["settle_rounds"]
                settling["newton_residual"] = max(settling["newton_residual"],
                                                  found["newton_residual"])
                converged &= found["converged"]
            else:
                self._once(stage, values, dist, regret, ready, points)
            ready[stage.start:stage.stop] = True
            self.turn_cost["/".join(stage.names)] = self.lanes.cost.since(before)
        points_seats = points[layout.index(NORMAL, [0] * layout.players)]
        worst = float(regret.max(initial=0.0))
        cycles = np.array(cycling, dtype=np.int64)
        stats = {
            "players": layout.players, "steps": max(steps.values(), default=0),
            "stage_steps": steps, "turns_solved": resolved, "regret": worst,
            "converged": converged and worst <= tol, "states": int(layout.states),
            "history": history,
            "regret_elsewhere": float(np.delete(regret, cycles).max(initial=0.0)),
            "lowest_regret": float(regret.min(initial=0.0)),
            "cycling": [_where(layout, row) for row in sorted(cycling)], "mixed": mixed,
            **settling, "sweeps": self.sweeps,
            "points_play": points_seats.tolist(), "seconds": time.perf_counter() - started,
        }
        return TableSolution(layout, values, dist, stats)

    def _value(self, stage: Stage, values: np.ndarray, dist: Plays) -> None:
        """The values of a stage's states when they play ``dist`` (the stages before it
        valued): sweeps when its states lead to each other, else one pass."""
        if stage.repeats:
            self.sweeps += evaluate(values, self._order(stage), self.stage_successors(stage),
                                    dist)
            return
        for lo in range(stage.start, stage.stop, ONCE_BLOCK):
            rows = np.arange(lo, min(lo + ONCE_BLOCK, stage.stop))
            self._pass(rows, self.successors(rows), values, dist)

    @staticmethod
    def _pass(rows: np.ndarray, succ: np.ndarray, values: np.ndarray, dist: Plays) -> None:
        """The values of ``rows`` (successors ``succ``) from those of the rows they lead to."""
        nxt = np.roll(values[succ], 1, axis=2)  # position j reads column j - 1
        values[rows] = np.einsum("so,soj->sj", dist[rows], nxt)

    def _own(self, rows_values: np.ndarray) -> np.ndarray:
        """The mover's payoff of states' values (their own column, and the tie rule's)."""
        return mover_payoff(rows_values, self.weights)

    def _pay(self, values: np.ndarray, succ: np.ndarray) -> np.ndarray:
        """The mover's payoff of each next state ``values[succ]`` (the mover is its last
        column, the player after the mover its first)."""
        return mover_payoff(values, self.weights, succ, self.layout.players - 1)

    def _order(self, stage: Stage) -> np.ndarray:
        """The sweeps' order on a stage's states (:meth:`Layout.stage_order`)."""
        return self.layout.stage_order(stage)

    def _best(self, rows: np.ndarray, values: np.ndarray, succ: Successors, warm: WarmStarts,
              part: slice | np.ndarray, tol: float = 1e-14, guess: bool = False):
        """The best turns of ``rows`` (the states ``part`` of ``warm``) against ``values``,
        warm-started from the policies and push memo last found for them (updated). Only the
        policy is kept: the engine evaluates a stored policy at the new payoffs before its
        first Bellman update, and from zero values that takes about as many updates as from
        the last values (the answer is the final iterate's either way), at a fifth of the
        memory."""
        pay = self._pay(values, succ[rows])
        store = self.lanes.storage(len(rows))
        memo = warm.load(part, store)
        solved = self.lanes.solve(pay, np.arange(len(rows)), store, tol, distribution=True,
                                  memo=memo, guess=guess)
        warm.save(part, store, memo)
        return solved

    def _iterate(self, stage: Stage, values: np.ndarray, dist: Plays,
                 regret: np.ndarray, tol: float, max_steps: int, settle_rounds: int) -> dict:
        """Policy iteration on a stage whose states lead to each other, the states before it
        solved: writes its values, play and regret; returns its history and cycling states."""
        layout = self.layout
        rows = np.arange(stage.start, stage.stop)
        size = len(rows)
        warm = WarmStarts(self.lanes, size)
        succ = self.stage_successors(stage)
        bound = RegretBound(succ, stage.start, stage.stop, self.weights)
        resolved: list[int] = []  # per call of respond: the states whose turns it solved
        self._value(stage, values, dist)  # points play here, the stages before it solved
        recent: list[np.ndarray] = []  # per step of the last WINDOW: which best turns changed
        played: list[dict] = []  # per step of the last WINDOW: the changed states' new turns
        previous, history, kept = None, [], None
        started = time.perf_counter()

        floor = -np.inf if self.resolve is None else tol  # a bound at most this: not solved

        def respond(cold: bool = False, below: float = floor) -> tuple[np.ndarray, Plays]:
            """Every state's best gain and best turn against the current values (the turns'
            distributions in ``dist``'s pool); ``cold``: no turn of the stage solved yet. A
            state whose regret bound (:class:`RegretBound`) is at most ``below`` is not
            solved: its gain is the bound, its best turn the one it plays."""
            bound.track(values)
            own = self._own(values[rows])
            gain = bound.bound(own)
            todo = np.arange(size) if cold else np.flatnonzero(gain > below)
            picks = dist.index[rows].copy()
            parts = [todo[part] for part in _chained(len(todo))] if cold else [
                todo[lo:lo + BLOCK] for lo in range(0, len(todo), BLOCK)]
            for at, part in enumerate(parts):
                if cold and at:  # from the turns of the states before them, just solved
                    warm.start_from(part, parts[at - 1][:len(part)])
                solved = self._best(rows[part], values, succ, warm, part, guess=cold)
                gain[part], picks[part] = solved.values - own[part], dist.picks(solved.dist).index
                bound.solved(part, solved.values)
            warm.prune()
            resolved.append(len(todo))
            return gain, Plays(picks, dist.pool)

        for step in range(1, max_steps + 1):
            gap, best_dist = respond(step == 1, _threshold(history, floor, self.resolve))
            worst = float(gap.max())
            history.append(worst)
            if kept is None or worst < kept[0]:
                kept = (worst, gap, values[rows].copy(), dist.index[rows].copy())
            if self.progress:
                print(f"  whole table ({layout.players} players, {'/'.join(stage.names)}): "
                      f"step {step}, regret {worst:.2e} ({time.perf_counter() - started:.1f} s)",
                      file=sys.stderr, flush=True)
            if worst <= tol or step - _last_fall(history) > WINDOW:
                break
            if previous is not None:
                changed = best_dist.moved(previous, CHANGED)
                recent = [*recent[-(WINDOW - 1):], changed]
                played = [*played[-(WINDOW - 1):],
                          {at: best_dist[at] for at in np.flatnonzero(changed).tolist()}]
            previous = best_dist
            dist.index[rows] = best_dist.index
            self._value(stage, values, dist)
        worst, regret[rows], values[rows], dist.index[rows] = kept
        cycling = np.flatnonzero(np.sum(recent, axis=0) >= 2) if worst > tol and recent \
            else np.zeros(0, dtype=np.int64)
        mixed, rounds, newton = [], 0, 0.0
        if len(cycling) and settle_rounds:
            seen = {int(rows[at]): [dist[rows[at]].copy(), *(p[at] for p in played if at in p)]
                    for at in cycling.tolist()}
            settled = settle(values, dist, succ, self._order(stage), respond, rows, seen, tol,
                             settle_rounds, self.progress, self.weights)
            worst, regret[rows] = settled.regret, settled.gain
            rounds, newton = settled.rounds, settled.newton_gap
            mixed = [{**_where(layout, row), "weights": [float(w) for w in weights if w > MIXED]}
                     for row, weights in zip(settled.rows, settled.weights, strict=True)
                     if np.count_nonzero(weights > MIXED) > 1]
        dist.prune()
        return {"history": history, "converged": worst <= tol, "resolved": resolved,
                "cycling": (stage.start + cycling).tolist(), "mixed": mixed,
                "settle_rounds": rounds, "newton_residual": newton}

    def _once(self, stage: Stage, values: np.ndarray, dist: Plays, regret: np.ndarray,
              ready: np.ndarray, points: np.ndarray) -> None:
        """A stage whose states lead only to states solved before (``ready``): each distinct
        payoff row of its movers solved once, each card's distinct problem once (no warm
        starts kept: each starts from the policy of the card's problem before it in state
        order, :class:`~solver.sabords.game.table.once.CardTurns`), its values one pass
        (block by block, each block's successors computed once and serving also ``points``,
        the values of the way of playing ``dist`` holds on entry)."""
        started = time.perf_counter()
        seen: dict[bytes, int] = {}  # a distinct payoff row: its index in found
        found_best, found_dist = [np.zeros(0)], [np.zeros(0, dtype=np.int32)]  # in dist's pool
        turns = CardTurns(self.lanes, _chained)
        for lo in range(stage.start, stage.stop, ONCE_BLOCK):
            rows = np.arange(lo, min(lo + ONCE_BLOCK, stage.stop))
            succ = self.successors(rows)
            _check(stage, ready, succ)
            self._pass(rows, succ, points, dist)
            pay = np.ascontiguousarray(self._pay(values, succ))
            keys = pay.view(np.dtype((np.void, pay.shape[1] * pay.itemsize))).ravel()
            unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            before = len(seen)
            ids = np.array([seen.setdefault(key.tobytes(), len(seen)) for key in unique],
                           dtype=np.int64)
            new = first[ids >= before]  # in the order their indices were given
            best, picks = np.empty(len(new)), np.empty(len(new), dtype=np.int32)
            by_state = np.argsort(new)
            best[by_state], picks[by_state] = turns.solve(pay[new[by_state]], dist)
            found_best.append(best)
            found_dist.append(picks)
            found_best, found_dist = [np.concatenate(found_best)], [np.concatenate(found_dist)]
            pick = ids[inverse.ravel()]
            dist.index[rows] = found_dist[0][pick]
            self._pass(rows, succ, values, dist)
            regret[rows] = found_best[0][pick] - self._own(values[rows])
        self.distinct[stage.names] = len(seen)
        self.card_problems[stage.names] = turns.lanes_solved
        if self.progress:
            print(f"  whole table ({self.layout.players} players, {'/'.join(stage.names)}): "
                  f"{stage.stop - stage.start:,} states, {len(seen):,} distinct turns "
                  f"({time.perf_counter() - started:.1f} s)",
                  file=sys.stderr, flush=True)


def _check(stage: Stage, ready: np.ndarray, succ: np.ndarray) -> None:
    """That a stage's states (successors ``succ``) read only the rows ``ready``."""
    if not ready[succ].all():
        raise AssertionError(f"stage {stage.names} reads a state not solved before it")


def _chained(count: int) -> list[np.ndarray]:
    """``range(count)`` in calls of about :data:`CHUNK`, the ``j``-th holding ``j, j + k,
    j + 2k, ...``: each entry's predecessor is at the same place in the call before, so the
    turns of every call but the first can start from those just solved for their
    predecessors (a neighbouring state's policy: a few Bellman updates instead of six or
    seven from nothing; the optimum reached is the same from any start)."""
    calls = max(1, -(-count // CHUNK))
    return [np.arange(j, count, calls) for j in range(min(calls, count))]


def _threshold(history: list[float], floor: float, resolve: float | None) -> float:
    """The regret bound above which a step solves a state's turn: ``resolve`` times the regret
    the step is expected to reach (the last regret times its last fall, as policy iteration's
    regret falls about as its square); ``floor`` for the first two steps, and at least."""
    if resolve is None or len(history) < 2:
        return floor
    last = history[-1]
    return max(floor, resolve * min(last, last * last / history[-2]))


def _last_fall(history: list[float]) -> int:
    """The index of the last regret in ``history`` below ``FALL`` times every one before it
    (a later value a hair below the lowest, as a cycle repeats, is no progress)."""
    lowest, at = np.inf, 0
    for i, worst in enumerate(history):
        if worst < FALL * lowest:
            at = i
        lowest = min(lowest, worst)
    return at


def _where(layout: Layout, row: int) -> dict:
    """A state as its phase and scores (points)."""
    name, scores = layout.state_of(row)
    return {"phase": name, "scores": [int(x) * 100 for x in scores]}


def solve_table(spec: TableSpec, tol: float = 1e-12, progress: bool = False) -> TableSolution:
    """The whole table solved for ``spec`` (see the module docstring)."""
    return TableSolver(spec, progress).solve(tol)


def regret(solution: TableSolution, rows: np.ndarray | None = None) -> np.ndarray:
    """Per state (all, or ``rows``): the most the mover could gain by playing their turn
    otherwise against the table's values, every turn solved again from scratch."""
    solver = TableSolver(solution.spec)
    layout = solver.layout
    rows = np.arange(layout.states) if rows is None else np.asarray(rows)
    lanes = solver.lanes
    best = np.empty(len(rows))
    for lo in range(0, len(rows), BLOCK):
        part = rows[lo:lo + BLOCK]
        pay = solution.values[solver.successors(part), layout.players - 1]
        best[lo:lo + len(part)] = lanes.solve(pay, np.arange(len(part)),
                                              lanes.storage(len(part)), 1e-14).values
    return best - solution.values[rows, 0]
