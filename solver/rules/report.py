"""``make solve`` for the verifier: write ``reports/rules/`` (README.md with the one-page
summary, consistency.md, invariants.md, ambiguities.md, closed-forms.md) from the invariants
and claims of the run's earlier steps (:class:`solver.games.SolveRun`: each is proved or
measured once) and the closed forms of :mod:`solver.rules.closed_forms`.

``python -m solver.rules.report`` rewrites README.md, consistency.md and ambiguities.md from the
stored claims (``proofs/<game>/variants.json``) without solving anything again; ``make solve``
re-measures first, so both give the same text.
"""

from __future__ import annotations

import sys
from pathlib import Path

from solver.games import GAMES, SolveRun
from solver.games import game as find_game
from solver.rules.check import check_editions
from solver.rules.claims import read_claims
from solver.rules.closed_forms import markdown as closed_forms_markdown
from solver.util import PROOFS_DIR, atomic_write_text

# The unit of each objective's number, per game.
UNITS = {
    "sabords": {"points": "points per turn",
                "margin": "points per turn, own plus what each opponent loses",
                "reach:1000": "P(at least 1000 points in the turn)"},
    "armada": {"turn": "value of the turn's token (doubloon value; a skull -1)",
               "solo": "expected final score, points",
               "duel": "expected final margin over the opponent, points"},
}
DECISIONS = {
    "sabords": "dice states of the turn",
    "armada": "decisions of the opening turn",
    "dracheninsel": "situations",
}


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _n(x: int) -> str:
    return f"{x:,}"


def _where(say: dict) -> str:
    return f" ({say['at']})" if say.get("at") else ""


def _edition_line(say: dict) -> str:
    quote = f"\"{say['quote']}\": " if say.get("quote") else ""
    out = f"- **{say['edition']}**{_where(say)}: {quote}{say['statement']}"
    if say.get("fault"):
        out += f" *Translation fault:* {say['fault']}"
    if say.get("slip"):
        out += f" *Typing slip (not a fault of the rules):* {say['slip']}"
    return out


def _research_line(r: dict) -> str:
    """A fact from outside the rulebooks, cited like an edition: place, quoted words, summary."""
    quote = f"\"{r['quote']}\": " if r.get("quote") else ""
    return f"- **outside the rulebooks**{_where(r)}: {quote}{r['statement']}"


def _at_the_table(p: dict) -> str:
    return p.get("table") or p["topic"]


def consistency_markdown(entries: dict[str, dict]) -> str:
    lines = ["# Rules consistency", "",
             "Every rule point of every game: at the table, in one sentence; then what each "
             "edition says, with a few words of its original wording and its place in the "
             "seed (`file:line`, the three-digit prefix of `../shared/seeds/`), and the point's "
             "class: *agreed* (two or more editions speak and agree), *stated by one edition* "
             "(only one speaks), *contradiction* (two readings, between editions or between "
             "two paragraphs of one), *silence* (no edition decides), *translation fault* (an "
             "edition's text says something the others do not). A typing slip in one language "
             "is reported, but is no class. Summaries are in English; quotes are verbatim.", ""]
    for game, entry in entries.items():
        lines += [f"## {find_game(game).title}", "", "| edition | source | language |",
                  "|---|---|---|"]
        for ed_id, spec in sorted(entry["editions"].items()):
            also = f" (also `{spec['also']}`)" if spec.get("also") else ""
            lines.append(f"| {ed_id} | `{spec.get('source', '')}`{also} | "
                         f"{spec.get('language', '')} |")
        tally = ", ".join(f"{n} {c}" for c, n in entry["classes"].items())
        lines += ["", f"{len(entry['points'])} rule points: {tally}.", ""]
        for p in entry["points"]:
            lines += [f"### {p['id']} ({p['class']})", "",
                      f"At the table: {_at_the_table(p)}", ""]
            lines += [_edition_line(s) for s in p["says"]] or ["- *(no edition decides)*"]
            lines += [_research_line(r) for r in p.get("research", [])]
            variant = f"; variant `{p['variant']}`" if p["variant"] else ""
            if p.get("variant_description"):
                variant += f" ({p['variant_description']})"
            lines.append(f"- default `{p['default']}`{variant}. Why: {p['why']}")
            if p.get("also"):
                lines.append(f"- also: {p['also']}")
            lines.append("")
        lines += ["### The rulebooks' own numbers against the models", "",
                  "| check | edition | place | stated | the rulebook's other numbers give | "
                  "models give | agrees |", "|---|---|---|---:|---|---:|---|"]
        for c in entry["count_checks"]:
            derived = (f"{c['expected']} ({_cell(c.get('derived_from', ''))})"
                       if "expected" in c else "")
            if not c.get("adds_up", True):
                derived = f"**{derived}**"
            lines.append(f"| {_cell(c['what'])} | {c.get('edition', '')} | {c.get('at', '')} | "
                         f"{c['stated']} | {derived} | {c['computed']} | "
                         f"{'yes' if c['agrees'] else '**no**'} |")
        if entry["research"]:
            lines += ["", "### Facts from outside the rulebooks (research.md, the reconstruction)",
                      ""]
            for r in entry["research"]:
                rules = r["rule"] if isinstance(r["rule"], list) else [r["rule"]]
                lines.append(_research_line(r) + f" (rule points: {', '.join(rules)})")
        lines.append("")
    return "\n".join(lines)


