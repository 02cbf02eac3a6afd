"""Mille Sabords turns as sub-problems of the whole game: every way a turn can end, for every
card of the deck, in one table of outcomes.

Within a game, a turn under one card is always the same optimal-stopping problem
(:func:`solver.sabords.turn.model.build_model`); only what each *outcome* is worth changes with the
scoreboard. An outcome is a triple ``(own, loss, win)`` in units of 100 points: the mover's
points, what each opponent loses (the Island of Skulls) and an instant win (nine identical
symbols). :func:`deck_turns` lists the outcomes of every card's turn once, in one table shared by
the deck, and maps each turn state to the outcome that ends it (:class:`~solver.engine.batch.
OutcomeMap`), so that one payoff row per game state serves every card. The Island of Skulls is
decided by the first roll alone: it is the first roll's distribution over outcomes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, cached_property

import numpy as np

from solver.engine.outcomes import OutcomeMap
from solver.sabords.objective import Objective
from solver.sabords.rules import Rules
from solver.sabords.scoring import island_distribution, protected_outcomes
from solver.sabords.turn.model import TurnModel, build_model, end_outcomes

UNIT = 100  # every score in the game is a multiple of 100 points


@dataclass(frozen=True, eq=False)
class DeckTurns:
    """Every card's turn over one shared outcome table (``own``, ``loss``, ``win``).

    ``cards[i]`` is drawn with probability ``weights[i]``; ``models[i]`` is its turn and
    ``packed`` the problems laid out for :func:`solver.engine.batch.solve_lanes`. ``swap`` is
    the outcome (0, 0, no win): after it the next state is the same two scores with the
    players' roles swapped, which the game solver's sweeps treat specially.
    """

    cards: tuple[str, ...]
    weights: np.ndarray
    models: tuple[TurnModel, ...]
    maps: tuple[OutcomeMap, ...]
    own: np.ndarray
    loss: np.ndarray
    win: np.ndarray
    swap: int

    @property
    def count(self) -> int:
        return len(self.own)

    @cached_property
    def packed(self):
        """The problems packed for the batch solver (imported here: it compiles)."""
        from solver.engine.batch import Packed

        return Packed.of(list(self.maps))

    @cached_property
    def lanes(self) -> DeckLanes:
        """The deck's turns as lanes of the batch solver (one per card up to twins)."""
        return DeckLanes(self)


