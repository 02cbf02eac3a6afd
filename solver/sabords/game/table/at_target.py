"""Three players at the target the game is played to, exactly where this version can.

The default game lets scores fall below zero, and its three-player table at 6000 (24.3 million
states) is beyond a solve on request (:data:`~solver.sabords.game.table.states.MAX_STATES`).
With scores floored at zero (the variant ``score-floor-zero``) it has 2.68 million states. On
it the rule of :mod:`~solver.sabords.game.table.rule` is measured against the exact equilibrium
in every seat, and the equilibrium against points players, exactly, as on the small table:
the report's figures at the game's own target, not only at the small one
(:func:`~solver.sabords.game.table.report.write_table_report`'s ``at_target``). ``make solve``
does not ask for it yet: the table's settling (:mod:`~solver.sabords.game.table.settle`) has
not converged there in a solve short enough for it.
"""

from __future__ import annotations

from solver.sabords.game.solved import load_game, with_play
from solver.sabords.game.table.rule import against_exact, exact_against_points
from solver.sabords.game.table.states import NORMAL, TableSpec
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules

AT_TARGET = 6000
AT_TARGET_VARIANTS = ("score-floor-zero",)


def at_target_spec() -> TableSpec:
    """The three-player table to measure at the game's target."""
    return TableSpec.of(load_rules(AT_TARGET_VARIANTS), 3, AT_TARGET, 0)


def measure_at_target(spec: TableSpec) -> dict:
    """The exact table for ``spec`` (from the cache, else solved and cached): its certificate,
    its seats, the rule against it in every seat and it against points players."""
    from solver.sabords.game.table.equilibrium import TableSolver
    from solver.sabords.game.table.positions import load_table

    solution = load_table(spec, progress=True)
    solver = TableSolver(spec)
    game = spec.game
    two = with_play(load_game(GameSpec(spec.rules, game.target, game.low)))
    stats = solution.stats
    out = {
        "target": game.target, "variants": list(spec.rules.variants),
        "dice": spec.rules.dice, "lowest_score": game.low, "states": stats["states"],
        "steps": stats["steps"], "regret": stats["regret"], "converged": stats["converged"],
        "cycling": len(stats["cycling"]), "settle_rounds": stats["settle_rounds"],
        "mixed": stats["mixed"],
        "seat_wins": solution.wins(NORMAL, [0] * spec.players).tolist(),
        "points_play": stats["points_play"], "two_player_same_game": two.first_player_wins,
        "rule_against_exact": against_exact(solver, solution, two),
        "gain": exact_against_points(solver, solution),
    }
    return out
