"""``make solve`` for Die Dracheninsel: pictures, per-boat distances, the simulation, proofs."""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from solver.dragon.board import Island, default_island
from solver.dragon.cards import deck, deck_counts, parse_hand
from solver.dragon.distance import distances_to_goal
from solver.dragon.position import opening
from solver.dragon.route import RouteQuery
from solver.dragon.rules import Rules
from solver.dragon.simulate import simulate
from solver.dragon.svg import draw_board
from solver.games import SolveRun
from solver.io import atomic_write_text, dumps_json
from solver.text import fmt_float, markdown_lines

GAMES = 50  # journeys per simulation run
SEED = 20240607
EXAMPLE = ("red", "volcano,flight,swap-adjacent,forest,farmland,desert")


def per_boat(island: Island) -> list[dict]:
    """Fewest terrain cards from each boat to the treasure field on the opening board."""
    pos = opening(island)
    rows = []
    for colour in island.boat_colours:
        own = island.model.terrain_of(colour)
        occupied = {h.at for c, h in pos.hunters.items() if c != colour}
        dist = distances_to_goal(island, pos.tiles, own, colour, "", set(), occupied, False,
                                 True, False)
        a, b = island.boats[colour]
        rows.append({
            "boat": colour,
            "landing_fields": [f"{a[0]},{a[1]}", f"{b[0]},{b[1]}"],
            "landing_terrains": [pos.tiles[island.node(f"{a[0]},{a[1]}")],
                                 pos.tiles[island.node(f"{b[0]},{b[1]}")]],
            "cards_to_treasure": dist[island.boat_node[colour]],
        })
    return rows


def _run(args: tuple) -> tuple:
    blank_action, games, seed = args
    journeys = simulate(default_island(), games, seed, blank_action)
    return blank_action, [(j.there, j.back) for j in journeys]


def run_simulations(games: int = GAMES, seed: int = SEED) -> dict:
    """Baseline and one run per action with a use in routes (that action struck off)."""
    model = default_island().model
    # Dragon patrol is left out: with no dragon on a lone hunter's island the router has
    # nothing to use it for, so striking it changes no play (its saving is exactly 0).
    actions = [a.name for a in model.actions.values() if a.route and a.route != "patrol"]
    jobs = [(None, games, seed)] + [(a, games, seed) for a in actions]
    out = {}
    with ProcessPoolExecutor(max_workers=2) as pool:
        for blank_action, rows in pool.map(_run, jobs):
            out[blank_action or "baseline"] = rows
            print(f"  dracheninsel: simulation {blank_action or 'baseline'} done",
                  file=sys.stderr, flush=True)
    return out


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def _stderr(xs: list[float]) -> float:
    return statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0


def savings(sim: dict) -> list[dict]:
    """Turns each action saves: mean(turns without it) - mean(turns with it), paired by game."""
    base = [a + b for a, b in sim["baseline"]]
    rows = []
    for action, runs in sim.items():
        if action == "baseline":
            continue
        diff = [(a + b) - t for (a, b), t in zip(runs, base, strict=True)]
        rows.append({"action": action, "turns_saved": _mean(diff), "stderr": _stderr(diff)})
    return rows


def _histogram_svg(sim_rows: list[tuple[int, int]]) -> str:
    """Bars of the total turns (there + back) over the baseline journeys."""
    counts = Counter(a + b for a, b in sim_rows)
    top = max(counts.values())
    lo, hi = min(counts), max(counts)
    w, h, pad = 60, 220, 40
    width = pad * 2 + w * (hi - lo + 1)
    items = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h + 90}" '
             f'viewBox="0 0 {width} {h + 90}">',
             f'<rect width="{width}" height="{h + 90}" fill="#ffffff"/>',
             f'<text x="{pad}" y="22" font-size="14" font-family="Helvetica, Arial, sans-serif" '
             f'font-weight="bold">Turns from the boat to the treasure and back '
             f'({len(sim_rows)} journeys)</text>']
    for k, t in enumerate(range(lo, hi + 1)):
        n = counts.get(t, 0)
        bh = h * n / top
        x = pad + k * w + 8
        y = 40 + h - bh
        items.append(f'<rect x="{x}" y="{fmt_float(y, 1)}" width="{w - 16}" '
                     f'height="{fmt_float(bh, 1)}" fill="#3b7dd8"/>')
        items.append(f'<text x="{x + (w - 16) / 2:.1f}" y="{fmt_float(y - 5, 1)}" font-size="11" '
                     f'text-anchor="middle" font-family="Helvetica, Arial, sans-serif">{n}</text>')
        items.append(f'<text x="{x + (w - 16) / 2:.1f}" y="{h + 58}" font-size="12" '
                     f'text-anchor="middle" font-family="Helvetica, Arial, sans-serif">{t}</text>')
    items.append(f'<text x="{width / 2:.1f}" y="{h + 80}" font-size="12" text-anchor="middle" '
                 'font-family="Helvetica, Arial, sans-serif">turns</text>')
    items.append("</svg>")
    return "\n".join(items) + "\n"


