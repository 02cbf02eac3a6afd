"""Seeded simulated games written as records (:mod:`solver.sabords.review.record`): the example
review ``make solve`` writes, the benchmark's game and the tests' games.

Each turn is played on the same solved turn the review reads
(:class:`~solver.sabords.review.turn.TurnReplay`'s options), by a player who takes the best
option, or with probability ``blunder`` a uniformly random one; the scores and the end of
the game are the review's own (:class:`~solver.sabords.review.turn.TurnReplay` and
:func:`~solver.sabords.review.position.next_position`): nothing here scores dice.
"""

from __future__ import annotations

import numpy as np

from solver.sabords.dice import format_dice
from solver.sabords.review.record import parse_turn
from solver.sabords.review.turn import TurnReplay, turn_options
from solver.sabords.rules import Rules

MAX_TURNS = 400  # a game this long is surely a bug: stop writing


def simulate_record(rules: Rules, players: tuple[str, ...], target: int | None, seed: int,
                    blunder: float = 0.0, turns: int | None = None,
                    table_source=None, whole=None) -> str:
    """A record of a seeded game (``turns`` turns, or until the game ends when ``target``
    is given), each decision the best option or, with probability ``blunder``, a random one;
    every turn's points are written (so the record checks them). Three players or more are
    played on :class:`~solver.sabords.review.table.TableGame`'s turns (``whole``: the
    three-player table's source)."""
    from solver.sabords.game.advice import card_turn_by_payoffs, card_turn_values
    from solver.sabords.review.position import Position, next_position, points_pay

    rng = np.random.default_rng(seed)
    table = game = None
    if target is not None:
        from solver.sabords.answers import game_spec

        spec = game_spec(target, rules.variants)
        if len(players) > 2:
            from solver.sabords.review.table import TableGame

            game = TableGame(spec, len(players), table_source, whole)
        else:
            table = table_source(spec)
    position = game.start() if game is not None else Position([0, 0], 0, "normal")
    lines = _header(rules, players, target)
    limit = MAX_TURNS if turns is None else turns
    for number in range(1, limit + 1):
        card = _draw(rules, rng)
        if game is not None:
            solved = game.turn(position, card)["solved"]
        elif table is None:
            solved = card_turn_by_payoffs(rules, card, points_pay)
        else:
            me, other = position.scores[position.mover], position.scores[1 - position.mover]
            solved = card_turn_values(table, card, me, other, position.phase)
        line = _play(rules, card, solved, rng, blunder)
        name = f"{players[(number - 1) % len(players)]}: " if players else ""
        turn = parse_turn(number, number, name + line, players, rules)
        review = TurnReplay(rules, turn, solved, 0.0, "").run()
        points = review.loss if review.end == "island" else review.own
        end = "bust" if review.end == "lost" else review.end
        lines.append(f"{name}{line}, {end} {points:+d}")
        if table is not None or game is not None:
            position = (game.after(position, review) if game is not None
                        else next_position(position, review, table.spec))
            if position.over:
                break
    return "\n".join(lines) + "\n"


def _header(rules: Rules, players, target) -> list[str]:
    lines = ["game sabords"]
    if players:
        lines.append("players " + ", ".join(players))
    if target is not None:
        lines.append(f"target {target}")
    return lines + [f"variant {name}" for name in rules.variants] + [""]


def _draw(rules: Rules, rng) -> str:
    cards = [name for name, _ in rules.deck]
    weights = np.array([n for _, n in rules.deck], dtype=np.float64)
    return cards[int(rng.choice(len(cards), p=weights / weights.sum()))]


def _roll(rules: Rules, dice: int, rng) -> np.ndarray:
    return np.bincount(rng.integers(len(rules.faces), size=dice), minlength=len(rules.faces))


def _play(rules: Rules, card: str, solved, rng, blunder: float) -> str:
    """One turn: the record's line without the player and the end."""
    om = solved[0]
    problem, space = om.problem, om.problem.space
    shown = _roll(rules, rules.dice, rng)
    steps = [f"{card} {format_dice(shown, rules)}"]
    pos = int(space.index(shown) - space.full[0])
    skull = rules.face(rules.skull)
    if om.first_rows[pos]:
        the_card = rules.card(card)
        rolls = 0
        while the_card.island and rolls < the_card.island_rerolls:
            left = rules.dice - int(shown[skull])
            if left < 2:
                break
            new = _roll(rules, left, rng)
            new[skull] += shown[skull]
            rolls += 1
            steps.append(format_dice(new, rules))
            added = new[skull] > shown[skull]
            shown = new
            if not added:
                break
        return ", ".join(steps)
    mode = 0
    while problem.live[mode, pos]:
        choices = turn_options(rules, solved, mode, pos)
        pick = max(range(len(choices)), key=lambda i: choices[i][2])
        if blunder and rng.random() < blunder:
            pick = int(rng.integers(len(choices)))
        label, action, _ = choices[pick]
        if action is None:
            return ", ".join(steps)
        keep = space.counts[problem.act_keep[action]].astype(int)
        new = keep + _roll(rules, rules.dice - int(keep.sum()), rng)
        steps.append(f"{label} {format_dice(new, rules)}")
        mode, pos = int(problem.act_next[action]), int(space.index(new) - space.full[0])
    return ", ".join(steps)
