"""The verifier's classes, re-checked against the prose and the seeds: each test would have
caught one kind of wrong statement an outside reading found (issue 36, section 2)."""

from __future__ import annotations

import re

import pytest

from solver.paths import MODELS_DIR
from solver.rules.check import check_editions, load_seeds
from solver.rules.editions import SILENT_WORDS, load_editions
from solver.rules.report import summary_markdown, summary_order
from tests.markdown_rows import table_rows
from tests.test_rules_check import _models_copy

GAMES = ("sabords", "armada", "dracheninsel")
# a few words in single quotes inside the prose: a quotation of a seed
QUOTED = re.compile(r"(?<![A-Za-z])'([^']{3,}?)'(?![A-Za-z])")
PROSE = ("statement", "fault", "slip")
POINT_PROSE = ("why", "also", "table")


def _flat(text: str) -> str:
    return " ".join(text.split()).casefold()


def _seed_text(game: str, models_dir=MODELS_DIR) -> str:
    """Every seed one of the game's editions cites, as one flat lower-case text."""
    seeds = load_seeds()
    ed = load_editions(game, models_dir)
    files = {spec.get(key, "")[:3] for spec in ed.editions.values() for key in ("source", "also")}
    return " ".join(_flat(" ".join(seeds[f])) for f in sorted(files) if f in seeds)


def misquotes(game: str, models_dir=MODELS_DIR) -> list[str]:
    """Single-quoted words in a point's prose that stand in none of the game's seeds
    (whitespace and case aside; '...' marks a cut)."""
    text = _seed_text(game, models_dir)
    out = []
    for p in load_editions(game, models_dir).points:
        fields = [(name, getattr(p, name)) for name in POINT_PROSE]
        fields += [(f"{s['edition']}.{k}", s.get(k, "")) for s in p.says for k in PROSE]
        for name, value in fields:
            for m in QUOTED.finditer(value or ""):
                parts = [_flat(x) for x in m.group(1).split("...") if x.strip()]
                if not all(part in text for part in parts):
                    out.append(f"{game}/{p.id} {name}: '{m.group(1)}'")
    return out


@pytest.mark.skipif(not load_seeds(), reason="the seeds are not available")
@pytest.mark.parametrize("game", GAMES)
def test_words_quoted_in_the_prose_stand_in_the_seeds(game):
    """'re-rolls as normal' for 're-roll as normal' (001:30) was such a misquote."""
    assert misquotes(game) == []


@pytest.mark.skipif(not load_seeds(), reason="the seeds are not available")
def test_a_misquote_in_the_prose_is_caught(tmp_path):
    models, path = _models_copy(tmp_path)
    text = path.read_text()
    assert text.count("may 're-roll as normal'") == 1
    path.write_text(text.replace("may 're-roll as normal'", "may 're-rolls as normal'"))
    assert misquotes("sabords", models) == ["sabords/island-which-dice en.statement: "
                                    "'re-rolls as normal'"]


def test_a_statement_of_silence_backs_no_reading(tmp_path):
    """trigger-drop-other-above was 'agreed' on statements saying the text is silent."""
    models, path = _models_copy(tmp_path)
    text = path.read_text()
    old = 'statement = "The player must always keep at least one die; skulls cannot be rerolled."'
    assert old in text
    path.write_text(text.replace(old, old[:-1] + " The text does not say more.\""))
    errors = check_editions("sabords", models)["errors"]
    assert any("skull-is-kept-die" in e and "says the text is silent" in e for e in errors)
    for game in GAMES:  # and no shipped statement does
        for p in load_editions(game).points:
            assert not any(SILENT_WORDS.search(s["statement"]) for s in p.says), p.id


@pytest.mark.parametrize("game", GAMES)
def test_a_reason_naming_every_edition_has_every_edition_speak(game):
    """end-mid-round's reason said 'Every language' while it cited English alone ('stated by
    one edition'); sorceress-third-skull's said 'Both editions' and cited none (a silence)."""
    ed = load_editions(game)
    languages = {k for k, spec in ed.editions.items() if spec.get("language", "").isalpha()}
    for p in ed.points:
        if re.match(r"(Every language|Every edition|Both editions)", p.why):
            assert {s["edition"] for s in p.says} >= languages, p.id


def test_the_corrected_classes():
    points = {g: {p["id"]: p for p in check_editions(g)["points"]} for g in GAMES}
    # the same sentence stands in all five languages
    assert points["armada"]["end-mid-round"]["class"] == "agreed"
    assert len(points["armada"]["end-mid-round"]["says"]) == 5
    # silent texts are a silence, not an agreement
    assert points["sabords"]["trigger-drop-other-above"]["class"] == "silence"
    # the threshold-only reading comes from the research notes, not from a second paragraph
    penalty = points["sabords"]["island-card-skulls-penalty"]
    assert penalty["class"] == "stated by one edition"
    assert [s["at"] for s in penalty["says"]] == ["003:110"]
    assert [r["at"] for r in penalty["research"]] == ["research.md:13"]
    # a general rule states what a card or case does not repeat
    for game, pid, klass in [("dracheninsel", "frightened-lone-carrier", "stated by one edition"),
                             ("dracheninsel", "treasure-leave-by-flight",
                              "stated by one edition"),
                             ("dracheninsel", "double-card-joker", "stated by one edition"),
                             ("dracheninsel", "long-journey-stacking", "stated by one edition"),
                             ("sabords", "sorceress-reroll-size", "agreed"),
                             ("sabords", "sorceress-third-skull", "agreed"),
                             ("sabords", "chest-card-skulls", "stated by one edition"),
                             ("armada", "set-aside-dice", "agreed"),
                             ("dracheninsel", "tie-break-gap", "silence")]:
        assert points[game][pid]["class"] == klass, pid
        assert points[game][pid]["variant"], pid  # the other reading is still measured


def test_the_shipped_board_obeys_values_rise():
    """'The next doubloon is more valuable than the previous one' (004:283), agreed by every
    language: the reconstruction gave the five-of-a-kind pier 5, 6, 6."""
    from solver.armada.game import default_game

    points = {p["id"]: p for p in check_editions("armada")["points"]}
    assert points["values-rise"]["class"] == "agreed"
    for pier in default_game().board.piers:
        assert all(a < b for a, b in zip(pier.values[:-1], pier.values[1:], strict=True)), \
            pier.name
    # 'you reveal another symbol on the pier' (004:239), agreed by every language
    assert points["basic-next-symbol"]["class"] == "agreed"
    for pier in default_game().board.piers:
        if pier.kind == "count":
            assert list(pier.need) == list(range(2, 2 + pier.doubloons)), pier.name
    assert min(min(p.values) for p in default_game().board.piers) >= 1
    assert max(max(p.values) for p in default_game().board.piers) <= 6


def test_the_summary_is_sorted_by_relative_effect():
    entries = {g: check_editions(g) for g in GAMES}
    from solver.rules.claims import stored_claims

    text = summary_markdown(entries, {g: stored_claims(g) for g in GAMES})
    rows = table_rows(text)[1:]  # below the headers
    assert rows
    keys = []
    for cells in rows:
        effect, relative = cells[-2], cells[-1]
        size = float(relative.rstrip(" %")) / 100 if relative else -1.0
        if effect.startswith("none"):
            size = 0.0
        keys.append(summary_order(effect, size))
    assert keys == sorted(keys)
    assert summary_order("not measured", -1.0) > summary_order("no variant", -1.0) > \
        summary_order("none (proved)", 0.0) > summary_order("+1", 0.5) > summary_order("+1", 0.9)
