"""``reports/armada/review/``: one seeded simulated two-player game on the shipped board, its
record, its review (text and JSON) and its chart, written by ``make solve`` so readers see what
``treasure armada review`` gives."""

from __future__ import annotations

from pathlib import Path

SEED = 38  # the example game's seed (models/armada/example-game.txt is this game)
BLUNDER = 0.15  # each decision a random option with this probability (else the best)
PLAYERS = ("Anne", "Bruno")


def write_review_example(out: Path) -> dict:
    """Write ``out/review/``: ``game.txt``, ``review.txt``, ``review.json``, ``review.png``
    and a README with the headline numbers; returns the review."""
    from solver.armada.game import default_game
    from solver.armada.review import ArmadaReview, parse_header
    from solver.armada.review_cli import review_png, review_text
    from solver.armada.review_sim import simulate_record
    from solver.armada.tables import load_table
    from solver.io import atomic_write_bytes, atomic_write_text, dumps_json
    from solver.text import markdown_lines

    game = default_game()
    table = load_table(game, "duel", show_progress=False)
    text = simulate_record(game, PLAYERS, table, SEED, BLUNDER)
    players, _, turns = parse_header(text)
    doc = ArmadaReview(game, players, table).run(turns)
    folder = out / "review"
    atomic_write_text(folder / "game.txt", text)
    atomic_write_text(folder / "review.txt", review_text(doc))
    atomic_write_text(folder / "review.json", dumps_json(doc))
    atomic_write_bytes(folder / "review.png", review_png(doc))
    rows = [[r["player"], f"{r['start']:+.3f}", f"{r['luck']:+.3f}", f"{r['error']:.3f}",
             r["decisions"], r["rating"], f"{r['result']:+g}"] for r in doc["summary"]]
    atomic_write_text(folder / "README.md", "\n".join([
        "# An example game review (Gold Armada, two players)",
        "",
        f"Written by `make solve` (`solver/armada/review_report.py`): a simulated game on the "
        f"shipped board (a reconstruction), seed {SEED}, each decision the best one or, one "
        f"time in {round(1 / BLUNDER)} or so, a random one; reviewed with the exact duel "
        "table (expected final margin of the player to move). The record format: "
        "[models/armada/record.md](../../../models/armada/record.md).",
        "",
        f"- [game.txt](game.txt): the record ({len(doc['turns'])} turns)",
        "- [review.txt](review.txt): `treasure armada review game.txt`",
        "- [review.json](review.json): `treasure armada review game.txt --json`",
        "- [review.png](review.png): `--plot review.png`, each player's expected final "
        "margin through the game",
        "",
        *markdown_lines(["player", "expected margin at the start", "luck", "error",
                         "decisions", "rating", "final margin"], rows, "lrrrrlr"),
        "",
        "![Expected final margin through the game](review.png)",
        "",
    ]))
    return doc