def _example(island: Island) -> tuple[dict, str]:
    from solver.dragon.router.rounds import cp_route

    colour, hand = EXAMPLE
    pos = opening(island)
    result = cp_route(RouteQuery(pos, colour, parse_hand(hand)))
    route = result.to_json()
    route.update(hunter=colour, start=island.names[pos.hunters[colour].at])
    return route, draw_board(pos, route, f"Example turn: {colour} with {hand.replace(',', ', ')}")


def _distribution(values: list[int]) -> list[str]:
    counts = Counter(values)
    rows = [(t, counts[t], fmt_float(counts[t] / len(values), 3)) for t in sorted(counts)]
    return markdown_lines(["turns", "journeys", "share"], rows, "rrr")


def write_reports(run: SolveRun) -> None:
    """Write ``reports/dracheninsel/``; the invariants' rows (their certificates in
    ``run.proofs_dir``) come from the run's invariant step."""
    out = Path(run.reports_dir) / "dracheninsel"
    island = default_island()
    model = island.model
    print("  dracheninsel: board and distances", file=sys.stderr, flush=True)
    atomic_write_text(out / "board.svg", draw_board(opening(island)))
    boats = per_boat(island)
    route, picture = _example(island)
    atomic_write_text(out / "example-route.svg", picture)
    sim = run_simulations(GAMES, SEED)
    base = sim["baseline"]
    there = [a for a, _ in base]
    back = [b for _, b in base]
    total = [a + b for a, b in base]
    saved = savings(sim)
    atomic_write_text(out / "turns.svg", _histogram_svg(base))
    proofs = run.invariants("dracheninsel")
    summary = {
        "board": "reconstruction" if island.reconstruction else "transcription",
        "boats": boats,
        "example_route": route,
        "simulation": {
            "journeys": len(base), "seed": SEED,
            "mean_turns": {"there": fmt_float(_mean(there), 3), "back": fmt_float(_mean(back), 3),
                           "total": fmt_float(_mean(total), 3)},
            "total_turns": dict(sorted(Counter(total).items())),
            "turns_saved": [{"action": r["action"], "turns_saved": fmt_float(r["turns_saved"], 3),
                             "stderr": fmt_float(r["stderr"], 3)} for r in saved],
        },
        "deck": dict(sorted(deck_counts(model).items())),
        "deck_actions_assumed": True,
        "invariants": proofs,
    }
    atomic_write_text(out / "summary.json", dumps_json(summary))
    atomic_write_text(out / "README.md", _readme(island, boats, route, base, saved, proofs))


