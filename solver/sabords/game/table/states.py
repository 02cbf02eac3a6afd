"""The whole table's states, their layout in one value buffer, and where every turn outcome
leads (see :mod:`solver.sabords.game.table` for the phases).

**One buffer.** Every state of every phase is a row of one ``(rows, players)`` array of values,
followed by one row per way the game can end (who wins, ties shared). A state's row holds the
values of the players by their position in the state's list (the mover first).

**Every turn rotates the list by one.** After a turn the next player moves: the player at
position ``j`` is at position ``j - 1`` in the next state's list, and the mover at the last one.
So what an outcome is worth to the player at position ``j`` is always column ``(j - 1) mod N`` of
the row it leads to; the rows of results are stored rotated the same way, so that one index per
(state, outcome) names every player's value (:meth:`Layout.successors`). The mover's payoff is
the last column.

**Ranges.** A player who may still move before the game is decided is below the target; the
trigger and those who have played their last turn may be above it, but never above the target
plus one turn's largest gain (Islands only take points away). Scores below the lowest score
kept are raised to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from solver.errors import InputError
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import Rules
from solver.sabords.turn.lanes import DeckTurns, deck_turns, largest_gain

NORMAL, RACE = "normal", "race"
EXACT_PLAYERS = 3  # the most players solved exactly; more play the measured rule
# The largest table solved on request, so that a command stays under 8 GB. A solve keeps about
# 50 bytes a state (values, the play's index, regret, order) and, for each state of the stage
# it solves again and again (at most a sixth of a three-player table's), its successors and its
# turns' warm starts as distinct rows (table.warm): about 7 KB a state where the fewest rows are
# shared (normal play at target 2000, floor 0), 17 KB if none were; about 1 GB more is fixed
# (the process, the turn models, the blocks' temporaries). Three million states: under 5 GB.
MAX_STATES = 3_000_000


def final(k: int) -> str:
    """The name of the final round's phase in which ``k`` players still have a last turn."""
    return f"final-{k}"


@dataclass(frozen=True)
class TableSpec:
    """What a whole-table solve depends on: the game (rules, target, lowest score) and the
    number of players."""

    game: GameSpec
    players: int

    def __post_init__(self) -> None:
        rules = self.game.rules
        if not rules.min_players <= self.players <= rules.max_players:
            raise InputError(f"bad number of players {self.players}: "
                             f"{rules.min_players} to {rules.max_players}")
        if rules.ties != "shared" and self.players > 2:
            raise InputError("ties-extra-round is solved for two players only")

    @staticmethod
    def of(rules: Rules, players: int, target: int | None = None,
           low: int | None = None) -> TableSpec:
        return TableSpec(GameSpec(rules, target, low), players)

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def key(self) -> dict:
        return {**self.game.key(), "players": self.players}


@dataclass(frozen=True)
class Phase:
    """One phase's block of rows: ``narrow`` leading positions below the target, the others
    anywhere up to the highest score (``wide``)."""

    name: str
    start: int
    narrow: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


@dataclass(frozen=True)
class Stage:
    """Consecutive phases solved together (:meth:`Layout.stages`): rows ``start`` to ``stop``;
    ``repeats`` when its states lead to each other (then their turns are solved again until
    the best responses settle), else every state's turn is solved once."""

    names: tuple[str, ...]
    start: int
    stop: int
    repeats: bool


