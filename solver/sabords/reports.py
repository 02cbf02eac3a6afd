"""``make solve`` for Mille Sabords: tables, plots and certificates.

Writes ``reports/sabords/`` (cards.md, cards.json, first-roll.md, two plots, README.md) and
``proofs/sabords/<card>.json`` (exact optimality certificates, ``points`` objective).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from solver.games import SolveRun
from solver.io import atomic_write_bytes, atomic_write_text, dumps_json
from solver.paths import PROOFS_DIR
from solver.sabords.dice import format_dice
from solver.sabords.game.report import check_proof as check_game
from solver.sabords.game.table.proof import check_proof as check_table
from solver.sabords.objective import Objective
from solver.sabords.rules import PROMO_CARDS, STANDARD_CARDS, Rules, load_rules
from solver.sabords.turn.certify import action_text, check_certificate
from solver.sabords.turn.solve import TurnSolution, solve_turn, turn_points_distribution
from solver.sabords.verifier import readings_of
from solver.text import markdown_lines

POINTS = Objective("points")
OBJECTIVES = (Objective("points"), Objective("margin"), Objective("reach", 1000),
              Objective("reach", 2000))
CARDS = STANDARD_CARDS + PROMO_CARDS


def quantile(dist: dict[int, float], q: float) -> int:
    """The smallest value whose cumulative probability reaches ``q``."""
    total = 0.0
    for value in sorted(dist):
        total += dist[value]
        if total >= q - 1e-12:
            return value
    return max(dist)


def card_rows(rules: Rules) -> list[dict]:
    rows = []
    for card in CARDS:
        sol = solve_turn(card, POINTS, rules)
        dist = turn_points_distribution(sol)
        row = {
            "card": card,
            "title": rules.card(card).title,
            "expected": round(sol.start, 6),
            "bust": round(sol.p_bust, 6),
            "island": round(sol.p_island, 6),
            "chest": round(sol.p_chest, 6),
            "q1": quantile(dist, 0.25),
            "median": quantile(dist, 0.5),
            "q3": quantile(dist, 0.75),
        }
        for objective in OBJECTIVES[1:]:
            row[objective.name] = round(solve_turn(card, objective, rules).start, 6)
        rows.append(row)
    return rows


def deck_average(rows: list[dict], deck: dict[str, int], key: str) -> float:
    by_card = {r["card"]: r for r in rows}
    total = sum(deck.values())
    return sum(by_card[c][key] * n for c, n in deck.items()) / total


def cards_markdown(rows: list[dict], rules: Rules) -> str:
    standard = dict(rules.deck)
    promo = dict(load_rules(["promo-deck"]).deck)
    lines = [
        "# Mille Sabords: the value of a turn under each card",
        "",
        "Optimal play for each objective, solved exactly (values certified in "
        "`proofs/sabords/`). Default rules (French rulebook; see `models/sabords/rules.toml`).",
        "Points columns use the points-optimal policy; P(bust) counts every turn that ends "
        "with three skulls (or four on the first roll under a Sea Battle card).",
        "",
        *markdown_lines(
            ["card", "in deck", "expected points", "P(bust)", "P(Island)", "P(full chest)",
             "Q1", "median", "Q3", "margin", "P(>=1000)", "P(>=2000)"],
            [[r["card"], standard.get(r["card"], promo.get(r["card"], 0)),
              f"{r['expected']:.2f}", f"{r['bust']:.4f}", f"{r['island']:.4f}",
              f"{r['chest']:.4f}", r["q1"], r["median"], r["q3"], f"{r['margin']:.2f}",
              f"{r['reach:1000']:.4f}", f"{r['reach:2000']:.4f}"] for r in rows],
            "l" + "r" * 11),
    ]
    lines += ["", "## Deck-weighted turn", ""]
    lines += markdown_lines(
        ["deck", "cards", "expected points", "P(bust)", "margin", "P(>=1000)"],
        [[name, sum(deck.values()), f"{deck_average(rows, deck, 'expected'):.2f}",
          f"{deck_average(rows, deck, 'bust'):.4f}", f"{deck_average(rows, deck, 'margin'):.2f}",
          f"{deck_average(rows, deck, 'reach:1000'):.4f}"]
         for name, deck in (("standard (35 cards)", standard), ("with the promo cards", promo))],
        "lrrrrr")
    lines += ["", "Card counts: research.md (two public implementations agree; 35 cards as the "
              "French rulebook says). The promo cards' count (one each) is an assumption."]
    return "\n".join(lines) + "\n"


def _first_roll_action(sol: TurnSolution, pos: int) -> str:
    model = sol.model
    if not model.problem.live[0, pos]:
        return "island" if model.first_island[pos] else "bust"
    return action_text(model, int(sol.policy[0, pos]), pos).replace(":", " ")


def first_roll_markdown(rules: Rules, top: int = 25) -> str:
    sols = {card: solve_turn(card, POINTS, rules) for card in STANDARD_CARDS}
    space = sols["none"].model.space
    weights = space.roll_weights()[space.full]
    order = sorted(range(len(weights)), key=lambda p: (-int(weights[p]), p))[:top]
    total = float(space.faces**space.dice)
    lines = [
        "# Mille Sabords: what to do after the most frequent first rolls",
        "",
        f"The {top} most likely first rolls (each a multiset of the eight dice) and the "
        "points-optimal action under each card: `stop`, or the dice to reroll.",
        "",
        *markdown_lines(
            ["roll", "P(roll)", *STANDARD_CARDS],
            [[format_dice(space.counts[space.full[pos]], rules), f"{weights[pos] / total:.5f}",
              *(_first_roll_action(sols[c], pos) for c in STANDARD_CARDS)] for pos in order],
            "lr" + "l" * len(STANDARD_CARDS)),
    ]
    return "\n".join(lines) + "\n"


def strategy_csv(rules: Rules) -> str:
    """The whole points-optimal strategy: every decision state of every card."""
    lines = ["card,mode,dice,action,value,stop_value"]
    for card in CARDS:
        sol = solve_turn(card, POINTS, rules)
        model = sol.model
        space = model.space
        for mode in range(model.problem.modes):
            for pos in np.flatnonzero(model.problem.live[mode]):
                dice = format_dice(space.counts[space.full[pos]], rules)
                action = action_text(model, int(sol.policy[mode, pos]), int(pos))
                lines.append(f"{card},{mode},{dice},{action},{sol.value[mode, pos]:.6f},"
                             f"{model.problem.stop_value[mode, pos]:.0f}")
    return "\n".join(lines) + "\n"


def _plots(rows: list[dict], rules: Rules, out: Path) -> None:
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "treasure-solver"
    fig, ax = plt.subplots(figsize=(9, 4.5))
    names = [r["card"] for r in rows]
    values = [r["expected"] for r in rows]
    colors = ["#c0392b" if v < 0 else "#2e86c1" for v in values]
    ax.barh(names[::-1], values[::-1], color=colors[::-1])
    for i, v in enumerate(values[::-1]):
        ax.text(v + (15 if v >= 0 else -15), i, f"{v:.0f}", va="center",
                ha="left" if v >= 0 else "right", fontsize=8)
    ax.set_xlabel("expected points of a turn, optimal play")
    ax.set_title("Mille Sabords: expected points by card")
    ax.axvline(0, color="black", linewidth=0.8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    atomic_write_bytes(out / "expected-by-card.png", buf.getvalue())

    fig, ax = plt.subplots(figsize=(9, 4.5))
    cards = ["none", "captain", "sorceress", "treasure-island", "sea-battle-3"]
    width = 0.16
    for i, card in enumerate(cards):
        sol = solve_turn(card, POINTS, rules)
        model = sol.model
        space = model.space
        weights = space.roll_weights()[space.full].astype(float)
        skulls = space.counts[space.full, model.skull]
        probs = []
        for s in range(3):
            mask = (skulls == s) & model.problem.live[0]
            probs.append(float(weights[mask] @ sol.bust[0][mask] / weights[mask].sum()))
        ax.bar(np.arange(3) + (i - 2) * width, probs, width, label=card)
    ax.set_xticks(range(3), ["0 skulls", "1 skull", "2 skulls"])
    ax.set_ylabel("P(turn ends in a bust)")
    ax.set_title("After the first roll: bust probability under optimal play, by skulls showing")
    ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    atomic_write_bytes(out / "bust-by-skulls.png", buf.getvalue())


CERTIFIED = (Objective("points"), Objective("margin"), Objective("reach", 1000))


def write_certificates(rules: Rules, proofs_dir: Path = PROOFS_DIR) -> list[Path]:
    """Exact certificates for every card under the points, margin and reach:1000 objectives
    (the last two let the verifier prove which variants change nothing)."""
    from solver.sabords.turn.certify import write_certificate

    paths = []
    for objective in CERTIFIED:
        for card in CARDS:
            print(f"  certifying {card} ({objective.name}) ...", file=sys.stderr, flush=True)
            paths.append(write_certificate(card, rules, proofs_dir, objective))
    return paths


def certify(proofs_dir: Path) -> None:
    """``make solve``'s certificate step: every card's certificates under the default rules."""
    write_certificates(load_rules(), proofs_dir)


def check_all(proofs_dir: Path = PROOFS_DIR) -> dict[str, list[str]]:
    """Re-verify every certificate file in ``proofs/sabords/``: {file name: problems}. The
    whole-game table (``game-*.json``) is checked by recomputing its Bellman residual, the
    three-player table (``table-*.json``) by recomputing its regret on a seeded sample."""
    checks = {"game-": check_game, "table-": check_table}
    return {path.name: next((check for start, check in checks.items()
                             if path.name.startswith(start)), check_certificate)(path)
            for path in sorted((proofs_dir / "sabords").glob("*.json"))
            if path.name != "variants.json"}


def write_reports(run: SolveRun) -> None:
    """``reports/sabords/``: the turn tables and plots, then the whole game (its table, the
    proof ``game-<target>.json``, written into ``run.proofs_dir``)."""
    rules = load_rules()
    out = run.reports_dir / "sabords"
    out.mkdir(parents=True, exist_ok=True)
    rows = card_rows(rules)
    atomic_write_text(out / "cards.md", cards_markdown(rows, rules))
    atomic_write_text(out / "cards.json", dumps_json({"rules": rules.key(), "cards": rows}))
    atomic_write_text(out / "first-roll.md", first_roll_markdown(rules))
    atomic_write_text(out / "strategy.csv", strategy_csv(rules))
    _plots(rows, rules, out)
    from solver.sabords.game.report import write_game_reports
    from solver.sabords.game.table.report import (
        at_target_spec,
        table_section,
        write_table_report,
    )

    table: dict = {}

    def whole_table(headline) -> str:
        table.update(write_table_report(out, run.proofs_dir, headline,
                                        at_target=at_target_spec()))
        return table_section(table)

    _, game_summary = write_game_reports(out, run.proofs_dir, whole_table=whole_table)
    run.readings["sabords"] = readings_of(game_summary, table)
    from solver.sabords.review.report import write_review_example

    write_review_example(out)
    write_readme(out)


def write_readme(out: Path) -> None:
    """``reports/sabords/README.md``: what each report is."""
    atomic_write_text(out / "README.md", "\n".join([
        "# Mille Sabords! / Piraten Kapern reports",
        "",
        "Regenerated by `make solve`; default rules (French rulebook), see "
        "`models/sabords/rules.toml`.",
        "",
        "- [cards.md](cards.md): per card, expected points, P(bust), P(Island), P(full chest), "
        "quartiles, margin and reach values, and the deck-weighted turn",
        "- [cards.json](cards.json): the same numbers as data",
        "- [first-roll.md](first-roll.md): the optimal action after the 25 most frequent first "
        "rolls, for every card",
        "- [strategy.csv](strategy.csv): the whole points-optimal strategy, every decision "
        "state of every card (mode: 1 = Sorceress used, or the reroll made under After the "
        "Storm), with its value and the value of stopping",
        "- [expected-by-card.png](expected-by-card.png): expected points of a turn by card",
        "- [bust-by-skulls.png](bust-by-skulls.png): bust probability by skulls showing after "
        "the first roll",
        "- [game.md](game.md): the whole game. Two players solved exactly: P(first player "
        "wins) for targets 5000, 6000 and 8000, against points play, where the scoreboard "
        "changes a decision, rules of thumb, every game-level reading measured, the real "
        "deck. Then the whole table, two to five players: each seat's P(win) (three players "
        "exact on a small table so far), the gain from reading the scoreboard by player "
        "count, how far apart the equilibria found are, where three-player play departs, "
        "the lowest score, each three-player reading, the four- and five-player rule and "
        "what it costs",
        "- [game.json](game.json): the two-player numbers as data (its game-level readings "
        "read by this game's verifier hook, `solver/sabords/verifier.py`, on the rules "
        "verifier's behalf)",
        "- [table.json](table.json): the whole table's numbers as data",
        "- [game-heat-map.png](game-heat-map.png): P(win) by the two scores",
        "- [table-slice.png](table-slice.png): a three-player slice, my P(win) over the other "
        "two scores",
        "- [review/](review/README.md): an example game reviewed move by move (`treasure "
        "sabords review`): its record, the review, its chart",
        "",
        "Certificates of exact optimality: `proofs/sabords/<card>.json` "
        "(re-verified by `make check`); the three-player table "
        "`proofs/sabords/table-3-300.json`, whose regret `make check` recomputes on a seeded "
        "sample; the game table `proofs/sabords/game-6000.json`, "
        "whose Bellman residual `make check` recomputes.",
        "",
    ]))