class DeckLanes:
    """Every card's turn for many game states at once, each state one payoff row over the
    deck's outcomes: the one place a whole-game solver (two players or the whole table) asks
    the engine's batched solver (:func:`solver.engine.batch.solve_lanes`) for turns.

    Cards equal up to a face swap (:func:`solver.engine.batch.twins`: Gold and Diamond) are
    solved once: ``solved_cards`` are the cards solved, ``solved_weights`` the chance of
    drawing each or its twin and ``card_column[c]`` the solved column card ``c`` reads."""

    def __init__(self, deck: DeckTurns) -> None:
        self.deck = deck
        twin = deck.packed.twin
        self.solved_cards = np.flatnonzero(twin == np.arange(len(twin)))
        self.card_column = np.searchsorted(self.solved_cards, twin)
        self.solved_weights = np.bincount(self.card_column, weights=deck.weights)
        self.cost = TurnCost()  # what every solve so far has cost (make bench prints it)

    def storage(self, slots: int):
        """Warm-start storage for the turns of ``slots`` states."""
        return self.deck.packed.storage(slots)

    def memo(self, slots: int):
        """Per state and solved card: the last outcome distribution, its policy's hash and the
        nodes it reaches (a :class:`~solver.engine.batch.PushMemo`: what
        :func:`~solver.engine.batch.solve_lanes` reuses while a policy holds)."""
        from solver.engine.batch import PushMemo, reach_words

        cards = len(self.solved_cards)
        return PushMemo(np.zeros((slots, cards, self.deck.count)),
                        np.zeros((slots, cards), dtype=np.int64),
                        np.zeros((slots, cards, reach_words(self.deck.packed)), dtype=np.uint64))

    def per_card(self, solved: np.ndarray) -> np.ndarray:
        """Per state, from the solved cards' columns to every card's (a twin reads its
        twin's)."""
        return solved[:, self.card_column]

    def solve(self, pay_rows: np.ndarray, slots: np.ndarray, store, tol: float,
              max_rounds: int = 100_000, distribution: bool = False, memo=None,
              push_tol: float = 1e-16, start: np.ndarray | None = None,
              guess: bool = False) -> TurnsSolved:
        """Every card's turn for each state (one payoff row each): the states' values before
        the card and, if asked, each outcome's probability under the turns' optimal policies,
        to ``push_tol`` (``start``: warm-start each state's turns from these states' slots
        instead of its own; ``memo``: per slot and solved card, the last distributions and
        their policies' hashes, reused where the policy has not changed and updated in
        place; ``guess``: the stored policies are another state's, a start rather than a
        last answer, valued only as far as the engine values a policy between updates)."""
        from solver.engine.batch import SWEEPS, WARM_SWEEPS, PushMemo, solve_lanes

        started = time.process_time()
        deck = self.deck
        cards = len(self.solved_cards)
        problem = np.tile(self.solved_cards, len(pay_rows))
        known = None
        if memo is not None:
            memo = PushMemo(*memo)
            known = PushMemo(memo.dist[slots].reshape(-1, deck.count), memo.hashes[slots].ravel(),
                             memo.reached[slots].reshape(len(problem), -1))
        out = solve_lanes(
            deck.packed, problem, np.repeat(slots, cards), np.repeat(pay_rows, cards, axis=0),
            store, tol=tol, max_rounds=max_rounds, distribution=distribution, known=known,
            push_tol=push_tol, start_slot=None if start is None else np.repeat(start, cards),
            warm_sweeps=SWEEPS if guess else WARM_SWEEPS)
        if memo is not None:
            memo.dist[slots] = out.dist.reshape(len(slots), cards, -1)
            memo.hashes[slots] = out.hashes.reshape(len(slots), cards)
            memo.reached[slots] = out.reached.reshape(len(slots), cards, -1)
        dist = per_card = None
        if distribution:
            per_card = out.dist.reshape(len(pay_rows), cards, -1)
            dist = np.einsum("sco,c->so", per_card, self.solved_weights)
        values = out.start.reshape(-1, cards) @ self.solved_weights
        solved = TurnsSolved(values, dist, per_card, len(problem) if max_rounds else 0,
                             int(out.rounds.sum()))
        self.cost.add(time.process_time() - started, len(pay_rows), solved)
        return solved

    @cached_property
    def card_outcomes(self) -> list[np.ndarray]:
        """Per solved card: the outcomes its turn can end in (stops, landings, first rolls,
        protected dice), the only payoffs its solve reads."""
        out = []
        for card in self.solved_cards:
            om = self.deck.maps[card]
            ends = [np.ravel(om.stop_out), np.ravel(om.end_out),
                    np.array([o for row in om.first_rows for o in row], dtype=np.int64)]
            if om.protect_out is not None:
                ends += [np.ravel(om.protect_out), np.array([om.base_out])]
            out.append(np.unique(np.concatenate(ends).astype(np.int64)))
        return out

    def solve_cards(self, pay_rows: np.ndarray, columns: np.ndarray, slots: np.ndarray,
                    store, tol: float, states: int, guess: bool = False) -> TurnsSolved:
        """One solved card's turn per row (``columns``: the card's index in
        ``solved_cards``), warm-started from and stored into ``slots`` (lanes of different
        cards may share a slot): each lane's value before the card and outcome distribution
        (``per_card`` unset). ``states``: the game states these turns serve (counted in
        :attr:`cost`)."""
        from solver.engine.batch import SWEEPS, WARM_SWEEPS, solve_lanes

        started = time.process_time()
        out = solve_lanes(self.deck.packed, self.solved_cards[columns], slots, pay_rows, store,
                          tol=tol, distribution=True,
                          warm_sweeps=SWEEPS if guess else WARM_SWEEPS)
        solved = TurnsSolved(out.start, out.dist, None, len(columns), int(out.rounds.sum()))
        self.cost.add(time.process_time() - started, states, solved)
        return solved


@dataclass
class TurnCost:
    """What :meth:`DeckLanes.solve` has cost: the process's CPU seconds (every thread's), the
    states whose turns were solved, the lanes (a state's solved cards) and their Bellman
    updates."""

    seconds: float = 0.0
    states: int = 0
    lanes: int = 0
    rounds: int = 0

    def add(self, seconds: float, states: int, solved: TurnsSolved) -> None:
        """Count a solve of ``states`` states' turns."""
        self.seconds += seconds
        self.states += states
        self.lanes += solved.lanes
        self.rounds += solved.rounds

    def since(self, before: TurnCost) -> TurnCost:
        """The cost added since ``before`` (a copy taken then, :meth:`copy`)."""
        return TurnCost(self.seconds - before.seconds, self.states - before.states,
                        self.lanes - before.lanes, self.rounds - before.rounds)

    def copy(self) -> TurnCost:
        return replace(self)


@dataclass(frozen=True)
class TurnsSolved:
    """What :meth:`DeckLanes.solve` found: per state the value before the card and (when
    asked) the outcome distribution over the deck, and per solved card; the lanes solved and
    the Bellman updates they made."""

    values: np.ndarray
    dist: np.ndarray | None
    per_card: np.ndarray | None
    lanes: int
    rounds: int


