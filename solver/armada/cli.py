"""``treasure armada``: what to keep, what a board state is worth, whole-game solves."""

from __future__ import annotations

import time

import click

from solver.armada.review_cli import review
from solver.io import dumps_json

STATE_HELP = "Board state: doubloons taken per pier (board order), '/', skulls taken."


def _common(func):
    """--board FILE and --variant NAME, shared by every command."""
    func = click.option("--variant", "variants", multiple=True, metavar="NAME",
                        help="A named reading of the rules (repeatable); see "
                             "`treasure armada variants`.")(func)
    return click.option("--board", "board_file", type=click.Path(dir_okay=False),
                        default=None, metavar="FILE",
                        help="A board transcription (TOML, format in "
                             "models/armada/board.toml); default: the shipped "
                             "reconstruction.")(func)


def _game(board_file, variants):
    from solver.armada.game import Game

    return Game.load(board_file, tuple(variants))


_no_cache_option = click.option(
    "--no-cache", is_flag=True,
    help="Solve the whole-game table again (seconds) without reading or writing the cache.")


OBJECTIVE_MEANINGS = {"turn": "this turn's token", "solo": "final score, one player",
                      "duel": "final margin over an opponent"}


def _objective_option(choices: list[str], default: str):
    meanings = "; ".join(f"{c}: {OBJECTIVE_MEANINGS[c]}" for c in choices)
    return click.option("--objective", type=click.Choice(choices, case_sensitive=False),
                        default=default, show_default=True, help=meanings + ".")


@click.group()
def armada() -> None:
    """Gold Armada: what to keep, what a board state is worth, whole-game solves.

    Dice are letters, order free: B barrel, O bottle, P parrot, A anchor, C cannon, M map.
    A board state is one digit per pier (doubloons taken: barrels, bottles, parrots, anchors,
    cannons, maps, three-of-a-kind, full-house, four-of-a-kind, five-of-a-kind), a slash and
    the skulls taken. The shipped board is a RECONSTRUCTION; --board FILE takes your own.

    \b
    Examples:
      treasure armada hold --board-state 0000000000/0 --rolls-left 2 BBOPA
      treasure armada value --objective solo
      treasure armada solve --objective duel
    """


P_DIGITS = 3  # every probability hold prints, in the chances line and in the table


@armada.command()
@click.option("--board-state", "state", default="0000000000/0", show_default=True,
              help=STATE_HELP)
@click.option("--rolls-left", type=int, required=True,
              help="Rolls still to come after these dice (0, 1 or 2).")
@_objective_option(["turn", "solo", "duel"], "solo")
@click.option("--all", "show_all", is_flag=True, help="List every option, not the best ten.")
@_no_cache_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_common
@click.argument("dice")
def hold(state, rolls_left, objective, show_all, no_cache, as_json, board_file, variants,
         dice) -> None:
    """Which dice to keep (or, with no rolls left, which doubloon to take).

    \b
    Examples:
      treasure armada hold --board-state 0000000000/0 --rolls-left 2 BBOPA
      treasure armada hold --board-state 1000000000/0 --rolls-left 0 BBBAA
      treasure armada hold --objective turn --rolls-left 1 --json CCMMA
    """
    from solver.armada.advice import hold as advise

    game = _game(board_file, variants)
    result = advise(game, state, rolls_left, dice, objective, use_cache=not no_cache)
    if as_json:
        click.echo(dumps_json(result), nl=False)
        return
    from solver.text import distinguishing_digits, table

    best = result["best"]
    click.echo(result["board"])
    if rolls_left == 0:
        click.echo(f"{state}, {result['dice']}: TAKE {best['take']}  "
                   f"(value {best['value']:.3f}, objective {objective})")
        digits = distinguishing_digits([o["value"] for o in result["options"]], 3, 6)
        rows = [[o["take"], f"{o['value']:.{digits}f}"] for o in result["options"]]
        click.echo(table(["take", f"E[{objective}]"], rows, "lr"), nl=False)
        return
    verdict = "KEEP ALL" if not best["reroll"] else f"KEEP {best['keep'] or '-'}"
    click.echo(f"{state}, {result['dice']}, {rolls_left} roll(s) left: {verdict}  "
               f"(value {best['value']:.3f}, objective {objective})")
    chances = sorted(best["reach"].items(), key=lambda kv: -kv[1])
    click.echo("chances this turn: " + ", ".join(f"{k} {v:.{P_DIGITS}f}" for k, v in chances))
    options = result["options"] if show_all else result["options"][:10]
    digits = distinguishing_digits([o["value"] for o in options], 3, 6)
    rows = []
    for o in options:
        top = sorted(o["reach"].items(), key=lambda kv: -kv[1])[:3]
        rows.append([o["keep"] or "-", o["reroll"] or "-", f"{o['value']:.{digits}f}",
                     ", ".join(f"{k} {v:.{P_DIGITS}f}" for k, v in top)])
    click.echo(table(["keep", "reroll", f"E[{objective}]", "likeliest outcomes (P)"], rows,
                     "llrl"), nl=False)
    if len(result["options"]) > len(options):
        click.echo(f"({len(result['options']) - len(options)} more options: --all)")


