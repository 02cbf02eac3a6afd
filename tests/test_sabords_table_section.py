"""The departures' tables of the whole table's section of reports/sabords/game.md, rendered
from the shipped table.json: they carry the summary's numbers."""

from __future__ import annotations

import json

from solver.paths import REPORTS_DIR
from solver.sabords.game.table.report import _departures_lines
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
