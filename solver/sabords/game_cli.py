"""``treasure sabords game`` and the scoreboard options of ``treasure sabords hold``: the whole
two-player game (the solver lives in :mod:`solver.sabords.game.two_player`)."""

from __future__ import annotations

import click

from solver.util import dumps_json


def game_position_options(func):
    """``--me``, ``--opponent``, ``--sudden-death``, ``--scores``, ``--trigger``, ``--race``
    and ``--target``: a position of the game (two players, or the whole table)."""
    func = click.option("--race", is_flag=True,
                        help="With --scores: the trigger player dropped below the target "
                             "after the final round; the first to end a turn at or above it "
                             "wins at once.")(func)
    func = click.option("--trigger", type=int, default=None, metavar="P",
                        help="With --scores: the position in --scores (2 to N) of the player "
                             "who triggered the final round; those listed after P have played "
                             "their last turn. Default: the one other score at or above the "
                             "target.")(func)
    func = click.option("--scores", default=None, metavar="A,B[,C...]",
                        help="Every player's score, mine first, then the others in the order "
                             "they play after me (2 to 5 players; --me A --opponent B is "
                             "--scores A,B).")(func)
    func = click.option("--target", type=int, default=None,
                        help="Points to reach (default 6000; 5000 and 8000 are the French "
                             "rulebook's shorter and longer games; any multiple of 100 up "
                             "to 20000).")(func)
    func = click.option("--sudden-death", is_flag=True,
                        help="The trigger player dropped below the target after the last "
                             "round: the first to reach it again wins at once.")(func)
    func = click.option("--opponent", type=int, multiple=True, callback=_once,
                        metavar="POINTS",
                        help="The opponent's score (two players); at or above the target "
                             "means this is my last turn. More opponents: --scores.")(func)
    return click.option("--me", type=int, multiple=True, callback=_once, metavar="POINTS",
                        help="My score, before this turn (scores may be negative, down to "
                             "-9500, the lowest score the solved game keeps).")(func)


def _once(ctx, param, values):
    """A score option given at most once: a second --opponent is not a second opponent."""
    if len(values) > 1:
        more = " (for more than one opponent, --scores A,B,C...)" if param.name == "opponent" \
            else ""
        raise click.BadParameter(f"given {len(values)} times; give it once{more}")
    return values[0] if values else None


def game_table(use_cache: bool = True):
    """The command line's source of game tables: from the cache; else, for a position or a
    hold, the table shipped in ``proofs/`` when it is the game asked about (what the web
    server reads); else solved on the spot (minutes, once; progress on stderr)."""
    from solver.sabords.game.solved import cache_path, load_game, shipped_table

    def source(spec, headline: bool = False):
        path = cache_path(spec)
        if use_cache and not headline and (path is None or not path.exists()):
            shipped = shipped_table(spec)
            if shipped is not None:
                return shipped
        return load_game(spec, use_cache=use_cache, progress=True)

    return source


def whole_table(use_cache: bool = True):
    """The command line's source of whole-table solutions (three players or more), whose
    modules are imported when a position asks for one (they bring numba: 0.8 s of start-up
    that a two-player or turn ``hold`` does not need)."""

    def source(spec):
        from solver.sabords.game.table.positions import load_table

        return load_table(spec, use_cache=use_cache, progress=True)
    return source


@click.command()
@game_position_options
@click.option("--card", default=None, help="The card just drawn (default: before the draw).")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="A named reading of the rules (repeatable); see `treasure sabords "
                   "variants`.")
@click.option("--no-cache", is_flag=True, help="Solve the game again instead of using the "
                                                "cached table.")