def invariants_markdown(rows: list[dict]) -> str:
    lines = ["# Invariants", "",
             "Each invariant is proved by the solvers' machinery and leaves a certificate that "
             "`make check` re-verifies by recomputation.", "",
             "| invariant | statement | method | result | certificate |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['id']} | {_cell(r['statement'])} | {_cell(r['method'])} | "
                     f"{'holds' if r['holds'] else '**fails**'} | `{r['certificate']}` |")
    return "\n".join(lines) + "\n"


def _is_open(p: dict) -> bool:
    return (p["class"] not in ("agreed", "stated by one edition") or bool(p["variant"])
            or (p["measure"] == "game" and bool(p.get("game_readings"))))


# ---- display names, units and how often a case arises -----------------------------------


def _sabords_case(card: str) -> tuple[str, str, float | None]:
    """The card's printed name, how often it is drawn, and that share (None: not in the deck)."""
    from solver.sabords.rules import load_rules

    rules = load_rules()
    deck = dict(rules.deck)
    total = sum(deck.values())
    n = deck.get(card, 0)
    title = rules.cards[card].title if card in rules.cards else card
    if n:
        return title, f"{n} of the {total} cards", n / total
    if card == "none":
        return title, "never in the game (no card is drawn without a card)", None
    return title, f"promo card, not in the {total}-card deck", None


def _dragon_name(item: str) -> str:
    """A card or hunter by the game's own (German) name."""
    from solver.dragon.rules import rules

    r = rules()
    parts = []
    for part in item.split("+"):
        if part in r.actions:
            parts.append(r.actions[part].german)
        elif part in r.terrain_german:
            parts.append(r.terrain_german[part])
        elif part in r.colour_german:
            parts.append(r.colour_german[part])
        else:
            parts.append(part)
    return " / ".join(parts)


