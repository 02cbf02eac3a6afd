"""The whole table, as far as it is solved: ``reports/sabords/table.json`` (the data), the
section of ``reports/sabords/game.md`` on two to five players (:func:`table_section`, which
:func:`solver.sabords.game.report.write_game_reports` places) and ``table-slice.png``.

What ``make solve`` writes here: each seat's P(win) for two to five players (two players exact
at the headline's target; three players exact on the table small enough to solve today, eight
dice, target 300, scores floored at zero, certified by its regret; four and five players by the
rule, simulated at the headline's target), the rule measured against the exact three-player
equilibrium in every seat and against points players at four and five, where three-player
play departs from points play and from the rule (:mod:`.departures`), the game-level readings
at three players and play-on at three to five (:mod:`.readings`), and a picture of a
three-player slice, and how far apart the equilibria found from different starts and tie
rules are (:mod:`.spread`), on the exact table and each row of the lowest-score trade-off.
The three-player table ships in ``proofs/sabords/`` so that ``make check``
re-verifies its regret.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

from solver.io import atomic_write_text, dumps_json
from solver.sabords.game.solved import load_game, with_play
from solver.sabords.game.table.departures import CHANGED, departures
from solver.sabords.game.table.equilibrium import TableSolver
from solver.sabords.game.table.proof import PROOF, proof_text
from solver.sabords.game.table.readings import PLAY_ON, play_on, three_player_readings
from solver.sabords.game.table.rule import (
    RULE,
    RULE_TITLE,
    against_exact,
    at_table,
    exact_against_points,
)
from solver.sabords.game.table.solution import TableSolution
from solver.sabords.game.table.spread import table_spread
from solver.sabords.game.table.states import NORMAL, Layout, TableSpec
from solver.sabords.game.two_player import GameSpec, GameTable
from solver.sabords.rules import load_rules
from solver.sabords.turn.lanes import UNIT
from solver.text import markdown_lines

SMALL_TARGET, SMALL_VARIANTS = 300, ("score-floor-zero",)  # pure (make bench: its states)
RULE_GAMES, RULE_SEED = 120_000, 2026  # standard error below 0.002 a seat and a gain
LOWEST = (-100, -200, -300, -1000, -2000, -3000, -5500)  # the trade-off's (small target)
SPREAD_FROM = -300  # trade-off rows this deep or less solved again for their spread (six
# more solves of each deeper table would add hours to `make solve`: -5500 takes 51 min alone)
# the three-player table at the game's target measured exactly too, once its solve is short
# enough for `make solve` (at 6000, floor 0: 2,682,960 states; the default reading, scores
# below zero, has 24.3 million, beyond a solve on request); its settling does not converge yet
AT_TARGET, AT_TARGET_VARIANTS = 6000, ("score-floor-zero",)
SPREAD_ANSWER = ("equilibria", "opening", "anywhere", "regret", "ties")  # in the answers


def _log(text: str) -> None:
    print(f"  [table] {text}", file=sys.stderr, flush=True)


def small_spec(players: int = 3) -> TableSpec:
    """The small table the report solves exactly (and `make bench` times)."""
    return TableSpec.of(load_rules(SMALL_VARIANTS), players, SMALL_TARGET)


def at_target_spec() -> TableSpec:
    """The three-player table to measure exactly at the game's target (:data:`AT_TARGET`)."""
    return TableSpec.of(load_rules(AT_TARGET_VARIANTS), 3, AT_TARGET, 0)


