"""The whole table's values behind the answers (:mod:`solver.sabords.answers`, for the command
line and the web API alike): the headline (each seat's P(win) from the opening), a position's
value for every player, and what to hold; the tables loaded from the cache or solved.

A position is given as scores in points, mine first and then the others in the order they play
after me; in the final round, ``trigger`` names the position (2 to N) of the player who
reached the target: those listed after it have played their last turn, those between me and it
still play theirs. Without ``trigger``, exactly one other score at or above the target makes
that player the trigger. ``race`` marks the race after the trigger player dropped.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from solver.errors import InputError
from solver.sabords.game.table.compact import Plays, Pool
from solver.sabords.game.table.rule import (
    RULE,
    RULE_TITLE,
    TWO_PLAYER_PHASES,
    leader_play,
    two_player_position,
)
from solver.sabords.game.table.solution import TableSolution
from solver.sabords.game.table.states import (
    NORMAL,
    RACE,
    EndRules,
    Layout,
    TableSpec,
    beyond_exact,
    final,
)
from solver.sabords.game.two_player import GameTable
from solver.sabords.turn.lanes import UNIT, deck_turns

CACHE_VERSION = 1
TABLE_VERSION = 2  # the whole table's entry: its play kept as distinct rows and an index


def parse_scores(text: str) -> tuple[int, ...]:
    """``"4700,6200,3100"`` -> points, mine first (a one-line error for anything else)."""
    parts = [p.strip() for p in str(text).split(",")]
    try:
        scores = tuple(int(p) for p in parts)
    except ValueError:
        raise InputError(f"bad scores {text!r}: whole numbers of points separated by commas, "
                         "mine first (e.g. 4700,6200,3100)") from None
    return scores


def phase_of(layout: Layout, scores: Sequence[int], trigger: int | None = None,
             race: bool = False) -> tuple[str, tuple[int, ...]]:
    """The phase of a position and its scores in units, or a one-line error for a position
    that cannot happen."""
    n, top = layout.players, layout.top * UNIT
    if len(scores) != n:
        raise InputError(f"{len(scores)} scores for a {n}-player game: give every player's, "
                         "mine first")
    for i, score in enumerate(scores):
        who = "my score" if i == 0 else f"score {i + 1}"
        if score % UNIT:
            raise InputError(f"{who} {score} is not a multiple of {UNIT}")
        if score < layout.low * UNIT:
            raise InputError(f"{who} {score} is below the lowest score the table keeps "
                             f"({layout.low * UNIT})")
        if score > layout.high * UNIT:
            raise InputError(f"{who} {score} is above any score this game reaches "
                             f"({layout.high * UNIT})")
    units = tuple(s // UNIT for s in scores)
    if scores[0] >= top:
        raise InputError(f"my score {scores[0]} is at or above the target {top}: the player "
                         "to move is always below it")
    above = [i for i in range(1, n) if scores[i] >= top]
    if race:
        if trigger is not None:
            raise InputError("--race and --trigger exclude each other")
        if RACE not in layout.phases:
            raise InputError("there is no race under endgame-new-final-round: a drop below the "
                             "target goes back to normal play")
        if above:
            raise InputError("the race is played with every score below the target")
        return RACE, units
    if trigger is None:
        if not above:
            return NORMAL, units
        if len(above) > 1:
            raise InputError("more than one score at or above the target: say which player "
                             "triggered the final round (--trigger)")
        trigger = above[0] + 1
    if not 2 <= trigger <= n:
        raise InputError(f"bad trigger {trigger}: the position of a score in the list, 2 to {n}")
    k = trigger - 1
    still = [i for i in range(1, k) if scores[i] >= top]
    if still:
        raise InputError(f"score {still[0] + 1} is at or above the target but that player "
                         "still has a last turn: only the trigger player and those who have "
                         "played may be there")
    return final(k), units


def load_table(spec: TableSpec, *, use_cache: bool = True, progress: bool = False
               ) -> TableSolution:
    """The solved table for ``spec``: from the disk cache when allowed and intact; else built
    and cached: the table ``make solve`` ships in ``proofs/sabords/`` when it is this one,
    otherwise solved (refused where :func:`~solver.sabords.game.table.states.beyond_exact`
    sends the answers to the rule). An entry that is whole but does not hold this table's
    arrays is rebuilt, not trusted."""
    from solver.cache import load_or_build, warn_once

    layout = Layout(spec)
    reason = beyond_exact(layout)
    if reason is not None:
        raise InputError(f"{reason} (a smaller --target, or --players 2)")

    def build() -> dict[str, np.ndarray]:
        from solver.sabords.game.table.proof import shipped_solution

        solution = shipped_solution(spec)  # the table make solve ships, when it is this one
        if solution is None:
            if progress:
                print(f"solving the {spec.players}-player game (target {spec.game.target}, "
                      f"lowest score {spec.game.low}); it is cached afterwards",
                      file=sys.stderr, flush=True)
            from solver.sabords.game.table.equilibrium import solve_table

            solution = solve_table(spec, progress=progress)
        meta = json.dumps(solution.stats, sort_keys=True).encode()
        plays = solution.plays
        index, rows = (plays.index, plays.distinct()) if isinstance(plays, Plays) else \
            (np.arange(len(plays), dtype=np.int32), plays)
        return {"values": solution.values, "dist_index": index, "dist_rows": rows,
                "stats": np.frombuffer(meta, dtype=np.uint8)}

    kind, key, label = _table_entry(spec)
    arrays = load_or_build(kind, key, build, use_cache=use_cache, label=label)
    try:
        return _solution(layout, arrays)
    except (KeyError, ValueError):  # a whole entry whose contents are not this table's
        warn_once(f"cache entry {table_path(spec)} does not hold this table; rebuilding it")
        return _solution(layout, load_or_build(kind, key, build, use_cache=use_cache,
                                               rebuild=True, label=label))


def _solution(layout: Layout, arrays: dict[str, np.ndarray]) -> TableSolution:
    """A table solution from its cached arrays (ValueError or KeyError if they do not fit)."""
    values = np.asarray(arrays["values"])
    if values.shape != (layout.rows, layout.spec.players):
        raise ValueError("the cached whole-table values have the wrong shape")
    index, rows = np.asarray(arrays["dist_index"]), np.asarray(arrays["dist_rows"])
    if len(index) and (rows.ndim != 2 or index.max() >= len(rows) or index.min() < 0):
        raise ValueError("the cached whole-table play does not fit its rows")
    plays = Plays(index, Pool.of(rows)) if len(index) else rows  # the shipped table: no play
    stats = json.loads(bytes(np.asarray(arrays["stats"])).decode())
    return TableSolution(layout, values, plays, stats)


def _table_entry(spec: TableSpec) -> tuple[str, dict, str]:
    """The cache entry (kind, key, label) of a whole-table solution."""
    return ("sabords-table", {"version": TABLE_VERSION, **spec.key()},
            f"table-{spec.players}-{spec.game.target}")


def _play_entry(spec) -> tuple[str, dict, str]:
    """The cache entry of a two-player table's play (a GameSpec)."""
    return ("sabords-game-play", {"version": CACHE_VERSION, "play": True, **spec.key()},
            f"play-{spec.target}")


