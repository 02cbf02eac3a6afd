"""``treasure sabords``, every subcommand in one place: score a roll, decide what to hold, value
a card or the deck, export a turn's policy, the whole game, review a recorded game. The answers
themselves are built by :mod:`solver.sabords.answers` (the web API's too) and the lower layers;
this module reads the options and prints."""

from __future__ import annotations

import click
import numpy as np

from solver.cli_status import StatusLine
from solver.errors import InputError
from solver.io import dumps_json, output_path, write_output
from solver.review import print_review, review_options

CARD_HELP = (
    "Fortune card: none, treasure-island, captain, sorceress, gold, diamond, monkey-business, "
    "sea-battle-2, sea-battle-3, sea-battle-4, skulls-1, skulls-2, after-the-storm, truce "
    "(any case; German and French names too: Kapitän, Zauberin, Totenkopf-2)"
)


def _variants_option(func):
    return click.option(
        "--variant",
        "variants",
        multiple=True,
        metavar="NAME",
        help="A named reading of the rules (repeatable); see `treasure sabords variants`.",
    )(func)


def _rules(variants):
    from solver.sabords.rules import load_rules

    return load_rules(variants)


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


@click.group()
def sabords() -> None:
    """Mille Sabords! / Piraten Kapern: exact turn solver.

    Dice are letters, order free: C coin, D diamond, M monkey, P parrot, S sabre, X skull
    (words such as coin,coin,skull work too).

    \b
    Examples:
      treasure sabords score --card captain CCCCDSSX
      treasure sabords hold --card none CCDMPSSX
      treasure sabords value --card deck
    """


