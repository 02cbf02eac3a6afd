"""``make solve`` for Gold Armada: opening values, opening choices, requirement chances, the
board picture, all written into ``reports/armada/`` (deterministic)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from solver.armada.advice import target_names
from solver.armada.exact import requirement_chance
from solver.armada.game import Game, default_game
from solver.armada.picture import board_svg
from solver.armada.rules import load_rules, variant_names
from solver.armada.simulate import self_play
from solver.armada.tables import load_table
from solver.armada.turn import analyse
from solver.games import SolveRun
from solver.io import atomic_write_text, dumps_json
from solver.text import fmt_float, table

FILES = {
    "opening.md": "the opening position's value for each objective (one turn, solitaire, "
                  "two players), under each reading of the rules, with a self-play check",
    "opening.json": "the same numbers as JSON",
    "opening-choice.md": "which pier to take in the opening when the dice meet several",
    "opening-choice.json": "the same choices as JSON",
    "requirements.md": "exact chance of meeting each requirement within three rolls from "
                       "scratch, playing for it alone",
    "requirements.json": "the same chances as JSON (exact fractions)",
    "board.svg": "the (reconstructed) board: every doubloon with its value and chance, and the "
                 "chance the solitaire policy takes each pier on the first turn",
    "review/README.md": "an example two-player game reviewed move by move (`treasure armada "
                        "review`): its record, the review in words and as JSON",
}
SEED = 2017
GAMES = 4000


def _opening_value(game: Game, objective: str) -> float:
    levels, skulls = game.opening
    if objective == "turn":
        return analyse(game, levels, skulls, "turn", None).value
    table = load_table(game, objective, show_progress=False)
    return float(table[skulls, game.code(levels)])


def reading_lines() -> list[str]:
    """The opening report's list of readings: every variant of the rules file, described."""
    return [f"- `{k}`: {v}" for k, v in variant_names().items()]


def opening_report(base: Game) -> tuple[dict, str]:
    rows, data, spread = [], {}, {}
    # the readings no table reads (who wins, the round played out, ...) are measured by the
    # rules verifier (solver/armada/readings.py), not here
    names = ["default", *(n for n in variant_names() if not load_rules((n,)).measured_only())]
    tables = {obj: np.asarray(load_table(base, obj, show_progress=False))
              for obj in ("solo", "duel")}
    for name in names:
        game = base if name == "default" else Game(base.board, load_rules((name,)))
        vals = {obj: _opening_value(game, obj) for obj in ("turn", "solo", "duel")}
        data[name] = {k: round(v, 9) for k, v in vals.items()}
        spread[name] = {obj: float(np.max(np.abs(np.asarray(load_table(
            game, obj, show_progress=False)) - tables[obj]))) for obj in tables}
    ref = data["default"]
    for name in names:
        v = data[name]
        rows.append([name, fmt_float(v["turn"]), fmt_float(v["solo"]), fmt_float(v["duel"]),
                     f"{v['solo'] - ref['solo']:+.6f}", f"{v['duel'] - ref['duel']:+.6f}",
                     f"{spread[name]['solo']:.6f}", f"{spread[name]['duel']:.6f}"])
    same = spread["no-early-stop"]["solo"]
    checks = {}
    for obj in ("solo", "duel"):
        res = self_play(base, load_table(base, obj, show_progress=False), obj, GAMES, SEED)
        se = float(res.std(ddof=1) / np.sqrt(len(res)))
        checks[obj] = {"games": GAMES, "seed": SEED, "mean": round(float(res.mean()), 6),
                       "se": round(se, 6), "exact": ref[obj],
                       "z": round((float(res.mean()) - ref[obj]) / se, 3)}
    md = [
        "# Gold Armada: the opening position",
        "",
        f"{base.board.label}. {base.board.note}",
        "",
        "Values under optimal play from the opening `0000000000/0`: **turn** = expected token of "
        "the first turn (doubloon value, -1 for a skull); **solo** = expected final score of one "
        "player (doubloons minus skulls); **duel** = expected final margin of the first player "
        "over the second, two players alternating.",
        "",
        table(["reading", "turn", "solo", "duel", "solo vs default", "duel vs default",
               "solo: largest change", "duel: largest change"], rows, "lrrrrrrr",
              markdown=True),
        "The last two columns: the largest change of any state's value (all "
        f"{base.n_states} board states) against the default reading's tables.",
        "",
        "Readings (default: the reading each rule point in `models/armada/editions.toml` names):",
        "",
        *reading_lines(),
        "",
        f"Stopping before the third roll: the largest difference between the solitaire tables "
        f"with and without it, over all {base.n_states} states, is {same!r} (keeping all five "
        "dice is already a choice at every roll).",
        "",
        "Self-play check (seeded Monte Carlo of the optimal policy, default reading):",
        "",
        table(["objective", "games", "mean", "std. error", "exact", "z"],
              [[k, c["games"], fmt_float(c["mean"]), fmt_float(c["se"]), fmt_float(c["exact"]),
                f"{c['z']:+.2f}"] for k, c in checks.items()], "lrrrrr", markdown=True),
    ]
    payload = {"board": base.board.label, "values": data, "largest_change": spread,
               "stop_early_max_difference": same,
               "self_play": checks}
    return payload, "\n".join(md)