def table_path(spec: TableSpec):
    """Where the cache keeps the whole table for ``spec`` (None when it cannot be used)."""
    from solver.cache import entry_path

    return entry_path(*_table_entry(spec))


def play_path(spec):
    """Where the cache keeps the play of the two-player table for ``spec`` (a GameSpec)."""
    from solver.cache import entry_path

    return entry_path(*_play_entry(spec))


def settling(solution: TableSolution) -> dict:
    """Whether the table's equilibrium is settled (its regret within the solve's tolerance),
    and its largest regret: an unsettled table's answers are its best settling round's
    (:mod:`~solver.sabords.game.table.settle`), and say so."""
    return {"settled": bool(solution.stats["converged"]), "regret": solution.stats["regret"]}


def headline(solution: TableSolution) -> dict:
    """``treasure sabords game --players N --json`` for an exactly solved table."""
    spec, stats = solution.spec, solution.stats
    return {
        "players": spec.players, "target": spec.game.target,
        "variants": list(spec.rules.variants), "exact": True,
        "seat_wins": [float(v) for v in solution.seat_values()],
        "points_play": {"seat_wins": [float(v) for v in stats["points_play"]]},
        **settling(solution),
        "solve": {"steps": stats["steps"], "converged": stats["converged"],
                  "cycling_states": len(stats["cycling"]),
                  "states": stats["states"], "lowest_score": spec.game.low},
        # how far apart the equilibria found from other starts and tie rules are (the shipped
        # table's, solved by make solve: solver/sabords/game/table/spread.py)
        **({"spread": stats["spread"]} if "spread" in stats else {}),
    }


def mover_payoffs(solution: TableSolution, phase: str, units: Sequence[int], own, loss,
                  win) -> np.ndarray:
    """What each outcome ``(own, loss, win)`` is worth to the mover at this position."""
    layout = solution.layout
    rows = layout.successors(phase, np.array([units]), (own, loss, win))[0]
    return solution.values[rows, layout.players - 1]


