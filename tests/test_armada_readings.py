"""Gold Armada readings no table reads: who wins, the round played out, the order of play,
locked dice (solver/armada/duels.py, readings.py)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.armada.duels import Played, compare, play, results
from solver.armada.game import Game, default_game
from solver.armada.readings import measure_reading
from solver.armada.rules import load_rules, with_variant
from solver.armada.tables import load_table
from solver.errors import InputError


def _played(score, doubloons, extra=None, turns=None) -> Played:
    score = np.array(score, dtype=float)
    doubloons = np.array(doubloons)
    extra = np.zeros_like(score) if extra is None else np.array(extra, dtype=float)
    return Played(score, doubloons, extra, np.zeros_like(doubloons),
                  np.ones(len(score), dtype=np.int64) if turns is None else np.array(turns))


def test_results_by_hand():
    # game 0: 12 to 10 with 3 tokens to 5; game 1: 9 to 9 with 4 to 2; game 2: 7 to 8, 2 to 2
    p = _played([[12, 10], [9, 9], [7, 8]], [[3, 5], [4, 2], [2, 2]], extra=[[0, 3], [0, 0],
                                                                           [0, -1]])
    assert results(p, "value-minus-skulls").tolist() == [[1, 0], [0.5, 0.5], [0, 1]]
    assert results(p, "most-doubloons").tolist() == [[0, 1], [1, 0], [0.5, 0.5]]
    assert results(p, "ties-more-doubloons").tolist() == [[1, 0], [1, 0], [0, 1]]
    assert results(p, "finish-the-round").tolist() == [[0, 1], [0.5, 0.5], [0.5, 0.5]]
    c = compare(p, "most-doubloons")
    assert c["changed"] == 3 and abs(c["first_delta"] - (-1 + 0.5 + 0.5) / 3) < 1e-12


@pytest.fixture(scope="module")
def small():
    game = default_game().reduced(piers=["barrels", "full-house"], skulls=2)
    return game, np.asarray(load_table(game, "duel", False, False))


def test_duels_keep_the_tokens_and_play_the_round_out(small):
    game, table = small
    p = play(game, table, -1.0, 2, 2000, seed=5)
    taken = p.doubloons.sum(axis=1)
    skulls = p.turns - taken  # every turn takes one token, a doubloon or a skull
    assert (taken <= game.total_doubloons).all() and (skulls <= game.rules.skulls).all()
    assert ((skulls == game.rules.skulls) | (taken == game.total_doubloons)).all()
    odd = p.turns % 2 == 1
    assert (p.extra_score[~odd] == 0).all() and (p.extra_score[:, 0] == 0).all()
    # after the last doubloon only a skull is left to take (-1); after the last skull a
    # doubloon or nothing
    out_of_doubloons = odd & (taken == game.total_doubloons)
    assert (p.extra_score[out_of_doubloons, 1] == -1).all()
    assert (p.extra_score[odd & ~out_of_doubloons, 1] >= 0).all()
    again = play(game, table, -1.0, 2, 2000, seed=5)
    assert np.array_equal(again.score, p.score)  # seeded


def test_reading_rows(small):
    game, _ = small
    for name in ("most-doubloons", "ties-more-doubloons", "finish-the-round"):
        variant = Game(game.board, with_variant(game.rules, name))
        (row,) = measure_reading(name, game, variant)
        assert row["simulated"]["games"] > 0 and row["claim"] in ("changes", "no change seen")
        assert abs(row["delta"] - row["simulated"]["first_delta"]) < 1e-6
    order = measure_reading("counter-clockwise", game,
                            Game(game.board, with_variant(game.rules, "counter-clockwise")))
    assert order[0]["claim"] == "no change" and order[0]["delta"] == 0
    locked = measure_reading("set-aside-locked", game,
                             Game(game.board, with_variant(game.rules, "set-aside-locked")))
    for row in locked:  # a lock can only take options away
        assert row["value"] <= row["default"] + 1e-9


def test_table_commands_refuse_unread_readings():
    assert load_rules(["most-doubloons"]).key() == load_rules().key()
    with pytest.raises(InputError, match="no Gold Armada table reads"):
        Game.load(variants=("set-aside-locked",))


def test_the_shipped_opening_report_lists_every_reading_of_the_rules_file():
    """reports/armada/opening.md lists the readings as make solve writes them (every variant
    of models/armada with its description): a reading added to the rules and not to the
    shipped report means the report was not regenerated."""
    from pathlib import Path

    from solver.armada.reports import reading_lines

    text = (Path(__file__).resolve().parents[1] / "reports" / "armada" / "opening.md").read_text(
        encoding="utf-8")
    listed = [line for line in text.splitlines() if line.startswith("- `")]
    assert listed == reading_lines()