def choice_report(game: Game) -> tuple[dict, str]:
    levels, skulls = game.opening
    names = target_names(game)
    analyses = {}
    for obj in ("turn", "solo", "duel"):
        tab = None if obj == "turn" else load_table(game, obj, show_progress=False)
        analyses[obj] = analyse(game, levels, skulls, obj, tab)
    probs = game.horizon.full_prob
    groups: dict[tuple[str, ...], dict] = {}
    for row in range(len(game.space.full)):
        qual = tuple(names[i] for i in range(len(game.board.piers))
                     if game.qualify[i, levels[i], row])
        if len(qual) < 2:
            continue
        g = groups.setdefault(qual, {"qualifying": list(qual), "example": game.dice_text(
            game.full_counts[row]), "dice_sets": 0, "one_roll_chance": 0.0,
            **{obj: names[int(a.target[row])] for obj, a in analyses.items()}})
        g["dice_sets"] += 1
        g["one_roll_chance"] += float(probs[row])
    items = sorted(groups.values(), key=lambda g: (-g["one_roll_chance"], g["example"]))
    for g in items:
        g["one_roll_chance"] = round(g["one_roll_chance"], 9)
    rows = [[", ".join(g["qualifying"]), g["example"], g["dice_sets"],
             fmt_float(g["one_roll_chance"]), g["turn"], g["solo"], g["duel"]] for g in items]
    md = [
        "# Gold Armada: which pier to take in the opening",
        "",
        f"{game.board.label}.",
        "",
        "When the final dice of the first turn meet several piers, the player takes one. Each row "
        "is a set of qualifying piers; the choice depends only on that set (every pier's option "
        "is the same whatever dice qualify for it). `turn` takes the most valuable doubloon; "
        "`solo` and `duel` weigh what the rest of the game is worth afterwards.",
        "",
        table(["qualifying piers", "example", "dice sets", "P(one roll)", "turn", "solo",
               "duel"], rows, "llrrlll", markdown=True),
    ]
    return {"board": game.board.label, "state": "0000000000/0", "groups": items}, "\n".join(md)


def requirement_report(game: Game) -> tuple[dict, str, list[list[float]]]:
    rows, data, meet = [], [], []
    for i, pier in enumerate(game.board.piers):
        meet.append([])
        for d in range(pier.doubloons):
            p = requirement_chance(game, i, d)
            meet[-1].append(float(p))
            data.append({"pier": pier.name, "doubloon": d + 1, "value": pier.values[d],
                         "requirement": game.board.requirement(i, d),
                         "chance": f"{p.numerator}/{p.denominator}",
                         "decimal": round(float(p), 9)})
            rows.append([pier.name, d + 1, pier.values[d], game.board.requirement(i, d),
                         f"{float(p):.6f}", f"{p.numerator}/{p.denominator}"])
    md = [
        "# Gold Armada: chance of meeting each requirement within three rolls",
        "",
        f"{game.board.label}.",
        "",
        "From no dice, three rolls, keeping dice optimally to meet this one requirement "
        "(exact rational arithmetic; denominators divide 6^15).",
        "",
        table(["pier", "doubloon", "value", "requirement", "chance", "exact"], rows, "lrrlrr",
              markdown=True),
    ]
    return {"board": game.board.label, "requirements": data}, "\n".join(md), meet


def write_reports(run: SolveRun) -> None:
    """Write every Gold Armada report into ``run.reports_dir / 'armada'``."""
    out = Path(run.reports_dir) / "armada"
    game = default_game()
    req_json, req_md, meet = requirement_report(game)
    choice_json, choice_md = choice_report(game)
    opening_json, opening_md = opening_report(game)
    a = analyse(game, *game.opening, "solo", load_table(game, "solo", show_progress=False))
    take = a.start_reach().tolist()
    svg = board_svg(game, game.opening[0], meet, take, "Gold Armada: the opening position")
    files = {
        "opening.md": opening_md, "opening.json": dumps_json(opening_json),
        "opening-choice.md": choice_md, "opening-choice.json": dumps_json(choice_json),
        "requirements.md": req_md, "requirements.json": dumps_json(req_json),
        "board.svg": svg,
    }
    for name, text in files.items():
        atomic_write_text(out / name, text if text.endswith("\n") else text + "\n")
    from solver.armada.review_report import write_review_example

    write_review_example(out)
    readme = [
        "# Gold Armada reports",
        "",
        f"Generated by `make solve` ({game.board.label}). Every value is exact optimal play: "
        "whole-game tables over all "
        f"{game.n_states} board states, solved backward through the tokens taken.",
        "",
        *(f"- [{name}]({name}): {text}" for name, text in FILES.items()),
        "",
    ]
    atomic_write_text(out / "README.md", "\n".join(readme))