@dataclass(eq=False)
class Layout:
    """The rows of every phase for ``spec`` (units of 100 points: ``low`` the lowest score,
    ``top`` the target, ``high`` the highest score a player can hold)."""

    spec: TableSpec

    def __post_init__(self) -> None:
        spec = self.spec
        self.players = spec.players
        self.low, self.top = spec.game.bottom, spec.game.top
        self.high = self.top - 1 + max(largest_gain(spec.rules), 1)
        span, wide = self.top - self.low, self.high - self.low + 1
        n = self.players
        self.ends = EndRules.of(spec.rules)
        if self.ends.play_on:
            raise InputError("play-on-until-reached-again keeps players above the target in "
                             "the race, which the table's states do not hold; it is measured "
                             "by simulation (reports/sabords/game.md)")
        names = [RACE] if self.ends.race and not self.ends.first_to_target else []
        if not self.ends.first_to_target:  # else reaching the target ends the game at once
            names += [final(k) for k in range(1, n)]
        names += [NORMAL]
        self.phases: dict[str, Phase] = {}
        start = 0
        for name in names:
            narrow = n if name in (NORMAL, RACE) else int(name.split("-")[1])
            shape = (span,) * narrow + (wide,) * (n - narrow)
            self.phases[name] = Phase(name, start, narrow, shape)
            start += self.phases[name].size
        self.states = start
        # results: one row per set of winners (a bit per position), plus "nobody" (unused)
        masks = np.arange(1 << n)
        bits = (masks[:, None] >> np.arange(n)[None, :]) & 1
        shares = bits / np.maximum(bits.sum(axis=1, keepdims=True), 1)
        self.results = np.roll(shares, -1, axis=1)  # stored rotated (module docstring)
        self.rows = self.states + len(masks)

    @cached_property
    def deck(self) -> DeckTurns:
        """Every card's turn (built when first asked: a layout's rows do not need it, and
        building it is most of a warm answer's time)."""
        return deck_turns(self.spec.rules)

    def result_row(self, winners_mask) -> np.ndarray:
        """The row of the result in which the players of ``winners_mask`` (a bit per position
        of the state the turn was played from) share the win."""
        return self.states + np.asarray(winners_mask, dtype=np.int64)

    def empty(self) -> np.ndarray:
        """A value buffer: zero on the states, the results filled in."""
        values = np.zeros((self.rows, self.players))
        values[self.states:] = self.results
        return values

    def scores(self, name: str) -> np.ndarray:
        """Every state of a phase as its scores, ``(states, players)``, row order."""
        phase = self.phases[name]
        grid = np.indices(phase.shape).reshape(len(phase.shape), -1).T
        return grid + self.low

    def state_of(self, row: int) -> tuple[str, np.ndarray]:
        """The phase and scores (units) of a state row."""
        for name, phase in self.phases.items():
            if phase.start <= row < phase.start + phase.size:
                return name, np.array(np.unravel_index(row - phase.start, phase.shape)) + self.low
        raise ValueError(f"row {row} is not a state")

    def index(self, name: str, scores) -> np.ndarray:
        """The rows of states of phase ``name`` given by their scores (``(..., players)``)."""
        phase = self.phases[name]
        scores = np.asarray(scores, dtype=np.int64) - self.low
        return phase.start + np.ravel_multi_index(tuple(np.moveaxis(scores, -1, 0)),
                                                  phase.shape)

    def stages(self) -> list[Stage]:
        """The phases in the order a solve takes them, grouped as they read each other: a
        stage's states lead only to results, earlier stages and (when ``repeats``) the stage
        itself. Under the race the race reads only itself, the final round's step ``k`` only
        step ``k - 1``, the race and results (one turn each, solved once), and normal play
        itself and the final round; when a drop returns to normal play, the final round and
        normal play read each other and form one stage."""
        names = list(self.phases)
        if self.ends.first_to_target or not self.ends.race:
            groups = [(RACE,)] if RACE in self.phases else []
            groups.append(tuple(n for n in names if n != RACE))
        else:
            groups = [(name,) for name in names]
        stages = []
        for group in groups:
            start = self.phases[group[0]].start
            stop = start + sum(self.phases[n].size for n in group)
            stages.append(Stage(group, start, stop, any(n in (NORMAL, RACE) for n in group)))
        return stages

    @cached_property
    def order(self) -> np.ndarray:
        """Every state row in the order the sweeps take them: the phases in the order they
        read each other (the race, the final round from its end, normal play), within a
        phase by decreasing total score (a turn mostly raises it)."""
        out = []
        for name, phase in self.phases.items():
            total = self.scores(name).sum(axis=1)
            out.append(phase.start + np.argsort(-total, kind="stable"))
        return np.concatenate(out)

    def stage_order(self, stage: Stage) -> np.ndarray:
        """The sweeps' order (:attr:`order`) on a stage's states."""
        return self.order[(self.order >= stage.start) & (self.order < stage.stop)]

    def successors(self, name: str, scores: np.ndarray, outcomes: tuple | None = None
                   ) -> np.ndarray:
        """``(states, outcomes)``: the row each outcome leads to from these states of phase
        ``name``; the outcomes are the deck's (:func:`deck_turns`) unless given as ``(own,
        loss, win)`` arrays (one card's own table, for a question about one turn)."""
        if outcomes is None:
            outcomes = self.deck.own, self.deck.loss, self.deck.win
        own, loss, win = outcomes
        scores = np.atleast_2d(scores)
        kinds = np.full(len(scores), self.kind(name))
        nxt, after, winners = turn_ends(kinds, scores, own, loss, win, self.low, self.top,
                                        self.ends)
        out = self.result_row(winners)
        for later in np.unique(nxt[nxt != ENDED]).tolist():
            here = nxt == later
            out[here] = self._clipped(self.name(later), after[here])
        return out

    def kind(self, name: str) -> int:
        """A phase's code in :func:`turn_ends`: 0 normal play, ``k`` the final round with
        ``k`` last turns to go, the number of players for the race."""
        codes = {NORMAL: 0, RACE: self.players}
        return codes[name] if name in codes else int(name.split("-")[1])

    def name(self, kind: int) -> str:
        names = {0: NORMAL, self.players: RACE}
        return names[kind] if kind in names else final(kind)

    def _clipped(self, name: str, after: np.ndarray) -> np.ndarray:
        """Rows of phase ``name`` for the rotated scores ``after`` where they fit the phase
        (entries where they do not are never used: the caller picks another row)."""
        phase = self.phases[name]
        hi = np.array([self.top - 1] * phase.narrow + [self.high] * (self.players - phase.narrow))
        return self.index(name, np.minimum(after, hi))