def write_table_report(out: Path, proofs: Path, headline: GameTable,
                       small: TableSpec | None = None, games: int = RULE_GAMES,
                       at_target: TableSpec | None = None,
                       lows: tuple[int, ...] = LOWEST) -> dict:
    """Solve and write everything; ``headline``: the two-player table at the headline's
    target, with its play; ``small``: the three-player table solved exactly (default
    :func:`small_spec`; the tests pass a smaller one); ``games`` per simulated line;
    ``at_target``: a larger three-player table measured exactly too (:func:`at_target_spec`:
    ``make solve`` passes it, about an hour; :func:`measure_exactly`); ``lows``: the lowest
    scores of the trade-off (:func:`lowest_score_tradeoff`). Writes
    ``table.json``, ``table-slice.png`` and the proof; returns the summary (``table.json``'s
    content, which :func:`table_section` turns into the report's section)."""
    small = small_spec() if small is None else small
    _log(f"three players, target {small.game.target}, {', '.join(small.rules.variants)}")
    solver = TableSolver(small, progress=True)
    solution = solver.solve()
    two = with_play(load_game(GameSpec(small.rules, small.game.target, small.game.low)))
    _log("the rule against the exact equilibrium")
    versus = against_exact(solver, solution, two)
    gain = exact_against_points(solver, solution)
    _log("the equilibria from other starts and tie rules")
    apart = table_spread(small, two, given=solution, progress=True)
    solution.stats["spread"] = {k: apart[k] for k in SPREAD_ANSWER}  # shipped, answered
    tables = {}
    for players in (3, 4, 5):
        _log(f"the rule at {players} players, target {headline.spec.target}")
        tables[str(players)] = at_table(headline, players, games, RULE_SEED + players)
    readings = three_player_readings(small, solution)
    lowest = lowest_score_tradeoff(small, lows)
    _log("where three-player play departs from points play and the rule")
    departs = departures(solution, two)
    disputes = {}
    for players in (3, 4, 5):
        _log(f"{PLAY_ON} at {players} players, target {headline.spec.target}")
        disputes[str(players)] = play_on(headline.spec.rules, players, games,
                                         RULE_SEED + 10 + players)
    exact_at_target = {}
    if at_target is not None:
        _log(f"three players, target {at_target.game.target}, "
             f"{', '.join(at_target.rules.variants)}: the rule against the exact table")
        exact_at_target = {"three_players_at_target": measure_exactly(at_target)}
    summary = {
        "two_players": {"target": headline.spec.target, "exact": True,
                        "seat_wins": headline.headline()["seat_wins"],
                        "points_play": headline.headline()["points_play"]["seat_wins"],
                        "gain": headline.headline()["gain"]},
        "three_players_exact": {**_exact_summary(solution, two), "gain": gain,
                                "spread": apart},
        "three_player_readings": readings,
        "departures": departs,
        "lowest_score": lowest,
        "lowest_score_projection": lowest_projection(lowest, small),
        "play_on": disputes,
        "verifier_readings": {PLAY_ON: _play_on_entry(disputes["3"])},
        "rule": {"name": RULE, "title": RULE_TITLE, "against_exact": versus,
                 "at_table": tables},
        **exact_at_target,
    }
    _slice_picture(solution, out / "table-slice.png")
    atomic_write_text(out / "table.json", dumps_json(summary))
    (proofs / "sabords").mkdir(parents=True, exist_ok=True)
    atomic_write_text(proofs / "sabords" / PROOF.format(target=small.game.target),
                      proof_text(solution))
    return summary


def measure_exactly(spec: TableSpec) -> dict:
    """The exact table for ``spec`` (from the cache, else solved and cached): the summary the
    small table gets (:func:`_exact_summary`, with its gain over points players), the rounds
    of settling, and the rule against it in every seat."""
    from solver.sabords.game.table.positions import load_table

    solution = load_table(spec, progress=True)
    solver = TableSolver(spec)
    two = with_play(load_game(GameSpec(spec.rules, spec.game.target, spec.game.low)))
    return {**_exact_summary(solution, two), "settle_rounds": solution.stats["settle_rounds"],
            "gain": exact_against_points(solver, solution),
            "rule_against_exact": against_exact(solver, solution, two)}


def tradeoff_spec(small: TableSpec, low: int) -> TableSpec:
    """The small table with scores allowed below zero, kept down to ``low`` (a trade-off row)."""
    rules = load_rules(tuple(v for v in small.rules.variants if v != "score-floor-zero"))
    return TableSpec.of(rules.with_dice(small.rules.dice), small.players, small.game.target, low)


