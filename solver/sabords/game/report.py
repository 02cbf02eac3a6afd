"""``reports/sabords/game.md``: the whole game, as ``make solve`` writes it.

Two players: headline numbers for the targets 5000, 6000 and 8000; a heat map of P(win); where
reading the scoreboard changes a decision; rules of thumb with their exact cost; every
game-level reading measured; the bound on the lowest score; the independent-draw assumption
against a real deck. Then the whole table, two to five players (its section written by
:func:`solver.sabords.game.table.report.table_section`, handed in as ``whole_table``). Also
``game.json`` (its readings are the rules verifier's, through
:mod:`solver.sabords.verifier`) and ``proofs/sabords/game-6000.json`` (the
table, whose Bellman residual ``make check`` recomputes).
"""

from __future__ import annotations

import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from solver.io import atomic_write_bytes, atomic_write_text, dumps_json
from solver.sabords.game.advice import game_hold
from solver.sabords.game.bounds import hit_probability
from solver.sabords.game.deck import simulate
from solver.sabords.game.play import match, seats
from solver.sabords.game.points import points_play_outcomes
from solver.sabords.game.solved import load_game, read_proof, with_play
from solver.sabords.game.two_player import GameSpec, GameTable
from solver.sabords.rules import load_rules
from solver.text import markdown_lines
from solver.text import table as text_table

TARGET, OTHER_TARGETS = 6000, (5000, 8000)
READINGS = ("endgame-new-final-round", "ties-extra-round", "nine-as-set", "score-floor-zero",
            "battle-bust-no-penalty", "battle-four-skulls-no-penalty", "keep-a-non-skull",
            "card-skulls-threshold-only", "card-counts-as-kept-die", "battle-sabres-any-roll")
DECISION_DICE = "CCCDMPXX"  # two skulls, 500 points showing with no card
CHANGED = 1e-9  # a reading changes a decision where the default's play costs more P(win)
# games per row of the deck simulation: a standard error of about 2.5e-4, so that an effect of
# the real deck of a thousandth stands several standard errors clear of the noise
DECK_GAMES = 4_000_000