ENDED = -1  # turn_ends' code for a game that is over


class EndRules(NamedTuple):
    """The readings of the game's end that :func:`turn_ends` plays (rules.toml's ``endgame``,
    ``last_round`` and ``trigger_drop``)."""

    race: bool  # a drop below the target after the last round starts the race (else normal play)
    first_to_target: bool  # the first to end a turn at the target wins at once: no last round
    play_on: bool = False  # a trigger player below the target after the last round: play goes
    # on even if another player is above it (else the highest score wins)

    @staticmethod
    def of(rules: Rules) -> EndRules:
        return EndRules(rules.endgame == "race-wins-at-once",
                        rules.last_round == "first-to-target-wins",
                        rules.trigger_drop == "play-on")


def turn_ends(kind: np.ndarray, scores: np.ndarray, own, loss, win, low: int, top: int,
              ends: EndRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each outcome ``(own, loss, win)`` (units; arrays over outcomes, or one per state)
    leads from each state (``kind`` per state: :meth:`Layout.kind`; ``scores``: ``(states,
    players)``, the mover first): the next phase's code (:data:`ENDED` when the game is over),
    the scores in the next state's order (the next mover first: the list rotated by one) and,
    where the game is over, its winners (a bit per position of the state the turn was played
    from; ties share). The rules of the game's end, written once for the table and the
    simulations (``ends``): reaching the target in normal play starts the final round, in which
    every other player has one last turn (under ``first_to_target``, it wins at once); then
    the highest score wins, or, if everyone is below the target (under ``play_on``: if the
    trigger player is), the race (``race``; else normal play) goes on with the trigger to
    move; in the race the first to end a turn at or above the target wins."""
    scores = np.atleast_2d(scores)
    players = scores.shape[1]
    own, loss, win = (np.broadcast_to(np.atleast_1d(x), (len(scores), np.shape(x)[-1]))
                      if np.ndim(x) < 2 else np.asarray(x) for x in (own, loss, win))
    mover = np.maximum(scores[:, :1] + own, low)
    others = np.maximum(scores[:, 1:, None] - loss[:, None, :], low)
    after = np.moveaxis(np.concatenate([others, mover[:, None, :]], axis=1), 1, 2)
    reached = mover >= top
    kind = np.asarray(kind)[:, None]
    nxt = np.where(kind == 0, np.where(reached, players - 1, 0), kind - 1)
    best = after.max(axis=2)
    tied = np.roll(after == best[..., None], 1, axis=2)  # by position before the turn
    mask = (tied * (1 << np.arange(players))).sum(axis=2)
    decider = after[..., 0] if ends.play_on else best  # the trigger moves next: position 0
    resolved = (kind == 1) & (decider >= top)
    nxt = np.where((kind == 1) & ~resolved, players if ends.race else 0, nxt)
    in_race = (kind == players) | ((kind == 0) & ends.first_to_target)
    nxt = np.where(in_race, np.where(reached, ENDED, kind), nxt)
    nxt = np.where(resolved, ENDED, nxt)
    winners = np.where(resolved, mask, np.where(in_race & reached, 1, 0))
    won = np.asarray(win, dtype=bool)
    return np.where(won, ENDED, nxt), after, np.where(won, 1, winners)


def beyond_exact(layout: Layout) -> str | None:
    """Why the answers at this table come from the measured rule rather than an exact table:
    four or five players, or a three-player table larger than this version solves
    (:data:`MAX_STATES`); ``None`` when the table is solved exactly."""
    if layout.players > EXACT_PLAYERS:
        return f"the exact tables stop at {EXACT_PLAYERS} players"
    if layout.states > MAX_STATES:
        spec = layout.spec
        return (f"the exact {spec.players}-player table at target {spec.game.target} with "
                f"scores down to {spec.game.low} has {layout.states:,} states; this version "
                f"solves up to {MAX_STATES:,}")
    return None