def lowest_score_tradeoff(small: TableSpec, lows=LOWEST) -> list[dict]:
    """The three-player table at the small target with scores allowed below zero, kept down to
    each of ``lows``: the bound on the chance that the lowest score matters
    (:func:`~solver.sabords.game.table.bounds.hit_probability`) and the solve's size (its time is
    ``make bench``'s: a report stays byte-identical); down to :data:`SPREAD_FROM`, the spread of
    its equilibria too."""
    from solver.sabords.game.table.bounds import hit_probability

    rows = []
    for low in lows:
        _log(f"three players, target {small.game.target}, lowest score {low}")
        spec = tradeoff_spec(small, low)
        solver = TableSolver(spec)
        solved = solver.solve()
        bound = hit_probability(solved, solver)
        rows.append({"lowest_score": low, "states": solved.stats["states"],
                     "steps": solved.stats["steps"], "regret": solved.stats["regret"],
                     "from_zero": bound["from_zero"], "opening": bound["opening"],
                     "mixed": solved.stats["mixed"], "seat_wins": solved.seat_values().tolist()})
        if low >= SPREAD_FROM:
            two = with_play(load_game(GameSpec(spec.rules, spec.game.target, spec.game.low)))
            rows[-1]["spread"] = table_spread(spec, two, given=solved, progress=True)
    return rows


def _play_on_entry(measured: dict) -> dict:
    """The verifier's line for play-on (reports/rules, through solver.sabords.verifier): the
    share of three-player games whose result the reading changes."""
    return {"first_player_wins": measured["changed"], "delta": measured["changed"],
            "decisions_changed": None, "decisions_total": None,
            "unit": f"share of {measured['players']}-player games whose result changes "
                    f"(points play, target {measured['target']}, {measured['games']:,} "
                    f"simulated games, standard error {measured['changed_error']:.1e})"}


def _exact_summary(solution: TableSolution, two: GameTable) -> dict:
    stats = solution.stats
    layout = solution.layout
    zero = [0] * layout.players
    return {
        "target": layout.spec.game.target, "variants": list(layout.spec.rules.variants),
        "dice": layout.spec.rules.dice,
        "states": stats["states"], "steps": stats["steps"], "regret": stats["regret"],
        "converged": stats["converged"], "regret_elsewhere": stats["regret_elsewhere"],
        "cycling": stats["cycling"], "mixed": stats["mixed"],
        "seat_wins": solution.wins(NORMAL, zero).tolist(),
        "points_play": stats["points_play"],
        "two_player_same_game": two.first_player_wins,
    }


