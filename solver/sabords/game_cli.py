"""``treasure sabords game`` and the scoreboard options of ``treasure sabords hold``: the whole
two-player game (the solver lives in :mod:`solver.sabords.game`)."""

from __future__ import annotations

import click

from solver.util import dumps_json


def game_position_options(func):
    """``--me``, ``--opponent``, ``--sudden-death`` and ``--target``: a position of the game."""
    func = click.option("--target", type=int, default=None,
                        help="Points to reach (default 6000; 5000 and 8000 are the French "
                             "rulebook's shorter and longer games; any multiple of 100 up "
                             "to 20000).")(func)
    func = click.option("--sudden-death", is_flag=True,
                        help="The trigger player dropped below the target after the last "
                             "round: the first to reach it again wins at once.")(func)
    func = click.option("--opponent", type=int, default=None, metavar="POINTS",
                        help="The opponent's score (two players); at or above the target "
                             "means this is my last turn.")(func)
    return click.option("--me", type=int, default=None, metavar="POINTS",
                        help="My score, before this turn (scores may be negative, down to "
                             "-9500, the lowest score the solved game keeps).")(func)


def game_table(use_cache: bool = True):
    """The command line's source of game tables: from the cache, else solved on the spot
    (minutes, once; progress on stderr)."""
    from solver.sabords.game import load_game

    return lambda spec: load_game(spec, use_cache=use_cache, progress=True)


@click.command()
@game_position_options
@click.option("--card", default=None, help="The card just drawn (default: before the draw).")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="A named reading of the rules (repeatable); see `treasure sabords "
                   "variants`.")
@click.option("--no-cache", is_flag=True, help="Solve the game again instead of using the "
                                                "cached table.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def game(me, opponent, sudden_death, target, card, variants, no_cache, as_json) -> None:
    """The whole two-player game, solved exactly: P(win) + 1/2 P(tie) under optimal play.

    Without a position: the first player's chance from 0 to 0 before the first card, the
    same when both players maximise each turn's points instead, and how much more often an
    optimal player beats a points-maximiser than 1/2 (both seats averaged). With --me and
    --opponent: my chance from that position (before my card, or with --card after it).
    The first solve of a target and reading takes under a minute (48 to 54 s at 6000 on
    two cores) and is then cached; `make solve` caches the default game at 5000, 6000 and 8000.

    \b
    Examples:
      treasure sabords game
      treasure sabords game --target 8000 --json
      treasure sabords game --me 5400 --opponent 5900
      treasure sabords game --me 4700 --opponent 6200 --card captain --json
    """
    from solver.sabords.queries import game_answer

    result = game_answer(game_table(not no_cache), me=me, opponent=opponent,
                         sudden_death=sudden_death, target=target, card=card,
                         variants=variants)
    if as_json:
        click.echo(dumps_json(result), nl=False)
        return
    if "first_player_wins" in result:
        head = result
        click.echo(f"target {head['target']}"
                   + (f", variants {', '.join(head['variants'])}" if head["variants"] else ""))
        rows = [("first player wins, optimal play", head["first_player_wins"]),
                ("first player wins, both play for points",
                 head["points_play"]["first_player_wins"]),
                ("optimal beats points play, both seats", 0.5 + head["gain"])]
        for label, value in rows:
            click.echo(f"  {label.ljust(42)} {value:.6f}")
        return
    me, opponent, phase = result["me"], result["opponent"], result["phase"]
    when = f"with {card} drawn" if card else "before the card"
    click.echo(f"me {me}, opponent {opponent} ({phase}, target {result['target']}), {when}: "
               f"P(win) {result['win']:.6f}")


def hold_for_game_text(advice: dict, show_all: bool) -> None:
    """``hold`` with the scoreboard, for people: each option's P(win), best first."""
    from solver.util import distinguishing_digits

    me, opponent, phase = advice["me"], advice["opponent"], advice["phase"]
    if advice.get("island"):  # the Island of Skulls: nothing to choose
        from solver.sabords.advice import island_text

        click.echo(island_text(advice))
        click.echo(f"P(win) {advice['value']:.6f}")
        return
    best = advice["best"]
    options = advice["options"] if show_all else advice["options"][:10]
    digits = distinguishing_digits([o["value"] for o in options], 4, 9)

    def name(option) -> str:
        return "STOP" if option["action"] == "stop" else f"REROLL {option['reroll']}"

    click.echo(f"{advice['card']}, {advice['dice']}, me {me} against {opponent} ({phase}): "
               f"{name(best)}  (P(win) {best['value']:.{digits}f})")
    if advice["points_differs"]:
        pb = advice["points_best"]
        click.echo(f"maximising points would {name(pb).lower()}: P(win) "
                   f"{pb['win']:.{digits}f}, {best['value'] - pb['win']:.{digits}f} less")
    width = max(len(o.get("reroll", "")) for o in options) + 7
    click.echo(f"{'option'.ljust(width)}  {'keep'.ljust(8)}  P(win)")
    click.echo(f"{'-' * width}  {'-' * 8}  {'-' * (digits + 2)}")
    for o in options:
        label = "stop" if o["action"] == "stop" else "reroll " + o["reroll"]
        click.echo(f"{label.ljust(width)}  {o['keep'].ljust(8)}  {o['value']:.{digits}f}")
    if len(advice["options"]) > len(options):
        click.echo(f"({len(advice['options']) - len(options)} more options: --all)")
