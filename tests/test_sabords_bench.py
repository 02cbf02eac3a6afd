"""The floor `make bench` prints for the three-player tables not solved yet: the repeating
stages' turns solved once, at per-state costs measured on another table's stages."""

from solver.sabords.bench import floor_text
from solver.sabords.game.table.states import Stage


def stages(normal: int, final: int) -> list[Stage]:
    return [Stage(("race",), 0, normal, True), Stage(("final-1",), normal, normal + final, False),
            Stage(("normal",), normal + final, 2 * normal + final, True)]


def test_the_floor_counts_the_repeating_stages_once_at_their_own_costs() -> None:
    costs = [(("race",), 0.003, 0.0006), (("final-1",), 1.0, 1.0),
             (("normal",), 0.0012, 0.0003)]
    # 120,000 states each: race 360 s cold, normal 144 s; 72 s and 36 s warm; 2 cores
    text = floor_text(stages(120_000, 10**9), costs)
    assert text == ("; their turns solved once: 4 min on 2 cores cold, 1 min each from its own "
                    "policy (a perfect guess)")


def test_no_floor_without_costs_or_for_stages_that_do_not_match() -> None:
    assert floor_text(stages(10, 10), None) == ""
    costs = [(("race",), 1.0, 1.0), (("normal",), 1.0, 1.0)]
    assert floor_text(stages(10, 10), costs) == ""
