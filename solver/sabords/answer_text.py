"""The answers of :mod:`solver.sabords.answers` for people: the text ``treasure sabords game``
and ``treasure sabords hold`` with the scoreboard print for the JSON documents they build."""

from __future__ import annotations

from textwrap import indent

import click

from solver.text import distinguishing_digits, table


def game_text(result: dict, card: str | None) -> None:
    """``game`` for people: the headline, or a position's P(win) (everyone's at the table)."""
    if "seat_wins" in result:
        headline_text(result)
        return
    if "wins" in result and result["players"] > 2:
        when = f"with {card} drawn" if card else "before the card"
        click.echo(f"scores {','.join(map(str, result['scores']))} ({result['phase']}, target "
                   f"{result['target']}), {when}: P(win) {result['win']:.6f}")
        click.echo("everyone, in the order given: "
                   + "  ".join(f"{w:.6f}" for w in result["wins"]))
        if not result["exact"]:
            click.echo(rule_note(result))
        elif not result.get("settled", True):
            click.echo(unsettled_note(result["regret"]))
        return
    me, opponent, phase = result["me"], result["opponent"], result["phase"]
    when = f"with {card} drawn" if card else "before the card"
    click.echo(f"me {me}, opponent {opponent} ({phase}, target {result['target']}), {when}: "
               f"P(win) {result['win']:.6f}")




def headline_text(head: dict) -> None:
    """The headline for people: each seat's P(win), optimal and points play."""
    click.echo(f"{head['players']} players, target {head['target']}"
               + (f", variants {', '.join(head['variants'])}" if head["variants"] else ""))
    if head["players"] == 2:
        rows = [("first player wins, optimal play", head["first_player_wins"]),
                ("first player wins, both play for points",
                 head["points_play"]["first_player_wins"]),
                ("optimal beats points play, both seats", 0.5 + head["gain"])]
        pairs = [(label, f"{value:.6f}") for label, value in rows]
        click.echo(indent(table(None, pairs, "ll", widths=(41,)), "  "), nl=False)
        return
    rows = [[f"seat {i + 1}", f"{opt:.6f}", f"{pts:.6f}"] for i, (opt, pts) in
            enumerate(zip(head["seat_wins"], head["points_play"]["seat_wins"], strict=True))]
    first = "optimal play" if head["exact"] else f"rule {head['rule']}"
    click.echo(table(["seat", first, "points play"], rows, "lrr"), nl=False)
    if head["exact"] and head["settled"]:
        click.echo(f"exact: largest regret {head['regret']:.1e} over "
                   f"{head['solve']['states']:,} states")
    elif head["exact"]:
        click.echo(unsettled_note(head["regret"]) + f" ({head['solve']['states']:,} states)")
    else:
        click.echo(rule_note(head))


def unsettled_note(regret: float) -> str:
    """What an answer of a table whose settling did not converge is: its best round's play."""
    return (f"not settled: the best settling round's play, largest regret {regret:.1e} (no "
            "player gains more than that by playing one turn otherwise)")


def rule_note(answer: dict) -> str:
    """What an answer of the rule is (four or five players, or three past the exact tables):
    the rule's simulated games, not exact."""
    errors = max(answer["standard_errors"])
    return (f"not exact: every seat plays the rule '{answer['rule']}' ({answer['rule_title']}); "
            f"{answer['games']:,} simulated games (seed {answer['seed']}), standard error at "
            f"most {errors:.4f}; its measured cost: reports/sabords/game.md" + _why(answer))


def _why(answer: dict) -> str:
    """Why three players are answered by the rule (their exact table is past this version)."""
    return f"\nwhy not exact: {answer['beyond_exact']}" if "beyond_exact" in answer else ""


def game_hold_text(advice: dict, show_all: bool) -> None:
    """``hold`` with the scoreboard, for people: each option's P(win), best first."""
    if "scores" in advice:
        where = f"scores {','.join(map(str, advice['scores']))}"
    else:
        where = f"me {advice['me']} against {advice['opponent']}"
    if not advice.get("settled", True):
        click.echo(unsettled_note(advice["regret"]))
    if not advice.get("exact", True):
        click.echo(f"not exact: the rule '{advice['rule']}' ({advice['rule_title']}) at "
                   f"{advice['rule_position']['me']} against {advice['rule_position']['leader']}"
                   f" ({advice['rule_position']['phase']}); its measured cost: "
                   "reports/sabords/game.md" + _why(advice))
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
    rows = [["stop" if o["action"] == "stop" else "reroll " + o["reroll"], o["keep"],
             f"{o['value']:.{digits}f}"] for o in options]
    dice = len(advice["dice"])  # the keep column as wide as the roll, whichever options show
    click.echo(table(["option", "keep", "P(win)"], rows, "lll", widths=(0, dice)), nl=False)
    if len(advice["options"]) > len(options):
        click.echo(f"({len(advice['options']) - len(options)} more options: --all)")