def _slice_picture(solution: TableSolution, path: Path) -> None:
    """My P(win) before my card over the two opponents' scores, at each of my scores."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    layout = solution.layout
    span = range(layout.low, layout.top)
    every = [solution.wins(NORMAL, [me, a, b])[0] for me in span for a in span for b in span]
    low, high = min(every), max(every)
    fig, axes = plt.subplots(1, len(span), figsize=(3 * len(span), 3.2), sharey=True)
    for ax, me in zip(np.atleast_1d(axes), span, strict=True):
        grid = np.array([[solution.wins(NORMAL, [me, a, b])[0] for b in span] for a in span])
        image = ax.imshow(grid, origin="lower", vmin=low, vmax=high, cmap="viridis",
                          extent=(-50, 100 * len(span) - 50, -50, 100 * len(span) - 50))
        for i in range(len(span)):
            for j in range(len(span)):
                ax.text(100 * j, 100 * i, f"{grid[i, j]:.3f}", ha="center", va="center",
                        color="white" if grid[i, j] < (low + high) / 2 else "black")
        ax.set_title(f"me at {me * 100}")
        ax.set_xlabel("the player after the next")
    np.atleast_1d(axes)[0].set_ylabel("the next player")
    fig.colorbar(image, ax=axes, label="my P(win), before my card")
    fig.suptitle(f"Three players, target {layout.top * 100}, scores floored at 0 (exact)")
    fig.savefig(path, dpi=80, metadata={"Software": None})
    plt.close(fig)


def table_section(s: dict) -> str:
    """The section of ``game.md`` on two to five players, from :func:`write_table_report`'s
    summary."""
    ex = s["three_players_exact"]
    rule = s["rule"]
    two = s["two_players"]
    at = s.get("three_players_at_target")
    lines = [
        "## The whole table: two to five players",
        "",
        "Written by `make solve` from `solver/sabords/game/table/` (the data: "
        "[table.json](table.json)). Each player maximises their own P(win) + shares of ties; "
        "with three or more players the answer is a fixed point of best responses, certified "
        "by its regret (the most a mover could gain by playing one turn otherwise).",
        "",
        "**What is exact, and where.** Two players: exact at every target above. Three "
        f"players: exact only on a small table so far, {ex['dice']} dice, target {ex['target']}, "
        f"scores floored at zero ({ex['states']:,} states), and on the same table with "
        "scores allowed below zero down to each lowest score of the trade-off below"
        + (f"; and at {at['target']} with scores floored at zero ({at['states']:,} states, "
           + ("below" if at["converged"] else
              f"solved but not settled: its play is an equilibrium to a regret of "
              f"{at['regret']:.1e}, below")
           + f"). The default three-player table at {two['target']} (scores below zero) "
           "is not solved yet." if at else
           f"; the three-player table at {two['target']} is not solved yet.")
        + f" Four and five players, and three at {two['target']}: the rule `{rule['name']}` "
        f"({rule['title']}), measured by seeded simulation, never an exact value.",
        "",
        "### Each seat's P(win) from the opening",
        "",
    ]
    seat_rows = [[2, two["target"], "exact", _seats(two["seat_wins"]),
                  _seats(two["points_play"])]]
    seat_rows += [[3, f"{t['target']} (floor 0)", f"{_how(t)}, regret {t['regret']:.1e}",
                   _seats(t["seat_wins"]), _seats(t["points_play"])] for t in (ex, at) if t]
    seat_rows += [[players, two["target"],
                   f"rule `{rule['name']}`, {t['games']:,} simulated games",
                   _seats(t["everyone_rule"]["seat_wins"]), _seats(t["points_play"]["seat_wins"])]
                  for players, t in sorted(rule["at_table"].items())]
    lines += markdown_lines(["players", "target", "how", "optimal (or rule)", "points play"],
                            seat_rows, "rrlll")
    lines += [
        "",
        f"The exact three-player table: {ex['steps']} policy-iteration steps at most in a "
        f"stage (`make bench` times it). Largest regret {ex['regret']:.2e}: "
        + (_settled(ex["mixed"]) if ex["converged"] else
           f"not settled; {len(ex['cycling'])} states kept changing their best turn "
           f"(regret elsewhere {ex['regret_elsewhere']:.2e}): "
           + ", ".join(f"{c['phase']} {','.join(map(str, c['scores']))}"
                       for c in ex["cycling"])),
    ]
    lines += _gain_lines(s)
    lines += _at_target_lines(at, rule) if at else []
    lines += _spread_lines(s)
    lines += _departures_lines(s, ex["target"])
    lines += _lowest_lines(s, ex["target"])
    lines += [
        "",
        f"### The game-level readings at three players (exact, target {ex['target']}, floor 0)",
        "",
        "Each reading solved as its own table, to the same certificate; the change is from "
        "the default's seats above.",
        "",
    ]
    lines += markdown_lines(
        ["reading", "states", "seats' P(win)", "change", "regret"],
        [[f"`{name}`", f"{r['states']:,}", _seats(r["seat_wins"]),
          " / ".join(f"{d:+.4f}" for d in r["delta"]),
          f"{r['regret']:.1e}" + ("" if r["converged"] else " (not settled)")]
         for name, r in s.get("three_player_readings", {}).items()], "lrllr")
    lines += [
        "",
        f"### `{PLAY_ON}`: when the trigger player drops while another is above the target",
        "",
        "The table's states cannot hold it (a player above the target in the race), so it is "
        "measured by seeded simulation of points players at the headline's target: a game "
        "reaches a *disputed* position when the last round ends with the trigger player "
        "below the target and another player at or above it; by default the highest wins "
        "there, under this reading play goes on. Each disputed game is played on once "
        "(solver/sabords/game/table/readings.py); *changed* is the share of all games whose "
        "result moves (1 for another winner, a part for a tie's shares).",
        "",
    ]
    lines += markdown_lines(
        ["players", "games", "disputed (± se)", "changed (± se)"],
        [[players, f"{m['games']:,}", f"{m['disputed']:.5f} ± {m['disputed_error']:.5f}",
          f"{m['changed']:.5f} ± {m['changed_error']:.5f}"]
         for players, m in sorted(s.get("play_on", {}).items())], "rrrr")
    lines += [
        "",
        f"### A three-player slice (exact, target {ex['target']}, floor 0)",
        "",
        "My P(win) before my card, by the next player's score (rows) and the score of the "
        "player after them (columns), one panel for each of my scores.",
        "",
        "![my P(win) over the other two scores](table-slice.png)",
        "",
        f"### The rule for four and five players: `{rule['name']}`",
        "",
        f"Play each turn as {rule['title']}: in normal play against the highest other score,",
        "in the final round against the score to beat, in the race against the leader.",
        "",
        f"Against the exact three-player equilibrium (target {ex['target']}, floor 0), exactly: "
        "the rule in one seat, the equilibrium in the others.",
        "",
    ]
    lines += markdown_lines(
        ["seat", "equilibrium", "rule", "cost"],
        [[seat["seat"], f"{seat['exact']:.6f}", f"{seat['rule']:.6f}", f"{seat['cost']:.6f}"]
         for seat in rule["against_exact"]["seats"]], "rrrr")
    lines += ["", f"At the table (target {two['target']}), by seeded simulation: the rule in "
              "one seat against points players, against the points player of that seat.", ""]
    lines += markdown_lines(
        ["players", "seat", "rule", "points", "gain (± se)"],
        [[players, seat["seat"], f"{seat['rule']:.4f}", f"{seat['points']:.4f}",
          f"{seat['gain']:+.4f} ± {seat['gain_error']:.4f}"]
         for players, t in sorted(rule["at_table"].items())
         for seat in t["rule_against_points"]], "rrrrr")
    lines.append("")
    return "\n".join(lines)


def _at_target_lines(at: dict, rule: dict) -> list[str]:
    """The three-player table at the game's target, scores floored at zero: its certificate,
    the rule against it in every seat and it against points players."""
    lines = [
        "", f"### Three players at {at['target']}, scores floored at zero ({_how(at)})", "",
        f"{at['states']:,} states ({at['dice']} dice, {', '.join(at['variants'])}): "
        f"{at['steps']} policy-iteration steps at most in a stage, "
        f"{len(at['cycling'])} states cycling, {at['settle_rounds']} rounds of settling; largest "
        f"regret {at['regret']:.2e}"
        + (": " + _settled(at["mixed"]) if at["converged"] else
           f", not settled: the play is the settling round's with the lowest regret, in which "
           f"{len(at['mixed'])} states mix two or more turns (their scores and weights are in "
           "table.json) and every other state plays pure; each mover gains at most that "
           "regret by changing one turn.")
        + f" Two players at the same target and floor: the first player wins "
          f"{at['two_player_same_game']:.4f}.",
        "",
        f"The rule `{rule['name']}` in one seat, the equilibrium in the others, exactly; and the "
        "equilibrium's play in one seat against points players in the others.",
        "",
    ]
    versus, gain = at["rule_against_exact"]["seats"], at["gain"]["seats"]
    lines += markdown_lines(
        ["seat", "equilibrium", "rule", "cost", "against points players", "points",
         "gain"],
        [[v["seat"], f"{v['exact']:.6f}", f"{v['rule']:.6f}", f"{v['cost']:.6f}",
          f"{g['exact']:.6f}", f"{g['points']:.6f}", f"{g['gain']:+.6f}"]
         for v, g in zip(versus, gain, strict=True)], "rrrrrrr")
    return lines


def _how(table: dict) -> str:
    """How a three-player table's figures were found: exact when its settling converged;
    else its best settling round's play (:mod:`.settle`), named as not settled."""
    return "exact" if table["converged"] else "not settled"