@click.option("--players", type=int, default=None,
              help="Players at the table, 2 to 5 (default 2): the headline for that many.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def game(me, opponent, sudden_death, scores, trigger, race, target, card, variants, no_cache,
         players, as_json) -> None:
    """The whole game, solved exactly: P(win) + shares of ties under optimal play.

    Without a position: each seat's chance from the opening before the first card, the
    same when everyone maximises each turn's points instead, and (two players) how much more
    often an optimal player beats a points-maximiser than 1/2 (both seats averaged). With
    --me and --opponent, or --scores: my chance from that position (before my card, or with
    --card after it), and with --scores everyone's. The first two-player solve of a target
    and reading takes under a minute (48 to 54 s at 6000 on two cores) and is then cached;
    `make solve` caches the default game at 5000, 6000 and 8000. Three players are solved
    exactly for small tables (for example --target 300 --variant score-floor-zero).

    \b
    Examples:
      treasure sabords game
      treasure sabords game --target 8000 --json
      treasure sabords game --me 5400 --opponent 5900
      treasure sabords game --me 4700 --opponent 6200 --card captain --json
      treasure sabords game --players 3 --target 300 --variant score-floor-zero
      treasure sabords game --scores 200,100,0 --target 300 --variant score-floor-zero
    """
    from solver.sabords.answers import game_answer

    result = game_answer(game_table(not no_cache), me=me, opponent=opponent,
                         sudden_death=sudden_death, target=target, card=card,
                         variants=variants, players=players, scores=scores, trigger=trigger,
                         race=race, whole=whole_table(not no_cache))
    if as_json:
        click.echo(dumps_json(result), nl=False)
        return
    if "seat_wins" in result:
        _headline_text(result)
        return
    if "wins" in result and result["players"] > 2:
        when = f"with {card} drawn" if card else "before the card"
        click.echo(f"scores {','.join(map(str, result['scores']))} ({result['phase']}, target "
                   f"{result['target']}), {when}: P(win) {result['win']:.6f}")
        click.echo("everyone, in the order given: "
                   + "  ".join(f"{w:.6f}" for w in result["wins"]))
        if not result["exact"]:
            click.echo(_rule_note(result))
        return
    me, opponent, phase = result["me"], result["opponent"], result["phase"]
    when = f"with {card} drawn" if card else "before the card"
    click.echo(f"me {me}, opponent {opponent} ({phase}, target {result['target']}), {when}: "
               f"P(win) {result['win']:.6f}")


def _headline_text(head: dict) -> None:
    """The headline for people: each seat's P(win), optimal and points play."""
    click.echo(f"{head['players']} players, target {head['target']}"
               + (f", variants {', '.join(head['variants'])}" if head["variants"] else ""))
    if head["players"] == 2:
        rows = [("first player wins, optimal play", head["first_player_wins"]),
                ("first player wins, both play for points",
                 head["points_play"]["first_player_wins"]),
                ("optimal beats points play, both seats", 0.5 + head["gain"])]
        for label, value in rows:
            click.echo(f"  {label.ljust(42)} {value:.6f}")
        return
    from solver.text import table

    rows = [[f"seat {i + 1}", f"{opt:.6f}", f"{pts:.6f}"] for i, (opt, pts) in
            enumerate(zip(head["seat_wins"], head["points_play"]["seat_wins"], strict=True))]
    first = "optimal play" if head["exact"] else f"rule {head['rule']}"
    click.echo(table(["seat", first, "points play"], rows, "lrr"), nl=False)
    if head["exact"]:
        click.echo(f"exact: largest regret {head['regret']:.1e} over "
                   f"{head['solve']['states']:,} states")
    else:
        click.echo(_rule_note(head))


def _rule_note(answer: dict) -> str:
    """What a four- or five-player answer is: the rule's simulated games, not exact."""
    errors = max(answer["standard_errors"])
    return (f"not exact: every seat plays the rule '{answer['rule']}' ({answer['rule_title']}); "
            f"{answer['games']:,} simulated games (seed {answer['seed']}), standard error at "
            f"most {errors:.4f}; its measured cost: reports/sabords/table.md")


def hold_for_game_text(advice: dict, show_all: bool) -> None:
    """``hold`` with the scoreboard, for people: each option's P(win), best first."""
    from solver.util import distinguishing_digits

    if "scores" in advice:
        where = f"scores {','.join(map(str, advice['scores']))}"
    else:
        where = f"me {advice['me']} against {advice['opponent']}"
    if not advice.get("exact", True):
        click.echo(f"not exact: the rule '{advice['rule']}' ({advice['rule_title']}) at "
                   f"{advice['rule_position']['me']} against {advice['rule_position']['leader']}"
                   f" ({advice['rule_position']['phase']}); its measured cost: "
                   "reports/sabords/table.md")
    phase = advice["phase"]
    if advice.get("island"):  # the Island of Skulls: nothing to choose
        from solver.sabords.turn.advice import island_text

        click.echo(island_text(advice))
        click.echo(f"P(win) {advice['value']:.6f}")
        return
    best = advice["best"]
    options = advice["options"] if show_all else advice["options"][:10]
    digits = distinguishing_digits([o["value"] for o in options], 4, 9)

    def name(option) -> str:
        return "STOP" if option["action"] == "stop" else f"REROLL {option['reroll']}"

    click.echo(f"{advice['card']}, {advice['dice']}, {where} ({phase}): "
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
