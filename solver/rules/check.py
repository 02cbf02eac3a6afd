"""``treasure check``: run every verification and collect the verdicts as data.

Failures (an invariant that does not hold, a certificate or claim that does not verify, a
rulebook number the models contradict, malformed editions data, a cited place that does not
hold its quoted words) make ``ok`` false. The classes of rule points (agreed, stated by one
edition, contradiction, silence, translation fault) are findings, reported but never failures:
they are what the rulebooks say.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from solver.games import GAMES, SolveRun
from solver.games import game as find_game
from solver.paths import MODELS_DIR, PROOFS_DIR, REPO_ROOT
from solver.rules import closed_forms
from solver.rules.claims import stored_claims
from solver.rules.editions import CLASSES, load_editions, research_rules, structural_errors
from solver.rules.effects import annotate_points

SEEDS_DIR = REPO_ROOT.parent / "shared" / "seeds"
RESEARCH_FILE = REPO_ROOT.parent / "shared" / "research.md"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")


def load_seeds(seeds_dir: Path = SEEDS_DIR) -> dict[str, list[str]]:
    """The rulebook texts by their three-digit prefix (empty when the seeds are absent)."""
    if not seeds_dir.is_dir():
        return {}
    return {p.name[:3]: _lines(p) for p in sorted(seeds_dir.glob("[0-9][0-9][0-9]_*.txt"))}


def load_research(path: Path = RESEARCH_FILE) -> list[str] | None:
    return _lines(path) if path.is_file() else None


def check_editions(game: str, models_dir: Path = MODELS_DIR, seeds_dir: Path = SEEDS_DIR,
                   readings: dict | None = None) -> dict:
    """A game's rule points, classes and rulebook counts checked, with the whole-game
    solver's ``readings`` of its game-level rules (``{"target", "first_player_wins",
    "readings": {name: row}}``, as :meth:`solver.games.SolveRun.game_readings` gives them;
    None: the game's shipped ones; an absent reading is "not measured")."""
    ed = load_editions(find_game(game).folder, models_dir)
    variants_fn = find_game(game).hook("variants")
    known = set(variants_fn()) if variants_fn else None
    errors = structural_errors(ed, known, load_seeds(seeds_dir), load_research())
    fact = find_game(game).hook("fact")
    counts = []
    for check in ed.count_checks:
        computed = fact(check["check"]) if fact else None
        agrees = computed == check["stated"]
        # the rulebook's other numbers (``derived_from``) must give the stated one too
        adds_up = check.get("expected", check["stated"]) == check["stated"]
        counts.append({**check, "computed": computed, "agrees": agrees, "adds_up": adds_up})
        if not agrees:
            errors.append(f"{game}: {check['what']}: the rulebook says {check['stated']}, "
                          f"the models give {computed}")
        if not adds_up:
            errors.append(f"{game}: {check['what']}: the rulebook says {check['stated']}, its "
                          f"other numbers give {check['expected']} ({check.get('derived_from')})")
    measured = SolveRun().game_readings(game) if readings is None else readings
    points = []
    for p in ed.points:
        row = {"id": p.id, "topic": p.topic, "class": p.klass, "default": p.default,
               "variant": p.variant, "why": p.why, "says": p.says, "table": p.table,
               "also": p.also, "measure": p.measure,
               "variant_description": p.variant_description, "not_measured": p.not_measured,
               "research": [r for r in ed.research if p.id in research_rules(r)]}
        if p.measure == "game":
            names = p.game_readings or ([p.variant] if p.variant else [])
            row["game_effects"] = {n: measured["readings"][n] for n in names
                                   if n in measured.get("readings", {})}
            row["game_readings"] = names
        points.append(row)
    tally = {c: sum(1 for p in points if p["class"] == c) for c in CLASSES}
    return {"editions": ed.editions, "points": points, "classes": tally,
            "count_checks": counts, "research": ed.research, "errors": errors,
            "game_baseline": {k: measured[k] for k in ("target", "first_player_wins")
                              if k in measured}}


def run_check(games: list[str] | None = None, proofs_dir: Path = PROOFS_DIR,
              models_dir: Path = MODELS_DIR,
              progress: Callable[[str], None] | None = None) -> dict:
    """Every verification for the given games (default: all); ``progress`` hears each
    step's name."""
    result: dict = {"games": {}, "ok": True}
    say = progress or (lambda _: None)
    for game in games or [g.name for g in GAMES]:
        say(f"{find_game(game).title}: editions and rulebook counts")
        entry = check_editions(game, models_dir)
        errors = entry["errors"]
        invariants = find_game(game).hook("invariants")
        say(f"{find_game(game).title}: invariants")
        entry["invariants"] = invariants.verify_all(proofs_dir) if invariants else []
        for row in entry["invariants"]:
            if not row["holds"]:
                errors.append(f"{game}: invariant {row['id']} fails or its certificate "
                              f"does not verify")
        certificates = find_game(game).hook("certificates")
        say(f"{find_game(game).title}: certificates")
        entry["certificates"] = certificates(proofs_dir) if certificates else {}
        for name, problems in entry["certificates"].items():
            errors += [f"{game}: certificate {name}: {p}" for p in problems[:3]]
        if not entry["certificates"] and certificates:
            errors.append(f"{game}: no certificates found (run make solve)")
        say(f"{find_game(game).title}: closed forms (sympy) against the engine")
        entry["closed_forms"], mismatches = closed_forms.check(game)
        errors += mismatches
        ambiguity = find_game(game).hook("ambiguity")
        say(f"{find_game(game).title}: variant claims (solving each reading)")
        claims = ambiguity.verify_claims(proofs_dir) if ambiguity else []
        entry["claims_ok"] = not claims
        errors += [f"{game}: {c}" for c in claims]
        annotate_points(game, entry, stored_claims(game, proofs_dir))
        result["games"][game] = entry
        result["ok"] &= not errors
    return result