def _grid(target: int) -> range:
    """Twelve scores from 0 up, in steps of a whole hundred."""
    step = max(100, (target // 12) // 100 * 100)
    return range(0, target, step)


def _log(text: str) -> None:
    print(f"  [sabords game] {text}", file=sys.stderr, flush=True)


def _first_to_target(default: GameTable) -> dict:
    """The reading ``first-to-target-wins`` for two players, with no solve of its own: the
    default game's race phase (the first to end a turn at or above the target wins at once)
    is that game, from 0-0 (tests/test_sabords_table.py solves the variant itself with the
    whole-table solver and compares every state)."""
    value = default.win(0, 0, "sudden-death")
    return {"first_player_wins": value, "delta": value - default.first_player_wins,
            "decisions_changed": None, "decisions_total": None, "largest_cost": None,
            "cost_at_opening": None, "unit": "P(first player wins)"}


def _policy_cost(base: GameTable, other: GameTable) -> dict:
    """What playing ``base``'s optimal turns costs under ``other``'s reading, in the normal
    phase, over the score pairs both tables hold: per pair, ``other``'s value minus the value
    of ``base``'s turn policies (their outcome distributions, :attr:`GameTable.plays`) with
    ``other``'s payoffs (a policy's value is linear in them). A reading changes the decisions
    at a pair where that cost exceeds ``CHANGED``; exact ties between actions cost nothing
    and are not counted, and a cost below ``CHANGED`` (rounding, about 1e-16) is reported
    as 0."""
    from solver.sabords.turn.ambiguity import same_turns
    from solver.sabords.turn.lanes import deck_turns

    if not same_turns(base.spec.rules, other.spec.rules):  # a turn reading: not comparable
        return {"decisions_changed": None, "decisions_total": None, "largest_cost": None,
                "cost_at_opening": None}
    deck = deck_turns(base.spec.rules)
    # the same dice end in the same outcome under every game-level reading, except that nine
    # identical symbols stop winning at once under nine-as-set (their points are the same)
    win = deck.win & (other.spec.rules.nine_of_a_kind == "instant-win")
    low = max(base.spec.bottom, other.spec.bottom)
    top = base.spec.top
    a, b = (x.ravel() for x in np.meshgrid(np.arange(low, top), np.arange(low, top),
                                           indexing="ij"))
    pay = other.pay_normal(a, b, deck.own, deck.loss, win)
    span = top - base.spec.bottom
    rows = (a - base.spec.bottom) * span + (b - base.spec.bottom)
    played = (pay * base.plays["normal"][rows]).sum(axis=1)
    cost = other.normal[a - other.spec.bottom, b - other.spec.bottom] - played
    opening = float(cost[np.flatnonzero((a == 0) & (b == 0))[0]])
    return {"decisions_changed": int(np.sum(cost > CHANGED)), "decisions_total": int(cost.size),
            "largest_cost": float(max(cost.max(), 0.0)),
            "cost_at_opening": opening if opening > CHANGED else 0.0}


def _rounded(doc):
    """Every float to 12 significant digits: the report's numbers, without the last bits that
    depend on the order of floating-point sums."""
    if isinstance(doc, float):
        return float(f"{doc:.12g}")
    if isinstance(doc, dict):
        return {k: _rounded(v) for k, v in doc.items()}
    if isinstance(doc, list | tuple):
        return [_rounded(v) for v in doc]
    return doc


def _fmt(x: float, digits: int = 6) -> str:
    return f"{x:.{digits}f}"


def _heat_map(table: GameTable, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    zero = -table.spec.bottom
    grid = table.normal[zero:, zero:]
    fig, ax = plt.subplots(figsize=(6.4, 5.4))
    image = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=1,
                      extent=(-50, table.spec.target - 50, -50, table.spec.target - 50))
    ax.set_xlabel("opponent's score")
    ax.set_ylabel("my score (my turn, before the card)")
    ax.set_title(f"Mille Sabords, two players, target {table.spec.target}: P(win)")
    fig.colorbar(image, ax=ax, label="P(win) + 1/2 P(tie)")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    atomic_write_bytes(path, buf.getvalue())


def _decision_grid(table: GameTable, card: str, dice: str) -> tuple[list[str], int, int]:
    """The choice with these dice by the two scores: S stop, R reroll (upper case where
    maximising points would choose otherwise). Returns the lines, the cells and the cells
    that differ."""
    grid = _grid(table.spec.target)
    rows = []
    differ = 0
    for me in reversed(grid):
        cells: list[object] = [me]
        for opp in grid:
            advice = game_hold(table, card, me, opp, "normal", dice)
            mark = "s" if advice["best"]["action"] == "stop" else "r"
            if advice["points_differs"]:
                mark = mark.upper()
                differ += 1
            cells.append(mark)
        rows.append(cells)
    column = len(str(grid[-1]))  # every score's column as wide as the widest score
    lines = text_table(["me \\ opp", *grid], rows, "r" * (len(grid) + 1), rule=False,
                       widths=(0, *[column] * len(grid)))
    return lines.splitlines(), len(grid) ** 2, differ


def _largest_bound(bound: dict) -> float:
    """The largest of :func:`hit_probability`'s bounds over the phases."""
    return max(bound["normal"], bound["last"], bound["sudden-death"])


def _played(spec: GameSpec, start: GameTable | None = None) -> GameTable:
    """The solved table for ``spec`` with its play (:func:`with_play`): from the cache when
    it holds the table, else solved (from ``start``'s values when given) and cached. The play
    is derived from the values either way, so a cached table gives the same report."""
    return with_play(load_game(spec, progress=True, start=start))


def _thumbs(table: GameTable) -> list[dict]:
    """Rules of thumb as ways of playing each phase, each played against the exact policy
    in both seats: the P(win) it gives away."""
    points = points_play_outcomes(table.spec.rules)
    optimal = table.plays
    rules = [
        ("Maximise each turn's expected points, always", "every turn",
         {name: points for name in optimal}),
        ("Maximise points; on your last turn, play to beat the leader's score (stop as soon "
         "as you are ahead, keep rolling while behind)", "every turn but the last",
         {**{name: points for name in optimal}, "last": optimal["last"]}),
        ("Maximise points until the last round; from then on (your last turn, or the race "
         "after a drop below the target) play for the win", "normal play",
         {**{name: points for name in optimal}, "last": optimal["last"],
          "sudden-death": optimal.get("sudden-death", points)}),
    ]
    out = []
    for text, where, play in rules:
        result = seats(*match(table, play, optimal))
        out.append({"rule": text, "differs_from_exact": where,
                    "p_win_vs_exact": result["a_average"],
                    "loss": 0.5 - result["a_average"]})
    return out


def _proof(table: GameTable) -> str:
    doc = {
        "what": "The Mille Sabords two-player game table: P(win) + 1/2 P(tie) for the player "
                "to move, before the card; rows are the mover's score, columns the "
                "opponent's, in steps of 100 from the lowest score. `make check` recomputes "
                "every state's Bellman residual from these values and the turn solver.",
        "rules": table.spec.rules.key(),
        "target": table.spec.target,
        "low": table.spec.low,
        "gap_low": table.gap_low,
        "normal": table.normal.tolist(),
        "last": table.last.tolist(),
        "sudden": table.sudden.tolist(),
        "tiebreak": table.tiebreak.tolist(),
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":")) + "\n"  # floats round-trip


RESIDUAL_LIMIT = 1e-10
CHECK_SAMPLE: int | None = None  # None: every state (make check); the tests spot-check


def check_proof(path: Path) -> list[str]:
    """Problems with a stored game table: other rules, or a Bellman residual above the
    limit in any phase (every turn solved again from the stored values)."""
    from solver.sabords.game.solved import bellman_residuals

    try:
        table = read_proof(path)
    except (ValueError, KeyError, OSError) as err:
        return [f"unreadable or stale game table: {err}"]
    residuals = bellman_residuals(table, sample=CHECK_SAMPLE)
    return [f"{phase}: Bellman residual {value:.2e} above {RESIDUAL_LIMIT:g}"
            for phase, value in sorted(residuals.items()) if value > RESIDUAL_LIMIT]


def write_game_reports(out: Path, proofs: Path, target: int = TARGET,
                       others: tuple[int, ...] = OTHER_TARGETS, low: int | None = None,
                       decision_dice: str = DECISION_DICE, games: int = DECK_GAMES,
                       whole_table: Callable[[GameTable], str] | None = None
                       ) -> tuple[GameTable, dict]:
    """Solve and write everything (the defaults are the shipped report's; the tests run it
    on a small game). Every table keeps scores down to ``low`` (the default's lowest score
    when None), the readings' too. Returns the default table with its play (the whole
    table's report plays its rule with it) and the summary written to ``game.json`` (the
    verifier's game-level readings, handed on in ``make solve``). ``whole_table``: given the
    default table with its play, writes the whole table's data and returns its section of
    ``game.md`` (the last)."""
    started = time.perf_counter()
    rules = load_rules()
    _log(f"the game at target {target} (default readings), and its play")
    default = _played(GameSpec(rules, target, low))
    heads = {target: default.headline()}
    bound = {"lowest_score": default.spec.low, "targets": {str(target): hit_probability(default)}}
    for other in others:
        _log(f"target {other}")
        table = _played(GameSpec(rules, other, low))
        heads[other] = table.headline()
        bound["targets"][str(other)] = hit_probability(table)
        del table
    readings = {}
    bound["readings"] = {}
    for name in READINGS:
        _log(f"reading {name}")
        table = _played(GameSpec(load_rules([name]), target, low), start=default)
        bound["readings"][name] = hit_probability(table)
        readings[name] = {"first_player_wins": table.first_player_wins,
                          "delta": table.first_player_wins - default.first_player_wins,
                          **_policy_cost(default, table), "unit": "P(first player wins)"}
        del table
    readings["first-to-target-wins"] = _first_to_target(default)
    for other in others:
        readings[f"target-{other}"] = {
            "first_player_wins": heads[other]["first_player_wins"],
            "delta": heads[other]["first_player_wins"] - default.first_player_wins,
            "decisions_changed": None, "decisions_total": None, "largest_cost": None,
            "cost_at_opening": None, "unit": "P(first player wins)"}
    _log("rules of thumb")
    thumbs = _thumbs(default)
    _log("decision maps")
    grids = {card: _decision_grid(default, card, decision_dice)
             for card in ("none", "captain")}
    _log("the deck simulation")
    independent = simulate(default, games, 2026, real_deck=False)
    real = simulate(default, games, 2027, real_deck=True)
    deck = {"games": games, "exact": default.first_player_wins,
            "independent": float(independent.mean()),
            "independent_se": float(independent.std(ddof=1) / np.sqrt(games)),
            "real_deck": float(real.mean()),
            "real_deck_se": float(real.std(ddof=1) / np.sqrt(games))}
    deck["difference"] = deck["real_deck"] - deck["exact"]
    out.mkdir(parents=True, exist_ok=True)
    section = "" if whole_table is None else whole_table(default)

    _heat_map(default, out / "game-heat-map.png")
    summary = {"target": target, "decision_dice": decision_dice,
               "first_player_wins": default.first_player_wins,
               "headline": {str(t): h for t, h in heads.items()}, "readings": readings,
               "lowest_score_bound": bound, "rules_of_thumb": thumbs, "deck": deck,
               "solve": {k: default.stats[k] for k in ("sweeps", "residual")}}
    written = _rounded(summary)
    atomic_write_text(out / "game.json", dumps_json(written))
    atomic_write_text(out / "game.md", _markdown(summary, grids, bool(section))
                      + ("\n" + section if section else ""))
    (proofs / "sabords").mkdir(parents=True, exist_ok=True)
    atomic_write_text(proofs / "sabords" / f"game-{target}.json", _proof(default))
    _log(f"done in {time.perf_counter() - started:.0f} s")
    return default, written


def _markdown(s: dict, grids: dict, table: bool = False) -> str:
    h = s["headline"]
    lines = [
        "# Mille Sabords: the whole game",
        "",
        *(["Two players first, then [the whole table](#the-whole-table-two-to-five-players): "
           "three to five players.", ""] if table else []),
        "Two players, solved exactly by `make solve` (`solver/sabords/game/two_player.py`): "
        "every state of the "
        "scoreboard, both players choosing every hold and every stop to maximise P(win) + "
        "1/2 P(tie). Default readings: the French end of the game (a trigger player who drops "
        "below the target after the last round starts a race), ties shared, nine identical "
        "symbols win at once, scores may go negative; each turn's card drawn independently "
        "with the 35-card deck's frequencies (measured below against a real deck). "
        "Values are before the card is drawn.",
        "",
        "## Headline",
        "",
        *markdown_lines(["target", "P(first player wins), optimal play", "both play for points",
                    "optimal vs points, first seat", "second seat",
                    "gain from reading the scoreboard"],
                   [[target, _fmt(x["first_player_wins"]),
                     _fmt(x["points_play"]["first_player_wins"]),
                     _fmt(x["optimal_vs_points"]["a_first"]),
                     _fmt(x["optimal_vs_points"]["a_second"]),
                     f"{x['gain'] * 100:+.3f} points of P(win)"]
                    for target, x in sorted(h.items(), key=lambda item: int(item[0]))],
                   "rrrrrr"),
        "",
        "*Gain*: how much more often than 1/2 an optimal player beats a player who maximises "
        "each turn's expected points on every turn (the last one included), both seats "
        "averaged. Pig's first player wins 53.06% under optimal play, two-player Farkle's "
        "53.49%.",
        "",
        "![P(win) by the two scores](game-heat-map.png)",
        "",
        "## Where reading the scoreboard changes a decision",
        "",
        f"The dice `{s['decision_dice']}` (two skulls showing), my turn, by my score (rows) "
        "and the opponent's (columns): `s` stop, `r` "
        "reroll; upper case where maximising the turn's points would choose the other.",
        "",
    ]
    for card, (grid, cells, differ) in grids.items():
        lines += [f"Card **{card}**: {differ} of {cells} positions differ from points play.",
                  "", "```", *grid, "```", ""]
    lines += [
        "## Rules of thumb",
        "",
        "Each rule is a way of playing, played against the exact policy in both seats; the "
        "loss is how much less often than 1/2 it wins (P(win), exact).",
        "",
        *markdown_lines(["rule", "where it departs from the exact policy",
                    "P(win) against exact play", "loss"],
                   [[t["rule"], t["differs_from_exact"], _fmt(t["p_win_vs_exact"]),
                     f"{t['loss']:.6f}"] for t in s["rules_of_thumb"]], "llrr"),
        "",
        f"## Every game-level reading, measured (target {s['target']})",
        "",
        "Each reading is a whole-game solve of its own, at the same lowest score as the "
        "headline's, compared with the default reading's P(first player wins), "
        f"{_fmt(s['first_player_wins'], 9)}. *Decisions "
        "changed*: score pairs of the normal phase (of those both tables hold) at which "
        "playing the default reading's turns under this reading costs more than "
        f"{CHANGED:g} P(win); *cost*: the most it costs at one pair, and at 0 to 0 (0 where "
        "it is below that). `first-to-target-wins` needs no solve of its own: the default "
        "game's race phase (after a drop below the target, the first to end a turn at or "
        "above it wins at once) is that game, read at 0 to 0.",
        "",
    ]
    reading_rows = []
    for name, r in s["readings"].items():
        if r["decisions_changed"] is None:
            changed = cost = opening = "-"
        else:
            changed = f"{r['decisions_changed']:,} of {r['decisions_total']:,}"
            cost, opening = f"{r['largest_cost']:.2e}", f"{r['cost_at_opening']:.2e}"
        reading_rows.append([f"`{name}`", _fmt(r["first_player_wins"], 9),
                             f"{r['delta']:+.2e}", changed, cost, opening])
    lines += markdown_lines(["reading", "P(first player wins)", "change", "decisions changed",
                        "largest cost", "cost at 0 to 0"], reading_rows, "lrrrrr")
    b = s["lowest_score_bound"]
    rows = [(target, b["targets"][target]) for target in sorted(b["targets"], key=int)]
    rows += [(f"{s['target']}, `{name}`", x) for name, x in b["readings"].items()]
    worst = max(_largest_bound(x) for _, x in rows)
    d = s["deck"]
    lines += [
        "",
        "## The lowest score",
        "",
        f"The tables keep scores down to {b['lowest_score']} and raise a lower score to it. "
        "Until a turn would take a score below it, the truncated game and the real one are "
        "the same; the chance of that, under the solved play, is bounded from above by "
        "iterating its linear equations from 1 (every iterate is an upper bound; "
        "`solver/sabords/game/bounds.py`). So every value of a table at a position with both "
        "scores at least 0 is within that bound of the value of the table's play in the real "
        "game. The bounds, largest over every such position:",
        "",
        *markdown_lines(["table", "from 0 to 0", "normal play", "the last turn", "sudden death"],
                   [[name, *(f"{x[k]:.2e}" for k in ("opening", "normal", "last",
                                                      "sudden-death"))] for name, x in rows],
                   "lrrrr"),
        "",
        ("Every bound is below 1e-9." if worst < 1e-9 else
         f"**Not every bound is below 1e-9** (largest {worst:.2e}): a lower lowest score "
         "is needed there."),
        "",
        "Under `score-floor-zero` the lowest score kept is the rules' own floor, so its "
        "bound is 0. Without a sudden death (`endgame-new-final-round`) that column is 0.",
        "",
        f"Nearer the lowest score the bound grows. From positions with both scores at least "
        f"these (target {s['target']}, default readings; largest over every phase):",
        "",
    ]
    profile = b["targets"][str(s["target"])]["from_scores"]
    lines += markdown_lines(["both scores at least", "bound"],
                       [[int(points), f"{x:.2e}"] for points, x in profile.items()], "rr")
    covered = [int(points) for points, x in profile.items() if x < 1e-9]
    lines += [
        "",
        "`treasure sabords game` and `hold` answer any position down to the lowest score (a "
        "lower score is an error). The answer is the truncated game's value; it differs from "
        "the real game's by at most the bound of the first row at or below the lower of the "
        "position's two scores"
        + (f": less than 1e-9 for positions with both scores at least {min(covered)}."
           if covered else "."),
        "",
        "## Independent draws against a real deck",
        "",
        f"{d['games']:,} seeded games per row, both players using the solved policy, each "
        "turn's outcome drawn from that policy's distribution for the card and state.",
        "",
        *markdown_lines(["cards drawn", "P(first player wins)", "standard error"],
                   [["exact (independent draws)", _fmt(d["exact"]), "-"],
                    ["simulated, independent draws", _fmt(d["independent"]),
                     f"{d['independent_se']:.6f}"],
                    ["simulated, one shuffled 35-card pile, reshuffled when empty",
                     _fmt(d["real_deck"]), f"{d['real_deck_se']:.6f}"]], "lrr"),
        "",
        f"The real deck moves P(first player wins) by {d['difference']:+.5f} "
        f"(standard error {d['real_deck_se']:.5f}, so "
        f"{abs(d['difference']) / d['real_deck_se']:.1f} standard errors from none).",
        "",
        "## The solve",
        "",
        "Newton steps per phase: "
        + ", ".join(f"{k} {v}" for k, v in s["solve"]["sweeps"].items())
        + "; Bellman residual per phase: "
        + ", ".join(f"{k} {v:.1e}" for k, v in s["solve"]["residual"].items())
        + ". The time is printed by `make bench`.",
        "",
    ]
    return "\n".join(lines)