class _Outcomes:
    """A growing table of outcome triples."""

    def __init__(self) -> None:
        self.index: dict[tuple[int, int, bool], int] = {}

    def of(self, own, loss, win) -> np.ndarray:
        own, loss = _units(own), _units(loss)
        keys = zip(own.tolist(), loss.tolist(), np.asarray(win, dtype=bool).tolist(),
                   strict=True)
        return np.array([self.index.setdefault(k, len(self.index)) for k in keys],
                        dtype=np.int64)


def _units(points) -> np.ndarray:
    points = np.atleast_1d(np.asarray(points, dtype=np.int64))
    if np.any(points % UNIT):
        raise ValueError("a turn outcome is not a multiple of 100 points")
    return points // UNIT


def _card_map(model: TurnModel, rules: Rules, table: _Outcomes) -> OutcomeMap:
    """One card's turn: the outcome of every stop, landing, protected keep and Island roll."""
    space = model.space
    stops, busts = model.stops, model.busts
    shape = stops.own.shape  # (modes, F)
    stop_idx = table.of(*(x.ravel() for x in (stops.own, stops.opponents, stops.win)))
    bust_idx = table.of(*(x.ravel() for x in (busts.own, busts.opponents, busts.win)))
    stop_out = np.where(model.stop_is_bust, bust_idx.reshape(shape), stop_idx.reshape(shape))
    end_out = bust_idx.reshape(shape)
    protect_out, base_out = None, -1
    if model.card.protect:
        kept = protected_outcomes(space.counts, model.card, rules)
        protect_out = table.of(kept.own, kept.opponents, kept.win)
        if len(set(bust_idx.tolist())) != 1:
            raise ValueError("Treasure Island expects every plain bust to end alike")
        base_out = int(bust_idx[0])
    first_rows: list[dict[int, float]] = [{} for _ in range(len(space.full))]
    for pos in np.flatnonzero(model.first_island):
        skulls = int(space.counts[space.full[pos], model.skull])
        dist = island_distribution(skulls, model.card, rules)
        losses = list(dist)
        idx = table.of(np.zeros(len(losses), dtype=np.int64), losses, np.zeros(len(losses)))
        first_rows[pos] = {int(i): float(Fraction(dist[lost])) for i, lost in
                           zip(idx, losses, strict=True)}
    for pos in np.flatnonzero(model.first_lost):  # the turn ends with nothing won or lost
        first_rows[pos] = {int(table.of([0], [0], [False])[0]): 1.0}
    return OutcomeMap(model.problem, stop_out, end_out, first_rows, protect_out, base_out)


@cache
def deck_turns(rules: Rules) -> DeckTurns:
    """Every card of the rules' deck, drawn independently with the deck's frequencies."""
    table = _Outcomes()
    cards = tuple(name for name, _ in rules.deck)
    counts = np.array([n for _, n in rules.deck], dtype=np.float64)
    models, maps = [], []
    for card in cards:
        model = build_model(rules.card(card), rules, Objective("points"))
        models.append(model)
        maps.append(_card_map(model, rules, table))
    swap = table.index.setdefault((0, 0, False), len(table.index))
    keys = sorted(table.index, key=table.index.get)
    own = np.array([k[0] for k in keys], dtype=np.int64)
    loss = np.array([k[1] for k in keys], dtype=np.int64)
    win = np.array([k[2] for k in keys], dtype=bool)
    return DeckTurns(cards, counts / counts.sum(), tuple(models), tuple(maps), own, loss, win,
                     swap)


@cache
def largest_gain(rules: Rules) -> int:
    """The most one turn can add to the mover's score (units of 100): the largest ``own`` of
    :func:`deck_turns`' outcome table (stops, busts, Treasure Island's protected dice; Islands
    and lost first rolls add nothing), found without building the turns' stopping problems,
    which a table's layout does not need."""
    from solver.engine import DiceSpace

    best = 0
    space = DiceSpace.of(len(rules.faces), rules.dice)
    for name, _ in rules.deck:
        card = rules.card(name)
        scored = [outcomes.own for outcomes in end_outcomes(card, rules)]
        if card.protect:
            scored.append(protected_outcomes(space.counts, card, rules).own)
        best = max(best, *(int(np.max(own)) for own in scored))
    return int(_units(best)[0])


@cache
def card_turn(card: str, rules: Rules) -> tuple[OutcomeMap, np.ndarray, np.ndarray, np.ndarray]:
    """One card's turn alone: its outcome map and outcome table ``(own, loss, win)``. The
    turn model is the points solve's (cached on disk), which a question about the turn needs
    anyway for the points-optimal answer."""
    from solver.sabords.turn.solve import solve_turn

    table = _Outcomes()
    model = solve_turn(card, Objective("points"), rules).model
    om = _card_map(model, rules, table)
    keys = sorted(table.index, key=table.index.get)
    return (om, np.array([k[0] for k in keys], dtype=np.int64),
            np.array([k[1] for k in keys], dtype=np.int64),
            np.array([k[2] for k in keys], dtype=bool))
