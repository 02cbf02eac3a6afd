"""``treasure sabords review FILE``: a recorded game's review for people, as JSON, and as a
chart of each player's P(win) through the game (:mod:`solver.sabords.review.moves`)."""

from __future__ import annotations

import click


@click.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=True))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--plot", "plot_file", metavar="FILE.png", default=None,
              help="Also draw each player's P(win) through the game (expected points in a "
                   "record without a target) as a PNG.")
@click.option("--all", "show_all", is_flag=True,
              help="List every decision, not only those that cost something.")
@click.option("--no-cache", is_flag=True, help="Solve the game table again instead of "
                                                "using the cached one.")
def review(record_file, as_json, plot_file, show_all, no_cache) -> None:
    """Review a recorded game: the cost of every decision, the luck of every roll and card,
    each player's totals and a rating.

    The record is plain text (format: models/sabords/record.md): the players and the target,
    then one line per turn with the card, each roll's dice and the end. With two players and
    a target, values are P(win) from the exact game table (the numbers `hold --me
    --opponent` gives); without a target each turn is reviewed in expected points.

    \b
    Example:
      treasure sabords review models/sabords/example-game.txt
      treasure sabords review game.txt --json --plot game.png
    """
    from solver.review import print_review
    from solver.sabords.game_cli import game_table, whole_table
    from solver.sabords.review.moves import review_answer
    from solver.sabords.review.plot import review_png  # imports matplotlib only when called

    print_review(record_file, as_json, plot_file, show_all,
                 lambda text: review_answer(text, game_table(use_cache=not no_cache),
                                            record_file, whole_table(not no_cache)),
                 review_png, review_text)


def review_text(doc: dict, show_all: bool = False) -> str:
    """The review for people: the turns, the decisions that cost something, the totals."""
    from solver.review import number, summary_lines
    from solver.text import table

    win = doc["objective"] == "win"
    digits = 4 if win else 1
    names = doc["players"]
    what = (f"P(win) of the player to move, target {doc['target']}" if win
            else "expected points of each turn")
    if win and not doc["exact"]:
        what += f", by the rule {doc['rule']} ({doc['rule_title']})"
    lines = [f"Mille Sabords review: {' vs '.join(names)}; values are {what}"
             + (f"; variants {', '.join(doc['variants'])}" if doc["variants"] else "")]
    rows = []
    for turn in doc["turns"]:
        scores = "-".join(map(str, turn["scores_before"])) if win else ""
        points = turn["opponents_lose"] if turn["end"] == "island" else turn["points"]
        rows.append([str(turn["turn"]), names[turn["player"]], turn["card"],
                     *([scores, turn["phase"]] if win else []), str(turn["rolls"]),
                     f"{turn['end']} {points:+d}", number(turn["before"], digits),
                     number(turn["after"], digits)])
    head = ["turn", "player", "card", *(["scores", "phase"] if win else []), "rolls", "end",
            "before", "after"]
    lines.append(table(head, rows, "rll" + ("ll" if win else "") + "rlrr").rstrip("\n"))
    lines += summary_lines(doc, "win" if win else "points", digits, show_all)
    return "\n".join(lines) + "\n"
