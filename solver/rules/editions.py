"""Editions as data: load ``models/<game>/editions.toml``, classify every rule point, and run
the rulebooks' own number checks against the models.

A point's class is computed from what the editions say (models/README.md):
*translation fault* when an edition's text carries a ``fault``; otherwise *contradiction* when
two editions (or two paragraphs) give different readings, *agreed* when two or more editions
speak and give one reading, *stated by one edition* when only one edition speaks, *silence*
when none speaks. A ``slip`` (a typing slip in one language) is reported but is no class.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from solver.paths import MODELS_DIR

CLASSES = ("agreed", "stated by one edition", "contradiction", "silence", "translation fault")
# Who measures a point's readings: a turn (or route) solver, the whole-game solver, or none yet.
MEASURES = ("turn", "game", "none")
# A place in a seed: the file's three-digit prefix and a line or a range, e.g. ``002:403-405``.
PLACE = re.compile(r"^(\d{3}):(\d+)(?:-(\d+))?$")
RESEARCH_PLACE = re.compile(r"^research\.md:(\d+)(?:-(\d+))?$")
# A statement that reports the text's silence ("the text does not say ...") backs no reading:
# such a point is a silence, and the words belong in its ``why`` or ``also``.
SILENT_WORDS = re.compile(r"\b(does not say|do not say|did not say|is silent|are silent|"
                          r"says nothing|say nothing|no \w+ (?:is|are) named|not stated|"
                          r"nothing is said)\b", re.IGNORECASE)


@dataclass
class RulePoint:
    game: str
    id: str
    topic: str
    default: str
    why: str
    variant: str = ""
    says: list[dict] = field(default_factory=list)
    table: str = ""
    also: str = ""
    measure: str = "turn"
    game_readings: list[str] = field(default_factory=list)
    variant_description: str = ""
    not_measured: str = ""  # why no solver measures the other reading (shown in the reports)

    @property
    def readings(self) -> list[str]:
        return sorted({s["reading"] for s in self.says})

    @property
    def klass(self) -> str:
        if any(s.get("fault") for s in self.says):
            return "translation fault"
        if not self.says:
            return "silence"
        if len(self.readings) > 1:
            return "contradiction"
        return "agreed" if len({s["edition"] for s in self.says}) > 1 else \
            "stated by one edition"


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
            table=p.get("table", ""),
            also=p.get("also", ""),
            measure=p.get("measure", "turn"),
            game_readings=list(p.get("game_readings", [])),
            variant_description=p.get("variant_description", ""),
            not_measured=p.get("not_measured", ""),
        )
        for p in raw.get("point", [])
    ]
    return Editions(game_folder, path, raw.get("editions", {}), points,
                    list(raw.get("research", [])), list(raw.get("count_check", [])))


def research_rules(item: dict) -> list[str]:
    """The rule points a research fact supports (``rule``: one id or a list)."""
    rule = item.get("rule", [])
    return [rule] if isinstance(rule, str) else list(rule)


def unmeasured_variants(game_folder: str, models_dir: Path = MODELS_DIR) -> set[str]:
    """Variants of points that no turn solver measures (game-level, or read by no solver)."""
    return {p.variant for p in load_editions(game_folder, models_dir).points
            if p.variant and p.measure != "turn"}


def _place_errors(where: str, place: str, quote: str, seeds: dict[str, list[str]],
                  research: list[str] | None) -> list[str]:
    """A cited place must exist and hold the quoted words (whitespace-insensitive)."""
    if not place:
        return []
    m = PLACE.match(place)
    r = RESEARCH_PLACE.match(place)
    if m:
        lines = seeds.get(m.group(1))
        first, last = int(m.group(2)), int(m.group(3) or m.group(2))
    elif r:
        lines = research
        first, last = int(r.group(1)), int(r.group(2) or r.group(1))
    else:
        return [f"{where}: place {place!r} is not FILE:LINE (e.g. 002:403) or research.md:LINE"]
    if lines is None:
        return []  # the seeds are not available here: nothing to check against
    if not 1 <= first <= last <= len(lines):
        return [f"{where}: place {place} is outside its file ({len(lines)} lines)"]
    if quote:
        text = " ".join(" ".join(lines[first - 1:last]).split())
        if " ".join(quote.split()) not in text:
            return [f"{where}: the quoted words {quote!r} are not at {place}"]
    return []


def structural_errors(ed: Editions, known_variants: set[str] | None,
                      seeds: dict[str, list[str]] | None = None,
                      research: list[str] | None = None) -> list[str]:
    """Problems with the data itself: unknown editions, duplicate ids, a default that no
    edition's reading or variant explains, variant names the solvers do not know, a statement
    without its place and quoted words, cited places that do not hold the quoted words."""
    errors = []
    seen = set()
    seeds = seeds or {}
    for point in ed.points:
        where = f"{ed.game}/{point.id}"
        if point.id in seen:
            errors.append(f"{where}: duplicate rule point id")
        seen.add(point.id)
        if point.measure not in MEASURES:
            errors.append(f"{where}: measure {point.measure!r} is not one of {MEASURES}")
        for say in point.says:
            if say.get("edition") not in ed.editions:
                errors.append(f"{where}: unknown edition {say.get('edition')!r}")
            if not say.get("statement"):
                errors.append(f"{where}: an edition's statement is empty")
            elif SILENT_WORDS.search(say["statement"]):
                errors.append(f"{where}: {say.get('edition')}'s statement says the text is "
                              "silent, so it backs no reading (a silence has no statements)")
            if not say.get("at") or not say.get("quote"):
                errors.append(f"{where}: {say.get('edition')}'s statement cites no place and "
                              "quoted words (at, quote)")
            errors += _place_errors(where, say.get("at", ""), say.get("quote", ""), seeds,
                                    research)
        if point.says and point.default not in point.readings:
            # never choose silently against the text: an edition that speaks must be followed
            errors.append(f"{where}: the default {point.default!r} follows no edition that "
                          f"speaks ({', '.join(point.readings)}; {point.klass})")
        if point.klass in ("contradiction", "silence") and not point.variant:
            errors.append(f"{where}: a {point.klass} needs a named variant")
        if point.measure == "none" and point.variant:
            # a reading no solver reads yet is defined here, by its description, and the
            # reports say precisely why it is not measured
            if not point.variant_description:
                errors.append(f"{where}: variant {point.variant!r} read by no solver needs a "
                              "variant_description")
            if not point.not_measured:
                errors.append(f"{where}: variant {point.variant!r} read by no solver needs "
                              "not_measured (why no solver measures it)")
        elif (known_variants is not None and point.variant and not point.variant_description
              and point.variant not in known_variants):
            errors.append(f"{where}: variant {point.variant!r} is not defined in models/")
        for say in point.says:
            reading = say.get("reading")
            if reading not in (point.default, point.variant):
                errors.append(f"{where}: reading {reading!r} is neither the default nor the "
                              f"variant")
    for item in ed.research:
        where = f"{ed.game}/research {item.get('id')}"
        if not RESEARCH_PLACE.match(item.get("at", "")) or not item.get("quote"):
            errors.append(f"{where}: cites no place in research.md and quoted words (at, quote)")
        errors += _place_errors(where, item.get("at", ""), item.get("quote", ""), seeds, research)
        for rule in research_rules(item):
            if rule not in seen:
                errors.append(f"{where}: rule {rule!r} names no rule point")
    for check in ed.count_checks:
        errors += _place_errors(f"{ed.game}/count check {check.get('what')!r}", check.get("at", ""),
                                check.get("quote", ""), seeds, research)
    for ed_id, spec in ed.editions.items():
        if not spec.get("source"):
            errors.append(f"{ed.game}: edition {ed_id} names no source file")
    return errors
