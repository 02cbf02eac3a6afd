"""The whole table's report and proof (solver.sabords.game.table.report) on a reduced game: three
dice, target 500, scores floored at zero, a few thousand simulated games a line."""

from __future__ import annotations

import json
import re

import pytest

from solver.sabords.game.solved import load_game, with_play
from solver.sabords.game.table.proof import check_proof
from solver.sabords.game.table.report import (
    LOWEST,
    SPREAD_FROM,
    _lowest_lines,
    lowest_projection,
    table_section,
    write_table_report,
)
from solver.sabords.game.table.states import Layout, TableSpec
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules

RULES = load_rules(("score-floor-zero",)).with_dice(3)
# the trade-off's lowest scores here: the shipped ones down to -2000 (deeper, the tables at
# three dice grow to a million states), the last two too deep for the spread
LOWS = tuple(low for low in LOWEST if low >= -2000)
# every test reads one report written end to end (a solve and 2,000 simulated games)
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    root = tmp_path_factory.mktemp("table")
    headline = with_play(load_game(GameSpec(RULES, 500)))
    summary = write_table_report(root, root, headline, TableSpec.of(RULES, 3, 500), games=2000,
                                 at_target=TableSpec.of(RULES, 3, 700), lows=LOWS)
    (root / "section.md").write_text(table_section(summary), encoding="utf-8")
    return root, summary


def test_report_names_every_player_count(written) -> None:
    root, summary = written
    text = (root / "section.md").read_text(encoding="utf-8")
    for players in (2, 3, 4, 5):  # a row of each count (cells padded to the column)
        assert re.search(rf"^\| +{players} \|", text, re.MULTILINE)
    assert json.loads((root / "table.json").read_text(encoding="utf-8")) == json.loads(
        json.dumps(summary))
    exact = summary["three_players_exact"]
    assert exact["regret"] < 1e-12 and sum(exact["seat_wins"]) == pytest.approx(1, abs=1e-12)
    assert (root / "table-slice.png").stat().st_size > 1000
    assert text.startswith("## The whole table: two to five players")  # game.md's section


def test_the_gain_from_reading_the_scoreboard(written) -> None:
    """The equilibrium's play in one seat against points players: the points players' seat
    values are points play's from the solve (valued another way: seats, not positions), and
    the gain is the difference."""
    _, summary = written
    exact = summary["three_players_exact"]
    gain = exact["gain"]
    for seat, points in zip(gain["seats"], exact["points_play"], strict=True):
        assert seat["points"] == pytest.approx(points, abs=1e-12)
        assert seat["gain"] == pytest.approx(seat["exact"] - seat["points"], abs=1e-15)
    assert gain["gain"] == pytest.approx(sum(s["gain"] for s in gain["seats"]) / 3, abs=1e-15)
    text = (written[0] / "section.md").read_text(encoding="utf-8")
    assert "### The gain from reading the scoreboard, by player count" in text
    assert f"{gain['gain']:+.4f} |" in text


def test_the_spread_of_equilibria_is_reported(written) -> None:
    """The exact table and every trade-off row carry their spread: six runs, each certified,
    and the section's table lists them."""
    root, summary = written
    deep = [r for r in summary["lowest_score"] if r["lowest_score"] < SPREAD_FROM]
    assert deep and not any("spread" in r for r in deep)  # too slow to solve six more times
    rows = [summary["three_players_exact"]] + [r for r in summary["lowest_score"]
                                               if r["lowest_score"] >= SPREAD_FROM]
    for row in rows:
        spread = row["spread"]
        assert len(spread["runs"]) == 6 and spread["regret"] < 1e-9
        assert 1 <= spread["equilibria"] <= 6 and len(spread["opening"]) == 3
        assert spread["runs"][0]["seat_wins"] == row["seat_wins"]  # the report's own solve
    text = (root / "section.md").read_text(encoding="utf-8")
    assert "### How far apart the equilibria are" in text
    assert text.count("| lowest -") >= 3


def test_proof_checks_and_a_tampered_one_fails(written) -> None:
    root, _ = written
    path = root / "sabords" / "table-3-500.json"
    assert check_proof(path, sample=300) == []
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["values"][17][0] -= 1e-3  # one state claims less than its best turn
    tampered = root / "tampered.json"
    tampered.write_text(json.dumps(doc), encoding="utf-8")
    assert check_proof(tampered, sample=len(doc["values"])) != []


