"""Every Gold Armada variant measured against the default reading.

For each variant and objective (``turn``, ``solo``, ``duel``): the opening value under both
readings (for ``turn``, the opening position's turn only); for the whole-game objectives, how
many board states change value (all 7.3 million); and how many decision situations of the
opening turn change their best action (every final dice row's choice of token, every dice
row's best keep with one or two rolls to come).

"No change" is claimed only when it is shown exactly: the exact rational whole-game values of a
reduced board (two piers, two skulls) are equal under both readings in every state, and the
full float tables are equal bit for bit in every state (both computed by the same arithmetic).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from solver.armada.exact import all_states, exact_game
from solver.armada.game import SKULL, Game, default_game
from solver.armada.rules import variant_names, with_variant
from solver.armada.tables import load_table
from solver.armada.takes import legal_takes
from solver.armada.turn import analyse
from solver.paths import PROOFS_DIR
from solver.rules.claims import verify_stored, write_claims
from solver.rules.editions import unmeasured_variants

OBJECTIVES = ("turn", "solo", "duel")
SMALL_PIERS = ["barrels", "full-house"]
CLAIMS_FILE = Path("armada") / "variants.json"
TOL = 1e-9


def _keep_choices(game: Game, keep_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every full dice row: the best allowed keep (first in the engine's order: the largest
    keep on ties) and its value."""
    states, keeps, _ = game.space.keep_pairs()
    allowed = game.space.size[keeps] <= game.horizon.cap
    states, keeps = states[allowed], keeps[allowed]
    values = keep_values[keeps]
    first = game.space.full[0]
    best_value = np.full(len(game.space.full), -np.inf)
    np.maximum.at(best_value, states - first, values)
    best_keep = np.full(len(game.space.full), -1)
    hit = values >= best_value[states - first] - TOL
    for s, k in zip(states[hit][::-1], keeps[hit][::-1], strict=True):
        best_keep[s - first] = k
    return best_keep, best_value


def opening_decisions_changed(default: Game, variant: Game, objective: str) -> int:
    """Decision situations of the opening turn whose default-optimal action is not optimal
    under the variant (or not allowed there)."""
    tables = {g: None if objective == "turn" else np.asarray(load_table(g, objective, False,
                                                                        False))
              for g in (default, variant)}
    levels, skulls = default.opening
    a = analyse(default, levels, skulls, objective, tables[default])
    b = analyse(variant, levels, skulls, objective, tables[variant])
    # the token taken on each final dice row, if the variant allows it there (a target of
    # SKULL = -1 reads the skull's row, the last)
    allowed_b = legal_takes(variant, levels)
    taken = np.full(len(a.target), -np.inf)
    for k, t in enumerate(a.target.tolist()):
        if allowed_b[t, k]:
            taken[k] = b.pier_options[t] if t != SKULL else b.skull_option
    changed = int(np.sum(taken < b.final - TOL))
    # the keep with r rolls to come (r = 1 .. rolls-1 are decisions after a roll)
    for r in range(1, default.rules.rolls):
        keep_a, _ = _keep_choices(default, a.keep[r])
        _, best_b = _keep_choices(variant, b.keep[r])
        allowed_b = variant.space.size[keep_a] <= variant.horizon.cap
        achieved = np.where(allowed_b, b.keep[r][keep_a], -np.inf)
        changed += int(np.sum(achieved < best_b - TOL))
    return changed


def _exact_equal(default: Game, variant: Game, objective: str) -> bool:
    """The turn objective: the opening turn's exact values agree. The whole-game objectives:
    every state of the reduced board agrees exactly."""
    if objective == "turn":
        opening = default.opening
        return exact_game(default, "turn")(*opening) == exact_game(variant, "turn")(*opening)
    small_a = default.reduced(piers=SMALL_PIERS, skulls=2)
    small_b = variant.reduced(piers=SMALL_PIERS, skulls=2)
    va, vb = exact_game(small_a, objective), exact_game(small_b, objective)
    return all(va(*s) == vb(*s) for s in all_states(small_a))


PROOFS = {
    "turn": "the opening turn solved exactly under both readings: equal; no opening decision "
            "changes",
    "solo": "exact rationals on a two-pier two-skull board; full tables equal bit for bit",
    "duel": "exact rationals on a two-pier two-skull board; full tables equal bit for bit",
}


def measure(variant_name: str, base: Game | None = None) -> list[dict]:
    base = base or default_game()
    variant = Game(base.board, with_variant(base.rules, variant_name))
    if variant.rules.measured_only():
        from solver.armada.readings import measure_reading

        return measure_reading(variant_name, base, variant)
    levels, skulls = base.opening
    rows = []
    for objective in OBJECTIVES:
        if objective == "turn":
            d = analyse(base, levels, skulls, "turn", None).value
            v = analyse(variant, levels, skulls, "turn", None).value
            states_changed, largest = None, abs(v - d)
        else:
            ta = np.asarray(load_table(base, objective, False, False))
            tb = np.asarray(load_table(variant, objective, False, False))
            d = float(ta[skulls, base.code(levels)])
            v = float(tb[skulls, base.code(levels)])
            diff = np.abs(ta - tb)
            states_changed, largest = int(np.sum(diff > TOL)), float(diff.max())
        row = {"variant": variant_name, "card": "opening", "objective": objective,
               "default": round(d, 9), "value": round(v, 9), "delta": round(v - d, 9),
               "states_changed": states_changed, "largest_change": largest,
               "changed_states": opening_decisions_changed(base, variant, objective),
               "decision_states": len(base.space.full) * base.rules.rolls}
        identical = largest == 0.0 and row["changed_states"] == 0
        if identical and _exact_equal(base, variant, objective):
            row.update(claim="no change", proof=PROOFS[objective])
        else:
            row.update(claim="changes" if largest > TOL else "no change",
                       proof="solved under both readings (float)")
        rows.append(row)
    return rows


def measure_all(proofs_dir: Path = PROOFS_DIR) -> list[dict]:
    """Measure every variant a solver reads (models/armada/editions.toml ``measure``)."""
    names = set(variant_names()) - unmeasured_variants("armada")
    return write_claims(proofs_dir / CLAIMS_FILE, names, measure)


def verify_claims(proofs_dir: Path = PROOFS_DIR) -> list[str]:
    """Re-measure every variant and compare with the stored claims."""
    return verify_stored(proofs_dir / CLAIMS_FILE, "armada", _check_rows)


def _check_rows(stored: list[dict]) -> list[str]:
    errors = []
    fresh = {(r["variant"], r["objective"]): r
             for name in sorted({r["variant"] for r in stored}) for r in measure(name)}
    for row in stored:
        now = fresh.get((row["variant"], row["objective"]))
        where = f"{row['variant']}/{row['objective']}"
        if now is None:
            errors.append(f"{where}: no longer measured")
        elif (now["claim"], now["proof"], now["changed_states"]) != (
                row["claim"], row["proof"], row["changed_states"]) or abs(
                now["delta"] - row["delta"]) > 1e-6:
            errors.append(f"{where}: the measurement differs from its record")
    return errors
