"""``make solve`` for the verifier: prove every invariant, measure every variant, and write
``reports/rules/`` (consistency.md, invariants.md, ambiguities.md, README.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from solver.rules.check import check_editions
from solver.rules.games import GAMES, hook
from solver.util import PROOFS_DIR, atomic_write_text


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def consistency_markdown(entries: dict[str, dict]) -> str:
    lines = ["# Rules consistency", "",
             "Every rule point of every game, what each edition says, and its class: "
             "*agreed* (every edition that speaks says the same), *contradiction*, *silence* "
             "(no edition decides), *translation fault*. Editions: see the table per game. "
             "Statements are summaries in English, not the rulebooks' text.", ""]
    for game, entry in entries.items():
        lines += [f"## {GAMES[game]['title']}", "", "| edition | source | language |",
                  "|---|---|---|"]
        for ed_id, spec in sorted(entry["editions"].items()):
            lines.append(f"| {ed_id} | `{spec.get('source', '')}` | {spec.get('language', '')}"
                         f" |")
        tally = ", ".join(f"{n} {c}" for c, n in entry["classes"].items())
        lines += ["", f"{len(entry['points'])} rule points: {tally}.", "",
                  "| point | class | default reading | variant | what the editions say |",
                  "|---|---|---|---|---|"]
        for p in entry["points"]:
            says = "; ".join(
                f"**{s['edition']}**: {s['statement']}"
                + (f" *Fault:* {s['fault']}" if s.get("fault") else "") for s in p["says"]
            ) or "*(no edition decides)*"
            lines.append(f"| {p['id']}: {_cell(p['topic'])} | {p['class']} | {p['default']} "
                         f"| {p['variant'] or ''} | {_cell(says)} |")
        lines += ["", "### The rulebooks' own numbers against the models", "",
                  "| check | edition | stated | models give | agrees |", "|---|---|---:|---:|---|"]
        for c in entry["count_checks"]:
            lines.append(f"| {_cell(c['what'])} | {c.get('edition', '')} | {c['stated']} | "
                         f"{c['computed']} | {'yes' if c['agrees'] else '**no**'} |")
        if entry["research"]:
            lines += ["", "### Facts from outside the rulebooks (research.md, the reconstruction)",
                      ""]
            for r in entry["research"]:
                lines.append(f"- {r['statement']}")
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


def ambiguities_markdown(entries: dict[str, dict], measured: dict[str, list[dict]]) -> str:
    lines = ["# Ambiguities measured", "",
             "Every open point (a contradiction between editions, a silence, a translation "
             "fault), its readings, the default chosen and why, and what the other reading "
             "changes: the optimal expected value per card (or position) and objective, and "
             "how many decision states change their best action (Mille Sabords: every dice "
             "state of the turn; Gold Armada: every decision of the opening turn, plus the "
             "board states whose value changes; Die Dracheninsel: seeded random turns in which "
             "the point arises, each solved exactly under both readings, with a witness turn "
             "whose optimum changes). A reading that changes "
             "nothing is proved to change nothing exactly (the two readings build the same "
             "problem, or the default's exact certificate verifies under the variant); a "
             "sample in which nothing changes is reported as such, never as a proof.", ""]
    for game, entry in entries.items():
        lines += [f"## {GAMES[game]['title']}", ""]
        rows = measured.get(game, [])
        open_points = [p for p in entry["points"] if p["class"] != "agreed" or p["variant"]]
        for p in open_points:
            lines += [f"### {p['id']}: {p['topic']}", "",
                      f"- class: {p['class']}",
                      f"- default: `{p['default']}`; variant: `{p['variant'] or '(none)'}`",
                      f"- why: {p['why']}"]
            for s in p["says"]:
                lines.append(f"- {s['edition']} says: {s['statement']}")
            effect = [r for r in rows if r["variant"] == p["variant"]]
            changed = [r for r in effect if r["claim"] == "changes" or r["changed_states"]]
            seen_only = [r for r in effect if r["claim"] == "no change seen"]
            if not p["variant"]:
                lines.append("- no variant: the point does not reach the solvers")
            elif not effect:
                lines.append("- not measured by a solver")
            elif not changed and seen_only:
                lines.append(f"- effect: none seen ({seen_only[0]['proof']}); not proved")
            elif not changed:
                proofs = sorted({r["proof"] for r in effect})
                lines.append(f"- effect: **none**, proved for every case measured "
                             f"({len(effect)}; {', '.join(proofs)})")
            else:
                boards = any(r.get("states_changed") is not None for r in changed)
                extra = " board states changed |" if boards else ""
                lines += ["", "| case | objective | default | variant | change | decision "
                          "states changed |" + extra,
                          "|---|---|---:|---:|---:|---:|" + ("---:|" if boards else "")]
                for r in changed:
                    cell = ""
                    if boards:
                        n = r.get("states_changed")
                        cell = f" {'' if n is None else n} |"
                    lines.append(f"| {r['card']} | {r['objective']} | {r['default']:.4f} | "
                                 f"{r['value']:.4f} | {r['delta']:+.4f} | "
                                 f"{r['changed_states']} |" + cell)
                lines += _witness_lines(effect, GAMES[game]["folder"])
                same = len(effect) - len(changed)
                if same:
                    lines.append(f"\nEvery other case ({same}) is proved unchanged.")
            lines.append("")
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
            out += ["", f"Witness (situation {w['index']}{beyond}, stored in "
                    f"`proofs/{folder}/variants.json`): {w['hunter']} holding "
                    f"{', '.join(w['hand'])}; default: {_turn_value(w['default'])}; variant: "
                    f"{_turn_value(w['variant'])}. Re-solved by `make check` with both route "
                    "finders."]
    return out


def _turn_value(value: list) -> str:
    rem, spent = value
    head = "reaches the goal" if rem == 0 else (
        "cannot reach the goal" if rem is None else f"{rem} card{'' if rem == 1 else 's'} short")
    return f"{head}, {spent} card{'' if spent == 1 else 's'} spent"


def write_reports(reports_dir: Path) -> None:
    out = reports_dir / "rules"
    entries, invariant_rows, measured = {}, [], {}
    for game in GAMES:
        print(f"  verifier: {game} ...", file=sys.stderr, flush=True)
        entries[game] = check_editions(game)
        invariants = hook(game, "invariants")
        if invariants:
            invariant_rows += invariants.prove_all(PROOFS_DIR)
        ambiguity = hook(game, "ambiguity")
        if ambiguity:
            measured[game] = ambiguity.measure_all(PROOFS_DIR)
    atomic_write_text(out / "consistency.md", consistency_markdown(entries))
    atomic_write_text(out / "invariants.md", invariants_markdown(invariant_rows))
    atomic_write_text(out / "ambiguities.md", ambiguities_markdown(entries, measured))
    atomic_write_text(out / "README.md", "\n".join([
        "# Rules verifier reports", "",
        "- [consistency.md](consistency.md): every rule point per game and edition, with its "
        "class (agreed, contradiction, silence, translation fault) and the rulebooks' own "
        "numbers checked against the models",
        "- [invariants.md](invariants.md): each invariant's statement, method, result and "
        "certificate",
        "- [ambiguities.md](ambiguities.md): each open point, its readings, the measured "
        "effect, the default chosen and why",
        "", "`make check` re-verifies every certificate and claim behind these tables.", ""]))