def position(solution: TableSolution, phase: str, units: Sequence[int],
             card: str | None = None) -> dict:
    """Every player's P(win) + shares of ties at a position, before the card (the table's
    entry) or with ``card`` drawn (that card's turn played optimally by the mover)."""
    layout = solution.layout
    scores = [int(u) * UNIT for u in units]
    head = {"players": layout.players, "scores": scores, "phase": phase,
            "target": solution.spec.game.target, "card": card, "exact": True,
            **settling(solution)}
    if card is None:
        wins = solution.values[layout.index(phase, units)]
    else:
        rules = solution.spec.rules
        column = layout.deck.cards.index(rules.card(card).name)
        lanes = layout.deck.lanes
        rows = layout.successors(phase, np.array([units]))
        pay = solution.values[rows, layout.players - 1]
        solved = lanes.solve(pay, np.zeros(1, dtype=np.int64), lanes.storage(1), 1e-14,
                             distribution=True)
        dist = lanes.per_card(solved.per_card)[0, column]
        nxt = solution.values[rows[0]]
        wins = np.array([dist @ nxt[:, (j - 1) % layout.players]
                         for j in range(layout.players)])
    return {**head, "win": float(wins[0]), "wins": [float(w) for w in wins]}


# -- four and five players, and three past the exact tables: the rule, simulated -------------
RULE_GAMES = 20_000  # games a rule answer simulates (standard error about 0.003 a seat)
RULE_SEED = 2026


def load_play(table: GameTable, *, use_cache: bool = True) -> GameTable:
    """The two-player table with its play (each state's optimal outcome distribution), which
    the rule plays; the distributions are cached beside the table."""
    from solver.cache import load_or_build
    from solver.sabords.game.solved import with_play

    def build() -> dict[str, np.ndarray]:
        print(f"the rule plays the two-player table's play (target {table.spec.target}): "
              "solving every turn of that table once (a minute or two; cached afterwards)",
              file=sys.stderr, flush=True)
        return {name: np.atleast_2d(dist) for name, dist in with_play(table).plays.items()}

    kind, key, label = _play_entry(table.spec)
    arrays = load_or_build(kind, key, build, use_cache=use_cache, label=label)
    return replace(table, plays={name: np.asarray(dist) for name, dist in arrays.items()})


def _simulate_rule(table: GameTable, players: int, seats, start=None) -> dict:
    from solver.sabords.game.table.simulate import simulate

    spec = table.spec
    return simulate(deck_turns(spec.rules), players, spec.top, spec.bottom,
                    EndRules.of(spec.rules), seats,
                    RULE_GAMES, RULE_SEED, start).as_dict()


def _rule_label() -> dict:
    return {"exact": False, "rule": RULE, "rule_title": RULE_TITLE, "games": RULE_GAMES,
            "seed": RULE_SEED}


def rule_headline(table: GameTable, players: int) -> dict:
    """``game --players 4|5``: each seat's simulated P(win) when every seat plays the rule,
    and when every seat plays for points (``table``: the two-player table with its play)."""
    from solver.sabords.game.points import points_play_outcomes
    from solver.sabords.game.table.simulate import fixed_play

    spec = table.spec
    rule = _simulate_rule(table, players, [leader_play(table, players)] * players)
    points = _simulate_rule(table, players,
                            [fixed_play(points_play_outcomes(spec.rules))] * players)
    return {"players": players, "target": spec.target, "variants": list(spec.rules.variants),
            **_rule_label(), "seat_wins": rule["seat_wins"],
            "standard_errors": rule["standard_errors"],
            "points_play": {"seat_wins": points["seat_wins"],
                            "standard_errors": points["standard_errors"]}}


def rule_position(table: GameTable, layout: Layout, phase: str, units: Sequence[int]) -> dict:
    """``game --scores`` with four or five scores: everyone's simulated P(win) from the
    position when every seat plays the rule."""
    players = layout.players
    out = _simulate_rule(table, players, [leader_play(table, players)] * players,
                         (layout.kind(phase), list(units)))
    return {"players": players, "scores": [int(u) * UNIT for u in units], "phase": phase,
            "target": table.spec.target, "card": None, **_rule_label(),
            "win": out["seat_wins"][0], "wins": out["seat_wins"],
            "standard_errors": out["standard_errors"]}


def rule_hold_position(layout: Layout, phase: str, units: Sequence[int]) -> tuple:
    """The two-player position the rule reads a table's position as: (phase, my score,
    the leader's score), points."""
    me, leader, code = two_player_position(
        np.array([layout.kind(phase)]), np.array([units]), layout.players, layout.top,
        RACE in layout.phases)
    return TWO_PLAYER_PHASES[int(code[0])], int(me[0]) * UNIT, int(leader[0]) * UNIT