def _game_effect_lines(p: dict, baseline: dict) -> tuple[list[str], str, float]:
    """A game-level point: the whole-game solver's readings, or 'not measured'."""
    effects = p.get("game_effects", {})
    names = p.get("game_readings", [])
    if not effects:
        return (["- effect: not measured: no solver plays the other reading yet (a game-level "
                 "rule; the whole-game solver measures it when `reports/sabords/game.json` "
                 "holds it)"],
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
            text += (f"; at {_n(e['decisions_changed'])} of {_n(e['decisions_total'])} score "
                     "pairs the default's play loses more than 1e-9 P(win) under this reading")
        out.append(text)
        relative = abs(e["delta"]) / base if base else abs(e["delta"])
        if relative >= size:  # relative to the default's P(win), as turn effects are
            size = relative
            worst = f"{e['delta']:+.2e} {unit} (`{name}`)"
    return out, worst, size


def _turn_effect(game: str, p: dict, rows: list[dict]) -> tuple[list[str], str, float]:
    """Lines for a point read by a turn or route solver, a short effect and its size."""
    effect = [r for r in rows if r["variant"] == p["variant"]]
    changed = [r for r in effect if r["claim"] == "changes" or r["changed_states"]]
    seen_only = [r for r in effect if r["claim"] == "no change seen"]
    if not effect:
        return ["- effect: not measured by a solver"], "not measured", -1.0
    play = _in_play_lines(effect[0]) if game == "dracheninsel" else []
    if not changed and seen_only:
        return ([f"- effect: none seen ({seen_only[0]['proof']}); not proved"] + play,
                "none seen in a sample", 0.0)
    if not changed:
        proofs = sorted({r["proof"] for r in effect})
        return ([f"- effect: **none**, proved for every case measured ({len(effect)}; "
                 f"{', '.join(proofs)})"] + play, "none (proved)", 0.0)
    units = UNITS.get(game, {})
    lines = ["", "| case | how often it arises | objective (unit) | default | variant | change "
             f"| {DECISIONS[game]} whose best action changes |", "|---|---|---|---:|---:|---:|---|"]
    best, best_size = "", -1.0
    for r in changed:
        case, often = (_sabords_case(r["card"])[:2] if game == "sabords"
                       else (r["card"], _often(game, r)))
        unit = units.get(r["objective"], "")
        objective = f"{r['objective']} ({unit})" if unit else r["objective"]
        total = r.get("decision_states")
        if game == "dracheninsel":  # the situations are stored on the variant's first row
            total = max(len(x.get("situations", [])) for x in effect) or None
        count = f"{_n(r['changed_states'])} of {_n(total)}" if total else _n(r["changed_states"])
        if r.get("states_changed") is not None:
            count += f"; {_n(r['states_changed'])} board states change value"
        change = _change(r)
        lines.append(f"| {case} | {often} | {objective} | {r['default']:.4f} | {r['value']:.4f}"
                     f" | {change} | {count} |")
        # a share of games whose winner changes is relative to all games (``relative_to``)
        size = abs(r["delta"]) / max(abs(r.get("relative_to", r["default"])), 1e-9)
        if size > best_size:
            best_size = size
            best = f"{change} {unit or r['objective']} ({case})"
            if game == "dracheninsel":
                best += (f"; in play: {_share_text(r, 'arises', 'arises')}, "
                         f"{_share_text(r, 'decides', 'decides the turn')}")
    if game == "sabords":
        lines += _deck_average(changed)
    lines = play + lines
    lines += _witness_lines(effect, find_game(game).folder)
    same = len(effect) - len(changed)
    if same:
        lines.append(f"\nEvery other case ({same}) is proved unchanged.")
    return lines, best, best_size


def _change(row: dict) -> str:
    """A row's change, with its standard error when it is an estimate ('+0.2000 ± 0.0730')."""
    if row.get("stderr") is None:
        return f"{row['delta']:+.4f}"
    return f"{row['delta']:+.4f} ± {row['stderr']:.4f}"


def _often(game: str, row: dict | None = None) -> str:
    if game == "dracheninsel":
        if row and row.get("in_play"):
            c = row["in_play"]["arises"]
            where = "simulated games" if "relative_to" in row else "sampled situations"
            return (f"{where}; in play in {_n(c['count'])} of {_n(c['turns'])} "
                    "simulated turns (above)")
        return "in the sampled situations (how often in a game: not measured)"
    return "every game (the opening position)"


def _share_text(row: dict, key: str, verb: str) -> str:
    """'arises in 37 of 1,204 simulated turns (3.07 % ± 0.52 %)', from the row's ``in_play``."""
    play = row.get("in_play")
    if not play:
        return f"{verb}: not measured"
    c = play[key]
    return (f"{verb} in {_n(c['count'])} of {_n(c['turns'])} simulated turns "
            f"({100 * c['share']:.2f} % ± {100 * c['stderr']:.2f} %)")


def _in_play_lines(row: dict) -> list[str]:
    """Die Dracheninsel: how often the point's situation arises in simulated play."""
    play = row.get("in_play")
    if not play:
        return ["- how often it arises in play: not measured"]
    stopped = play["games"] - play["ended"]
    stop = f"; {stopped} stopped at the turn limit" if stopped else ""
    return [f"- how often in play ({_n(play['games'])} simulated games of {play['players']} "
            f"hunters, seed {play['seed']}, `solver/dragon/play.py`{stop}; ± one standard "
            "error, games as clusters): the situation "
            f"{_share_text(row, 'arises', 'arises')}; the reading "
            f"{_share_text(row, 'decides', 'decides the turn')} (the default's optimal turn "
            "is illegal or no longer optimal under the other reading), and "
            f"{_share_text(row, 'value_changes', 'changes its optimal value')}."]


def _deck_average(rows: list[dict]) -> list[str]:
    """Mille Sabords: the change averaged over every turn of a game (the deck's shares)."""
    out = []
    for objective in sorted({r["objective"] for r in rows}):
        total, any_deck = 0.0, False
        for r in rows:
            share = _sabords_case(r["card"])[2]
            if r["objective"] == objective and share:
                total += share * r["delta"]
                any_deck = True
        if any_deck:
            unit = UNITS["sabords"].get(objective, "")
            out.append(f"\nAveraged over every turn of a game (the standard deck), {objective}: "
                       f"{total:+.4f} {unit}.")
    return out


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
        lines, summary, size = _game_effect_lines(p, entry.get("game_baseline", {}))
        if reason and size < 0:
            lines.append(f"- why not measured: {reason}")
        return lines, summary, size
    if not p["variant"]:
        if reason:
            return [f"- no other reading measured: {reason}"], "no variant", -1.0
        return ["- no variant: the point does not reach the solvers"], "no variant", -1.0
    lines, summary, size = _turn_effect(game, p, rows)
    if reason and size < 0:
        lines.append(f"- why not measured: {reason}")
    return lines, summary, size


def ambiguities_markdown(entries: dict[str, dict], measured: dict[str, list[dict]]) -> str:
    lines = ["# Ambiguities measured", "",
             "Every open point (a contradiction, a silence, a translation fault, or a point "
             "that carries a variant), its readings, the default chosen and why, and what the "
             "other reading changes, each number with its unit: Mille Sabords per card and "
             "objective (points per turn, or a probability), with how often the card is drawn "
             "and the change averaged over the deck; Gold Armada from the opening position "
             "(the turn's token, the final score, the final margin); Die Dracheninsel on "
             "seeded random turns in which the point arises, each solved exactly under both "
             "readings, with a witness turn whose optimum changes, and how often the point's "
             "situation arises, and decides the turn, in seeded simulated games of four "
             "hunters (a share of all simulated turns, with its standard error). Counts of "
             "changed decisions carry their denominators. A reading that changes nothing is "
             "proved to change nothing exactly (the two readings build the same problem, or "
             "the default's exact certificate verifies under the variant); a sample in which "
             "nothing changes is reported as such, never as a proof. A game-level rule (the "
             "game end, ties, nine of a kind, the target) is measured only by a whole-game "
             "solver; until one reads it, its effect is *not measured*.", ""]
    for game, entry in entries.items():
        lines += [f"## {find_game(game).title}", ""]
        rows = measured.get(game, [])
        for p in (p for p in entry["points"] if _is_open(p)):
            lines += [f"### {p['id']}: {p['topic']}", "",
                      f"- at the table: {_at_the_table(p)}",
                      f"- class: {p['class']}",
                      f"- default: `{p['default']}`; variant: `{p['variant'] or '(none)'}`",
                      f"- why: {p['why']}"]
            if p.get("also"):
                lines.append(f"- also: {p['also']}")
            for s in p["says"]:
                lines.append(f"- {s['edition']}{_where(s)} says: {s['statement']}")
            for r in p.get("research", []):
                lines.append(f"- outside the rulebooks{_where(r)}: {r['statement']}")
            lines += effect_of(game, p, entry, rows)[0]
            lines.append("")
    return "\n".join(lines)


def _follows(p: dict) -> list[str]:
    """The editions whose reading is the default."""
    return sorted({s["edition"] for s in p["says"] if s["reading"] == p["default"]})


def annotate_points(game: str, entry: dict, rows: list[dict]) -> None:
    """Give each point of ``check_editions``' entry what the reports show beyond the data:
    open or not, the editions the default follows, and the measured effect (its summary, size,
    report lines and the stored rows behind them); ``treasure check --json`` prints these."""
    for p in entry["points"]:
        lines, summary, size = effect_of(game, p, entry, rows)
        p["open"] = _is_open(p)
        p["follows"] = _follows(p)
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


def _relative(size: float) -> str:
    return f"{100 * size:.2f} %" if size >= 0 else ""


def summary_markdown(entries: dict[str, dict], measured: dict[str, list[dict]]) -> str:
    """The one-page summary: each open point in one line, sorted by the size of its effect
    relative to the default value (:func:`summary_order`)."""
    items = []
    for game, entry in entries.items():
        for p in (p for p in entry["points"] if _is_open(p)):
            _, effect, size = effect_of(game, p, entry, measured.get(game, []))
            follows = _follows(p)
            follows_text = ", ".join(follows) if follows else "no edition (a choice)"
            items.append((summary_order(effect, size), game, p["id"],
                          f"| {find_game(game).title.split(' /')[0]} | "
                          f"{_cell(_at_the_table(p))} | `{p['default']}` | {follows_text} | "
                          f"{_cell(effect)} | {_relative(size)} |"))
    lines = ["# Rules verifier reports", "",
             "## At the table: every open point on one page", "",
             "Each point the rulebooks leave open, the ruling the solvers use by default, the "
             "edition that ruling follows, and the other reading's measured effect (its "
             "largest change, in its own unit), sorted by that change relative to the default "
             "value (the last column: a turn's or the opening's value, or the first player's "
             "P(win); a share of games whose winner changes is relative to all games), "
             "largest first; then the readings proved or seen to change nothing, the "
             "points with no other reading, and last the readings no solver measures yet. "
             "Details: [ambiguities.md](ambiguities.md).", "",
             "| game | what is unclear | default ruling | follows | measured effect of the "
             "other reading | relative to the default |", "|---|---|---|---|---|---:|"]
    lines += [row for *_, row in sorted(items)]
    lines += ["", "## The reports", "",
              "- [consistency.md](consistency.md): every rule point per game and edition, with "
              "its class and its place in the seeds, and the rulebooks' own numbers checked "
              "against the models",
              "- [closed-forms.md](closed-forms.md): the rule probabilities as sympy closed "
              "forms beside the engine's exact numbers, checked equal",
              "- [invariants.md](invariants.md): each invariant's statement, method, result "
              "and certificate",
              "- [ambiguities.md](ambiguities.md): each open point, its readings, the measured "
              "effect with units, the default chosen and why",
              "", "`make check` re-verifies every certificate and claim behind these tables.", ""]
    return "\n".join(lines)


def _witness_lines(rows: list[dict], folder: str) -> list[str]:
    """A witness turn (Die Dracheninsel): the situation whose optimum the reading changes."""
    out = []
    for r in rows:
        w = r.get("witness")
        if w:
            if "values_changed" in r:
                n = len(r.get("situations", []))
                out += ["", f"Of the {n} situations, {r['values_changed']} change their optimal "
                        f"value and {r['changed_states']} their best action."]
            beyond = " beyond the sample" if w["index"] >= len(r.get("situations", [])) else ""
            hand = ", ".join(_dragon_name(c) for c in w["hand"])
            out += ["", f"Witness (situation {w['index']}{beyond}, stored in "
                    f"`proofs/{folder}/variants.json`): the {_dragon_name(w['hunter'])} hunter "
                    f"holding {hand}; default: {_turn_value(w['default'])}; variant: "
                    f"{_turn_value(w['variant'])}. Re-solved by `make check` with both route "
                    "finders."]
    return out


def _turn_value(value: list) -> str:
    rem, spent = value
    head = "reaches the goal" if rem == 0 else (
        "cannot reach the goal" if rem is None else f"{rem} card{'' if rem == 1 else 's'} short")
    return f"{head}, {spent} card{'' if spent == 1 else 's'} spent"


def stored_claims(game: str, proofs_dir: Path = PROOFS_DIR) -> list[dict]:
    """The measured rows of every variant (``proofs/<game>/variants.json``), or []."""
    ambiguity = find_game(game).hook("ambiguity")
    if not ambiguity:
        return []
    try:
        return read_claims(proofs_dir / ambiguity.CLAIMS_FILE)
    except ValueError:
        return []


def write_reports(run: SolveRun, remeasure: bool = True) -> None:
    """Write reports/rules/ from the run's invariants and claims (steps of ``make solve`` that
    run once, before this one; see :mod:`solver.games`); ``remeasure=False`` reuses the stored
    claims and invariants.md."""
    out = run.reports_dir / "rules"
    entries, invariant_rows, measured = {}, [], {}
    for game in [g.name for g in GAMES]:
        print(f"  verifier: {game} ...", file=sys.stderr, flush=True)
        entries[game] = check_editions(game, reports_dir=run.reports_dir)
        if not remeasure:
            measured[game] = stored_claims(game, run.proofs_dir)
            continue
        invariant_rows += run.invariants(game)
        measured[game] = run.claims(game)
    atomic_write_text(out / "consistency.md", consistency_markdown(entries))
    if remeasure:
        atomic_write_text(out / "invariants.md", invariants_markdown(invariant_rows))
    atomic_write_text(out / "ambiguities.md", ambiguities_markdown(entries, measured))
    atomic_write_text(out / "README.md", summary_markdown(entries, measured))
    atomic_write_text(out / "closed-forms.md", closed_forms_markdown())


if __name__ == "__main__":
    write_reports(SolveRun(), remeasure=False)
