"""Die Dracheninsel: reports are complete, well-formed and byte-identical run to run."""

from __future__ import annotations

import re

import pytest

from solver.dragon import reports
from solver.dragon.board import default_island
from solver.dragon.simulate import blank, simulate
from solver.games import SolveRun
from tests.fresh_process import run_fresh


@pytest.mark.slow
def test_write_reports_twice_gives_identical_files(tmp_path, monkeypatch):
    """The reports of two runs are byte-identical, the second run in a fresh process; the
    paths are the run's (the same proofs folder for both: the README names its certificates'
    paths), and the invariants are proved once per run (the run's step)."""
    monkeypatch.setattr(reports, "GAMES", 2)
    first, second = tmp_path / "a", tmp_path / "b"
    run = SolveRun(first, tmp_path / "proofs")
    reports.write_reports(run)
    assert list(run.proved) == ["dracheninsel"]
    run_fresh("from pathlib import Path\n"
              "from solver.dragon import reports\n"
              "from solver.games import SolveRun\n"
              "reports.GAMES = 2\n"
              f"reports.write_reports(SolveRun(Path({str(second)!r}), "
              f"Path({str(tmp_path / 'proofs')!r})))\n", tmp_path / "fresh-cache")
    files = sorted(p.name for p in (first / "dracheninsel").iterdir())
    assert files == ["README.md", "board.svg", "example-route.svg", "summary.json", "turns.svg"]
    for name in files:
        assert (first / "dracheninsel" / name).read_bytes() == \
            (second / "dracheninsel" / name).read_bytes(), name
    readme = (first / "dracheninsel" / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^- \[([^\]]+)\]\(([^)]+)\): \S.*$", readme, flags=re.M)
    assert sorted(a for a, b in listed if a == b) == sorted(f for f in files if f != "README.md")
    assert "reconstruction" in readme and "ASSUMPTION" in readme
    assert (tmp_path / "proofs" / "dracheninsel" / "deck-and-coins-add-up.json").exists()


def test_every_boat_needs_three_cards_on_the_symmetric_opening():
    rows = reports.per_boat(default_island())
    assert [r["cards_to_treasure"] for r in rows] == [3] * 6


def test_simulation_is_seeded_and_counts_turns():
    island = default_island()
    a = simulate(island, 3, seed=1)
    assert [(j.there, j.back) for j in a] == [(j.there, j.back) for j in simulate(island, 3, 1)]
    assert all(j.there >= 1 and j.back >= 1 for j in a)


def test_striking_an_action_keeps_the_deck_size():
    from solver.dragon.cards import deck

    cards = deck()
    struck = blank(cards, "long-journey")
    assert len(struck) == len(cards) == 99
    assert not any("long-journey" in c.actions for c in struck)
    assert sum("slumber" in c.actions for c in struck) == sum("slumber" in c.actions
                                                               for c in cards)
