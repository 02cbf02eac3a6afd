"""A recorded Mille Sabords game reviewed move by move (issue 38): each decision's cost, each
roll's and card's luck, per player totals and a rating.

Two kinds of review, chosen by the record (:mod:`solver.sabords.review.record`):

* **the game** (two players and a target): values are P(win) + 1/2 P(tie) of the player to
  move, read from the exact two-player game table and the turn solved again at its position
  (:func:`solver.sabords.game.advice.card_turn_values`, what ``hold --me --opponent``
  solves); the scores, phases and the end of the game follow from the dice;
* **the table** (three to five players and a target, :mod:`solver.sabords.review.table`):
  three players from the exact three-player table, four and five by the rule ``hold
  --scores`` plays (``exact: false``);
* **turn by turn** (no target): each turn's value is its expected points
  (:func:`~solver.sabords.game.advice.card_turn_by_payoffs` with the points as payoffs),
  before the card the deck's average.

Identity (tested): for each player, the value at the start plus the net luck (the luck of
every roll and card, the player's own and the others', in the player's value) less the net
error (every decision's cost in the player's value) is the result (1, 0 or 1/2, or the share
of a tie; in the turn-by-turn review, the points scored), up to rounding. Each event carries
``by_player``, its effect on every player's value: with two players the opponent's value is
one less the mover's; with three, the exact table's other entries. It does not hold under
the four- and five-player rule, which values the mover's turns only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from solver.errors import InputError
from solver.sabords.review.position import Position, next_position, points_pay, turn_doc
from solver.sabords.review.record import GameRecord, parse_record
from solver.sabords.review.turn import TurnReplay


def review_answer(text: str, table_source: Callable, name: str | None = None,
                  whole: Callable | None = None) -> dict:
    """The review of the record ``text``, what ``treasure sabords review FILE --json`` prints
    and ``POST /api/sabords/review`` answers (``table_source``: the caller's source of game
    tables; ``whole``: of whole-table solutions, for three players); bad input is one line
    naming the record (``name``: its file, if any)."""
    from solver.review import naming_record

    with naming_record(name):
        return review_record(parse_record(text), table_source, whole)


def review_record(record: GameRecord, table_source: Callable | None = None,
                  whole: Callable | None = None) -> dict:
    """The review of ``record`` as a JSON-ready dict. ``table_source(spec)`` gives the game
    table (the command line's :func:`~solver.sabords.answers.game_table`); it is needed only
    when the record has a target; ``whole(table_spec)`` the three-player table (the command
    line's :func:`~solver.sabords.answers.whole_table`)."""
    if record.target is None:
        return _review(record, "points", _points_turns(record))
    if record.rules.ties != "shared":
        raise InputError("the review does not follow the tie-break round "
                         "(variant ties-extra-round) yet")
    from solver.sabords.answers import game_spec

    spec = game_spec(record.target, record.variants)
    if len(record.players) > 2:
        from solver.sabords.review.table import table_turns, table_values

        return _review(record, "win", table_turns(record, spec, table_source, whole),
                       table_values(spec, len(record.players)))
    table = table_source(spec)
    return _review(record, "win", _game_turns(record, table))


def _review(record: GameRecord, objective: str, turns, values: dict | None = None) -> dict:
    values = values or {"exact": True, "identity": True}
    players = list(record.players) or ["player"]
    done, events, trace = [], [], []
    start = None
    position = None
    for doc, review, now in turns:
        position = now
        done.append(doc)
        events += review.events
        trace.append({"turn": doc["turn"], "player": doc["player"],
                      "values": [[label, value] for label, value in review.trace]})
        if objective == "win" and values["identity"]:  # the rule gives the mover's only
            trace[-1]["wins"] = review.wins
        if start is None:
            start = review.wins[0]
    doc = {"format": "treasure-solver/sabords-review", "version": 1,
           "objective": objective, "players": players, "target": record.target,
           "variants": list(record.variants), **(values if objective == "win" else {}),
           "turns": done, "events": events, "trace": trace}
    starts = start if values["identity"] else [
        next((t["before"] for t in done if t["player"] == i), 0.0) for i in range(len(players))]
    doc["summary"] = _summary(players, objective, done, events, starts, position)
    return doc


def _summary(players, objective, turns, events, starts, position) -> list[dict]:
    """Per player totals (:func:`solver.review.player_summary`): the game's starts and
    results, or each turn's value before the card and its points."""
    from solver.review import player_summary

    if objective == "win":
        results = list(position.result) if position.over else list(position.wins)
    else:  # each turn apart: the start is the sum of the turns' values before the card
        starts = [sum(t["before"] for t in turns if t["player"] == i) for i in
                  range(len(players))]
        results = [sum(t["points"] for t in turns if t["player"] == i) for i in
                   range(len(players))]
    finished = objective == "points" or position.over
    return player_summary(players, objective, turns, events, starts, results, finished)


# -- the turn-by-turn review ----------------------------------------------------------------
@cache
def _deck_value(rules) -> float:
    """Expected points of a turn before the card (the deck's frequencies)."""
    from solver.sabords.game.advice import card_turn_by_payoffs

    total = sum(n for _, n in rules.deck)
    value = 0.0
    for card, n in rules.deck:
        om, pay, sol = card_turn_by_payoffs(rules, card, points_pay)
        value += n / total * om.first_roll_value(sol.value, pay)
    return value


def _points_turns(record: GameRecord):
    from solver.sabords.game.advice import card_turn_by_payoffs

    rules = record.rules
    before = _deck_value(rules)
    players = max(len(record.players), 1)
    for turn in record.turns:
        solved = card_turn_by_payoffs(rules, turn.card, points_pay)
        review = TurnReplay(rules, turn, solved, before, "", seats=(turn.player,),
                            players=players).run()
        yield (turn_doc(turn, review, before, None), review, None)


# -- the two-player game --------------------------------------------------------------------
def _game_turns(record: GameRecord, table):
    from solver.sabords.game.advice import card_turn_values, phase_of

    spec = table.spec
    position = Position([0, 0], 0, "normal")
    for turn in record.turns:
        if position.over:
            raise InputError(f"turn {turn.number} (line {turn.line}): the game was over after "
                             f"turn {turn.number - 1}: no turn follows")
        me, other = position.scores[position.mover], position.scores[1 - position.mover]
        try:
            phase_of(spec, me, other, position.phase == "sudden-death")
        except InputError as err:
            raise InputError(f"turn {turn.number} (line {turn.line}): {err}") from None
        before = table.win(me, other, position.phase)
        solved = card_turn_values(table, turn.card, me, other, position.phase)
        where = f"{me} to {other} ({position.phase})"
        context = {"scores": [me, other], "phase": position.phase}
        # two players: the opponent's value is one less the mover's (P(win) + 1/2 P(tie))
        review = TurnReplay(spec.rules, turn, solved, [before, 1.0 - before], where, context,
                            others=1.0 - solved[1][None], seats=(turn.player, 1 - turn.player),
                            players=2).run()
        doc = turn_doc(turn, review, before, position)
        position = next_position(position, review, spec)
        position.wins = review.wins[-1]
        doc["scores_after"] = list(position.scores)
        if position.over:
            doc["result"] = list(position.result)
        yield doc, review, position
