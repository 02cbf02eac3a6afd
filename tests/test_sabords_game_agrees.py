"""The product's two-player game solver against the independent reference, state by state.

The reference (tests/sabords_game_reference.py) was written without reading solver/; both
solve the whole game for reduced sizes, so every state's value must agree."""

from __future__ import annotations

import pytest

from solver.sabords.game.solved import solve_game
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules
from tests.sabords_game_reference import solve_reference

T, L = 500, -300

CASES = [
    (3, ()),
    (4, ()),
    (3, ("endgame-new-final-round",)),
    (3, ("score-floor-zero",)),
    (3, ("nine-as-set",)),
    (3, ("ties-extra-round",)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("dice", "variants"), CASES)
def test_game_values_agree_with_reference(dice: int, variants: tuple[str, ...]) -> None:
    reference = solve_reference(dice, T, L, variants)
    rules = load_rules(variants).with_dice(dice)
    table = solve_game(GameSpec(rules=rules, target=T, low=L))
    # under the English end there is no sudden death: a drop goes back to normal play
    states = [k for k in reference
              if not (k[0] == "sudden-death" and "endgame-new-final-round" in variants)]
    assert len(states) > 100
    worst = max(states, key=lambda k: abs(table.win(k[1], k[2], k[0]) - reference[k]))
    phase, me, opponent = worst
    assert table.win(me, opponent, phase) == pytest.approx(reference[worst], abs=1e-9), worst
