"""A card and objective's whole optimal policy as CSV or JSON (``treasure sabords policy``).

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

from solver.io import dumps_json

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


def policy_text(rows: list[dict], card: str, objective: str, variants, fmt: str) -> str:
    """The policy's rows as a CSV table (``fmt`` csv) or a JSON document (json)."""
    if fmt.lower() == "json":
        return dumps_json({"card": card, "objective": objective, "variants": list(variants),
                           "columns": COLUMNS, "states": rows})
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()
