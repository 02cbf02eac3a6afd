"""The Gold Armada readings no whole-game table reads, measured (issue 36).

* who wins (``most-doubloons``, ``ties-more-doubloons``) and the end of the game
  (``finish-the-round``): seeded duels between the duel table's players, scored under both
  readings (:mod:`solver.armada.duels`); the first player's result (win 1, tie 1/2) under each,
  and the share of games whose result changes, with standard errors;
* the order of play (``counter-clockwise``): with two players both orders are the same game;
  with three, seeded games of three players who each take the best token of their turn: the
  difference between the second and the last position, which the reading swaps for the first
  player's two neighbours;
* ``set-aside-locked``: the opening turn solved with locked keeps
  (:func:`solver.engine.locked.locked_stages`) against the default, for each objective, with
  the later turns valued by the default's tables (no table is solved under the locked
  reading), and the first-roll keeps whose default choice is no longer optimal.

The rows have the shape of :func:`solver.armada.ambiguity.measure`'s, so the verifier reports
them alike; their ``proof`` says what was measured.
"""

from __future__ import annotations

import numpy as np

from solver.armada.duels import Played, compare, play, seat_results
from solver.armada.game import Game
from solver.armada.tables import load_table
from solver.armada.turn import analyse
from solver.engine.locked import locked_stages

DUEL_GAMES, DUEL_SEED = 10_000, 36
SEAT_GAMES, SEAT_SEED, SEAT_PLAYERS = 10_000, 37, 3
TOL = 1e-9
RESULT = "the first player's result (win 1, tie 1/2)"


def _row(name: str, case: str, objective: str, default: float, value: float, **extra) -> dict:
    return {"variant": name, "card": case, "objective": objective, "default": round(default, 9),
            "value": round(value, 9), "delta": round(value - default, 9),
            "states_changed": None, "largest_change": abs(value - default),
            "changed_states": 0, "decision_states": None, **extra}


_PLAYED: dict[str, Played] = {}


def _duels(base: Game) -> Played:
    """The seeded duels, played once per board and rules in a process."""
    key = repr(base.key())
    if key not in _PLAYED:
        table = np.asarray(load_table(base, "duel", False, False))
        _PLAYED[key] = play(base, table, -1.0, 2, DUEL_GAMES, DUEL_SEED)
    return _PLAYED[key]


def _duel_rows(name: str, base: Game) -> list[dict]:
    c = compare(_duels(base), name)
    case = (f"{c['games']:,} seeded duels between the duel table's players (seed {DUEL_SEED}):"
            f" the result changes in {c['changed']:,} ({100 * c['share']:.2f} % ± "
            f"{100 * c['share_se']:.2f} %); the first player's result moves by "
            f"{c['first_delta']:+.4f} ± {c['first_delta_se']:.4f}")
    return [_row(name, case, RESULT, c["first_default"], c["first_reading"],
                 claim="changes" if c["changed"] else "no change seen",
                 proof="seeded simulation, one standard error (not a proof)", simulated=c)]


def _order_rows(name: str, base: Game) -> list[dict]:
    two = _row(name, "two players", RESULT, 0.0, 0.0, claim="no change",
               proof="with two players the turns alternate under either order: the same game")
    zeros = np.zeros((base.rules.skulls + 1, base.n_codes))
    s = seat_results(play(base, zeros, 0.0, SEAT_PLAYERS, SEAT_GAMES, SEAT_SEED))
    case = (f"{s['games']:,} seeded games of {s['players']} players who each take their turn's "
            f"best token (seed {SEAT_SEED}): mean result by position "
            + ", ".join(f"{x:.4f}" for x in s["by_seat"])
            + f"; the first player's left neighbour plays second clockwise and last "
            f"counter-clockwise: {s['second_minus_last']:+.4f} ± "
            f"{s['second_minus_last_se']:.4f}")
    three = _row(name, case, "a neighbour's result (win 1, tie 1/k)", s["by_seat"][1],
                 s["by_seat"][-1], claim="changes",
                 proof="seeded simulation, one standard error (not a proof)", simulated=s)
    return [two, three]


def _locked_rows(name: str, base: Game) -> list[dict]:
    levels, skulls = base.opening
    h = base.horizon
    rows_all = np.arange(len(base.space.full))
    out = []
    for objective in ("turn", "solo", "duel"):
        table = None if objective == "turn" else np.asarray(load_table(base, objective, False,
                                                                       False))
        a = analyse(base, levels, skulls, objective, table)
        keep = locked_stages(h, a.final)
        if h.rolls < 2:
            changed = 0
        else:  # the first keep (two rolls to come): the default's choice under the lock
            chosen = h.best_keep(np.broadcast_to(a.keep[h.rolls - 1], (len(rows_all),
                                                                        len(a.keep[1]))),
                                 rows_all)
            best = h.best_keep(np.broadcast_to(keep[h.rolls - 1], (len(rows_all),
                                                                   len(keep[1]))), rows_all)
            lk = keep[h.rolls - 1]
            changed = int(np.sum(lk[chosen] < lk[best] - TOL))
        value = float(keep[h.rolls][0])
        out.append(_row(name, "opening", objective, a.value, value,
                        changed_states=changed, decision_states=len(rows_all),
                        claim="changes" if abs(value - a.value) > TOL else "no change",
                        proof="the opening turn solved under both readings (float); the later "
                              "turns valued by the default's tables"))
    return out


def measure_reading(name: str, base: Game, variant: Game) -> list[dict]:
    """Rows for a reading no table reads (see the module docstring)."""
    fields = variant.rules.measured_only()
    if fields == ["set_aside"]:
        return _locked_rows(name, base)
    if fields == ["turn_order"]:
        return _order_rows(name, base)
    return _duel_rows(name, base)
