"""An independent reference solver for the whole Mille Sabords game with N players (tests only).

Reduced sizes: a few dice, a small target. Nothing here reads the product's engine or game code;
the turn model (dice states, rerolls, Island, busts) is the two-player reference's
(tests/sabords_game_reference.py); its policy iteration is generalised here (per-state action
masks for the tie rule below, one linear solve per distinct policy instead of per game state).

A state before a turn is its phase and every score, listed from the player to move in playing
order; its value is a vector, entry j the P(win) + shares of ties of the player at position j.
Keys: ("normal", scores), ("race", scores), ("final", k, scores), scores in points, mover first.
In the final round k players are still to play their last turn (the mover included): positions
1..k-1 play after the mover, k is the trigger, k+1..N-1 have played theirs.

How a mover plays: the turn is a stopping problem whose payoff is the mover's value of the next
state (entry 0, read from the table after the outcome). Where options tie within TIE = 1e-12 of
the mover's optimum, the mover takes the one with the most expected points this turn (own
points of the outcome: the turn's points, 0 on the Island, 0 for nine of a kind): a
lexicographic optimum, found in two stages per block of dice states (policy iteration on the
mover's value, from stopping everywhere, switching only for a gain above 1e-14; then policy
iteration on points among the actions within TIE of that optimum; a Treasure Island bust's
choice of protected dice the same way). Remaining exact ties (equal value and equal points)
keep the first stage's choice, which prefers stopping and then the first reroll in the turn
model's order. The turn's outcome distribution under that policy is then propagated forward;
the other players' values follow from it. At a mixed state (below) the tie rule has no say:
the mover mixes two options it is indifferent between.

The phases in order: the race (cyclic), the final round from its last turn back (each turn
once), normal play (cyclic); under endgame-new-final-round normal play and the final round
are one cyclic group. The equilibrium of a cyclic group: policy iteration on the game (every
mover plays its best response to the current values, then the exact values of that profile by
one linear solve). A state whose play has gone A, B, A, B and whose best response is A again
mixes A and B (their outcome distributions) with the weight that makes its mover indifferent:
Newton steps, finite-difference Jacobian, on the weights of all such states of the group at
once, the other states' play held, then policy iteration goes on around them (a mixed state
whose best response beats both options plays it, pure). The result is certified by its
regret (regret_n): below 1e-12 wherever checked so far, and the games of the tests need no
mixing (the toy cycle of the tests does).
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import product

import numpy as np

from tests.sabords_game_reference import (
    DECK,
    POINT_MIN,
    TurnModel,
    turn_models,
)

VARIANTS = ("score-floor-zero", "endgame-new-final-round", "first-to-target-wins")
TIE = 1e-12  # the mover is indifferent between options within this
POINTS_EPS = 1e-9  # points policy iteration switches only for a gain above this (units of 100)
CHUNK = 1000  # game states per batch of turn solves (memory)
Key = tuple


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run numpy's small dense solves on one thread: on a busy machine OpenBLAS's threads
    make them a hundred times slower. The thread count is restored after."""
    lib = None
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "openblas" in line}
    for path in sorted(paths):
        try:
            candidate = ctypes.CDLL(path)
            get, put = (candidate.scipy_openblas_get_num_threads64_,
                        candidate.scipy_openblas_set_num_threads64_)
        except (OSError, AttributeError):
            continue
        lib = (get, put)
        break
    before = lib[0]() if lib else 0
    if lib:
        lib[1](1)
    try:
        yield
    finally:
        if lib:
            lib[1](before)


