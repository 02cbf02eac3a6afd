"""The departures' tables of the whole table's section of reports/sabords/game.md, rendered
from the shipped table.json: they carry the summary's numbers."""

from __future__ import annotations

import json

from solver.paths import REPORTS_DIR
from solver.sabords.game.table.report import _departures_lines, table_section
from tests.markdown_rows import table_rows


def test_the_departures_tables_carry_the_summary() -> None:
    summary = json.loads((REPORTS_DIR / "sabords" / "table.json").read_text(encoding="utf-8"))
    d = summary["departures"]
    target = summary["three_players_exact"]["target"]
    rows = table_rows("\n".join(_departures_lines(summary, target)))
    assert ("both", f"{d['departs']['both']:,}", f"{d['share']['both']:.4f}") in rows
    for e in d["examples"]:
        assert (",".join(map(str, e["scores"])), e["card"], e["dice"], e["best"], e["points"],
                e["rule"], f"{e['win']:.4f}", f"{e['points_cost']:.4f}",
                f"{e['rule_cost']:.4f}") in rows


def test_the_spread_table_carries_the_ties_when_counted() -> None:
    """Each table's ties that matter (table/ties.py) are a column of the spread's table, and
    each run's count is listed where a table has several equilibria; a table.json written
    before the ties were counted renders as the shipped game.md does."""
    summary = json.loads((REPORTS_DIR / "sabords" / "table.json").read_text(encoding="utf-8"))
    spreads = [summary["three_players_exact"]["spread"]]
    spreads += [r["spread"] for r in summary["lowest_score"] if "spread" in r]
    game = (REPORTS_DIR / "sabords" / "game.md").read_text(encoding="utf-8")
    if all("ties" not in sp for sp in spreads):
        assert game.endswith(table_section(summary))
    for number, sp in enumerate(spreads):
        sp["ties"] = {"turns": 1000 + number, "states": 1, "near": 0, "of": 123456,
                      "tolerance": 1e-12}
        for run in sp["runs"]:
            run["ties"] = 1000 + number
    text = table_section(summary)
    rows = table_rows(text)
    for number in range(len(spreads)):
        assert any(row[-1] == f"{1000 + number:,} of 123,456" for row in rows), number
    assert "*Ties that matter* counts the turns" in text
    several = [n for n, sp in enumerate(spreads) if sp["equilibria"] > 1]
    for n in several:
        assert "its ties that matter (" + ", ".join([f"{1000 + n:,}"] * 6) in text


def test_the_table_at_the_target_is_labelled_by_its_settling() -> None:
    """The shipped table at 6000 (floor 0) did not settle: the section calls it "not
    settled" wherever its figures appear (the intro, both tables, its heading), never
    exact; settled, the same summary renders "exact" there. The shipped game.md is this
    rendering."""
    summary = json.loads((REPORTS_DIR / "sabords" / "table.json").read_text(encoding="utf-8"))
    at = summary["three_players_at_target"]
    game = (REPORTS_DIR / "sabords" / "game.md").read_text(encoding="utf-8")
    assert game.endswith(table_section(summary))
    assert at["target"] == 6000 and at["converged"] is False and at["regret"] > 1e-12
    text = table_section(summary)
    head = f"### Three players at {at['target']}, scores floored at zero"
    assert f"{head} (not settled)" in text and f"{head} (exact)" not in text
    assert f"solved but not settled: its play is an equilibrium to a regret of " \
           f"{at['regret']:.1e}" in text
    rows = table_rows(text)
    assert ("3", "6000 (floor 0)", f"not settled, regret {at['regret']:.1e}",
            " / ".join(f"{w:.4f}" for w in at["seat_wins"]),
            " / ".join(f"{w:.4f}" for w in at["points_play"])) in rows
    assert any(row[:4] == ("3", "6000 (floor 0)", "the equilibrium's play", "not settled")
               for row in rows)
    at["converged"] = True
    settled = table_section(summary)
    assert f"{head} (exact)" in settled and "not settled" not in settled.split(head)[0]