def _gain_lines(s: dict) -> list[str]:
    """The gain from reading the scoreboard, by the number of players."""
    ex, two, rule = s["three_players_exact"], s["two_players"], s["rule"]
    lines = [
        "", "### The gain from reading the scoreboard, by player count", "",
        "A player who reads the scoreboard in one seat, the others maximising each turn's "
        "points, against a points player in that seat: the P(win) gained, averaged over the "
        "seats (two players: the headline's gain).", "",
    ]
    rows: list[list[object]] = [[2, two["target"], "optimal", "exact", "-",
                                 f"{two['gain']:+.4f}"]]
    for t in (ex, s.get("three_players_at_target")):
        if t and "gain" in t:
            g = t["gain"]
            rows.append([3, f"{t['target']} (floor 0)", "the equilibrium's play", _how(t),
                         " / ".join(f"{x['gain']:+.4f}" for x in g["seats"]),
                         f"{g['gain']:+.4f}"])
    for players, t in sorted(rule["at_table"].items()):
        seats = t["rule_against_points"]
        error = float(np.sqrt(sum(x["gain_error"] ** 2 for x in seats))) / len(seats)
        rows.append([players, two["target"], f"rule `{rule['name']}`",
                     f"{t['games']:,} simulated games a line",
                     " / ".join(f"{x['gain']:+.4f}" for x in seats),
                     f"{np.mean([x['gain'] for x in seats]):+.4f} ± {error:.4f}"])
    return lines + markdown_lines(["players", "target", "the player who reads the scoreboard",
                                   "how", "gain by seat", "average"], rows, "rrlllr")


