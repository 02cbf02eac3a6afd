"""The product's whole-table solution against the independent N-player reference
(tests/sabords_game_multi_reference.py, written without reading solver/): every state's value
vector, and the product table's regret recomputed by the reference's own turn solver."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game.table.equilibrium import solve_table
from solver.sabords.game.table.states import TableSpec, final
from solver.sabords.rules import load_rules
from tests.sabords_game_multi_reference import regret_n, solve_reference_n

CASES = [(3, 3, 500, 0, ()), (3, 3, 300, -100, ()),
         (3, 3, 300, 0, ("endgame-new-final-round",)), (2, 3, 500, -300, ()),
         (3, 3, 500, 0, ("first-to-target-wins",))]


def product_table(solution) -> dict:
    """The product's values in the reference's key format."""
    layout = solution.layout
    out = {}
    for name in layout.phases:
        scores = layout.scores(name)
        rows = layout.index(name, scores)
        key = ("final", int(name.split("-")[1])) if name.startswith("final") else (name,)
        for row, s in zip(rows.tolist(), scores.tolist(), strict=True):
            out[(*key, tuple(100 * x for x in s))] = tuple(solution.values[row].tolist())
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("players", "dice", "target", "low", "variants"), CASES)
def test_values_and_regret_agree_with_the_reference(players, dice, target, low,
                                                    variants) -> None:
    rules = load_rules(variants + (("score-floor-zero",) if low == 0 else ()))
    solution = solve_table(TableSpec.of(rules.with_dice(dice), players, target, low))
    variants_ref = variants + (("score-floor-zero",) if low == 0 else ())
    reference = solve_reference_n(players, dice, target, low, variants_ref)
    mine = product_table(solution)
    shared = [k for k in reference if k in mine]
    assert len(shared) > 0.9 * len(reference)
    worst = max(shared, key=lambda k: np.max(np.abs(np.subtract(mine[k], reference[k]))))
    assert mine[worst] == pytest.approx(reference[worst], abs=1e-9), worst
    regrets = regret_n(players, dice, target, low, mine, variants_ref, strict=False)
    assert len(regrets) > 0.9 * len(mine)
    assert max(regrets.values()) < 1e-9
    assert min(regrets.values()) > -1e-9
    assert (final(1) in solution.layout.phases) == ("first-to-target-wins" not in variants)
