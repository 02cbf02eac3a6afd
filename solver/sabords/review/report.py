"""``reports/sabords/review/``: one seeded simulated two-player game at the default target,
its record, its review (text and JSON) and its chart, written by ``make solve`` so readers
see what ``treasure sabords review`` gives; and the record ``make bench`` times."""

from __future__ import annotations

from pathlib import Path

from solver.text import markdown_lines

SEED = 38  # the example game's seed
BLUNDER = 0.15  # each decision a random option with this probability (else the best)
PLAYERS = ("Anne", "Bruno")


def example_record(table_source, seed: int = SEED, turns: int | None = None) -> str:
    """The seeded game's record at the rules' target (default rules)."""
    from solver.sabords.review.simulate import simulate_record
    from solver.sabords.rules import load_rules

    rules = load_rules()
    return simulate_record(rules, PLAYERS, rules.target, seed, blunder=BLUNDER, turns=turns,
                           table_source=table_source)


def write_review_example(out: Path, table_source=None) -> dict:
    """Write ``out/review/``: ``game.txt`` (the record), ``review.txt``, ``review.json``,
    ``review.png`` and a README with the headline numbers; returns the review."""
    from solver.io import atomic_write_bytes, atomic_write_text, dumps_json
    from solver.sabords.answers import game_table
    from solver.sabords.review.moves import review_record
    from solver.sabords.review.plot import review_png
    from solver.sabords.review.record import parse_record
    from solver.sabords.review.text import review_text

    source = game_table() if table_source is None else table_source
    folder = out / "review"
    folder.mkdir(parents=True, exist_ok=True)
    text = example_record(source)
    doc = review_record(parse_record(text), source)
    atomic_write_text(folder / "game.txt", text)
    atomic_write_text(folder / "review.txt", review_text(doc))
    atomic_write_text(folder / "review.json", dumps_json(doc))
    atomic_write_bytes(folder / "review.png", review_png(doc))
    atomic_write_text(folder / "README.md", _readme(doc))
    return doc


def _readme(doc: dict) -> str:
    rows = [[r["player"], f"{r['start']:.4f}", f"{r['luck']:+.4f}", f"{r['error']:.4f}",
             r["decisions"], r["rating"], f"{r['result']:g}"] for r in doc["summary"]]
    return "\n".join([
        "# An example game review (Mille Sabords, two players)",
        "",
        f"Written by `make solve` (`solver/sabords/review/report.py`): a simulated game, seed "
        f"{SEED}, target {doc['target']}, default rules, each decision the best one or, one "
        f"time in {round(1 / BLUNDER)} or so, a random one; reviewed with the exact "
        "two-player game table. Read the record format in "
        "[models/sabords/record.md](../../../models/sabords/record.md).",
        "",
        f"- [game.txt](game.txt): the record ({len(doc['turns'])} turns)",
        "- [review.txt](review.txt): `treasure sabords review game.txt`",
        "- [review.json](review.json): `treasure sabords review game.txt --json`",
        "- [review.png](review.png): `--plot review.png`, each player's P(win) through the "
        "game",
        "",
        *markdown_lines(["player", "P(win) at the start", "luck", "error", "decisions",
                         "rating", "result"], rows, "lrrrrlr"),
        "",
        "![P(win) through the game](review.png)",
        "",
    ])