def _readme(island: Island, boats: list[dict], route: dict, base: list[tuple[int, int]],
            saved: list[dict], proofs: list[dict]) -> str:
    model = island.model
    total = [a + b for a, b in base]
    lines = [
        "# Die Dracheninsel",
        "",
        "Generated by `make solve` (`solver/dragon/reports.py`). The board is a "
        "**reconstruction** of the printed start layout, which we do not have: a CP-SAT model "
        "(`treasure dragon layout`) places ten tiles of each terrain with six-fold rotational "
        "symmetry (every boat sees the same island) and no two fields of one colour touching. "
        "Pass a transcription of your printed board with `--board FILE`.",
        "",
        "- [board.svg](board.svg): the reconstructed opening board: fields, boats and their "
        "landing fields, hunters in their boats, the treasure",
        "- [example-route.svg](example-route.svg): one optimal turn drawn over the board "
        f"({EXAMPLE[0]}, hand {EXAMPLE[1].replace(',', ', ')})",
        "- [turns.svg](turns.svg): how many turns a lone hunter needs from its boat to the "
        "treasure field and back, over the simulated journeys",
        "- [summary.json](summary.json): every number on this page, for machines",
        "",
        "Whole games of two, three and four players with the whole deck, scored with coins, "
        "and the readings of the rules measured on them: [play.md](play.md) (written with the "
        "verifier's measurements, `solver/dragon/ambiguity.py`).",
        "",
        "## Fewest cards from each boat to the treasure field (opening board)",
        "",
        "Terrain cards alone (own-colour fields, the own boat and the treasure field are free).",
        "",
        *markdown_lines(["boat", "landing fields", "their terrains", "cards"],
                        [(b["boat"], " ".join(b["landing_fields"]),
                          ", ".join(b["landing_terrains"]), b["cards_to_treasure"])
                         for b in boats], "lllr"),
        "",
        f"Example turn ({EXAMPLE[0]}): {route['cards_used']} cards, "
        f"{'reaches' if route['reachable'] else 'does not reach'} the treasure field.",
        "",
        "## Simulation: a lone hunter, boat to treasure field and back",
        "",
        f"{len(base)} journeys (seed {SEED}), random hands from the 99-card deck. Rules of the "
        "simulation: `solver/dragon/simulate.py` (a turn that plays no card and does not reach "
        "the goal exchanges the hand; the partner who joins on the treasure field is of a random "
        "colour, and the hunter carries under its own rules).",
        "",
        f"Mean turns: there {fmt_float(_mean([a for a, _ in base]), 2)}, back "
        f"{fmt_float(_mean([b for _, b in base]), 2)}, total {fmt_float(_mean(total), 2)}.",
        "",
        *_distribution(total),
        "",
        "### Turns each action saves",
        "",
        "Each run strikes one action off every card that shows it (the card becomes a dead "
        "card) and replays the same journeys with the same random draws; the saving is the "
        "mean of (turns without) - (turns with), with its standard error. Actions no route can "
        "use (curse, ambush: their cards are unknown; slumber, counterspell, betrayal: not "
        "moves) save nothing by construction and are not run; nor is dragon patrol, which has no "
        "dragon to move on a lone hunter's island.",
        "",
        *markdown_lines(["action", "German", "cards showing it", "turns saved (all of them)",
                         "std. error", "per card"], _saving_rows(model, saved), "llrrrr"),
        "",
        "## The deck (the action counts are an ASSUMPTION)",
        "",
        "The rulebook gives 54 terrain cards (8 of each terrain and 6 with two terrains) and 45 "
        "action cards, some with two actions, but not how many of each. "
        "`models/dracheninsel/rules.toml` holds a labelled assumption; which terrains the six "
        "double cards show is assumed too.",
        "",
        *markdown_lines(["card", "count"], sorted(deck_counts(model).items()), "lr"),
        "",
        "## Invariants (certificates in proofs/dracheninsel/)",
        "",
        *markdown_lines(["invariant", "holds", "certificate"],
                        [(p["statement"], "yes" if p["holds"] else "NO", f"`{p['certificate']}`")
                         for p in proofs], "lll"),
    ]
    return "\n".join(lines) + "\n"


def _saving_rows(model: Rules, saved: list[dict]) -> list[tuple]:
    """The turns-saved table's rows: each action run, then dragon patrol (not run)."""
    showing = Counter(a for card in deck(model) for a in card.actions)
    rows: list[tuple] = []
    for r in saved:
        n = showing[r["action"]]
        rows.append((r["action"], model.actions[r["action"]].german, n,
                     fmt_float(r["turns_saved"], 3), fmt_float(r["stderr"], 3),
                     fmt_float(r["turns_saved"] / n, 3)))
    rows.append(("dragon-patrol", model.actions["dragon-patrol"].german,
                 showing["dragon-patrol"], "0.000 (no dragon to move: not run)", "-", "-"))
    return rows
