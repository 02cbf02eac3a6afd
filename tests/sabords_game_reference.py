"""An independent reference solver for the whole two-player Mille Sabords game (tests only).

Reduced sizes: a few dice, a small target. Nothing here reads the product's engine or game
code; the turn scoring is the brute force's (tests/sabords_bruteforce.py). A game state is
(phase, mover's score, opponent's score) before the mover's card is drawn; its value is the
mover's P(win) + 1/2 P(tie) under optimal play by both players.

How it is solved:
- A turn, for one card and one game state, is an optimal stopping problem over the dice
  multiset (and the Sorceress's mode). Ending the turn is worth a utility that depends only on
  the turn's result (own points, what the opponent loses on the Island, nine of a kind), read
  from the game values. Skulls never leave the dice except through the Sorceress, so the turn's
  states are solved in blocks (Sorceress used first, then by skull count, most skulls first);
  each block is cyclic and solved exactly by policy iteration, for a batch of game states at
  once (one utility per game state).
- The game values are found by value iteration on the game states (the turn helper is the
  Bellman operator) until no value moves by 1e-13: sudden death first (it depends on nothing
  else), then the last turn, then the normal phase.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import comb, factorial, prod

import numpy as np

from tests.sabords_bruteforce import BATTLE, CARD_SKULLS, bust_score, stop_score

FACES = "CDMPSX"
SKULL = FACES.index("X")
DECK = {"treasure-island": 4, "captain": 4, "sorceress": 4, "gold": 4, "diamond": 4,
        "monkey-business": 4, "sea-battle-2": 2, "sea-battle-3": 2, "sea-battle-4": 2,
        "skulls-1": 3, "skulls-2": 2}
CARD_SYMBOL = {"gold": "C", "diamond": "D"}
BUST_SKULLS = 3
ISLAND_SKULLS = 4
POINT_MIN = -1000  # the lowest turn result: a lost 4-sabre sea battle
VARIANTS = ("endgame-new-final-round", "score-floor-zero", "nine-as-set", "ties-extra-round")
PHASES = ("normal", "last", "sudden-death")
TOL = 1e-13
PI_EPS = 1e-14  # policy iteration switches only for a relative gain above this (noise ~1e-15)


def multisets(size: int, faces: int = 6) -> Iterator[tuple[int, ...]]:
    """Every multiset of `size` dice as counts per face (C D M P S X)."""
    if faces == 1:
        yield (size,)
        return
    for k in range(size, -1, -1):
        for rest in multisets(size - k, faces - 1):
            yield (k, *rest)


def roll_probability(counts: tuple[int, ...]) -> float:
    """Probability that rolling sum(counts) dice shows exactly this multiset."""
    n = sum(counts)
    return factorial(n) / prod(factorial(c) for c in counts) / 6**n


def letters(counts: tuple[int, ...]) -> str:
    return "".join(face * c for face, c in zip(FACES, counts, strict=True))


def island_extra_skulls(dice_left: int) -> dict[int, float]:
    """Distribution of further skulls on the Island: all non-skull dice are rerolled while a
    roll shows at least one skull and at least two dice remain."""
    if dice_left < 2:
        return {0: 1.0}
    out: dict[int, float] = {}
    for j in range(dice_left + 1):
        p = comb(dice_left, j) * (1 / 6) ** j * (5 / 6) ** (dice_left - j)
        follow = {0: 1.0} if j == 0 else island_extra_skulls(dice_left - j)
        for extra, q in follow.items():
            out[j + extra] = out.get(j + extra, 0.0) + p * q
    return out


@dataclass
class Utility:
    """What ending the turn is worth to the mover, for a batch of S game states.

    points[g, i]: the turn ends with own points POINT_MIN + 100 i and nothing else;
    island[g, i]: the Island of Skulls, each opponent loses 100 i (own points 0);
    nine[g]: nine identical symbols (only under the instant-win reading).
    """

    points: np.ndarray
    island: np.ndarray
    nine: np.ndarray


def point_index(d: int) -> int:
    return (d - POINT_MIN) // 100


@dataclass
class _Block:
    """Live turn states of one Sorceress mode and one skull count, with their rerolls."""

    mode: int
    members: np.ndarray  # state indices
    actions: list[tuple[int, int]]  # (keep index, mode after the reroll)
    table: np.ndarray  # (members, most actions): positions in `actions`, -1 padding
    inner: np.ndarray  # (actions, members): probability of landing back in this block


class TurnModel:
    """One card's turn with n dice: states, rerolls (keeps) and where their rolls land."""

    def __init__(self, card: str, n: int, nine_wins: bool = True) -> None:
        self.card, self.n = card, n
        card_skulls = CARD_SKULLS.get(card, 0)
        sorceress = card == "sorceress"
        self.modes = 2 if sorceress else 1
        self.states = list(multisets(n))
        index = {s: i for i, s in enumerate(self.states)}
        self.live = np.array([s[SKULL] + card_skulls < BUST_SKULLS for s in self.states])
        self.stop_points = [stop_score(letters(s), card) if ok else 0
                            for s, ok in zip(self.states, self.live, strict=True)]
        extra = CARD_SYMBOL.get(card)
        self.nine = np.array([
            nine_wins and ok and any(
                s[f] + (FACES[f] == extra) >= 9 for f in range(len(FACES)) if f != SKULL)
            for s, ok in zip(self.states, self.live, strict=True)])

        # keeps: kept dice of a reroll (>= 1 kept, >= 2 rolled); skulls kept come from a live state
        self.keeps = [k for size in range(1, n - 1) for k in multisets(size)
                      if k[SKULL] + card_skulls < BUST_SKULLS]
        self.trans = np.zeros((len(self.keeps), len(self.states)))
        self.bust_prob = np.zeros(len(self.keeps))
        for i, kept in enumerate(self.keeps):
            for rolled in multisets(n - sum(kept)):
                s = index[tuple(a + b for a, b in zip(kept, rolled, strict=True))]
                if self.live[s]:
                    self.trans[i, s] += roll_probability(rolled)
                else:
                    self.bust_prob[i] += roll_probability(rolled)
        # a bust leaves these own points (Treasure Island: a choice of the kept dice)
        self.bust_points = [self._bust_options(kept) for kept in self.keeps]
        self.first_bust_points = self._bust_options((0,) * len(FACES))

        # the first roll: live, bust, or the Island of Skulls
        self.first_live = np.array([roll_probability(s) if ok else 0.0
                                    for s, ok in zip(self.states, self.live, strict=True)])
        self.first_bust = 0.0
        self.first_island: dict[int, float] = {}
        multiplier = 2 if card == "captain" else 1
        for s, ok in zip(self.states, self.live, strict=True):
            p = roll_probability(s)
            if ok:
                continue
            if s[SKULL] + card_skulls >= ISLAND_SKULLS and card not in BATTLE:
                for extra, q in island_extra_skulls(n - s[SKULL]).items():
                    loss = 100 * multiplier * (s[SKULL] + card_skulls + extra)
                    self.first_island[loss] = self.first_island.get(loss, 0.0) + p * q
            else:
                self.first_bust += p

        self.blocks = []
        for mode in reversed(range(self.modes)):
            for skulls in reversed(range(BUST_SKULLS - card_skulls)):
                members = [i for i, s in enumerate(self.states)
                           if self.live[i] and s[SKULL] == skulls]
                self.blocks.append(self._block(mode, members, sorceress))

    def _bust_options(self, kept: tuple[int, ...]) -> list[int]:
        """Own points a bust may leave after keeping `kept`."""
        if self.card != "treasure-island":
            return [bust_score("", self.card)]
        free = kept[:SKULL] + (0,)
        return sorted({stop_score(letters(sub), self.card, chest_allowed=False)
                       for size in range(sum(free) + 1) for sub in multisets(size)
                       if all(a <= b for a, b in zip(sub, free, strict=True))})

    def _block(self, mode: int, members: list[int], sorceress: bool) -> _Block:
        per_state = []
        for i in members:
            s = self.states[i]
            acts = []
            for k, kept in enumerate(self.keeps):
                if any(a > b for a, b in zip(kept, s, strict=True)):
                    continue
                freed = s[SKULL] - kept[SKULL]
                if freed == 0:
                    acts.append((k, mode))
                elif freed == 1 and sorceress and mode == 0:
                    acts.append((k, 1))
            per_state.append(acts)
        actions = sorted({a for acts in per_state for a in acts})
        pos = {a: j for j, a in enumerate(actions)}
        width = max((len(acts) for acts in per_state), default=0)
        table = np.full((len(members), width), -1, dtype=int)
        for r, acts in enumerate(per_state):
            table[r, :len(acts)] = [pos[a] for a in acts]
        inner = np.zeros((len(actions), len(members)))
        for j, (k, nxt) in enumerate(actions):
            if nxt == mode:
                inner[j] = self.trans[k, members]
        return _Block(mode, np.array(members, dtype=int), actions, table, inner)

    def max_points(self) -> int:
        return max(p for p, ok in zip(self.stop_points, self.live, strict=True) if ok)

    def value(self, util: Utility, policies: dict[int, np.ndarray] | None = None) -> np.ndarray:
        """Optimal expected utility of the turn before the first roll, per game state (S,).

        `policies` (block number -> (S, members) actions) warm-starts policy iteration and is
        updated in place; pass the same dict for the same batch of game states."""
        size = util.nine.shape[0]
        stop_idx = [point_index(p) for p in self.stop_points]
        stop = np.where(self.nine[:, None], util.nine[None, :], util.points[:, stop_idx].T)
        bust = np.array([util.points[:, [point_index(p) for p in opts]].max(axis=1)
                         for opts in self.bust_points]).reshape(len(self.keeps), size)
        values = np.zeros((self.modes, len(self.states), size))
        for b, block in enumerate(self.blocks):
            const = np.array([self.trans[k] @ values[nxt] + self.bust_prob[k] * bust[k]
                              for k, nxt in block.actions]).reshape(len(block.actions), size)
            warm = None if policies is None else policies.get(b)
            v, policy = _policy_iteration(stop[block.members], block, const, warm)
            if policies is not None:
                policies[b] = policy
            values[block.mode, block.members] = v
        start = self.first_live @ values[0]
        start += self.first_bust * util.points[
            :, [point_index(p) for p in self.first_bust_points]].max(axis=1)
        for loss, p in self.first_island.items():
            start += p * util.island[:, loss // 100]
        return start


def _policy_iteration(stop: np.ndarray, block: _Block, const: np.ndarray,
                      policy: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Optimal values (members, S) of a block: stop, or reroll (Q = inner @ v + const).

    Exact policy iteration for every game state at once; policy -1 means stop."""
    nb, size = stop.shape
    if block.table.shape[1] == 0:
        return stop, np.full((size, nb), -1)
    inner = np.vstack([block.inner, np.zeros((1, nb))])  # row -1: stopping
    consts = np.vstack([const, np.zeros((1, size))])
    valid = block.table >= 0
    rows = np.arange(nb)[:, None]
    cols = np.arange(size)[:, None]
    identity = np.eye(nb)
    if policy is None:
        policy = np.full((size, nb), -1)
    for _ in range(100):
        reward = np.where(policy >= 0, consts[policy, cols], stop.T)
        v = np.linalg.solve(identity - inner[policy], reward[..., None])[..., 0].T
        q = block.inner @ v + const
        qs = np.where(valid[:, :, None], q[block.table], -np.inf)
        best = qs.argmax(axis=1)
        best_q = np.take_along_axis(qs, best[:, None, :], axis=1)[:, 0, :]
        choice = np.where(best_q > stop, block.table[rows, best], -1)
        gain = np.maximum(best_q, stop) - v
        improve = (gain > PI_EPS * (1 + np.abs(v))).T
        if not improve.any():
            return v, policy
        policy = np.where(improve, choice.T, policy)
    raise RuntimeError("policy iteration does not settle")


def deck_value(models: dict[str, TurnModel], util: Utility,
               policies: dict[str, dict[int, np.ndarray]] | None = None) -> np.ndarray:
    """The turn's value before the card is drawn: the deck average of each card's optimum."""
    total = sum(DECK.values())
    out = np.zeros(util.nine.shape[0])
    for card, count in DECK.items():
        cache = None if policies is None else policies.setdefault(card, {})
        out += count / total * models[card].value(util, cache)
    return out


def turn_models(dice: int, nine_wins: bool = True) -> dict[str, TurnModel]:
    return {card: TurnModel(card, dice, nine_wins) for card in DECK}


def tie_break_value(models: dict[str, TurnModel]) -> float:
    """Tie-break reading: the value for the player moving first in a tie-break round.

    Each player takes one turn (first the trigger player); the higher gain d + l (own points
    plus what the other loses) wins the round, nine of a kind wins at once, equal gains
    repeat the round. The second mover, needing to beat lead x, has value R(x); the first
    mover's value is E[1 - R(d + l)]. Solved by iterating on that one number."""
    points = np.arange(POINT_MIN, max(m.max_points() for m in models.values()) + 1, 100)
    losses = np.arange(0, _largest_island_loss(models) + 1, 100)
    leads = np.array(sorted(set(points) | set(losses)))
    where = {int(x): i for i, x in enumerate(leads)}
    first_points = np.array([[where[int(d)] for d in points]])
    first_island = np.array([[where[int(x)] for x in losses]])
    tb = 0.5
    policies_second: dict[str, dict[int, np.ndarray]] = {}
    policies_first: dict[str, dict[int, np.ndarray]] = {}
    while True:
        def beat(gains: np.ndarray, tie: float) -> np.ndarray:
            g, x = gains[None, :], leads[:, None]
            return np.where(g > x, 1.0, np.where(g == x, tie, 0.0))

        second = Utility(beat(points, 1 - tb), beat(losses, 1 - tb), np.ones(len(leads)))
        r = deck_value(models, second, policies_second)
        first = Utility(1 - r[first_points], 1 - r[first_island], np.ones(1))
        new = float(deck_value(models, first, policies_first)[0])
        if abs(new - tb) < 1e-15:
            return new
        tb = new


def _largest_island_loss(models: dict[str, TurnModel]) -> int:
    return max((max(m.first_island, default=0) for m in models.values()), default=0)


class _Game:
    """Game states laid out in one flat vector, and for each phase the index of the value
    every turn result leads to (flip: the value is the other player's, so 1 - it)."""

    def __init__(self, dice: int, target: int, low: int, variants: tuple[str, ...]) -> None:
        unknown = set(variants) - set(VARIANTS)
        if unknown:
            raise ValueError(f"unknown readings: {sorted(unknown)}")
        if target % 100 or low % 100 or low > 0 or target <= 0:
            raise ValueError("target > 0 and low <= 0 must be multiples of 100")
        self.variants = variants
        self.target = target
        self.low = 0 if "score-floor-zero" in variants else low
        self.models = turn_models(dice, nine_wins="nine-as-set" not in variants)
        self.top = max(m.max_points() for m in self.models.values())
        self.points = np.arange(POINT_MIN, self.top + 1, 100)
        self.losses = np.arange(0, _largest_island_loss(self.models) + 1, 100)
        self.scores = list(range(self.low, target, 100))
        self.triggers = list(range(target, target - 100 + self.top + 1, 100))
        self.states = {
            "normal": [(a, b) for a in self.scores for b in self.scores],
            "last": [(m, t) for m in self.scores for t in self.triggers],
            "sudden-death": [(a, b) for a in self.scores for b in self.scores],
        }
        self.offset = {}
        pos = 0
        for phase in PHASES:
            self.offset[phase] = pos
            pos += len(self.states[phase])
        self.zero, self.half, self.one, self.tie = pos, pos + 1, pos + 2, pos + 3
        self.values = np.full(pos + 4, 0.5)
        self.values[[self.zero, self.half, self.one]] = 0.0, 0.5, 1.0
        self.where = {(phase, a, b): self.offset[phase] + i
                      for phase in PHASES for i, (a, b) in enumerate(self.states[phase])}
        self.specs = {phase: self._spec(phase) for phase in PHASES}
        self.policies: dict[str, dict[str, dict[int, np.ndarray]]] = {p: {} for p in PHASES}

    def _floor(self, score: int) -> int:
        return max(self.low, score)

    def _after(self, phase: str, me: int, other: int, d: int, loss: int) -> tuple[int, bool]:
        """(flat index, flip) of the value after a turn result in this phase."""
        t = self.target
        a, b = self._floor(me + d), self._floor(other - loss)
        if phase == "normal":
            return (self.where["last", b, a] if a >= t else self.where["normal", b, a]), True
        if phase == "sudden-death":
            return (self.one, False) if a >= t else (self.where["sudden-death", b, a], True)
        if b >= t:  # last turn: the game ends
            if a > b:
                return self.one, False
            if a < b:
                return self.zero, False
            if "ties-extra-round" in self.variants:
                return self.tie, True
            return self.half, False
        after = "normal" if "endgame-new-final-round" in self.variants else "sudden-death"
        return self.where[after, b, a], True

    def _spec(self, phase: str) -> tuple[np.ndarray, ...]:
        pts = [[self._after(phase, a, b, int(d), 0) for d in self.points]
               for a, b in self.states[phase]]
        isl = [[self._after(phase, a, b, 0, int(x)) for x in self.losses]
               for a, b in self.states[phase]]
        return (np.array([[i for i, _ in row] for row in pts]),
                np.array([[f for _, f in row] for row in pts]),
                np.array([[i for i, _ in row] for row in isl]),
                np.array([[f for _, f in row] for row in isl]))

    def utility(self, phase: str) -> Utility:
        pi, pf, ii, if_ = self.specs[phase]
        v = self.values
        return Utility(np.where(pf, 1 - v[pi], v[pi]), np.where(if_, 1 - v[ii], v[ii]),
                       np.ones(len(self.states[phase])))

    def sweep(self, phase: str) -> float:
        """One Bellman update of every state of a phase; returns the largest change."""
        new = deck_value(self.models, self.utility(phase), self.policies[phase])
        span = slice(self.offset[phase], self.offset[phase] + len(new))
        change = float(np.abs(new - self.values[span]).max())
        self.values[span] = new
        return change

    def iterate(self, *phases: str) -> None:
        while max([self.sweep(phase) for phase in phases]) >= TOL:
            pass

    def solve(self) -> dict[tuple[str, int, int], float]:
        if "ties-extra-round" in self.variants:
            self.values[self.tie] = tie_break_value(self.models)
        self.iterate("sudden-death")
        if "endgame-new-final-round" in self.variants:
            self.iterate("last", "normal")
        else:
            self.sweep("last")  # depends on sudden death only
            self.iterate("normal")
        return {key: float(self.values[i]) for key, i in self.where.items()}


def solve_reference(dice: int, target: int, low: int,
                    variants: tuple[str, ...] = ()) -> dict[tuple[str, int, int], float]:
    """Every game state's value for the mover: {(phase, mover, opponent): P(win) + P(tie)/2}.

    phase "normal" and "sudden-death": both scores in [low, target - 100]; "last": the mover
    in [low, target - 100], the trigger player in [target, target - 100 + the largest turn].
    low is raised to 0 under score-floor-zero."""
    return _Game(dice, target, low, tuple(variants)).solve()