def test_the_shipped_table_answers_as_the_solve_did(written) -> None:
    """A fresh clone's first three-player query reads the table make solve ships."""
    import numpy as np

    from solver.sabords.game.table.equilibrium import solve_table
    from solver.sabords.game.table.positions import headline
    from solver.sabords.game.table.proof import shipped_solution

    root, summary = written
    spec = TableSpec.of(RULES, 3, 500)
    shipped = shipped_solution(spec, proofs_dir=root)
    assert shipped is not None
    solved = solve_table(spec)
    assert np.max(np.abs(shipped.values - solved.values)) == 0.0
    assert headline(shipped) == headline(solved) | {"solve": headline(shipped)["solve"],
                                                    "spread": headline(shipped)["spread"]}
    spread = summary["three_players_exact"]["spread"]
    assert headline(shipped)["spread"] == {k: spread[k] for k in ("equilibria", "opening",
                                                                   "anywhere", "regret",
                                                                   "ties")}
    assert headline(shipped)["seat_wins"] == summary["three_players_exact"]["seat_wins"]
    assert shipped_solution(TableSpec.of(RULES, 3, 400), proofs_dir=root) is None


def test_each_three_player_reading_is_its_own_solve(written) -> None:
    """The readings section: each reading's seats are those of its own table, solved here
    again, and sum to 1; first-to-target-wins has normal play only."""
    from solver.sabords.game.table.equilibrium import solve_table
    from solver.sabords.game.table.readings import READINGS

    root, summary = written
    readings = summary["three_player_readings"]
    assert list(readings) == list(READINGS)
    base = summary["three_players_exact"]["seat_wins"]
    for r in readings.values():
        assert sum(r["seat_wins"]) == pytest.approx(1, abs=1e-12)
        assert r["delta"] == pytest.approx([w - b for w, b in zip(r["seat_wins"], base,
                                                                   strict=True)], abs=1e-15)
    first = TableSpec.of(load_rules(("score-floor-zero", "first-to-target-wins")).with_dice(3),
                         3, 500)
    solved = solve_table(first)
    assert readings["first-to-target-wins"]["seat_wins"] == solved.wins("normal", [0, 0, 0]
                                                                         ).tolist()
    assert readings["first-to-target-wins"]["states"] == 5 ** 3
    assert re.search(r"`first-to-target-wins` +\| +125 \|",
                     (root / "section.md").read_text(encoding="utf-8"))


