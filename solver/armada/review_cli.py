"""``treasure armada review FILE``: a recorded Gold Armada game reviewed move by move, for
people or as JSON (:mod:`solver.armada.review`)."""

from __future__ import annotations

import click

from solver.util import dumps_json


@click.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=True))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--all", "show_all", is_flag=True,
              help="List every decision, not only those that cost something.")
@click.option("--no-cache", is_flag=True,
              help="Solve the whole-game table again instead of using the cached one.")
def review(record_file, as_json, show_all, no_cache) -> None:
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
      treasure armada review game.txt --json
    """
    from solver.armada.game import default_game
    from solver.armada.review import ArmadaReview, parse_header
    from solver.armada.tables import load_table
    from solver.util import InputError, read_text

    text = read_text(record_file, "game record")
    try:
        players, variants, turns = parse_header(text)
        game = default_game(tuple(variants))
        objective = "solo" if len(players) == 1 else "duel"
        table = load_table(game, objective, use_cache=not no_cache)
        doc = ArmadaReview(game, players, table).run(turns)
    except InputError as err:
        raise InputError(f"game record {record_file}: {err}") from None
    if as_json:
        click.echo(dumps_json(doc), nl=False)
        return
    click.echo(review_text(doc, show_all), nl=False)


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
