"""``treasure armada review FILE``: a recorded Gold Armada game reviewed move by move, for
people or as JSON (:mod:`solver.armada.review`)."""

from __future__ import annotations

import click

from solver.review import print_review, review_options


@click.command()
@review_options(plot_help="Also draw each player's expected final score (one player) or "
                          "margin (two) through the game as a PNG.",
                cache_help="Solve the whole-game table again instead of using the cached one.")
def review(record_file, as_json, plot_file, show_all, no_cache) -> None:
    """Review a recorded Gold Armada game: the cost of every keep and take, the luck of
    every roll, each player's totals and a rating.

    The record is plain text (format: models/armada/record.md): the players (one or two),
    then one line per turn with each roll's dice and the token taken. One player is
    reviewed in expected final score (the solo table), two in the expected final margin of
    the player to move (the duel table): the values `treasure armada hold --objective solo`
    (or duel) prints, on the shipped board.

    \b
    Example:
      treasure armada review models/armada/example-game.txt
      treasure armada review game.txt --json --plot game.png
    """
    from solver.armada.review import review_answer
    from solver.armada.tables import load_table

    print_review(record_file, as_json, plot_file, show_all,
                 lambda text: review_answer(text, lambda game, objective: load_table(
                     game, objective, use_cache=not no_cache), record_file),
                 review_png, review_text)


def review_text(doc: dict, show_all: bool = False) -> str:
    """The review for people: the turns, the costly decisions, each player's totals."""
    from solver.review import number, summary_lines
    from solver.text import table

    what = ("expected final score" if doc["objective"] == "solo"
            else "expected final margin of the player to move")
    lines = [f"Gold Armada review: {' vs '.join(doc['players'])}; values are {what} "
             f"(board: {doc['board']})"
             + (f"; variants {', '.join(doc['variants'])}" if doc["variants"] else "")]
    rows = [[str(t["turn"]), doc["players"][t["player"]], t["state"], str(t["rolls"]),
             f"{t['take']} {t['token']:+g}", number(t["before"], 3), number(t["after"], 3)]
            for t in doc["turns"]]
    lines.append(table(["turn", "player", "board", "rolls", "take", "before", "after"], rows,
                       "rllrlrr").rstrip("\n"))
    lines += summary_lines(doc, "doubloons", 3, show_all)
    return "\n".join(lines) + "\n"


def chart_series(doc: dict) -> tuple[list[float], list[list[float]]]:
    """Per player, step by step: the score banked plus the value in play (one player), or
    the margin banked plus the mover's value, from each player's side (two)."""
    players = len(doc["players"])
    xs: list[float] = []
    ys: list[list[float]] = [[] for _ in range(players)]
    banked = [0.0] * players
    for turn, trace in zip(doc["turns"], doc["trace"], strict=True):
        mover = turn["player"]
        values = [value for _, value in trace["values"]]
        for step, value in enumerate(values):
            xs.append(turn["turn"] - 1 + step / len(values))
            if players == 1:
                ys[0].append(banked[0] + value)
                continue
            lead = banked[mover] - banked[1 - mover] + value
            ys[mover].append(lead)
            ys[1 - mover].append(-lead)
        banked[mover] += turn["token"]
    if xs:
        xs.append(float(len(doc["turns"])))
        for series in ys:
            series.append(series[-1])
    return xs, ys


def review_png(doc: dict) -> bytes:
    """The chart as PNG bytes (:func:`solver.review.chart_png`)."""
    from solver.review import chart_png

    xs, ys = chart_series(doc)
    what = "score" if doc["objective"] == "solo" else "margin"
    return chart_png(xs, ys, doc["players"], len(doc["turns"]),
                     f"Gold Armada: expected final {what} through the game",
                     f"{what} banked + the expected {what} to come")
