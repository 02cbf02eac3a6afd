"""Four and five players: a way of playing built from the exact two-player table, labelled as a
rule and measured, since exact tables of four or five players are out of reach (about two
hundred million score states for four).

**The rule (``leader``).** Play my turn as the two-player table would against one opponent
holding the best of the others' scores: in normal play against the leader; in the final round
my last turn against the score to beat (the highest, if it is at or above the target; else the
race that follows); in the race against the leader. What the two-player table cannot see: the
Island of Skulls hits every opponent, and a leader must fear several challengers.

**How it is measured.** Against the exact three-player equilibrium, exactly, in every seat
(:func:`solver.sabords.game.table.simulate.seat_values`); in four- and five-player games by seeded
simulation (:func:`solver.sabords.game.table.simulate.simulate`): the rule in one seat against
points players, and in every seat.
"""

from __future__ import annotations

import numpy as np

from solver.sabords.game.table.compact import BLOCK, Plays, Pool
from solver.sabords.game.table.simulate import Play
from solver.sabords.game.table.states import EndRules
from solver.sabords.game.two_player import GameTable

RULE = "leader"
RULE_TITLE = "the two-player table against the leader"


def two_player_position(kinds: np.ndarray, scores: np.ndarray, players: int, top: int,
                        race: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rule's reading of positions (phase codes and scores in units, the mover first) as
    two-player positions: my score, the leader's, and the two-player phase (0 normal play,
    1 my last turn against a score at or above the target, 2 the race; without the race
    reading a race becomes normal play)."""
    me, leader = scores[:, 0], scores[:, 1:].max(axis=1)
    final_round = (kinds > 0) & (kinds < players)
    beat = final_round & (leader >= top)
    in_race = (kinds == players) | (final_round & ~beat)
    phase = np.where(beat, 1, np.where(in_race & race, 2, 0))
    return me, leader, phase


TWO_PLAYER_PHASES = ("normal", "last", "sudden-death")  # two_player_position's phase codes


def leader_play(table: GameTable, players: int) -> Play:
    """The rule as a way of playing: per position, the two-player table's optimal outcome
    distribution at :func:`two_player_position` (``table`` with its play,
    :func:`solver.sabords.game.two_player.with_play`)."""
    plays = table.plays
    if plays is None:
        raise ValueError("the rule needs the two-player table's play (game.with_play)")
    spec = table.spec
    low, top = spec.bottom, spec.top
    span = top - low
    width = table.last.shape[1]
    race = spec.rules.endgame == "race-wins-at-once"
    normal, last = plays["normal"], np.atleast_2d(plays["last"])
    sudden = plays["sudden-death"] if race else normal

    def play(kinds: np.ndarray, scores: np.ndarray) -> np.ndarray:
        me, leader, phase = two_player_position(kinds, scores, players, top, race)
        pair = (me - low) * span + np.minimum(leader, top - 1) - low
        out = normal[pair].copy()
        out[phase == 2] = sudden[pair[phase == 2]]
        beat = phase == 1
        if last.shape[0] == 1:
            out[beat] = last[0]
        else:
            out[beat] = last[(me[beat] - low) * width + np.minimum(leader[beat] - top,
                                                                   width - 1)]
        return out

    return play


def rule_plays(layout, play: Play) -> Plays:
    """A way of playing on every state of a table's layout, kept as its distinct rows and an
    index per state (written block by block: a table of millions of states fits)."""
    plays = None
    for name, phase in layout.phases.items():
        scores = layout.scores(name)
        for lo in range(0, len(scores), BLOCK):
            block = scores[lo:lo + BLOCK]
            dist = play(np.full(len(block), layout.kind(name)), block)
            if plays is None:
                plays = Plays(np.zeros(layout.states, dtype=np.int32), Pool(dist[0]))
            at = phase.start + lo
            plays[at:at + len(block)] = dist
    return plays


def rule_dist(layout, play: Play) -> np.ndarray:
    """A way of playing written out on every state of a table's layout (one row each)."""
    return rule_plays(layout, play).full()


def against_exact(solver, solution, table: GameTable) -> dict:
    """The rule against the exact equilibrium of a three-player table, exactly: per seat, the
    rule's seat value when the others play the equilibrium, against the equilibrium's own;
    and every seat playing the rule. ``table``: the two-player table of the same game with its
    play."""
    from solver.sabords.game.table.simulate import seat_values

    layout = solver.layout
    n = layout.players
    mine = rule_plays(layout, leader_play(table, n))
    exact = solution.seat_values()
    seats = []
    for seat in range(n):
        plays = [mine if s == seat else solution.plays for s in range(n)]
        value = seat_values(layout, solver.stage_successors, plays, solution.values)[seat]
        seats.append({"seat": seat + 1, "rule": float(value), "exact": float(exact[seat]),
                      "cost": float(exact[seat] - value)})
    everyone = seat_values(layout, solver.stage_successors, [mine] * n, solution.values)
    return {"rule": RULE, "seats": seats, "everyone_rule": everyone.tolist()}


def exact_against_points(solver, solution) -> dict:
    """The gain from reading the scoreboard at a three-player table, exactly: per seat, the
    equilibrium's play in that seat against points players in the others, over the points
    player's value there (two players: the headline's gain, both seats averaged)."""
    from solver.sabords.game.points import points_play_outcomes
    from solver.sabords.game.table.simulate import seat_values

    layout = solver.layout
    n = layout.players
    points = points_play_outcomes(layout.spec.rules)
    base = seat_values(layout, solver.stage_successors, [points] * n, solution.values)
    seats = []
    for seat in range(n):
        plays = [solution.plays if s == seat else points for s in range(n)]
        value = seat_values(layout, solver.stage_successors, plays, solution.values)[seat]
        seats.append({"seat": seat + 1, "exact": float(value), "points": float(base[seat]),
                      "gain": float(value - base[seat])})
    return {"seats": seats, "gain": float(np.mean([s["gain"] for s in seats]))}


def at_table(table: GameTable, players: int, games: int, seed: int) -> dict:
    """The rule at a table of ``players`` by seeded simulation (``games`` games a line): every
    seat playing points, every seat playing the rule, and the rule in each seat against points
    players (its gain over the points player of that seat, with its standard error)."""
    from solver.sabords.game.points import points_play_outcomes
    from solver.sabords.game.table.simulate import fixed_play, simulate
    from solver.sabords.turn.lanes import deck_turns

    spec = table.spec
    rules = spec.rules
    deck = deck_turns(rules)
    points, rule = fixed_play(points_play_outcomes(rules)), leader_play(table, players)
    ends = EndRules.of(rules)

    def run(seats, offset):
        return simulate(deck, players, spec.top, spec.bottom, ends, seats, games, seed + offset)

    base = run([points] * players, 0)
    everyone = run([rule] * players, 1)
    seats = []
    for seat in range(players):
        alone = run([rule if s == seat else points for s in range(players)], 2 + seat)
        gain = alone.mean[seat] - base.mean[seat]
        error = float(np.hypot(alone.error[seat], base.error[seat]))
        seats.append({"seat": seat + 1, "rule": float(alone.mean[seat]),
                      "rule_error": float(alone.error[seat]),
                      "points": float(base.mean[seat]), "gain": float(gain),
                      "gain_error": error})
    return {"players": players, "rule": RULE, "games": games, "seed": seed,
            "points_play": base.as_dict(), "everyone_rule": everyone.as_dict(),
            "rule_against_points": seats}
