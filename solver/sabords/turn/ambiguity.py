"""Every Mille Sabords variant measured: solve each card under the default and the variant,
for each objective, and report what changes.

A claim that a variant changes nothing for a card and objective is proved exactly: either the
two readings build the identical problem (same states, payoffs, actions and first roll), or
the default reading's exact certificate (``proofs/sabords/``) still verifies under the
variant's rules, so its values are the variant's optimal values too. Claims of a change carry
the two values; :func:`verify_claims` re-checks every claim.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from solver.engine import STOP
from solver.engine.stopping import action_values
from solver.paths import PROOFS_DIR
from solver.rules.claims import verify_stored, write_claims
from solver.rules.editions import unmeasured_variants
from solver.sabords.objective import Objective, parse_objective
from solver.sabords.rules import PROMO_CARDS, STANDARD_CARDS, Rules, load_rules, variant_names
from solver.sabords.turn.certify import certificate_path, check_document
from solver.sabords.turn.model import TurnModel
from solver.sabords.turn.solve import solve_turn

CARDS = STANDARD_CARDS + PROMO_CARDS
OBJECTIVES = (Objective("points"), Objective("margin"), Objective("reach", 1000))
CLAIMS_FILE = Path("sabords") / "variants.json"


def same_problem(a: TurnModel, b: TurnModel) -> bool:
    """Do two readings build the very same turn (so every value agrees by construction)?"""
    pa, pb = a.problem, b.problem
    arrays = ("live", "stop_value", "terminal_value", "act_mode", "act_state", "act_keep",
              "act_next")
    if any(not np.array_equal(getattr(pa, n), getattr(pb, n)) for n in arrays):
        return False
    for name in ("act_bonus", "bonus_mask"):
        x, y = getattr(pa, name), getattr(pb, name)
        if (x is None) != (y is None) or (x is not None and not np.array_equal(x, y)):
            return False
    return (np.array_equal(a.first_island, b.first_island)
            and np.array_equal(a.island_value, b.island_value)
            and np.array_equal(a.first_lost, b.first_lost))


def _both_live(default, variant) -> np.ndarray:
    """``(modes, F)``: states live under both readings, in the modes both have (a reading that
    makes the turn remember more, the sabres of battle-sabres-any-roll, adds modes the
    default's player never reaches)."""
    live0, live1 = default.model.problem.live, variant.model.problem.live
    modes = min(len(live0), len(live1))
    return live0[:modes] & live1[:modes]


def decision_states(default, variant) -> int:
    """The decision states live under both readings (the denominator of ``changed_states``)."""
    return int(np.count_nonzero(_both_live(default, variant)))


def changed_states(default, variant) -> int:
    """Decision states whose default-optimal action (stop, or the same keep from the same
    dice) is no longer optimal under the variant (or no longer allowed), counted over states
    live under both readings. An action is its keep: the mode it continues in is the
    reading's (one action per mode, state and keep in every Mille Sabords turn)."""
    p0, p1 = default.model.problem, variant.model.problem
    q1 = action_values(p1, variant.value)
    index = {(int(m), int(s), int(k)): i for i, (m, s, k) in enumerate(
        zip(p1.act_mode, p1.act_state, p1.act_keep, strict=True))}
    if len(index) != len(p1.act_keep):
        raise ValueError("two actions keep the same dice from the same state and mode")
    scale = max(1.0, float(np.abs(variant.value).max()))
    count = 0
    for m, s in zip(*np.nonzero(_both_live(default, variant)), strict=True):
        a = int(default.policy[m, s])
        if a == STOP:
            achieved = p1.stop_value[m, s]
        else:
            key = (int(m), int(s), int(p0.act_keep[a]))
            achieved = q1[index[key]] if key in index else -np.inf
        if achieved < variant.value[m, s] - 1e-9 * scale:
            count += 1
    return count


def _default_doc(card: str, objective: Objective) -> dict:
    path = certificate_path(card, load_rules(), objective=objective)
    return json.loads(path.read_text(encoding="utf-8"))


def measure(variant: str) -> list[dict]:
    """Per card and objective: both values, the changed decision states, and the claim."""
    base, alt = load_rules(), load_rules([variant])
    rows = []
    for card in CARDS:
        for objective in OBJECTIVES:
            d = solve_turn(card, objective, base)
            v = solve_turn(card, objective, alt)
            row = {"variant": variant, "card": card, "objective": objective.name,
                   "default": round(d.start, 6), "value": round(v.start, 6),
                   "delta": round(v.start - d.start, 6),
                   "decision_states": decision_states(d, v)}
            if same_problem(d.model, v.model):
                row.update(changed_states=0, claim="no change", proof="identical problem")
            elif not check_document(_default_doc(card, objective), alt, same_rules=False):
                row.update(changed_states=changed_states(d, v), claim="no change",
                           proof="default certificate verifies under the variant")
            else:
                row.update(changed_states=changed_states(d, v),
                           claim="no change" if abs(v.start - d.start) < 1e-9 else "changes",
                           proof="solved under both readings (float)")
            rows.append(row)
    return rows


def measure_all(proofs_dir: Path = PROOFS_DIR) -> list[dict]:
    """Measure every variant a turn solver reads (not the game-level ones, not those no solver
    reads yet: models/sabords/editions.toml ``measure``)."""
    names = set(variant_names()) - unmeasured_variants("sabords")
    return write_claims(proofs_dir / CLAIMS_FILE, names, measure)


def verify_claims(proofs_dir: Path = PROOFS_DIR) -> list[str]:
    """Re-check every stored claim; returns the problems found."""
    return verify_stored(proofs_dir / CLAIMS_FILE, "sabords", _check_rows)


def _check_rows(claims: list[dict]) -> list[str]:
    errors = []
    base = load_rules()
    for row in claims:
        alt: Rules = load_rules([row["variant"]])
        objective = parse_objective(row["objective"])
        where = f"{row['variant']}/{row['card']}/{row['objective']}"
        if row["proof"] == "identical problem":
            d = solve_turn(row["card"], objective, base).model
            v = solve_turn(row["card"], objective, alt).model
            if not same_problem(d, v):
                errors.append(f"{where}: the readings no longer build the same problem")
        elif row["proof"] == "default certificate verifies under the variant":
            if check_document(_default_doc(row["card"], objective), alt, same_rules=False):
                errors.append(f"{where}: the default certificate does not verify under it")
        else:
            v = solve_turn(row["card"], objective, alt).start
            d = solve_turn(row["card"], objective, base).start
            if abs((v - d) - row["delta"]) > 1e-5:
                errors.append(f"{where}: the measured change differs")
    return errors


def _ends(deck) -> list:
    """Each card's turn as its structure and the (own, loss) every state's end gives: stops,
    busts, first rolls (outcome distributions) and protected keeps; an instant win aside."""
    own_loss = np.stack([deck.own, deck.loss], axis=1)
    out = []
    for om in deck.maps:
        pr = om.problem
        first = [sorted((tuple(own_loss[o]), p) for o, p in row.items()) for row in om.first_rows]
        protect = None if om.protect_out is None else own_loss[om.protect_out]
        out.append((pr.live, pr.act_mode, pr.act_state, pr.act_keep, pr.act_next,
                    own_loss[om.stop_out], own_loss[om.end_out], first, protect))
    return out


def same_turns(a: Rules, b: Rules) -> bool:
    """Do two readings play the same turns, ending in the same points for the mover and the
    same loss for the opponents (a game-level reading), so that one reading's turn policies
    can be scored under the other's game values? Nine identical symbols winning at once
    aside, which the game's payoffs read."""
    from solver.sabords.turn.lanes import deck_turns

    da, db = deck_turns(a), deck_turns(b)
    if da.cards != db.cards:
        return False
    for x, y in zip(_ends(da), _ends(db), strict=True):
        for u, v in zip(x, y, strict=True):
            same = u == v if isinstance(u, list) or u is None else (
                v is not None and np.array_equal(u, v))
            if not same:
                return False
    return True
