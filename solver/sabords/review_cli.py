"""``treasure sabords review FILE``: a recorded game's review for people, as JSON, and as a
chart of each player's P(win) through the game (:mod:`solver.sabords.review`)."""

from __future__ import annotations

import click

from solver.util import dumps_json


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
    from solver.sabords.game_cli import game_table
    from solver.sabords.record import parse_record
    from solver.sabords.review import review_record
    from solver.util import InputError, output_path, read_text

    if plot_file is not None:
        output_path(plot_file, "chart")
    text = read_text(record_file, "game record")
    try:
        doc = review_record(parse_record(text), game_table(use_cache=not no_cache))
    except InputError as err:
        raise InputError(f"game record {record_file}: {err}") from None
    if plot_file is not None:
        from solver.sabords.review_plot import review_png
        from solver.util import write_output

        write_output(plot_file, review_png(doc), "chart")
    if as_json:
        click.echo(dumps_json(doc), nl=False)
        return
    click.echo(review_text(doc, show_all), nl=False)


def _value(doc: dict, value: float) -> str:
    digits = 4 if doc["objective"] == "win" else 1
    return f"{round(value, digits) + 0.0:.{digits}f}"  # + 0.0: no "-0.0000"


def review_text(doc: dict, show_all: bool = False) -> str:
    """The review for people: the turns, the decisions that cost something, the totals."""
    from solver.sabords.review import RATINGS
    from solver.text import table

    win = doc["objective"] == "win"
    names = doc["players"]
    what = (f"P(win) of the player to move, target {doc['target']}" if win
            else "expected points of each turn")
    lines = [f"Mille Sabords review: {' vs '.join(names)}; values are {what}"
             + (f"; variants {', '.join(doc['variants'])}" if doc["variants"] else "")]
    rows = []
    for turn in doc["turns"]:
        scores = "-".join(map(str, turn["scores_before"])) if win else ""
        points = turn["opponents_lose"] if turn["end"] == "island" else turn["points"]
        rows.append([str(turn["turn"]), names[turn["player"]], turn["card"],
                     *([scores, turn["phase"]] if win else []), str(turn["rolls"]),
                     f"{turn['end']} {points:+d}", _value(doc, turn["before"]),
                     _value(doc, turn["after"])])
    head = ["turn", "player", "card", *(["scores", "phase"] if win else []), "rolls", "end",
            "before", "after"]
    lines.append(table(head, rows, "rll" + ("ll" if win else "") + "rlrr").rstrip("\n"))
    decisions = _decisions(doc, show_all)
    if decisions:
        lines.append("")
        lines.append("every decision:" if show_all else "decisions that cost something:")
        lines.append(table(["turn", "roll", "player", "position", "played", "best", "cost"],
                           decisions, "rrlllll").rstrip("\n"))
    lines.append("")
    rows = []
    for row in doc["summary"]:
        rows.append([row["player"], _value(doc, row["start"]), _signed(doc, row["luck"]),
                     _value(doc, row["error"]), str(row["decisions"]),
                     f"{row['average_error']:.5f}" if win else f"{row['average_error']:.2f}",
                     row["rating"], _value(doc, row["result"])])
    lines.append(table(["player", "start", "luck", "error", "decisions", "error/decision",
                        "rating", "result" if doc["summary"][0]["finished"] else "now"],
                       rows, "lrrrrrlr").rstrip("\n"))
    for row in doc["summary"]:
        lines.append(f"{row['player']}: start {_value(doc, row['start'])} + net luck "
                     f"{_signed(doc, row['net_luck'])} - net error "
                     f"{_signed(doc, row['net_error'])} = "
                     f"{_value(doc, row['start'] + row['net_luck'] - row['net_error'])} "
                     f"(result {_value(doc, row['result'])})")
        for e in row["largest"]:
            lines.append(f"  turn {e['turn']} roll {e['roll']} ({e['position']}): played "
                         f"{e['played']}, best {e['best']}, cost {_value(doc, e['cost'])}")
    bounds = ", ".join(f"{word} below {bound:g}" for bound, word in
                       RATINGS[doc["objective"]][:-1])
    lines.append(f"rating by the average cost per decision ({'P(win)' if win else 'points'}):"
                 f" {bounds}, beginner above; net: own less the opponent's")
    return "\n".join(lines) + "\n"


def _signed(doc: dict, value: float) -> str:
    digits = 4 if doc["objective"] == "win" else 1
    return f"{round(value, digits) + 0.0:+.{digits}f}"


def _decisions(doc: dict, show_all: bool) -> list[list[str]]:
    names = doc["players"]
    player = {t["turn"]: names[t["player"]] for t in doc["turns"]}
    rows = []
    for e in doc["events"]:
        if e["kind"] != "decision" or (not show_all and e["cost"] <= 1e-9):
            continue
        rows.append([str(e["turn"]), str(e["roll"]), player[e["turn"]], e["position"],
                     e["played"], e["best"], _value(doc, e["cost"])])
    return rows
