"""``treasure sabords game`` and the scoreboard options of ``treasure sabords hold``: the whole
two-player game (the solver lives in :mod:`solver.sabords.game`)."""

from __future__ import annotations

import click

from solver.util import dumps_json


def game_position_options(func):
    """``--me``, ``--opponent``, ``--sudden-death`` and ``--target``: a position of the game."""
    func = click.option("--target", type=int, default=None,
                        help="Points to reach (default 6000; 5000 and 8000 are the French "
                             "rulebook's shorter and longer games; any multiple of 100).")(func)
    func = click.option("--sudden-death", is_flag=True,
                        help="The trigger player dropped below the target after the last "
                             "round: the first to reach it again wins at once.")(func)
    func = click.option("--opponent", type=int, default=None, metavar="POINTS",
                        help="The opponent's score (two players); at or above the target "
                             "means this is my last turn.")(func)
    return click.option("--me", type=int, default=None, metavar="POINTS",
                        help="My score, before this turn.")(func)


def _spec(target, variants):
    from solver.sabords.game import GameSpec
    from solver.sabords.rules import load_rules

    return GameSpec(load_rules(variants), target)


def _table(spec, use_cache: bool):
    from solver.sabords.game import load_game

    return load_game(spec, use_cache=use_cache, progress=True)


def _both(me, opponent) -> None:
    from solver.util import InputError

    if me is None or opponent is None:
        raise InputError("a position needs both --me and --opponent (scores in points)")


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
    The first solve of a target and reading takes a few minutes; it is then cached.

    \b
    Examples:
      treasure sabords game
      treasure sabords game --target 8000 --json
      treasure sabords game --me 5400 --opponent 5900
      treasure sabords game --me 4700 --opponent 6200 --card captain --json
    """
    from solver.sabords.game_advice import phase_of, position

    spec = _spec(target, variants)
    if me is None and opponent is None and not sudden_death and card is None:
        head = _table(spec, not no_cache).headline()
        if as_json:
            click.echo(dumps_json(head), nl=False)
            return
        click.echo(f"target {head['target']}"
                   + (f", variants {', '.join(head['variants'])}" if head["variants"] else ""))
        rows = [("first player wins, optimal play", head["first_player_wins"]),
                ("first player wins, both play for points",
                 head["points_play"]["first_player_wins"]),
                ("optimal beats points play, both seats", 0.5 + head["gain"])]
        for label, value in rows:
            click.echo(f"  {label.ljust(42)} {value:.6f}")
        return
    _both(me, opponent)
    phase = phase_of(spec, me, opponent, sudden_death)
    if card is not None:
        spec.rules.card(card)
    result = position(_table(spec, not no_cache), me, opponent, phase, card)
    if as_json:
        click.echo(dumps_json(result), nl=False)
        return
    when = f"with {card} drawn" if card else "before the card"
    click.echo(f"me {me}, opponent {opponent} ({phase}, target {spec.target}), {when}: "
               f"P(win) {result['win']:.6f}")


def hold_for_game(card, me, opponent, sudden_death, target, variants, dice, *, sorceress_used,
                  rerolled, show_all, use_cache, as_json) -> None:
    """``hold`` with the scoreboard: each option's P(win), best first."""
    from solver.sabords.game_advice import game_hold, phase_of
    from solver.util import distinguishing_digits

    _both(me, opponent)
    spec = _spec(target, variants)
    phase = phase_of(spec, me, opponent, sudden_death)
    spec.rules.card(card)
    advice = game_hold(_table(spec, use_cache), card, me, opponent, phase, dice,
                       sorceress_used=sorceress_used, rerolled=rerolled)
    if as_json:
        click.echo(dumps_json(advice), nl=False)
        return
    if "options" not in advice:  # the Island of Skulls: nothing to choose
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
