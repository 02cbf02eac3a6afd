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

from solver.games import GAMES, SolveRun
from solver.games import game as find_game
from solver.io import atomic_write_text
from solver.rules.check import check_editions
from solver.rules.claims import stored_claims
from solver.rules.closed_forms import markdown as closed_forms_markdown
from solver.rules.effects import effect_of, follows, is_open, summary_order, words
from solver.text import markdown_lines


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


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


def _edition_row(ed_id: str, spec: dict) -> tuple[str, str, str]:
    also = f" (also `{spec['also']}`)" if spec.get("also") else ""
    return ed_id, f"`{spec.get('source', '')}`{also}", spec.get("language", "")


def _count_row(c: dict) -> tuple:
    """A rulebook count check: what, where, the stated number, what the rulebook's other
    numbers and the models give, and whether they agree."""
    derived = f"{c['expected']} ({_cell(c.get('derived_from', ''))})" if "expected" in c else ""
    if not c.get("adds_up", True):
        derived = f"**{derived}**"
    return (_cell(c["what"]), c.get("edition", ""), c.get("at", ""), c["stated"], derived,
            c["computed"], "yes" if c["agrees"] else "**no**")


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
        lines += [f"## {find_game(game).title}", "",
                  *markdown_lines(["edition", "source", "language"],
                                  [_edition_row(ed_id, spec)
                                   for ed_id, spec in sorted(entry["editions"].items())],
                                  "lll")]
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
                  *markdown_lines(["check", "edition", "place", "stated",
                                   "the rulebook's other numbers give", "models give", "agrees"],
                                  [_count_row(c) for c in entry["count_checks"]], "lllrlrl")]
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
             *markdown_lines(["invariant", "statement", "method", "result", "certificate"],
                             [(r["id"], _cell(r["statement"]), _cell(r["method"]),
                               "holds" if r["holds"] else "**fails**", f"`{r['certificate']}`")
                              for r in rows], "lllll")]
    return "\n".join(lines) + "\n"


def ambiguities_markdown(entries: dict[str, dict], measured: dict[str, list[dict]]) -> str:
    lines = ["# Ambiguities measured", "",
             "Every open point (a contradiction, a silence, a translation fault, or a point "
             "that carries a variant), its readings, the default chosen and why, and what the "
             "other reading changes, each number with its unit: "
             + "; ".join(words(g.name).measured for g in GAMES) + ". Counts of "
             "changed decisions carry their denominators. A reading that changes nothing is "
             "proved to change nothing exactly (the two readings build the same problem, or "
             "the default's exact certificate verifies under the variant); a sample in which "
             "nothing changes is reported as such, never as a proof. A game-level rule (the "
             "game end, ties, nine of a kind, the target) is measured only by a whole-game "
             "solver; until one reads it, its effect is *not measured*.", ""]
    for game, entry in entries.items():
        lines += [f"## {find_game(game).title}", ""]
        rows = measured.get(game, [])
        for p in (p for p in entry["points"] if is_open(p)):
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


def _relative(size: float) -> str:
    return f"{100 * size:.2f} %" if size >= 0 else ""


def summary_markdown(entries: dict[str, dict], measured: dict[str, list[dict]]) -> str:
    """The one-page summary: each open point in one line, sorted by the size of its effect
    relative to the default value (:func:`summary_order`)."""
    items = []
    for game, entry in entries.items():
        for p in (p for p in entry["points"] if is_open(p)):
            _, effect, size = effect_of(game, p, entry, measured.get(game, []))
            followed = follows(p)
            follows_text = ", ".join(followed) if followed else "no edition (a choice)"
            items.append((summary_order(effect, size), game, p["id"],
                          (find_game(game).title.split(" /")[0], _cell(_at_the_table(p)),
                           f"`{p['default']}`", follows_text, _cell(effect), _relative(size))))
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
             *markdown_lines(["game", "what is unclear", "default ruling", "follows",
                              "measured effect of the other reading", "relative to the default"],
                             [row for *_, row in sorted(items)], "lllllr")]
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


def write_reports(run: SolveRun, remeasure: bool = True) -> None:
    """Write reports/rules/ from the run's invariants and claims (steps of ``make solve`` that
    run once, before this one; see :mod:`solver.games`); ``remeasure=False`` reuses the stored
    claims and invariants.md."""
    out = run.reports_dir / "rules"
    entries, invariant_rows, measured = {}, [], {}
    for game in [g.name for g in GAMES]:
        print(f"  verifier: {game} ...", file=sys.stderr, flush=True)
        entries[game] = check_editions(game, readings=run.game_readings(game))
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