def test_departures_are_what_hold_answers(written) -> None:
    """Each listed departure, asked as `hold` asks it: the exact best is worth the listed
    P(win); points play's choice (hold's points_best) and the rule's (the two-player hold at
    my score against the leader) cost what the report says."""
    from solver.sabords.game.advice import game_hold, hold_by_payoffs
    from solver.sabords.game.table.equilibrium import solve_table
    from solver.sabords.game.table.positions import mover_payoffs, rule_hold_position

    root, summary = written
    d = summary["departures"]
    assert d["departs"]["both"] <= min(d["departs"]["points"], d["departs"]["rule"])
    assert 0 < d["share"]["both"] <= min(d["share"]["points"], d["share"]["rule"]) < 1
    solution = solve_table(TableSpec.of(RULES, 3, 500))
    two = load_game(GameSpec(RULES, 500))

    def value_of(options, choice: str) -> float:
        words = choice.split()
        return next(o["value"] for o in options if o["action"] == words[0]
                    and o.get("reroll", "") == (words[1] if len(words) > 1 else ""))

    for e in d["examples"][:4]:
        units = [s // 100 for s in e["scores"]]
        exact = hold_by_payoffs(RULES, e["card"], e["dice"], lambda o, l_, w, u=units:
                                mover_payoffs(solution, "normal", u, o, l_, w), {})
        assert exact["value"] == pytest.approx(e["win"], abs=1e-12)
        assert value_of(exact["options"], e["best"]) == pytest.approx(e["win"], abs=1e-12)
        points = exact["points_best"]
        assert f"{points['action']} {points.get('reroll', '')}".strip() == e["points"]
        assert e["win"] - points["win"] == pytest.approx(e["points_cost"], abs=1e-12)
        phase, me, leader = rule_hold_position(solution.layout, "normal", units)
        rule = game_hold(two, e["card"], me, leader, phase, e["dice"])
        assert value_of(exact["options"], e["rule"]) == pytest.approx(
            e["win"] - e["rule_cost"], abs=1e-12)
        assert value_of(rule["options"], e["rule"]) == pytest.approx(rule["value"], abs=1e-12)
    assert "departs from points play and from the rule" in (root / "section.md").read_text(
        encoding="utf-8")


def test_the_lowest_score_tradeoff(written) -> None:
    """The trade-off rows: a lower lowest score is hit less often, on a larger table."""
    root, summary = written
    rows = summary["lowest_score"]
    assert [r["lowest_score"] for r in rows] == list(LOWS)
    assert all(a["from_zero"] > b["from_zero"] and a["states"] < b["states"]
               for a, b in zip(rows, rows[1:], strict=False))
    assert all(sum(r["seat_wins"]) == pytest.approx(1, abs=1e-12) for r in rows)
    assert "### The lowest score at three players" in (root / "section.md").read_text(
        encoding="utf-8")


def test_the_table_at_the_target_is_measured_exactly(written) -> None:
    """The larger table measured exactly (here three dice, target 700, floor 0; `make solve`:
    the game's target): certified; no seat gains by playing the rule instead of the
    equilibrium (a whole way of playing gains no more than single turns, which the regret
    bounds); each cost and gain is its difference; the section shows them."""
    root, summary = written
    at = summary["three_players_at_target"]
    assert at["target"] == 700 and at["converged"] and at["regret"] < 1e-12
    assert sum(at["seat_wins"]) == pytest.approx(1, abs=1e-12)
    versus = at["rule_against_exact"]["seats"]
    for seat, wins in zip(versus, at["seat_wins"], strict=True):
        assert seat["exact"] == pytest.approx(wins, abs=1e-12)
        assert seat["cost"] == pytest.approx(seat["exact"] - seat["rule"], abs=1e-15)
        assert seat["cost"] > -1e-9
    assert max(s["cost"] for s in versus) > 1e-6  # the rule is not the equilibrium
    for seat, points in zip(at["gain"]["seats"], at["points_play"], strict=True):
        assert seat["points"] == pytest.approx(points, abs=1e-12)
    text = (root / "section.md").read_text(encoding="utf-8")
    assert "### Three players at 700, scores floored at zero (exact)" in text
    assert f"{versus[0]['cost']:.6f} |" in text and "700 (floor 0)" in text


def test_the_projection_of_the_lowest_score_follows_the_last_two_rows() -> None:
    """The bound's fall from the last row but one to the last, kept up (a factor of 10 a
    1000 points here), reaches 1e-6 where the straight line through its logarithm does; no
    projection once a row is below 1e-6 or the bound does not fall."""
    rows = [{"lowest_score": -1000, "from_zero": 1e-2}, {"lowest_score": -2000,
                                                        "from_zero": 1e-3}]
    small = TableSpec.of(RULES, 3, 500)
    p = lowest_projection(rows, small)
    assert p["factor_per_1000"] == pytest.approx(10) and p["lowest_score"] == -5000
    deep = TableSpec.of(load_rules().with_dice(3), 3, 500, -5000)
    assert p["states"] == Layout(deep).states > Layout(TableSpec.of(RULES, 3, 500)).states
    assert lowest_projection([rows[0], {"lowest_score": -2000, "from_zero": 1e-7}], small) is None
    assert lowest_projection([rows[1], {"lowest_score": -3000, "from_zero": 1e-3}], small) is None


def test_the_tradeoff_section_says_where_its_fall_would_reach_the_goal(written) -> None:
    """No row reaches 1e-6 here (three dice, target 500, down to -2000): the summary carries
    the projection of the last two rows' fall and the section says it."""
    root, summary = written
    rows = summary["lowest_score"]
    assert min(r["from_zero"] for r in rows) > 1e-6
    p = summary["lowest_score_projection"]
    assert p == lowest_projection(rows, TableSpec.of(RULES, 3, 500))
    assert p["lowest_score"] < rows[-1]["lowest_score"] and p["factor_per_1000"] > 1
    text = (root / "section.md").read_text(encoding="utf-8")
    assert (f"near a lowest score of {p['lowest_score']}, a table of {p['states']:,} states"
            in " ".join(text.split()))


def test_the_tradeoff_names_its_first_row_below_the_goal() -> None:
    """A row whose bound is below 1e-6 is named, with its regret when it did not settle."""
    row = {"states": 10, "steps": 2, "seat_wins": [0.5, 0.3, 0.2], "mixed": []}
    rows = [{**row, "lowest_score": -1000, "from_zero": 1e-3, "regret": 1e-15},
            {**row, "lowest_score": -2000, "from_zero": 7e-7, "regret": 2e-8},
            {**row, "lowest_score": -3000, "from_zero": 1e-8, "regret": 1e-15}]
    text = " ".join("\n".join(_lowest_lines({"lowest_score": rows}, 300)).split())
    assert ("The first lowest score whose bound is below 1e-6 (the goal of issue 35) is -2000: "
            "from every position with all scores at least 0, that table's values are within "
            "7.0e-07 of its play's in the game with scores unbounded below; its play is not "
            "settled (best responses cycle), an equilibrium to a regret of 2.0e-08.") in text
    assert "No row's bound" not in text
    settled = _lowest_lines({"lowest_score": [rows[0], rows[2]]}, 300)
    assert "is -3000: " in " ".join(settled) and "not settled" not in " ".join(settled)