def _spread_lines(s: dict) -> list[str]:
    """How far apart the equilibria found are, on the exact table and the trade-off's rows."""
    ex = s["three_players_exact"]
    if "spread" not in ex:
        return []
    tables = [(f"floor 0 ({ex['states']:,} states)", ex["spread"])]
    tables += [(f"lowest {r['lowest_score']} ({r['states']:,} states)", r["spread"])
               for r in s.get("lowest_score", []) if "spread" in r]
    runs = ex["spread"]["runs"]
    lines = [
        "", f"### How far apart the equilibria are (exact, target {ex['target']})", "",
        "An equilibrium with three players need not be unique, so each table is solved "
        f"{len(runs)} times, from legitimately different selections "
        "(solver/sabords/game/table/spread.py): policy iteration from points play and from "
        "the rule's play (the two-player table against the leader), each with the engine's "
        "tie order (stop before reroll, then the larger keep) and with the mover's exact ties "
        "given to the player after the mover (`next`) or before (`previous`). Equilibria are "
        "the same when no state's outcome distribution differs by more than 1e-9; each "
        "distinct one's regret is recomputed from scratch, and one with the same play is "
        "certified through it (its regret at most that plus twice the largest difference of "
        "values). The mixing step's candidate order is not varied: its path starts from "
        "equal weights and treats a state's candidates alike.", "",
    ]
    counted = all("ties" in sp for _, sp in tables)  # not in a table.json older than ties.py
    if counted:
        lines += [
            "*Ties that matter* counts the turns (a state and a card of the deck) of the "
            "report's equilibrium at which the mover's own best value ties to within "
            f"{ex['spread']['ties']['tolerance']:.0e} between two turns that are worth "
            "different amounts, by more than 1e-4, to another player "
            "(solver/sabords/game/table/ties.py: found as the tie rules break ties, the turn "
            "solved again with 1e-10 of that player's value added and taken away). A mixed "
            "state's turns count. There the tie rule decides what the others get.", "",
        ]
    lines += markdown_lines(
        ["table", "runs", "distinct equilibria (by play)", "largest regret",
         "largest seat difference at the opening", "largest difference anywhere"]
        + (["ties that matter (turns)"] if counted else []),
        [[label, len(sp["runs"]), sp["equilibria"], f"{sp['regret']:.1e}",
          " / ".join(f"{x:.1e}" for x in sp["opening"]),
          f"{sp['anywhere']:.1e} ({sp['where']['phase']} "
          f"{','.join(map(str, sp['where']['scores']))}, player {sp['where']['player']})"]
         + ([f"{sp['ties']['turns']:,} of {sp['ties']['of']:,}"] if counted else [])
         for label, sp in tables], "lrrrlr" + ("r" if counted else ""))
    for label, sp in tables:
        if sp["equilibria"] > 1:
            runs = sp["runs"]
            lines += ["", f"On the table with {label}: {sp['equilibria']} equilibria by play. "
                      "Each run's equilibrium ("
                      + ", ".join(f"{r['start']}/{r['tie']} {r['equilibrium']}" for r in runs)
                      + ") and its states that mix two or more turns ("
                      + ", ".join(str(r["mixed"]) for r in runs)
                      + (") and its ties that matter ("
                         + ", ".join(f"{r['ties']:,}" for r in runs) if counted else "")
                      + f"): they differ in how a few states mix, and their values are at most "
                      f"{sp['anywhere']:.1e} apart anywhere, "
                      f"{max(sp['opening']):.1e} at the opening."]
    if all(sp["equilibria"] == 1 for _, sp in tables):
        lines += ["", "Every start and every tie rule found the same play on every table: the "
                  "differences are rounding, and the tie rules changed no state's turn."]
    return lines


