"""The game-end readings at the table, measured: each game-level reading solved exactly on the
small three-player table, and ``play-on-until-reached-again``, which the table's states cannot
hold, measured by seeded simulation of whole games at the headline's target.

**Play on, measured by coupling.** The two readings of ``trigger_drop`` play the same game up
to a *disputed* position: the final round is over, the trigger player is below the target and
another player is at or above it. By default the highest score wins there; under play-on the
game goes on (the race, the trigger to move). So the share of games whose result the reading
changes is P(a game reaches a disputed position) times the chance that the result played on
from there differs: each disputed position of the default's games is played on once under
play-on, and a game's change is ``sum_j |s_j - r_j| / 2`` (``s``: the default's shares, the
highest score winning with ties shared; ``r``: the result played on): 1 when another player
wins, a part when a tie's shares move. Both players' ways of playing are
points play (the rule's two-player table has no state for a player above the target in the
race), and the figure is an unbiased estimate with its standard error.
"""

from __future__ import annotations

import sys

import numpy as np

from solver.sabords.game.table.equilibrium import TableSolver
from solver.sabords.game.table.solution import TableSolution
from solver.sabords.game.table.states import NORMAL, EndRules, TableSpec
from solver.sabords.rules import Rules, load_rules

# the game-level readings measured at three players, exactly, on the small table (the others
# are turn readings, measured per card and in the two-player game; ties-extra-round is solved
# for two players only)
READINGS = ("endgame-new-final-round", "first-to-target-wins", "nine-as-set")
PLAY_ON = "play-on-until-reached-again"


def _log(text: str) -> None:
    print(f"  [table] {text}", file=sys.stderr, flush=True)


def three_player_readings(small: TableSpec, solution: TableSolution) -> dict:
    """Each of :data:`READINGS` solved exactly on the small three-player table: the seats'
    P(win) from the opening, their change from the default's, and the certificate."""
    zero = [0] * small.players
    base = solution.wins(NORMAL, zero)
    out = {}
    for name in READINGS:
        _log(f"three players, reading {name}")
        rules = load_rules(small.rules.variants + (name,)).with_dice(small.rules.dice)
        spec = TableSpec.of(rules, small.players, small.game.target, small.game.low)
        solved = TableSolver(spec).solve()
        wins = solved.wins(NORMAL, zero)
        out[name] = {"seat_wins": wins.tolist(), "delta": (wins - base).tolist(),
                     "states": solved.stats["states"], "regret": solved.stats["regret"],
                     "converged": solved.stats["converged"]}
    return out


def play_on(rules: Rules, players: int, games: int, seed: int) -> dict:
    """``play-on-until-reached-again`` against the default at ``players`` players (points
    play, ``games`` seeded games from the opening at the rules' target; see the module
    docstring): how often a game reaches a disputed position, and the share of games whose
    result changes."""
    from solver.sabords.game.points import points_play_outcomes
    from solver.sabords.game.table.simulate import fixed_play
    from solver.sabords.game.two_player import GameSpec
    from solver.sabords.turn.lanes import deck_turns

    spec = GameSpec(rules, None, None)
    other = load_rules(rules.variants + (PLAY_ON,)).with_dice(rules.dice)
    seats = [fixed_play(points_play_outcomes(rules))] * players
    return {"players": players, "target": spec.target, "games": games, "play": "points",
            **coupled_change(deck_turns(rules), spec.top, spec.bottom, EndRules.of(rules),
                             EndRules.of(other), seats, games, seed)}


def coupled_change(deck, top: int, low: int, default: EndRules, other: EndRules, seats,
                   games: int, seed: int) -> dict:
    """The coupling of the module docstring for any deck and ways of playing (``other`` is
    ``default`` with ``play_on``): the share of games reaching a disputed position and the
    share whose result changes, each with its standard error."""
    from solver.sabords.game.table.simulate import simulate

    players = len(seats)
    race = players if default.race else 0
    base = simulate(deck, players, top, low, default, seats, games, seed)
    disputed = base.disputed
    shares = (disputed == disputed.max(axis=1, keepdims=True)).astype(float)
    shares /= np.maximum(shares.sum(axis=1, keepdims=True), 1.0)
    change = np.zeros(games)
    if len(disputed):
        on = simulate(deck, players, top, low, other, seats, len(disputed), seed + 1,
                      start=(race, disputed))
        change[:len(disputed)] = 0.5 * np.abs(shares - on.results).sum(axis=1)
    reached = np.zeros(games)
    reached[:len(disputed)] = 1.0
    return {"disputed": float(reached.mean()),
            "disputed_error": float(reached.std(ddof=1) / np.sqrt(games)),
            "changed": float(change.mean()),
            "changed_error": float(change.std(ddof=1) / np.sqrt(games))}