@armada.command()
@click.option("--board-state", "state", default="0000000000/0", show_default=True,
              help=STATE_HELP)
@_objective_option(["turn", "solo", "duel"], "solo")
@_no_cache_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_common
def value(state, objective, no_cache, as_json, board_file, variants) -> None:
    """The expected value of a board state under optimal play.

    \b
    Examples:
      treasure armada value
      treasure armada value --board-state 3300000000/2 --objective duel --json
    """
    from solver.armada.advice import value as evaluate

    game = _game(board_file, variants)
    result = evaluate(game, state, objective, use_cache=not no_cache)
    if as_json:
        click.echo(dumps_json(result), nl=False)
        return
    from solver.text import table

    click.echo(result["board"])
    click.echo(f"{state}: expected {result['expected']:.4f}  [{objective}: {result['meaning']}]")
    rows = [[t["pier"], t["requirement"], t["doubloon"], f"{t['option_value']:.3f}",
             f"{result['turn_reach'].get(t['pier'], 0.0):.3f}"] for t in result["targets"]]
    click.echo(table(["pier", "next requirement", "doubloon", "option value", "P(this turn)"],
                     rows, "llrrr"), nl=False)


@armada.command()
@_objective_option(["solo", "duel"], "solo")
@click.option("--no-cache", is_flag=True, help="Rebuild the tables even if cached.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_common
def solve(objective, no_cache, as_json, board_file, variants) -> None:
    """Build the whole-game table (every board state) and cache it.

    The table is cached in the user cache directory, keyed by the board and the variants;
    hold and value read it from there.

    \b
    Examples:
      treasure armada solve
      treasure armada solve --objective duel --no-cache
    """
    from solver.armada.tables import cache_path, load_table
    from solver.text import table

    game = _game(board_file, variants)
    start = time.perf_counter()
    solved = load_table(game, objective, rebuild=no_cache)
    levels, skulls = game.opening
    result = {"board": game.board.label, "objective": objective,
              "variants": list(game.rules.variants), "states": game.n_states,
              "opening": round(float(solved[skulls, game.code(levels)]), 9),
              "cache": str(cache_path(game, objective) or "(not cached)"),
              "seconds": round(time.perf_counter() - start, 2)}
    if as_json:
        click.echo(dumps_json(result), nl=False)
        return
    click.echo(result["board"])
    click.echo(table(None, [(key, result[key]) for key in
                            ("objective", "states", "opening", "seconds", "cache")], "ll"),
               nl=False)


@armada.command()
@_objective_option(["solo", "duel"], "solo")
@click.option("--format", "fmt", type=click.Choice(["csv", "npz"], case_sensitive=False),
              default="csv", show_default=True, help="CSV text or a NumPy .npz archive.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), required=True,
              help="Where to write the table (whole, atomically).")
@_common
def export(objective, fmt, out_file, board_file, variants) -> None:
    """Export a whole-game table (every board state's value) for analysis.

    CSV: a header "state,value", then one line per state, e.g. "0000000000/0,48.320285853"
    (one digit per pier in board order, a slash, the skulls taken). NPZ (numpy.load):
    "value" of shape (skulls + 1, codes), where a state's code is the sum of
    taken[i] * stride[i], with "stride", "doubloons", "piers" and "objective". States where
    the game is over are worth 0. solo: expected final score; duel: expected final margin of
    the player to move. The CSV is large: one line per board state.

    \b
    Examples:
      treasure armada export --out solo.csv
      treasure armada export --objective duel --format npz --out duel.npz
    """
    import sys

    from solver.armada.export import table_csv, table_npz
    from solver.armada.tables import load_table
    from solver.io import output_path, write_output

    output_path(out_file, "table file")
    game = _game(board_file, variants)
    table = load_table(game, objective)
    if fmt.lower() == "npz":
        data = table_npz(game, table, objective)
    else:
        with click.progressbar(length=table.shape[0], label="writing CSV",
                               file=sys.stderr) as bar:
            data = table_csv(game, table, bar.update).encode("ascii")
    write_output(out_file, data, "table file")
    click.echo(f"wrote {out_file} ({game.n_states} states, objective {objective})")


@armada.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def variants(as_json) -> None:
    """List the named readings of the rules (--variant NAME), each with the default reading
    (the rules as written, no --variant) it replaces.

    \b
    Example:
      treasure armada variants
      treasure armada hold --variant may-take-skull --rolls-left 0 BBBAA
    """
    from solver.armada.rules import RULES_FILE
    from solver.io import read_toml
    from solver.variants import readings_text, variant_readings

    readings = variant_readings(read_toml(RULES_FILE, "Gold Armada rules file"))
    if as_json:
        click.echo(dumps_json(readings), nl=False)
        return
    click.echo(readings_text(readings), nl=False)


armada.add_command(review)