def _lowest_lines(s: dict, target: int) -> list[str]:
    """The lowest-score trade-off at three players."""
    rows = s.get("lowest_score")
    if not rows:
        return []
    lines = [
        "", f"### The lowest score at three players (exact, target {target}, scores may go "
        "negative)", "",
        "Scores below the lowest kept are raised to it; until a turn would take a score below "
        "it the truncated game is the real one, so the chance of that under the table's play "
        "bounds the error (solver/sabords/game/table/bounds.py, the two-player proof generalised: "
        "an upper bound from every position with all scores at least 0). Sea battles' "
        "penalties take a mover's score far below zero at once, so the bound falls slowly. "
        "The solve's time grows with its states (`make bench` times the floored table: "
        f"{Layout(small_spec()).states:,} states).", "",
    ]
    cells = []
    for r in rows:
        settled = (" (not settled: best responses cycle)" if r["regret"] > 1e-12 else
                   f" (mixed at {_mixed(r['mixed'])})" if r.get("mixed") else "")
        cells.append([r["lowest_score"], f"{r['states']:,}", r["steps"],
                      f"{r['regret']:.1e}{settled}", f"{r['from_zero']:.3e}",
                      _seats(r["seat_wins"])])
    lines += markdown_lines(["lowest score", "states", "steps (largest stage)", "regret",
                             "bound from scores >= 0", "seats' P(win)"], cells, "rrrrrl")
    if min(r["from_zero"] for r in rows) > 1e-6:
        lines += ["", "No row's bound is below 1e-6 (the goal of issue 35): with scores allowed "
                  "below zero the three-player game is not solved exactly by any of these "
                  "tables; the exact three-player table above is the `score-floor-zero` "
                  "reading's, whose lowest score is the rules' own."]
        p = s.get("lowest_score_projection")
        if p:
            lines[-1] += (f" From {p['from']} to {p['to']} the bound falls by a factor of "
                          f"{p['factor_per_1000']:.1f} a 1000 points; at that rate it would "
                          f"reach 1e-6 near a lowest score of {p['lowest_score']}, a table of "
                          f"{p['states']:,} states.")
    reached = [r for r in rows if r["from_zero"] < 1e-6]
    if reached:
        r = reached[0]
        lines += ["", f"The first lowest score whose bound is below 1e-6 (the goal of issue 35) "
                  f"is {r['lowest_score']}: from every position with all scores at least 0, that "
                  f"table's values are within {r['from_zero']:.1e} of its play's in the game "
                  "with scores unbounded below" + (
                      f"; its play is not settled (best responses cycle), an equilibrium to a "
                      f"regret of {r['regret']:.1e}." if r["regret"] > 1e-12 else ".")]
    return lines


