"""The review of a Mille Sabords game of three to five players (:mod:`solver.sabords.review.moves`):
the positions follow from the dice by the table's one statement of the game's end
(:func:`solver.sabords.game.table.states.turn_ends`: the final round, the race), and each turn is
valued as ``treasure sabords hold --scores`` values it.

* **Three players**, exactly: the turn is solved with the mover's payoffs of the solved table
  (:func:`~solver.sabords.game.table.positions.mover_payoffs`, the solve behind ``hold --scores``),
  and every other player's value follows from the table's other entries under the mover's
  play; the identity holds for each player.
* **Four and five players**, by the rule (:mod:`solver.sabords.game.table.rule`): the mover's turn
  is the two-player table's at the mover's score against the leader's
  (:func:`~solver.sabords.game.table.positions.rule_hold_position`), labelled ``exact: false``. The
  rule values the mover's turns only, so the identity is not exact there: the costs are the
  rule's (``hold --scores`` prints them), and luck is measured in the mover's rule value.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.errors import InputError
from solver.sabords.review.position import Position, turn_doc
from solver.sabords.review.record import GameRecord
from solver.sabords.review.turn import TurnReplay
from solver.sabords.turn.lanes import UNIT, card_turn


def table_values(spec, players: int) -> dict:
    """The review's label for the values it reads: exact (three players, a table this version
    solves) or the rule's (with why, when three players are past the exact tables)."""
    from solver.sabords.answers import rule_reason
    from solver.sabords.game.table.rule import RULE, RULE_TITLE
    from solver.sabords.game.table.states import Layout, TableSpec

    why = rule_reason(Layout(TableSpec(spec, players)))
    if why is None:
        return {"exact": True, "identity": True}
    return {"exact": False, "rule": RULE, "rule_title": RULE_TITLE, "identity": False, **why}


def table_turns(record: GameRecord, spec, table_source: Callable, whole: Callable | None):
    """Each turn of ``record`` (three players or more) reviewed: (turn's document, its
    review, the position after it), as :func:`solver.sabords.review.moves._game_turns` yields."""
    game = TableGame(spec, len(record.players), table_source, whole)
    position = game.start()
    for turn in record.turns:
        if position.over:
            raise InputError(f"turn {turn.number} (line {turn.line}): the game was over after "
                             f"turn {turn.number - 1}: no turn follows")
        review, before = game.replay(position, turn)
        doc = turn_doc(turn, review, before, position)
        position = game.after(position, review)
        doc["scores_after"] = list(position.scores)
        if position.over:
            doc["result"] = list(position.result)
        yield doc, review, position


class TableGame:
    """The game at a table of ``players`` (three to five) for ``spec``: its turns valued as
    ``hold --scores`` values them, and the positions they lead to."""

    def __init__(self, spec, players: int, table_source: Callable, whole: Callable | None):
        from solver.sabords.game.table.states import Layout, TableSpec, beyond_exact

        self.rules, self.players = spec.rules, players
        self.layout = Layout(TableSpec(spec, players))
        self.exact = beyond_exact(self.layout) is None
        if self.exact and whole is None:
            raise InputError("a review of three players needs the whole table's source")
        self.solution = whole(self.layout.spec) if self.exact else None
        self.two = None if self.exact else table_source(spec)

    def start(self) -> Position:
        from solver.sabords.game.table.states import NORMAL

        return Position([0] * self.players, 0, NORMAL)

    def turn(self, position: Position, card: str) -> dict:
        """The card's turn at ``position``: the solved turn (``solved``, the mover's payoffs
        as ``hold --scores`` solves them) and the rest of :class:`TurnReplay`'s arguments."""
        from solver.sabords.game.advice import card_turn_by_payoffs, card_turn_values
        from solver.sabords.game.table.positions import mover_payoffs, rule_hold_position

        n, layout, mover, phase = self.players, self.layout, position.mover, position.phase
        seats = tuple((mover + j) % n for j in range(n))
        units = [position.scores[seat] // UNIT for seat in seats]
        scores = [u * UNIT for u in units]
        context = {"scores": scores, "phase": phase}
        if phase.startswith("final-"):
            context["trigger"] = int(phase.split("-")[1]) + 1
        where = f"{'-'.join(map(str, scores))} ({phase})"
        if self.exact:
            solution = self.solution
            solved = card_turn_by_payoffs(
                self.rules, card,
                lambda own, loss, win: mover_payoffs(solution, phase, units, own, loss, win))
            others = _payoffs(solution, layout, phase, units, card_turn(card, self.rules)[1:])
            return {"solved": solved, "before": solution.values[layout.index(phase, units)],
                    "where": where, "context": context, "others": others[1:],
                    "seats": seats, "players": n}
        two_phase, me, leader = rule_hold_position(layout, phase, units)
        context["rule_position"] = {"phase": two_phase, "me": me, "leader": leader}
        return {"solved": card_turn_values(self.two, card, me, leader, two_phase),
                "before": self.two.win(me, leader, two_phase), "where": where,
                "context": context, "seats": (mover,), "players": n}

    def replay(self, position: Position, turn) -> tuple:
        """``turn`` replayed at ``position``: its review and the mover's value before it."""
        args = self.turn(position, turn.card)
        before = float(np.atleast_1d(args["before"])[0])
        return TurnReplay(self.rules, turn, **args).run(), before

    def after(self, position: Position, review) -> Position:
        """The position after ``review``'s turn, with every player's value there."""
        out = next_table_position(position, self.layout, review)
        out.wins = review.wins[-1]
        return out


def _payoffs(solution, layout, phase: str, units, outcomes) -> np.ndarray:
    """Every player's value of each outcome ``(own, loss, win)``, ``(players, outcomes)`` by
    position from the mover (the mover's row is :func:`mover_payoffs`'s): the player at
    position ``j`` is at ``j - 1`` after the turn (:mod:`solver.sabords.game.table.states`)."""
    n = layout.players
    rows = layout.successors(phase, np.array([units]), outcomes)[0]
    return solution.values[rows][:, [(j - 1) % n for j in range(n)]].T


def next_table_position(position: Position, layout, review) -> Position:
    """The position after a turn ending in ``review``'s outcome, by
    :func:`~solver.sabords.game.table.states.turn_ends` (the scores by player, the next mover, the
    phase; or the result, a tie shared)."""
    from solver.sabords.game.table.states import ENDED, turn_ends

    n = layout.players
    mover = position.mover
    units = [position.scores[(mover + j) % n] // UNIT for j in range(n)]
    nxt, after, winners = turn_ends(
        np.array([layout.kind(position.phase)]), np.array([units]),
        np.array([review.own // UNIT]), np.array([review.loss // UNIT]),
        np.array([review.win]), layout.low, layout.top, layout.ends)
    code, after, mask = int(nxt[0, 0]), after[0, 0], int(winners[0, 0])
    scores = [0] * n
    for j in range(n):  # after the turn the list starts with the next player
        scores[(mover + 1 + j) % n] = int(after[j]) * UNIT
    if code == ENDED:  # the winners by position of the state the turn was played from
        won = [(mover + j) % n for j in range(n) if mask >> j & 1]
        result = tuple(1.0 / len(won) if i in won else 0.0 for i in range(n))
        return Position(scores, mover, position.phase, True, result)
    return Position(scores, (mover + 1) % n, layout.name(code))
