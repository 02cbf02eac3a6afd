"""``treasure sabords policy``: a card and objective's whole optimal policy as CSV or JSON.

One row per state in which there is something to decide (the dice showing, and the mode:
Sorceress unused or used, rerolls made under After the Storm). Columns:

* ``mode``: ``-`` for most cards; ``sorceress-unused`` / ``sorceress-used``; ``rerolls-made-N``;
* ``dice``: the eight dice as letters in face order (C D M P S X);
* ``action``: ``stop`` or ``reroll``; ``reroll`` and ``keep``: the dice rerolled and kept;
* ``protect``: Treasure Island only, the kept dice to put on the card;
* ``value``: the state's value under the objective (expected points or margin, or the
  probability of reaching the target); ``bust``: the probability the turn ends in a bust.

States not listed are over: a bust, or (on a first roll) the Island of Skulls, which
``treasure sabords hold`` explains.
"""

from __future__ import annotations

import csv
import io

import click

from solver.util import StatusLine, dumps_json, output_path, write_output

COLUMNS = ["mode", "dice", "action", "reroll", "keep", "protect", "value", "bust"]


def mode_names(card, modes: int) -> list[str]:
    """What each mode of a card's turn means."""
    if card.skull_rerolls:
        return ["sorceress-unused", "sorceress-used"][:modes]
    if modes > 1:
        return [f"rerolls-made-{i}" for i in range(modes)]
    return ["-"]


def policy_rows(sol) -> list[dict]:
    """Every decision state of a solved turn with its optimal action."""
    from solver.engine import STOP
    from solver.sabords.dice import format_dice
    from solver.sabords.turn.advice import protect_choices, protect_text

    model = sol.model
    space, problem, rules = model.space, model.problem, model.rules
    names = mode_names(model.card, problem.modes)
    choices = protect_choices(sol) if model.card.protect else None
    rows = []
    for mode in range(problem.modes):
        for pos in range(len(space.full)):
            if not problem.live[mode, pos]:
                continue
            counts = space.counts[space.full[pos]].astype(int)
            action = int(sol.policy[mode, pos])
            row = {"mode": names[mode], "dice": format_dice(counts, rules)}
            if action == STOP:
                row.update(action="stop", reroll="", keep=row["dice"], protect="")
            else:
                keep = space.counts[problem.act_keep[action]].astype(int)
                row.update(action="reroll", reroll=format_dice(counts - keep, rules),
                           keep=format_dice(keep, rules),
                           protect=protect_text(sol, choices, keep) if model.card.protect else "")
            row.update(value=round(float(sol.value[mode, pos]), 10),
                       bust=round(float(sol.bust[mode, pos]), 10))
            rows.append(row)
    return rows


@click.command()
@click.option("--card", required=True, help="Fortune card (as in `treasure sabords hold`).")
@click.option("--objective", default="points", show_default=True,
              help="points, margin, or reach:T.")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"], case_sensitive=False),
              default="csv", show_default=True, help="CSV (one row per state) or JSON.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default=None,
              help="Write here (whole, atomically) instead of printing.")
@click.option("--no-cache", is_flag=True, help="Recompute instead of using the solved tables.")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="A named reading of the rules (repeatable); see `treasure sabords variants`.")
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
    if fmt.lower() == "json":
        text = dumps_json({"card": name, "objective": goal.name,
                           "variants": list(rules.variants), "columns": COLUMNS,
                           "states": rows})
    else:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        text = buffer.getvalue()
    if out_file:
        write_output(out_file, text, "policy file")
        click.echo(f"wrote {out_file} ({len(rows)} states)", err=True)
    else:
        click.echo(text, nl=False)