def lowest_projection(rows: list[dict], small: TableSpec) -> dict | None:
    """Where the last two trade-off rows' fall of the bound, kept up, would reach 1e-6 (a
    straight line through the bound's logarithm: an estimate, not a bound), and the size of the
    small target's table down to there; None when a row is below 1e-6 already."""
    (low_a, a), (low_b, b) = ((r["lowest_score"], r["from_zero"]) for r in rows[-2:])
    if not 1e-6 < b < a:
        return None
    per_unit = (math.log(a) - math.log(b)) / ((low_a - low_b) // UNIT)  # a 100 points
    low = low_b - UNIT * math.ceil((math.log(b) - math.log(1e-6)) / per_unit - 1e-9)
    return {"from": low_a, "to": low_b, "factor_per_1000": math.exp(10 * per_unit),
            "lowest_score": low, "states": Layout(tradeoff_spec(small, low)).states}


def _mixed(mixed: list[dict]) -> str:
    """The states that mix their turns, with the weights."""
    return "; ".join(f"{m['phase']} {','.join(map(str, m['scores']))}: "
                     + "/".join(f"{w:.4f}" for w in m["weights"]) for m in mixed)


def _settled(mixed: list[dict]) -> str:
    if not mixed:
        return "every state plays pure, an equilibrium."
    return (f"an equilibrium in which {len(mixed)} states mix two or more turns "
            f"(table.settle; the weights of their turns): {_mixed(mixed)}; every other "
            "state plays pure.")


def _departures_lines(s: dict, target: int) -> list[str]:
    """The section on where exact three-player play departs from points play and the rule."""
    d = s.get("departures")
    if not d:
        return []
    lines = [
        "",
        f"### Where three-player play departs from points play and from the rule (exact, "
        f"target {target}, floor 0)",
        "",
        f"Every normal-play position, card and first roll that leaves a choice "
        f"({d['decisions']:,} decisions): the exact turn's first choice against the choice of "
        "the turn that maximises points and of the rule (the two-player table against the "
        f"best other score), each valued by the exact table; a choice departs where it is "
        f"worth less by more than {CHANGED:g}. The share weights each decision by its card's "
        "and its roll's chance, every position counted once.",
        "",
        *markdown_lines(["departs from", "decisions", "share"],
                        [(label, f"{d['departs'][key]:,}", f"{d['share'][key]:.4f}")
                         for key, label in (("points", "points play"), ("rule", "the rule"),
                                            ("both", "both"))], "lrr"),
        "",
        "The costliest where it departs from both (P(win) the mover gives up):",
        "",
        *markdown_lines(["scores", "card", "dice", "exact", "points", "rule", "P(win)",
                         "cost (points)", "cost (rule)"],
                        [(",".join(map(str, e["scores"])), e["card"], e["dice"], e["best"],
                          e["points"], e["rule"], f"{e['win']:.4f}", f"{e['points_cost']:.4f}",
                          f"{e['rule_cost']:.4f}") for e in d["examples"]], "llllllrrr"),
    ]
    return lines


def _seats(values) -> str:
    return " / ".join(f"{v:.4f}" for v in values)
