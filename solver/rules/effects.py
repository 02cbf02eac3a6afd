"""What each rule point's other reading changes: its report lines, a one-line summary and its
size relative to the default value, from the measured rows (turn and route solvers) or the
game-level readings (whole-game solvers), in each game's own words (its registry entry's
:class:`~solver.rules.words.GameWords`). ``treasure check`` annotates the points with these;
the reports print them."""

from __future__ import annotations

from solver.games import game as find_game
from solver.rules.words import GameWords
from solver.rules.words import count as _n
from solver.text import markdown_lines


def words(game: str) -> GameWords:
    """The game's words for the verifier (plain defaults when its entry gives none)."""
    return find_game(game).hook("verifier") or GameWords()


def is_open(p: dict) -> bool:
    """A point the rulebooks leave open, or one that carries another reading."""
    return (p["class"] not in ("agreed", "stated by one edition") or bool(p["variant"])
            or (p["measure"] == "game" and bool(p.get("game_readings"))))


def follows(p: dict) -> list[str]:
    """The editions whose reading is the default."""
    return sorted({s["edition"] for s in p["says"] if s["reading"] == p["default"]})


def change_text(row: dict) -> str:
    """A row's change, with its standard error when it is an estimate ('+0.2000 ± 0.0730')."""
    if row.get("stderr") is None:
        return f"{row['delta']:+.4f}"
    return f"{row['delta']:+.4f} ± {row['stderr']:.4f}"


def _game_effect_lines(said: GameWords, p: dict, baseline: dict
                       ) -> tuple[list[str], str, float]:
    """A game-level point: the whole-game solver's readings, or 'not measured'."""
    effects = p.get("game_effects", {})
    names = p.get("game_readings", [])
    if not effects:
        return ([f"- effect: not measured: no solver plays the other reading yet (a game-level "
                 f"rule; {said.game_level_source})"],
                "not measured", -1.0)
    out = []
    base = baseline.get("first_player_wins")
    if base is not None:
        out.append(f"- default (target {baseline.get('target', '?')}): P(first player wins) = "
                   f"{base:.4f}")
    worst, size = "", 0.0
    for name in names:
        e = effects.get(name)
        if e is None:
            out.append(f"- `{name}`: not measured")
            continue
        unit = e.get("unit", "P(first player wins)")
        text = f"- `{name}`: {unit} = {e['first_player_wins']:.4f} ({e['delta']:+.2e})"
        if e.get("decisions_changed") is None:
            text += "; decisions not compared (the states differ)"
        else:
            text += (f"; at {_n(e['decisions_changed'])} of {_n(e['decisions_total'])} "
                     f"{said.game_decisions} the default's play loses more than 1e-9 P(win) "
                     "under this reading")
        out.append(text)
        relative = abs(e["delta"]) / base if base else abs(e["delta"])
        if relative >= size:  # relative to the default's P(win), as turn effects are
            size = relative
            worst = f"{e['delta']:+.2e} {unit} (`{name}`)"
    return out, worst, size


def _turn_effect(said: GameWords, p: dict, rows: list[dict]) -> tuple[list[str], str, float]:
    """Lines for a point read by a turn or route solver, a short effect and its size."""
    effect = [r for r in rows if r["variant"] == p["variant"]]
    changed = [r for r in effect if r["claim"] == "changes" or r["changed_states"]]
    seen_only = [r for r in effect if r["claim"] == "no change seen"]
    if not effect:
        return ["- effect: not measured by a solver"], "not measured", -1.0
    play = said.arising_lines(effect[0])
    if not changed and seen_only:
        return ([f"- effect: none seen ({seen_only[0]['proof']}); not proved"] + play,
                "none seen in a sample", 0.0)
    if not changed:
        proofs = sorted({r["proof"] for r in effect})
        return ([f"- effect: **none**, proved for every case measured ({len(effect)}; "
                 f"{', '.join(proofs)})"] + play, "none (proved)", 0.0)
    cells: list[tuple[str, ...]] = []
    best, best_size = "", -1.0
    for r in changed:
        case, often = said.case(r)
        unit = said.units.get(r["objective"], "")
        objective = f"{r['objective']} ({unit})" if unit else r["objective"]
        total = said.decision_total(r, effect)
        count = f"{_n(r['changed_states'])} of {_n(total)}" if total else _n(r["changed_states"])
        if r.get("states_changed") is not None:
            count += f"; {_n(r['states_changed'])} board states change value"
        change = change_text(r)
        cells.append((case, often, objective, f"{r['default']:.4f}", f"{r['value']:.4f}", change,
                      count))
        # a share of games whose winner changes is relative to all games (``relative_to``)
        size = abs(r["delta"]) / max(abs(r.get("relative_to", r["default"])), 1e-9)
        if size > best_size:
            best_size = size
            best = f"{change} {unit or r['objective']} ({case})" + said.summary_note(r)
    lines = [*play, "", *markdown_lines(["case", "how often it arises", "objective (unit)",
                                         "default", "variant", "change",
                                         f"{said.decisions} whose best action changes"],
                                        cells, "lllrrrl"), *said.lines_after(changed, effect)]
    same = len(effect) - len(changed)
    if same:
        lines.append(f"\nEvery other case ({same}) is proved unchanged.")
    return lines, best, best_size


def effect_of(game: str, p: dict, entry: dict, rows: list[dict]) -> tuple[list[str], str, float]:
    """The report lines of a point's measured effect, a short summary and its size (-1: not
    measured)."""
    reason = p.get("not_measured", "")
    if p["measure"] == "none":
        what = f" (`{p['variant']}`: {p['variant_description']})" if p["variant"] else ""
        why = f" Why: {reason}" if reason else ""
        return ([f"- effect: not measured: no solver reads this rule{what}.{why}"],
                "not measured", -1.0)
    if p["measure"] == "game":
        lines, summary, size = _game_effect_lines(words(game), p, entry.get("game_baseline", {}))
        if reason and size < 0:
            lines.append(f"- why not measured: {reason}")
        return lines, summary, size
    if not p["variant"]:
        if reason:
            return [f"- no other reading measured: {reason}"], "no variant", -1.0
        return ["- no variant: the point does not reach the solvers"], "no variant", -1.0
    lines, summary, size = _turn_effect(words(game), p, rows)
    if reason and size < 0:
        lines.append(f"- why not measured: {reason}")
    return lines, summary, size


def annotate_points(game: str, entry: dict, rows: list[dict]) -> None:
    """Give each point of ``check_editions``' entry what the reports show beyond the data:
    open or not, the editions the default follows, and the measured effect (its summary, size,
    report lines and the stored rows behind them); ``treasure check --json`` prints these."""
    for p in entry["points"]:
        lines, summary, size = effect_of(game, p, entry, rows)
        p["open"] = is_open(p)
        p["follows"] = follows(p)
        p["effect"] = {"summary": summary, "size": size if size >= 0 else None,
                       "lines": [line.strip() for line in lines if line.strip()],
                       "rows": [r for r in rows if p["variant"] and r["variant"] == p["variant"]
                                and p["measure"] == "turn"]}


def summary_order(effect: str, size: float) -> tuple[int, float]:
    """Where a point stands in the summary: measured effects by their size relative to the
    default value, largest first; then effects proved or seen to be none; then points with no
    other reading; last the readings no solver measures."""
    if size > 0:
        return 0, -size
    if size == 0:
        return 1, 0.0
    return (2, 0.0) if effect == "no variant" else (3, 0.0)
