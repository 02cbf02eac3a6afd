"""Editions as data: load ``models/<game>/editions.toml``, classify every rule point, and run
the rulebooks' own number checks against the models.

A point's class is computed from what the editions say (models/README.md):
*translation fault* when an edition's text carries a ``fault``; otherwise *contradiction* when
two editions give different readings, *agreed* when every edition that speaks gives one
reading, *silence* when none speaks.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from solver.util import MODELS_DIR

CLASSES = ("agreed", "contradiction", "silence", "translation fault")


@dataclass
class RulePoint:
    game: str
    id: str
    topic: str
    default: str
    why: str
    variant: str = ""
    says: list[dict] = field(default_factory=list)

    @property
    def readings(self) -> list[str]:
        return sorted({s["reading"] for s in self.says})

    @property
    def klass(self) -> str:
        if any(s.get("fault") for s in self.says):
            return "translation fault"
        if not self.says:
            return "silence"
        return "contradiction" if len(self.readings) > 1 else "agreed"


@dataclass
class Editions:
    game: str
    path: Path
    editions: dict[str, dict]
    points: list[RulePoint]
    research: list[dict]
    count_checks: list[dict]


def load_editions(game_folder: str, models_dir: Path = MODELS_DIR) -> Editions:
    path = models_dir / game_folder / "editions.toml"
    with open(path, "rb") as handle:
        raw = tomllib.load(handle)
    points = [
        RulePoint(
            game=game_folder,
            id=p["id"],
            topic=p["topic"],
            default=p["default"],
            why=p.get("why", ""),
            variant=p.get("variant", ""),
            says=list(p.get("says", [])),
        )
        for p in raw.get("point", [])
    ]
    return Editions(game_folder, path, raw.get("editions", {}), points,
                    list(raw.get("research", [])), list(raw.get("count_check", [])))


def structural_errors(ed: Editions, known_variants: set[str] | None) -> list[str]:
    """Problems with the data itself: unknown editions, duplicate ids, a default that no
    edition's reading or variant explains, variant names the solvers do not know."""
    errors = []
    seen = set()
    for point in ed.points:
        where = f"{ed.game}/{point.id}"
        if point.id in seen:
            errors.append(f"{where}: duplicate rule point id")
        seen.add(point.id)
        for say in point.says:
            if say.get("edition") not in ed.editions:
                errors.append(f"{where}: unknown edition {say.get('edition')!r}")
            if not say.get("statement"):
                errors.append(f"{where}: an edition's statement is empty")
        if point.klass in ("contradiction", "silence") and not point.variant:
            errors.append(f"{where}: a {point.klass} needs a named variant")
        if known_variants is not None and point.variant and point.variant not in known_variants:
            errors.append(f"{where}: variant {point.variant!r} is not defined in models/")
        for say in point.says:
            reading = say.get("reading")
            if reading not in (point.default, point.variant):
                errors.append(f"{where}: reading {reading!r} is neither the default nor the "
                              f"variant")
    for ed_id, spec in ed.editions.items():
        if not spec.get("source"):
            errors.append(f"{ed.game}: edition {ed_id} names no source file")
    return errors