class Outcomes:
    """The turn's outcomes as one index: own points d, an Island loss l, nine of a kind."""

    def __init__(self, models: dict[str, TurnModel]) -> None:
        top = max(m.max_points() for m in models.values())
        loss = max((max(m.first_island, default=0) for m in models.values()), default=0)
        self.points = list(range(POINT_MIN // 100, top // 100 + 1))  # units of 100
        self.losses = list(range(0, loss // 100 + 1))
        self.size = len(self.points) + len(self.losses) + 1
        self.nine = self.size - 1
        self.own = np.array(self.points + [0] * (len(self.losses) + 1), dtype=float)

    def point(self, d: int) -> int:
        """Index of own points d (in points)."""
        return (d - POINT_MIN) // 100

    def island(self, loss: int) -> int:
        """Index of an Island loss (in points)."""
        return len(self.points) + loss // 100

    def kinds(self) -> list[tuple[str, int]]:
        """Each outcome as (kind, amount in units of 100)."""
        return ([("points", d) for d in self.points] + [("island", x) for x in self.losses]
                + [("nine", 0)])


def _choose(u: np.ndarray, own: np.ndarray, options: list[int], ties: bool) -> np.ndarray:
    """Per game state, the lexicographic best of several outcomes (value, then points; without
    the tie rule the first of the best)."""
    vals = u[:, options]
    near = vals >= vals.max(axis=1, keepdims=True) - TIE
    pts = np.where(near, own[options][None, :] if ties else 0.0, -np.inf)
    return np.array(options)[pts.argmax(axis=1)]


def _grouped_solve(inner: np.ndarray, policy: np.ndarray, rhs: np.ndarray,
                   transpose: bool = False) -> np.ndarray:
    """Solve (I - P) x = rhs per game state, P[i] = inner[policy[g, i]] (or its transpose):
    one solve per distinct policy. policy (S, nb), rhs (S, nb) -> (S, nb)."""
    nb = policy.shape[1]
    if nb == 0:
        return rhs.copy()
    order = np.lexsort(policy.T[::-1])
    ranked = policy[order]
    cuts = np.nonzero(np.any(ranked[1:] != ranked[:-1], axis=1))[0] + 1
    out = np.empty_like(rhs)
    identity = np.eye(nb)
    for rows in np.split(order, cuts):
        pol = policy[rows[0]]
        mat = inner[pol].T if transpose else inner[pol]
        out[rows] = np.linalg.solve(identity - mat, rhs[rows].T).T
    return out


def _block_iteration(block, stop: np.ndarray, const: np.ndarray, allowed: np.ndarray,
                     stop_ok: np.ndarray, policy: np.ndarray, eps: float) -> tuple:
    """Policy iteration in one block of dice states for S game states at once: stop (worth
    stop (members, S)) or reroll (inner @ v + const (actions, S)), only where allowed
    ((members, width, S); stop_ok (members, S)). Switches for a gain above eps relative to
    the value. Returns (values (members, S), policy (S, members), -1 = stop)."""
    nb, size = stop.shape
    inner = np.vstack([block.inner, np.zeros((1, nb))])
    consts = np.vstack([const, np.zeros((1, size))])
    cols = np.arange(size)[:, None]
    stop_best = np.where(stop_ok, stop, -np.inf)
    for _ in range(200):
        reward = np.where(policy >= 0, consts[policy, cols], stop.T)
        v = _grouped_solve(inner, policy, reward).T
        if block.table.shape[1] == 0:
            return v, policy
        q = block.inner @ v + const
        qs = np.where(allowed, q[block.table], -np.inf)
        best = qs.argmax(axis=1)
        best_q = np.take_along_axis(qs, best[:, None, :], axis=1)[:, 0, :]
        choice = np.where(best_q > stop_best, block.table[np.arange(nb)[:, None], best], -1)
        gain = np.maximum(best_q, stop_best) - v
        improve = (gain > eps * (1 + np.abs(v))).T
        if not improve.any():
            return v, policy
        policy = np.where(improve, choice.T, policy)
    raise RuntimeError("policy iteration does not settle")


def _rerolls(model: TurnModel, block, values: np.ndarray, bust: list[np.ndarray],
             size: int) -> np.ndarray:
    """(actions, S): what each reroll of a block is worth beyond the block's own states."""
    return np.array([model.trans[k] @ values[nxt] + model.bust_prob[k] * bust[k]
                     for k, nxt in block.actions]).reshape(len(block.actions), size)


def best_turn(model: TurnModel, out: Outcomes, u: np.ndarray,
              ties: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The mover's best turn with one card for S game states: (optimal value (S,), outcome
    distribution (S, O) of the lexicographic best policy). u (S, O): the mover's value of
    each outcome. ties=False leaves the tie rule out (stage 1 only: to measure what it does).

    Per block: stage 1 maximises the value (policy iteration, switching for a gain above
    1e-14); stage 2 maximises expected points among the actions within TIE of that optimum,
    starting from stage 1's policy."""
    size = u.shape[0]
    own = out.own
    stop_o = np.array([out.nine if model.nine[i] else out.point(model.stop_points[i])
                       for i in range(len(model.states))])
    bust_o = [_choose(u, own, [out.point(p) for p in opts], ties) for opts in model.bust_points]
    vu = np.zeros((model.modes, len(model.states), size))
    vp = np.zeros_like(vu)
    gs = np.arange(size)
    policies = []
    for block in model.blocks:
        const_u = _rerolls(model, block, vu, [u[gs, o] for o in bust_o], size)
        const_p = _rerolls(model, block, vp, [own[o] for o in bust_o], size)
        stop_u = u[:, stop_o[block.members]].T
        stop_p = np.repeat(own[stop_o[block.members]][:, None], size, axis=1)
        valid = np.repeat((block.table >= 0)[:, :, None], size, axis=2)
        start = np.full((size, len(block.members)), -1)
        v, policy = _block_iteration(block, stop_u, const_u, valid,
                                     np.ones_like(stop_u, dtype=bool), start, 1e-14)
        allowed = valid & ((block.inner @ v + const_u)[block.table] >= v[:, None, :] - TIE)
        if not ties:
            allowed = np.zeros_like(allowed)  # the points stage only evaluates stage 1's play
        p, policy = _block_iteration(block, stop_p, const_p, allowed, stop_u >= v - TIE,
                                     policy, POINTS_EPS if ties else np.inf)
        vu[block.mode, block.members] = v
        vp[block.mode, block.members] = p
        policies.append(policy)
    first_o = _choose(u, own, [out.point(p) for p in model.first_bust_points], ties)
    value = model.first_live @ vu[0] + model.first_bust * u[gs, first_o]
    dist = np.zeros((size, out.size))
    dist[gs, first_o] += model.first_bust
    for loss, prob in model.first_island.items():
        value += prob * u[:, out.island(loss)]
        dist[:, out.island(loss)] += prob
    _forward(model, policies, stop_o, bust_o, dist)
    return value, dist


def _forward(model: TurnModel, policies: list[np.ndarray], stop_o: np.ndarray,
             bust_o: list[np.ndarray], dist: np.ndarray) -> None:
    """Add to dist (S, O) where the turn ends under the block policies, from the first roll:
    blocks in the order dice flow (no Sorceress used first, fewest skulls first)."""
    size = dist.shape[0]
    gs = np.arange(size)
    flow = np.zeros((model.modes, len(model.states), size))
    flow[0] = model.first_live[:, None]
    for b in reversed(range(len(model.blocks))):
        block, policy = model.blocks[b], policies[b]
        inner = np.vstack([block.inner, np.zeros((1, len(block.members)))])
        # occupancy x: x = enter + x @ P, with P[i, j] = inner[policy[g, i], j]
        occ = _grouped_solve(inner, policy, flow[block.mode, block.members].T, transpose=True)
        g, r = np.nonzero(policy < 0)
        np.add.at(dist, (g, stop_o[block.members][r]), occ[g, r])
        for a, (k, nxt) in enumerate(block.actions):
            weight = np.where(policy == a, occ, 0.0).sum(axis=1)
            outside = model.trans[k].copy()
            if nxt == block.mode:
                outside[block.members] = 0.0  # inside the block: counted by the occupancy
            flow[nxt] += outside[:, None] * weight[None, :]
            dist[gs, bust_o[k]] += model.bust_prob[k] * weight


def deck_turn(models: dict[str, TurnModel], out: Outcomes, u: np.ndarray,
              ties: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The best turn before the card is drawn: deck averages of best_turn, in chunks."""
    total = sum(DECK.values())
    value = np.zeros(u.shape[0])
    dist = np.zeros((u.shape[0], out.size))
    for start in range(0, u.shape[0], CHUNK):
        part = slice(start, start + CHUNK)
        for card, count in DECK.items():
            v, d = best_turn(models[card], out, u[part], ties)
            value[part] += count / total * v
            dist[part] += count / total * d
    return value, dist


def _shares(scores: tuple[int, ...]) -> tuple[float, ...]:
    """The game's end: the highest score wins, a tie for the highest shared equally."""
    best = max(scores)
    winners = sum(s == best for s in scores)
    return tuple(1 / winners if s == best else 0.0 for s in scores)


class MultiGame:
    """The rules of the N-player game on internal keys (scores in units of 100)."""

    def __init__(self, players: int, dice: int, target: int, low: int,
                 variants: tuple[str, ...] = ()) -> None:
        unknown = set(variants) - set(VARIANTS)
        if unknown:
            raise ValueError(f"unknown readings: {sorted(unknown)}")
        if not 2 <= players <= 5 or not 1 <= dice <= 8:
            raise ValueError("2 to 5 players and 1 to 8 dice")
        if target % 100 or low % 100 or low > 0 or target <= 0:
            raise ValueError("target > 0 and low <= 0 must be multiples of 100")
        self.n, self.t, self.variants = players, target // 100, tuple(variants)
        self.lo = 0 if "score-floor-zero" in variants else low // 100
        self.models = turn_models(dice)
        self.out = Outcomes(self.models)
        self.kinds = self.out.kinds()
        self.hi = self.t - 1 + max(m.max_points() for m in self.models.values()) // 100
        self.rot = [(j - 1) % players for j in range(players)]  # next state's position of j

    def keys(self) -> list[Key]:
        """Every state: below-target scores for normal play, the race and those still to play
        their last turn; the trigger (at or above T when it has just triggered) and those who
        have played theirs anywhere in [lowest, T - 100 + the best turn]."""
        below = range(self.lo, self.t)
        every = range(self.lo, self.hi + 1)
        out: list[Key] = [(p, s) for p in ("normal", "race")
                          for s in product(below, repeat=self.n)]
        if "first-to-target-wins" in self.variants:  # no last round, no race: normal play only
            return [k for k in out if k[0] == "normal"]
        for k in range(1, self.n):
            trigger = range(self.t, self.hi + 1) if k == self.n - 1 else every
            ranges = [below] * k + [trigger] + [every] * (self.n - 1 - k)
            out += [("final", k, s) for s in product(*ranges)]
        return out

    def after(self, key: Key, kind: str, amount: int) -> tuple[Key | None, tuple[float, ...]]:
        """The state after a turn outcome (None and the values at the game's end)."""
        win = (1.0,) + (0.0,) * (self.n - 1)
        if kind == "nine":
            return None, win
        scores = key[-1]
        d, loss = (amount, 0) if kind == "points" else (0, amount)
        new = (max(self.lo, scores[0] + d),) + tuple(max(self.lo, s - loss) for s in scores[1:])
        turn = new[1:] + new[:1]
        if key[0] == "normal" and "first-to-target-wins" in self.variants:
            return (None, win) if new[0] >= self.t else (("normal", turn), ())
        if key[0] == "normal":
            return (("final", self.n - 1, turn) if new[0] >= self.t else ("normal", turn)), ()
        if key[0] == "race":
            return (None, win) if new[0] >= self.t else (("race", turn), ())
        if key[1] > 1:
            return ("final", key[1] - 1, turn), ()
        if max(new) >= self.t:
            return None, _shares(new)
        again = "normal" if "endgame-new-final-round" in self.variants else "race"
        return (again, turn), ()

    def links(self, keys: list[Key], index: dict[Key, int]) -> tuple[np.ndarray, np.ndarray]:
        """For each key and outcome: the next state's row in a table (-1 at the game's end)
        and the end's values (K, O, N)."""
        nxt = np.full((len(keys), self.out.size), -1, dtype=int)
        end = np.zeros((len(keys), self.out.size, self.n))
        for r, key in enumerate(keys):
            for o, (kind, amount) in enumerate(self.kinds):
                after, values = self.after(key, kind, amount)
                if after is None:
                    end[r, o] = values
                elif after not in index:
                    raise KeyError(f"{after} follows {key} but is not in the table")
                else:
                    nxt[r, o] = index[after]
        return nxt, end

    def next_values(self, nxt: np.ndarray, end: np.ndarray, values: np.ndarray) -> np.ndarray:
        """(K, O, N): every player's value after each outcome, in the current positions."""
        return np.where((nxt >= 0)[..., None], values[nxt][..., self.rot], end)


SWITCH = 1e-13  # a mover's gain above this changes the play
DENSE = 3000  # unknowns up to which a profile's values come from one dense solve


def _flips(history: list[np.ndarray], option: np.ndarray) -> bool:
    """True when a state's play has gone A, B, A, B and its best response is A again."""
    if len(history) < 3 or np.abs(history[-3] - history[-1]).max() > 1e-9:
        return False
    return [np.abs(option - h).max() <= 1e-9 for h in history[-3:]] == [False, True, False]


class Solver:
    """The equilibrium table of one game: values (M, N), the outcome distribution each mover
    plays (M, O), and the states where the mover mixes two distributions."""

    def __init__(self, game: MultiGame, start: str = "even") -> None:
        """start: where policy iteration starts in a cyclic group: "even" (every mover's
        best response to values 1/N there) or "points" (every mover maximises points)."""
        if start not in ("even", "points"):
            raise ValueError(f"unknown start: {start}")
        self.game, self.start = game, start
        self.keys = game.keys()
        self.index = {key: r for r, key in enumerate(self.keys)}
        self.values = np.full((len(self.keys), game.n), 1 / game.n)
        self.nxt, self.end = game.links(self.keys, self.index)
        self.dist = np.zeros((len(self.keys), game.out.size))
        self.mixed: dict[int, tuple[np.ndarray, np.ndarray, float]] = {}
        self.sweeps = 0

    def utility(self, rows: np.ndarray, values: np.ndarray | None = None) -> np.ndarray:
        """(K, O, N) next values of each outcome from the table (default: self.values)."""
        table = self.values if values is None else values
        return self.game.next_values(self.nxt[rows], self.end[rows], table)

    def best(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The movers' best turns (value (K,), outcome distribution (K, O)); equal utility
        rows are solved once."""
        u = self.utility(rows)[..., 0]
        uniq, inverse = np.unique(u, axis=0, return_inverse=True)
        value, dist = deck_turn(self.game.models, self.game.out, uniq)
        return value[inverse.ravel()], dist[inverse.ravel()]

    def evaluate(self, rows: np.ndarray) -> None:
        """Every player's value at rows under the distributions played there (exact linear
        solve, or fixed-point iteration until no value moves by 1e-15, for large groups)."""
        n = self.game.n
        pos = np.full(len(self.keys), -1)
        pos[rows] = np.arange(len(rows))
        inside = pos[self.nxt[rows]]  # (K, O), -1: outside the group or the end
        inside = np.where(self.nxt[rows] >= 0, inside, -1)
        dist = self.dist[rows]
        known = np.where((inside >= 0)[..., None], 0.0, self.utility(rows))
        const = np.einsum("ko,kon->kn", dist, known)
        link = np.zeros((len(rows), len(rows)))
        ks, os_ = np.nonzero(inside >= 0)
        np.add.at(link, (ks, inside[ks, os_]), dist[ks, os_])
        if len(rows) * n <= DENSE:
            turn = np.zeros((n, n))
            turn[np.arange(n), self.game.rot] = 1.0
            a = np.eye(len(rows) * n) - np.kron(link, turn)
            self.values[rows] = np.linalg.solve(a, const.ravel()).reshape(len(rows), n)
            return
        x = self.values[rows]
        smallest, stale = np.inf, 0
        for _ in range(100000):
            new = const + (link @ x)[:, self.game.rot]
            change = np.abs(new - x).max()
            x = new
            smallest, stale = (change, 0) if change < smallest else (smallest, stale + 1)
            if change < 1e-15 or (change < 1e-13 and stale >= 100):  # done, or rounding noise
                break
        else:
            raise RuntimeError("the profile's values do not settle")
        self.values[rows] = x

    def once(self, rows: np.ndarray) -> None:
        """States whose next states are all solved: one best response each."""
        _, self.dist[rows] = self.best(rows)
        self.evaluate(rows)

    def gaps(self, rows: np.ndarray, mixed: list[int], w: np.ndarray) -> np.ndarray:
        """With weights w on the mixed states' two options: each one's value gap Q(A) - Q(B)."""
        for r, weight in zip(mixed, w, strict=True):
            a, b, _ = self.mixed[r]
            self.dist[r] = weight * a + (1 - weight) * b
        self.evaluate(rows)
        u = self.utility(np.array(mixed))[..., 0]
        a = np.array([self.mixed[r][0] for r in mixed])
        b = np.array([self.mixed[r][1] for r in mixed])
        return ((a - b) * u).sum(axis=1)

    def indifference(self, rows: np.ndarray) -> None:
        """Newton steps on the mixed states' weights until each mover is indifferent."""
        mixed = sorted(set(self.mixed) & set(rows.tolist()))
        w = np.array([self.mixed[r][2] for r in mixed])
        for _ in range(60):
            g = self.gaps(rows, mixed, w)
            if np.abs(g).max() < 1e-15:
                break
            h = 1e-7
            jac = np.array([(self.gaps(rows, mixed, w + h * e) - g) / h
                            for e in np.eye(len(mixed))]).T
            w = np.clip(w - np.linalg.lstsq(jac, g, rcond=None)[0], 0.0, 1.0)
        self.gaps(rows, mixed, w)
        for r, weight in zip(mixed, w, strict=True):
            a, b, _ = self.mixed[r]
            self.mixed[r] = (a, b, float(weight))

    def equilibrium(self, rows: np.ndarray, sweeps: int = 200) -> None:
        """A cyclic group of states: policy iteration on the game (pure states take their
        best response); a state whose best response returns to an option it played before
        mixes the two (indifference weights)."""
        if self.start == "points":  # nothing to gain anywhere: the tie rule maximises points
            nothing = np.zeros((1, self.dist.shape[1]))
            self.dist[rows] = deck_turn(self.game.models, self.game.out, nothing)[1]
        else:
            _, self.dist[rows] = self.best(rows)
        history = {int(r): [self.dist[r].copy()] for r in rows}
        for _ in range(sweeps):
            self.sweeps += 1
            if any(r in self.mixed for r in rows):
                self.indifference(rows)
            else:
                self.evaluate(rows)
            value, br = self.best(rows)
            regret = value - self.values[rows, 0]
            changed = False
            for i, r in enumerate(rows.tolist()):
                if r in self.mixed:
                    if regret[i] > SWITCH:  # a third option beats both: play it
                        del self.mixed[r]
                        self.dist[r] = br[i]
                        history[r].append(br[i].copy())
                        changed = True
                    continue
                if np.abs(br[i] - self.dist[r]).max() <= 1e-9:
                    continue
                changed = True
                if _flips(history[r], br[i]):
                    self.mixed[r] = (br[i].copy(), self.dist[r].copy(), 0.5)
                else:
                    self.dist[r] = br[i]
                    history[r].append(br[i].copy())
            if not changed:
                break
        else:
            raise RuntimeError("the equilibrium search does not settle")
        for r in [r for r, (_, _, w) in self.mixed.items() if min(w, 1 - w) < TIE]:
            del self.mixed[r]  # a weight of 0 or 1: pure after all

    def solve(self) -> None:
        """Phases in the order they depend on each other."""
        phase = np.array([k[0] if k[0] != "final" else f"final{k[1]}" for k in self.keys])
        rows = {p: np.nonzero(phase == p)[0] for p in set(phase.tolist())}
        finals = [f"final{k}" for k in range(1, self.game.n)]
        if "first-to-target-wins" in self.game.variants:
            self.equilibrium(rows["normal"])
            return
        if "endgame-new-final-round" in self.game.variants:
            self.equilibrium(rows["race"])
            self.equilibrium(np.concatenate([rows[p] for p in ["normal", *finals]]))
            return
        self.equilibrium(rows["race"])
        for p in finals:
            self.once(rows[p])
        self.equilibrium(rows["normal"])


def _inside(key: Key) -> Key:
    """A key in points -> the same key in units of 100."""
    if any(s % 100 for s in key[-1]):
        raise ValueError(f"scores must be multiples of 100: {key}")
    return (*key[:-1], tuple(s // 100 for s in key[-1]))


def _outside(key: Key) -> Key:
    return (*key[:-1], tuple(100 * s for s in key[-1]))


def solve_solver(players: int, dice: int, target: int, low: int,
                 variants: tuple[str, ...] = (), start: str = "even") -> Solver:
    """The solved table with its details (mixed states, sweeps); start: see Solver."""
    with one_blas_thread():
        solver = Solver(MultiGame(players, dice, target, low, tuple(variants)), start)
        solver.solve()
    return solver


def table(solver: Solver) -> dict[Key, tuple[float, ...]]:
    """The solver's values in the interface's format (points, floats)."""
    return {_outside(k): tuple(float(x) for x in solver.values[r])
            for r, k in enumerate(solver.keys)}


def mixed_states(solver: Solver) -> dict[Key, float]:
    """Where the equilibrium mixes: key -> weight of the option its mover returned to."""
    return {_outside(solver.keys[r]): w for r, (_, _, w) in sorted(solver.mixed.items())}


def solve_reference_n(players: int, dice: int, target: int, low: int,
                      variants: tuple[str, ...] = ()) -> dict[Key, tuple[float, ...]]:
    """Every state's value vector (P(win) + shares of ties per position, mover first):
    keys ("normal", scores), ("race", scores), ("final", k, scores), scores in points."""
    return table(solve_solver(players, dice, target, low, variants))


def regret_n(players: int, dice: int, target: int, low: int,
             values: dict[Key, tuple[float, ...]], variants: tuple[str, ...] = (),
             strict: bool = True) -> dict[Key, float]:
    """Per state of any table in the key format above: the mover's best-response value with
    the next states' values read from the table, minus the table's entry 0 (negative: the
    table claims more than any play gets). strict=False skips states whose next states are
    not all in the table (strict: KeyError)."""
    game = MultiGame(players, dice, target, low, tuple(variants))
    keys = [_inside(k) for k in values]
    index = {k: r for r, k in enumerate(keys)}
    table_values = np.array([values[k] for k in values], dtype=float).reshape(len(keys), -1)
    if table_values.shape[1] != players:
        raise ValueError(f"each value must have {players} entries")
    rows = []
    for r, key in enumerate(keys):
        try:
            game.links([key], index)
        except KeyError:
            if strict:
                raise
            continue
        rows.append(r)
    chosen = [keys[r] for r in rows]
    nxt, end = game.links(chosen, index)
    u = game.next_values(nxt, end, table_values)[..., 0]
    uniq, inverse = np.unique(u, axis=0, return_inverse=True)
    with one_blas_thread():
        best, _ = deck_turn(game.models, game.out, uniq)
    best = best[inverse.ravel()]
    return {_outside(k): float(b - table_values[r, 0])
            for k, r, b in zip(chosen, rows, best, strict=True)}


def tie_rule_states(solver: Solver) -> dict[Key, float]:
    """Where the tie rule changes what the others get: key -> the largest change in a
    player's value of the turn (the table's next values) between the lexicographic play and
    the first stage's play (value only, ties to stopping and the first option)."""
    rows = np.array([r for r in range(len(solver.keys)) if r not in solver.mixed])
    after = solver.utility(rows)
    with one_blas_thread():
        _, lex = deck_turn(solver.game.models, solver.game.out, after[..., 0])
        _, raw = deck_turn(solver.game.models, solver.game.out, after[..., 0], ties=False)
    effect = np.abs(np.einsum("ko,kon->kn", lex - raw, after)).max(axis=1)
    return {_outside(solver.keys[r]): float(e) for r, e in zip(rows, effect, strict=True)
            if e > 1e-12}
