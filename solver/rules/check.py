"""``treasure check``: run every verification and collect the verdicts as data.

Failures (an invariant that does not hold, a certificate or claim that does not verify, a
rulebook number the models contradict, malformed editions data) make ``ok`` false. The
classes of rule points (agreed, contradiction, silence, translation fault) are findings,
reported but never failures: they are what the rulebooks say.
"""

from __future__ import annotations

from pathlib import Path

from solver.rules.editions import CLASSES, load_editions, structural_errors
from solver.rules.games import GAMES, hook
from solver.util import MODELS_DIR, PROOFS_DIR


def check_editions(game: str, models_dir: Path = MODELS_DIR) -> dict:
    ed = load_editions(GAMES[game]["folder"], models_dir)
    variants_fn = hook(game, "variants")
    known = set(variants_fn()) if variants_fn else None
    errors = structural_errors(ed, known)
    fact = hook(game, "fact")
    counts = []
    for check in ed.count_checks:
        computed = fact(check["check"]) if fact else None
        agrees = computed == check["stated"]
        counts.append({**check, "computed": computed, "agrees": agrees})
        if not agrees:
            errors.append(f"{game}: {check['what']}: the rulebook says {check['stated']}, "
                          f"the models give {computed}")
    points = [{
        "id": p.id, "topic": p.topic, "class": p.klass, "default": p.default,
        "variant": p.variant, "why": p.why, "says": p.says,
    } for p in ed.points]
    tally = {c: sum(1 for p in points if p["class"] == c) for c in CLASSES}
    return {"editions": ed.editions, "points": points, "classes": tally,
            "count_checks": counts, "research": ed.research, "errors": errors}


def run_check(games: list[str] | None = None, proofs_dir: Path = PROOFS_DIR,
              models_dir: Path = MODELS_DIR) -> dict:
    """Every verification for the given games (default: all)."""
    result: dict = {"games": {}, "ok": True}
    for game in games or list(GAMES):
        entry = check_editions(game, models_dir)
        errors = entry["errors"]
        invariants = hook(game, "invariants")
        entry["invariants"] = invariants.verify_all(proofs_dir) if invariants else []
        for row in entry["invariants"]:
            if not row["holds"]:
                errors.append(f"{game}: invariant {row['id']} fails or its certificate "
                              f"does not verify")
        certificates = hook(game, "certificates")
        entry["certificates"] = certificates(proofs_dir) if certificates else {}
        for name, problems in entry["certificates"].items():
            errors += [f"{game}: certificate {name}: {p}" for p in problems[:3]]
        if not entry["certificates"] and certificates:
            errors.append(f"{game}: no certificates found (run make solve)")
        ambiguity = hook(game, "ambiguity")
        claims = ambiguity.verify_claims(proofs_dir) if ambiguity else []
        entry["claims_ok"] = not claims
        errors += [f"{game}: {c}" for c in claims]
        result["games"][game] = entry
        result["ok"] &= not errors
    return result