@sabords.command()
@click.option("--card", default="none", show_default=True, help=CARD_HELP)
@click.option("--island", is_flag=True, help="The dice end an Island of Skulls turn.")
@click.option("--chest", metavar="DICE", default=None,
              help="Treasure Island: the dice that were on the chest (part of DICE, no "
                   "skulls); they score when the turn busts.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_variants_option
@click.argument("dice")
def score(card: str, island: bool, chest: str | None, as_json: bool, variants,
          dice: str) -> None:
    """Score the dice a turn ends with.

    \b
    Example (the French rulebook's worked example, 1400 points):
      treasure sabords score --card captain CCCCDSSX
    A Treasure Island turn that busted with CCCD on the chest (they still score):
      treasure sabords score --card treasure-island --chest CCCD CCCDMXXX
    """
    from solver.sabords.dice import format_dice, parse_dice
    from solver.sabords.scoring import (
        bust_outcomes,
        island_count,
        island_loss,
        protected_outcomes,
        stop_outcomes,
    )

    rules = _rules(variants)
    the_card = rules.card(card)
    card = the_card.name
    counts = np.array(parse_dice(dice, rules))
    skulls = int(counts[rules.face(rules.skull)]) + the_card.extra_skulls
    dice = format_dice(counts, rules)
    result: dict = {"card": card, "dice": dice}
    on_chest = _chest_dice(chest, counts, the_card, rules) if chest is not None else None
    if on_chest is not None:
        result["on_chest"] = format_dice(on_chest, rules)
    if island:
        if not the_card.island:
            raise InputError(f"no Island of Skulls with the {card} card")
        count = island_count(int(counts[rules.face(rules.skull)]), the_card, rules)
        if count < rules.island_skulls:
            raise InputError(
                f"an Island of Skulls turn has at least {rules.island_skulls} skulls; "
                f"these dice show {count}"
            )
        loss = island_loss(count, the_card, rules,
                           sabre_showing=bool(counts[rules.face(rules.sabre)] > 0))
        result.update(score=0, opponents=-loss, bust=False, chest=False)
    elif skulls >= rules.bust_skulls:
        out = bust_outcomes(counts, the_card, rules)
        result.update(score=int(out.own[0]), bust=True, chest=False,
                      opponents=-int(out.opponents[0]))
        if on_chest is not None:
            saved = int(protected_outcomes(on_chest, the_card, rules).own[0])
            result.update(score=result["score"] + saved, protected=saved)
    else:
        out = stop_outcomes(counts, the_card, rules)
        result.update(score=int(out.own[0]), bust=False, chest=bool(out.chest[0]),
                      win=bool(out.win[0]))
    if as_json:
        click.echo(dumps_json(result), nl=False)
        return
    lines = [("Card", card), ("Dice", dice), ("Score", f"{result['score']:+d}")]
    if "opponents" in result:
        lines.append(("Each opponent", f"{result['opponents']:+d}"))
    if result.get("bust"):
        lines.append(("Bust", f"yes ({skulls} skulls)"))
    if "on_chest" in result:
        saved = (f"{result['protected']:+d} (scored although the turn busted)"
                 if "protected" in result else "no bust: every die scores")
        lines.append(("On chest", f"{result['on_chest']}: {saved}"))
    if result.get("chest"):
        lines.append(("Full chest", "yes (+500 included)"))
    if result.get("win"):
        lines.append(("Nine of a kind", "wins the game at once"))
    _print_pairs(lines)


def _chest_dice(text: str, counts: np.ndarray, card, rules) -> np.ndarray:
    """The face counts of ``--chest``: only with a Treasure Island card, no skulls, and
    among the dice."""
    from solver.sabords.dice import format_dice, parse_dice

    if not card.protect:
        raise InputError(f"--chest means nothing with the {card.name} card: only Treasure "
                         "Island keeps dice on the chest")
    words = [t for t in text.replace(";", ",").replace(" ", ",").split(",") if t]
    size = len(words) if len(words) > 1 else len(text.strip())
    chest = np.array(parse_dice(text, rules, count=size))
    if chest[rules.face(rules.skull)]:
        raise InputError(f"--chest {format_dice(chest, rules)}: a skull cannot go on the chest")
    if np.any(chest > counts):
        raise InputError(f"--chest {format_dice(chest, rules)} is not among the dice "
                         f"{format_dice(counts, rules)}")
    return chest


def _print_pairs(pairs) -> None:
    _print_table(None, pairs, "ll")


def _print_table(headers, rows, align) -> None:
    from solver.text import table

    click.echo(table(headers, rows, align), nl=False)


@sabords.command()
@click.option("--card", default="none", show_default=True, help=CARD_HELP)
@click.option("--objective", default="points", show_default=True,
              help="points, margin, or reach:T (probability to score at least T).")
@click.option("--sorceress-used", is_flag=True, help="The Sorceress's skull reroll is spent.")
@click.option("--rerolled", is_flag=True,
              help="A reroll was already made this turn (matters for After the Storm).")
@click.option("--all", "show_all", is_flag=True, help="List every option, not the best ten.")
@click.option("--no-cache", is_flag=True, help="Recompute instead of using the solved tables.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_variants_option
@game_position_options
@click.argument("dice")
def hold(card, objective, sorceress_used, rerolled, show_all, no_cache, as_json, variants,
         me, opponent, sudden_death, scores, trigger, race, target, dice) -> None:
    """What to do with the dice showing: stop, or which dice to reroll; on an Island of
    Skulls roll, which dice are rolled and what each opponent loses. With the scoreboard
    (--me and --opponent, two players), the option that wins the game most often, each
    option's P(win), and whether maximising points would choose otherwise.

    \b
    Example:
      treasure sabords hold --card sorceress CCDMPSXX
      treasure sabords hold --card none --objective reach:1000 --json CCCDDMPX
      treasure sabords hold XXXXCCDM
      treasure sabords hold --card captain --me 5400 --opponent 5900 CCDMPSXX
      treasure sabords hold --card none --scores 200,100,0 --target 300 \\
          --variant score-floor-zero CCDMPSXX
    """
    from solver.sabords.answer_text import game_hold_text
    from solver.sabords.answers import game_table, hold_answer, whole_table
    from solver.sabords.objective import parse_objective

    source = click.get_current_context().get_parameter_source("objective")
    given = source is not None and source.name != "DEFAULT"
    with StatusLine() as status:
        advice = hold_answer(card, dice, game_table(use_cache=not no_cache),
                             objective=objective if given else None,
                             sorceress_used=sorceress_used, rerolled=rerolled, me=me,
                             opponent=opponent, sudden_death=sudden_death, target=target,
                             variants=variants, use_cache=not no_cache, progress=status,
                             scores=scores, trigger=trigger, race=race,
                             whole=whole_table(not no_cache))
    if as_json:
        click.echo(dumps_json(advice), nl=False)
        return
    if "me" in advice or "scores" in advice:
        game_hold_text(advice, show_all)
        return
    goal = parse_objective(advice["objective"])
    if advice.get("island"):
        from solver.sabords.turn.advice import island_text

        click.echo(island_text(advice))
        return
    from solver.text import distinguishing_digits

    best = advice["best"]
    verdict = "STOP" if best["action"] == "stop" else f"REROLL {best['reroll']}"
    if best.get("protect"):
        verdict += f", CHEST {best['protect']}"
    options = advice["options"] if show_all else advice["options"][:10]
    digits = distinguishing_digits([o["value"] for o in options], *goal.digits)
    click.echo(f"{advice['card']}, {advice['dice']}: {verdict}  (value "
               f"{advice['value']:.{digits}f}, objective {advice['objective']})")
    bust_digits = distinguishing_digits([o[k] for o in options for k in ("bust_next", "bust")],
                                        3, 6)
    chest = any("protect" in o for o in options)  # Treasure Island: dice kept safe
    rows = []
    for opt in options:
        rows.append([
            "stop" if opt["action"] == "stop" else "reroll " + opt["reroll"],
            opt.get("keep", ""),
            *([opt.get("protect") or "-"] if chest else []),
            f"{opt['value']:.{digits}f}",
            f"{opt['bust_next']:.{bust_digits}f}",
            f"{opt['bust']:.{bust_digits}f}",
        ])
    _print_table(["option", "keep", *(["on chest"] if chest else []), goal.label,
                  "P(bust next)", "P(bust in turn)"], rows, "ll" + "l" * chest + "rrr")
    if chest:
        click.echo("on chest: the dice to put on Treasure Island before rolling (they score "
                   "even if the turn busts)")
    if len(advice["options"]) > len(options):
        click.echo(f"({len(advice['options']) - len(options)} more options: --all)")


@sabords.command()
@click.option("--card", default="deck", show_default=True, help=CARD_HELP + ", or deck")
@click.option("--objective", default="points", show_default=True,
              help="points, margin, or reach:T.")
@click.option("--no-cache", is_flag=True, help="Recompute instead of using the solved tables.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_variants_option
def value(card, objective, no_cache, as_json, variants) -> None:
    """The value of a turn under optimal play, for one card or the deck.

    \b
    Example:
      treasure sabords value --card captain
      treasure sabords value --card deck --objective reach:1000 --json
    """
    from solver.sabords.objective import parse_objective
    from solver.sabords.turn.advice import card_values

    rules = _rules(variants)
    with StatusLine() as status:
        result = card_values(card, parse_objective(objective), rules, use_cache=not no_cache,
                             progress=status)
    if as_json:
        click.echo(dumps_json(result), nl=False)
        return
    card = result["card"]
    rows = [[c["card"], str(c["weight"]) if card == "deck" else "", f"{c['expected']:.3f}",
             f"{c['bust']:.4f}",
             f"{c['island']:.4f}", f"{c['chest']:.4f}"] for c in result["cards"]]
    if card == "deck":
        rows.append(["deck", str(sum(c["weight"] for c in result["cards"])),
                     f"{result['expected']:.3f}", f"{result['bust']:.4f}",
                     f"{result['island']:.4f}", f"{result['chest']:.4f}"])
    click.echo(f"objective {result['objective']}"
               + (f", variants {', '.join(result['variants'])}" if result["variants"] else ""))
    _print_table(["card", "count", "expected", "P(bust)", "P(island)", "P(chest)"], rows,
                 "lrrrrr")


@sabords.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def variants(as_json) -> None:
    """List the named readings of the rules (use with --variant NAME), each with the default
    reading (the rules as written, no --variant) it replaces.

    \b
    Example:
      treasure sabords variants
      treasure sabords hold --variant island-choose-dice XXXXCCDM
    """
    from solver.io import read_toml
    from solver.sabords.rules import RULES_FILE
    from solver.variants import readings_text, variant_readings

    readings = variant_readings(read_toml(RULES_FILE, "Mille Sabords rules file"))
    if as_json:
        click.echo(dumps_json(readings), nl=False)
        return
    click.echo(readings_text(readings), nl=False)


@sabords.command()
@click.option("--card", required=True, help="Fortune card (as in `treasure sabords hold`).")
@click.option("--objective", default="points", show_default=True,
              help="points, margin, or reach:T.")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"], case_sensitive=False),
              default="csv", show_default=True, help="CSV (one row per state) or JSON.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default=None,
              help="Write here (whole, atomically) instead of printing.")
@click.option("--no-cache", is_flag=True, help="Recompute instead of using the solved tables.")
@_variants_option
def policy(card, objective, fmt, out_file, no_cache, variants) -> None:
    """Export the whole optimal policy of a card and objective: every state with something to
    decide, its best action, value and bust probability.

    CSV columns: mode, dice, action, reroll, keep, protect, value, bust. JSON: the card,
    objective and variants, and "states", a list of objects with the same fields. States not
    listed are over (a bust, or the Island of Skulls on a first roll).

    \b
    Examples:
      treasure sabords policy --card captain > captain.csv
      treasure sabords policy --card sorceress --objective reach:1000 --format json --out s.json
    """
    from solver.sabords.objective import parse_objective
    from solver.sabords.rules import load_rules
    from solver.sabords.turn.advice import check_reachable
    from solver.sabords.turn.export import policy_rows, policy_text
    from solver.sabords.turn.solve import solve_turn

    if out_file:
        output_path(out_file, "policy file")
    rules = load_rules(variants)
    name = rules.card(card).name
    goal = parse_objective(objective)
    check_reachable(name, goal, rules)
    with StatusLine() as status:
        status(f"solving the {name} turn, objective {goal.name}")
        sol = solve_turn(name, goal, rules, not no_cache)
        status(f"listing the {name} turn's decisions")
        rows = policy_rows(sol)
    text = policy_text(rows, name, goal.name, rules.variants, fmt)
    if out_file:
        write_output(out_file, text, "policy file")
        click.echo(f"wrote {out_file} ({len(rows)} states)", err=True)
    else:
        click.echo(text, nl=False)


@sabords.command()
@game_position_options
@click.option("--card", default=None, help="The card just drawn (default: before the draw).")
@_variants_option
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
    and reading is cached for every later answer (`make bench` times it at 6000);
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
    from solver.sabords.answer_text import game_text
    from solver.sabords.answers import game_answer, game_table, whole_table

    result = game_answer(game_table(not no_cache), me=me, opponent=opponent,
                         sudden_death=sudden_death, target=target, card=card,
                         variants=variants, players=players, scores=scores, trigger=trigger,
                         race=race, whole=whole_table(not no_cache))
    if as_json:
        click.echo(dumps_json(result), nl=False)
        return
    game_text(result, card)


@sabords.command()
@review_options(plot_help="Also draw each player's P(win) through the game (expected points "
                          "in a record without a target) as a PNG.",
                cache_help="Solve the game table again instead of using the cached one.")
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
    from solver.sabords.answers import game_table, whole_table
    from solver.sabords.review.moves import review_answer
    from solver.sabords.review.plot import review_png  # imports matplotlib only when called
    from solver.sabords.review.text import review_text

    print_review(record_file, as_json, plot_file, show_all,
                 lambda text: review_answer(text, game_table(use_cache=not no_cache),
                                            record_file, whole_table(not no_cache)),
                 review_png, review_text)
