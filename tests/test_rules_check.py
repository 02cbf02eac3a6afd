"""The rules verifier: classes of rule points, and broken models that it must catch."""

from __future__ import annotations

import json
import shutil

import pytest

import solver.sabords.rules as sabords_rules
from solver.paths import MODELS_DIR, PROOFS_DIR
from solver.rules.check import check_editions, load_research, load_seeds, run_check
from solver.rules.claims import stored_claims
from solver.rules.effects import annotate_points
from solver.rules.report import ambiguities_markdown, consistency_markdown, summary_markdown
from solver.sabords.reports import check_all
from solver.sabords.turn import invariants
from tests.markdown_rows import table_rows


@pytest.fixture
def patched_rules(tmp_path, monkeypatch):
    """Point the Mille Sabords loader at an editable copy of rules.toml."""
    copy = tmp_path / "rules.toml"
    shutil.copy(sabords_rules.RULES_FILE, copy)
    monkeypatch.setattr(sabords_rules, "RULES_FILE", copy)
    sabords_rules._raw.cache_clear()
    sabords_rules._load.cache_clear()
    yield copy
    sabords_rules._raw.cache_clear()
    sabords_rules._load.cache_clear()


def test_sabords_points_are_classified():
    entry = check_editions("sabords")
    classes = {p["id"]: p["class"] for p in entry["points"]}
    assert classes["reroll-minimum"] == "contradiction"
    assert classes["game-end"] == "contradiction"
    assert classes["full-chest"] == "agreed"  # 'manquer' for 'marquer' is a typing slip
    assert classes["ties"] == "silence"
    assert classes["set-points"] == "agreed"
    for one in ("after-the-storm", "island-card-skulls", "nine-of-a-kind", "truce-bust"):
        assert classes[one] == "stated by one edition"
    # one French paragraph; the threshold-only reading comes from outside the rulebooks
    assert classes["island-card-skulls-penalty"] == "stated by one edition"
    assert entry["errors"] == []
    assert all(c["agrees"] for c in entry["count_checks"])


@pytest.mark.parametrize("old, new, what, computed", [
    ("[decks.standard]\ntreasure-island = 4", "[decks.standard]\ntreasure-island = 5",
     "Fortune cards in the deck", "36"),
    ("symbol_points = { coin = 100, diamond = 100 }",
     "symbol_points = { coin = 100, diamond = 50 }", "worked example", "1300"),
])
def test_miscounted_model_is_caught(patched_rules, old, new, what, computed):
    text = patched_rules.read_text()
    assert old in text
    patched_rules.write_text(text.replace(old, new))
    errors = check_editions("sabords")["errors"]
    assert any(what in e and computed in e for e in errors)


@pytest.mark.slow
def test_score_that_breaks_an_invariant_is_caught(patched_rules):
    text = patched_rules.read_text().replace("full_chest_bonus = 500", "full_chest_bonus = 550")
    patched_rules.write_text(text)
    holds, evidence = invariants._multiples_of_100()
    assert not holds
    assert evidence["default"]["not_multiples"]


def test_contradicting_edition_is_caught(tmp_path):
    models = tmp_path / "models"
    shutil.copytree(MODELS_DIR / "sabords", models / "sabords")
    path = models / "sabords" / "editions.toml"
    text = path.read_text()
    marker = 'reading = "sets-100-200-500-1000-2000-4000"\n  statement = "The same table'
    assert marker in text
    path.write_text(text.replace(marker, 'reading = "sets-double"\n  statement = "The same table'))
    entry = check_editions("sabords", models)
    point = next(p for p in entry["points"] if p["id"] == "set-points")
    assert point["class"] == "contradiction"
    assert any("set-points" in e and "named variant" in e for e in entry["errors"])


@pytest.mark.slow
def test_tampered_certificate_is_caught(tmp_path):
    shutil.copytree(PROOFS_DIR / "sabords", tmp_path / "sabords",
                    ignore=shutil.ignore_patterns("invariants", "variants.json"))
    path = tmp_path / "sabords" / "captain.json"
    doc = json.loads(path.read_text())
    doc["states"][10][3] = str(int(doc["states"][10][3]) * 2 + 1)
    path.write_text(json.dumps(doc))
    results = check_all(tmp_path)
    assert results["captain.json"] and not results["none.json"]


@pytest.mark.slow
def test_full_check_passes_on_the_shipped_proofs():
    result = run_check(["sabords"])
    entry = result["games"]["sabords"]  # what `treasure check --json` prints
    json.dumps(result)
    island = next(p for p in entry["points"] if p["id"] == "island-which-dice")
    assert island["open"] and island["follows"] == ["fr"]
    assert island["effect"]["summary"] == "none (proved)" and island["effect"]["rows"]
    assert result["ok"], entry["errors"]
    assert entry["classes"]["stated by one edition"] > 0
    point = next(p for p in entry["points"] if p["id"] == "card-kept-die")
    assert point["measure"] == "turn" and point["table"]
    assert point["effect"]["summary"] == "none (proved)"
    storm = next(p for p in entry["points"] if p["id"] == "storm-scoring")
    assert storm["says"][0]["at"] == "001:53"


def _models_copy(tmp_path, game="sabords"):
    models = tmp_path / "models"
    shutil.copytree(MODELS_DIR / game, models / game)
    return models, models / game / "editions.toml"


UNREAD_DESCRIPTION = 'variant_description = "The card is the kept die."\n'
UNREAD_REASON = 'not_measured = "No solver reads it (this test says so)."\n'


def _unread_copy(tmp_path, description=True, reason=True):
    """The models with card-kept-die made a reading no solver reads (every reading of the
    shipped models is measured): its variant defined by a description alone, measure none and
    a reason, less what the arguments leave out."""
    models, path = _models_copy(tmp_path)
    text = path.read_text()
    anchor = 'variant = "card-counts-as-kept-die"\n'
    assert text.count(anchor) == 1
    extra = ((UNREAD_DESCRIPTION if description else "") + 'measure = "none"\n'
             + (UNREAD_REASON if reason else ""))
    path.write_text(text.replace(anchor, anchor + extra))
    return models, path


@pytest.mark.skipif(not load_seeds(), reason="the seeds are not available")
def test_misquoted_place_is_caught(tmp_path):
    models, path = _models_copy(tmp_path)
    text = path.read_text()
    good = 'at = "003:12"\n  quote = "Pour 2 à 5 joueurs"'
    assert good in text
    path.write_text(text.replace(good, 'at = "003:13"\n  quote = "Pour 2 à 5 joueurs"'))
    errors = check_editions("sabords", models)["errors"]
    assert any("sabords/players" in e and "not at 003:13" in e for e in errors)


def test_one_edition_class_and_slip(tmp_path):
    models, path = _models_copy(tmp_path)
    text = path.read_text()
    # a second edition agreeing makes a one-edition point agreed
    one = 'reading = "nine-instant-win"\n  statement ='
    assert one in text
    text = text.replace(one, 'reading = "nine-instant-win"\n  statement = "x"\n  [[point.says]]\n'
                        '  edition = "en"\n  reading = "nine-instant-win"\n  statement =')
    # a slip written as a fault makes a translation fault
    text = text.replace("slip = \"003:89", "fault = \"003:89")
    path.write_text(text)
    classes = {p["id"]: p["class"] for p in check_editions("sabords", models)["points"]}
    assert classes["nine-of-a-kind"] == "agreed"
    assert classes["full-chest"] == "translation fault"


def test_unread_variant_needs_a_description(tmp_path):
    models, _ = _unread_copy(tmp_path)
    assert not check_editions("sabords", models)["errors"]
    models, _ = _unread_copy(tmp_path / "no-description", description=False)
    errors = check_editions("sabords", models)["errors"]
    assert any("card-kept-die" in e and "variant_description" in e for e in errors)
    # and a solver-measured point may not name a variant no solver defines
    models, path = _models_copy(tmp_path / "undefined")
    text = path.read_text()
    old = 'variant = "card-counts-as-kept-die"\n'
    path.write_text(text.replace(old, 'variant = "card-is-a-die"\n'))
    errors = check_editions("sabords", models)["errors"]
    assert any("card-is-a-die" in e and "not defined in models/" in e for e in errors)


def test_game_level_readings_flow_into_the_reports():
    reading = {"first_player_wins": 0.5123, "delta": -0.0177, "decisions_changed": 120,
               "decisions_total": 75000, "unit": "P(first player wins)"}
    doc = {"target": 6000, "first_player_wins": 0.53,
           "readings": {"endgame-new-final-round": reading,
                        "target-8000": {**reading, "delta": 0.0042, "first_player_wins": 0.5342,
                                        "decisions_changed": None, "decisions_total": None}}}
    entry = check_editions("sabords", readings=doc)
    points = {p["id"]: p for p in entry["points"]}
    assert points["game-end"]["game_effects"]["endgame-new-final-round"]["delta"] == -0.0177
    assert entry["game_baseline"] == {"target": 6000, "first_player_wins": 0.53}
    entries = {"sabords": entry}
    text = ambiguities_markdown(entries, {"sabords": []})
    assert ("P(first player wins) = 0.5123 (-1.77e-02); at 120 of 75,000 score pairs the "
            "default's play loses more than 1e-9 P(win)") in text
    assert ("`target-8000`: P(first player wins) = 0.5342 (+4.20e-03); decisions not "
            "compared") in text
    assert "`target-5000`: not measured" in text
    block = text.split("### ties:")[1].split("###")[0]
    assert "not measured: no solver plays the other reading yet" in block
    summary = summary_markdown(entries, {"sabords": []})
    rows = [r for r in table_rows(summary) if r[0] == "Mille Sabords!"]
    assert "-1.77e-02 P(first player wins)" in rows[0][4]  # the largest measured effect first
    assert "+4.20e-03 P(first player wins)" in rows[1][4]
    # without readings every game-level effect is "not measured", never "none, proved"
    bare = ambiguities_markdown({"sabords": check_editions("sabords", readings={})},
                                {"sabords": []})
    assert "not measured: no solver plays the other reading yet" in bare.split("### game-end:")[1]


def test_game_level_readings_travel_in_the_make_solve_run(tmp_path):
    """The verifier's reports take the readings a game's step handed on in the run; no
    report of the game is read (the run's reports folder holds none)."""
    from solver.games import SolveRun
    from solver.rules.report import write_reports

    run = SolveRun(tmp_path / "reports", PROOFS_DIR)
    reading = {"first_player_wins": 0.4321, "delta": -0.1, "decisions_changed": None,
               "decisions_total": None, "unit": "P(first player wins)"}
    run.readings["sabords"] = {"target": 6000, "first_player_wins": 0.5,
                               "readings": {"target-8000": reading}}
    write_reports(run, remeasure=False)
    text = (tmp_path / "reports" / "rules" / "ambiguities.md").read_text()
    assert "- `target-8000`: P(first player wins) = 0.4321 (-1.00e-01)" in text
    assert "- `target-5000`: not measured" in text
    assert not (tmp_path / "reports" / "sabords").exists()


def test_a_game_gives_its_shipped_readings_through_its_registry_entry(tmp_path):
    """Outside make solve a game's readings come from its entry: Mille Sabords reads its own
    game.json and table.json (the table's readings arise only with three or more players);
    a game without game-level readings gives none."""
    from solver.games import SolveRun
    from solver.io import dumps_json
    from solver.sabords.verifier import readings_of

    folder = tmp_path / "sabords"
    folder.mkdir()
    game_doc = {"target": 6000, "first_player_wins": 0.53, "deck": {"games": 3},
                "readings": {"nine-as-set": {"delta": 1.5e-05}}}
    table_doc = {"verifier_readings": {"play-on": {"delta": 0.01}}}
    (folder / "game.json").write_text(dumps_json(game_doc))
    (folder / "table.json").write_text(dumps_json(table_doc))
    run = SolveRun(tmp_path, tmp_path)
    shipped = run.game_readings("sabords")
    assert shipped == readings_of(game_doc, table_doc) == {
        "target": 6000, "first_player_wins": 0.53,
        "readings": {"nine-as-set": {"delta": 1.5e-05}, "play-on": {"delta": 0.01}}}
    assert run.game_readings("armada") == {} == run.game_readings("dracheninsel")
    assert SolveRun(tmp_path / "none", tmp_path).game_readings("sabords") == {}


@pytest.mark.parametrize("game, place, quote", [
    ("armada", "004:203", "1 Game Board, 30 Doubloon tokens, 6 Skull tokens, 5 dice."),
    ("dracheninsel", "002:258",
     "Ein Spieler, der alleine auf dem Schatzfeld steht, darf es nicht wieder verlassen."),
])
def test_unplaced_or_misplaced_statement_is_caught(tmp_path, game, place, quote):
    models, path = _models_copy(tmp_path, game)
    text = path.read_text()
    cited = f'at = "{place}"\n  quote = "{quote}"\n'
    assert text.count(cited) == 1
    path.write_text(text.replace(cited, ""))
    errors = check_editions(game, models)["errors"]
    assert any("cites no place and quoted words" in e for e in errors)
    if load_seeds():
        prefix, line = place.split(":")
        path.write_text(text.replace(cited, f'at = "{prefix}:{int(line) + 1}"\n'
                                            f'  quote = "{quote}"\n'))
        errors = check_editions(game, models)["errors"]
        assert any(f"not at {prefix}:{int(line) + 1}" in e for e in errors)


@pytest.fixture(autouse=True)
def _spot_check_the_game_table(monkeypatch):
    """`make check` recomputes every state of the shipped game table (minutes); the tests
    spot-check 24 seeded states of each phase (test_sabords_game covers the full check on
    reduced games)."""
    monkeypatch.setattr("solver.sabords.game.report.CHECK_SAMPLE", 24)


@pytest.mark.parametrize("game, old, new, error", [
    # a research fact without its place in research.md
    ("sabords", 'at = "research.md:15"\n', "", "cites no place in research.md"),
    # a research fact that names a rule point no one wrote
    ("armada", 'rule = ["components"]\nat = "research.md:24-25"',
     'rule = ["dice-symbols"]\nat = "research.md:24-25"', "'dice-symbols' names no rule point"),
    # a count check cited at the wrong line of research.md
    ("armada", 'at = "research.md:26"\nquote = "a simple pair',
     'at = "research.md:27"\nquote = "a simple pair', "not at research.md:27"),
])
def test_broken_research_citation_is_caught(tmp_path, game, old, new, error):
    if "not at" in error and load_research() is None:
        pytest.skip("research.md is not available")
    models, path = _models_copy(tmp_path, game)
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    assert any(error in e for e in check_editions(game, models)["errors"])


def test_research_cited_in_the_reports():
    entries = {g: check_editions(g) for g in ("sabords", "armada", "dracheninsel")}
    point = next(p for p in entries["sabords"]["points"] if p["id"] == "battle-four-skulls")
    assert [r["at"] for r in point["research"]] == ["research.md:14"]  # in --json too
    text = consistency_markdown(entries)
    block = text.split("### battle-four-skulls")[1].split("###")[0]
    assert ('- **outside the rulebooks** (research.md:14): "four or more skulls on the first '
            'roll ends the turn and costs the card\'s penalty"') in block
    place = ("research", "research.md:26", "6", "", "6", "yes")  # a count check's place
    assert any(r[1:] == place for r in table_rows(text))


def test_misshapen_board_is_caught_by_the_basic_pier_count(tmp_path, monkeypatch):
    import solver.armada.board as armada_board

    text = armada_board.BOARD_FILE.read_text()
    maps = text[text.index('[[pier]]\nname = "maps"'):text.index("# ---- four special piers")]
    board = tmp_path / "board.toml"
    board.write_text(text.replace(maps, ""))
    monkeypatch.setattr(armada_board, "BOARD_FILE", board)
    errors = check_editions("armada")["errors"]
    assert any("Basic piers" in e and "the models give 5" in e for e in errors)


def test_rulebook_numbers_that_do_not_add_up_are_caught(tmp_path):
    models, path = _models_copy(tmp_path, "dracheninsel")
    text = path.read_text()
    old = 'derived_from = "7 values x 2"\nexpected = 14'
    assert old in text
    path.write_text(text.replace(old, 'derived_from = "7 values x 2"\nexpected = 16'))
    entry = check_editions("dracheninsel", models)
    assert any("Coins" in e and "other numbers give 16" in e for e in entry["errors"])
    assert not next(c for c in entry["count_checks"] if c["check"] == "coins")["adds_up"]


@pytest.mark.parametrize("game, old, new, klass, error", [
    # stated by one edition, but the default departs from it
    ("sabords", 'reading = "truce-penalty-on-bust"\n', 'reading = "truce-bust-scores-zero"\n',
     "stated by one edition", "follows no edition that speaks"),
    # agreed by every language, but the default departs from them
    ("armada", 'default = "three-rolls"\n', 'default = "two-rolls"\n', "agreed",
     "follows no edition that speaks"),
    # a silence without a named variant
    ("dracheninsel", 'variant = "flight-from-boat=forbidden"\n', "", "silence",
     "a silence needs a named variant"),
])
def test_broken_class_is_caught(tmp_path, game, old, new, klass, error):
    models, path = _models_copy(tmp_path, game)
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    entry = check_editions(game, models)
    point = next(p for p in entry["points"] if any(
        e.startswith(f"{game}/{p['id']}:") and error in e for e in entry["errors"]))
    assert point["class"] == klass


def test_points_found_in_the_second_reading():
    classes = {g: {p["id"]: p for p in check_editions(g)["points"]}
               for g in ("sabords", "armada", "dracheninsel")}
    sorceress = classes["sabords"]["sorceress-island"]
    assert sorceress["class"] == "contradiction"  # the Sorceress and the Island paragraphs
    assert sorceress["variant"] == "sorceress-on-island"
    assert classes["sabords"]["reroll-set-aside"]["class"] == "agreed"
    chain = classes["dracheninsel"]["counterspell-chain"]
    assert chain["class"] == "stated by one edition" and chain["variant"]
    # 002:372-373 states the general rule: a completely abandoned treasure leaves the game
    assert classes["dracheninsel"]["frightened-lone-carrier"]["class"] == "stated by one edition"
    assert classes["armada"]["turn-order"]["class"] == "silence"
    entries = {"dracheninsel": check_editions("dracheninsel")}
    text = ambiguities_markdown(entries, {"dracheninsel": []})
    block = text.split("### counterspell-chain:")[1].split("###")[0]
    # measured by the simulated games (solver/dragon/play.py); no rows handed in here
    assert "effect: not measured by a solver" in block


def test_json_carries_what_the_summary_shows():
    entries = {g: check_editions(g) for g in ("sabords", "armada", "dracheninsel")}
    measured = {g: stored_claims(g) for g in entries}
    summary = summary_markdown(entries, measured)
    for game, entry in entries.items():
        annotate_points(game, entry, measured[game])
        for p in entry["points"]:
            assert "open" in p and "follows" in p and p["effect"]["summary"]
            if p["open"]:
                follows = ", ".join(p["follows"]) or "no edition (a choice)"
                row = (f"`{p['default']}`", follows, p["effect"]["summary"])
                assert any(r[2:5] == row for r in table_rows(summary)), p["id"]
    flight = next(p for p in entries["dracheninsel"]["points"] if p["id"] == "flight-from-boat")
    assert flight["effect"]["size"] > 0 and flight["effect"]["rows"][0]["witness"]
    kept = next(p for p in entries["sabords"]["points"] if p["id"] == "card-kept-die")
    assert kept["effect"]["summary"] == "none (proved)" and kept["effect"]["rows"]
    battle = next(p for p in entries["sabords"]["points"] if p["id"] == "battle-sabres-final")
    assert battle["effect"]["size"] > 0 and "Sea battle" in battle["effect"]["summary"]


def test_unread_variant_needs_a_reason(tmp_path):
    """A reading no solver reads must say why it is not measured (not_measured)."""
    models, _ = _unread_copy(tmp_path, reason=False)
    errors = check_editions("sabords", models)["errors"]
    assert any("card-kept-die" in e and "not_measured" in e for e in errors)


def test_points_found_in_the_third_reading(tmp_path):
    points = {g: {p["id"]: p for p in check_editions(g)["points"]}
              for g in ("sabords", "armada", "dracheninsel")}
    # Mille Sabords: the French introduction's "first to 6000 wins" against the last round
    last = points["sabords"]["last-round"]
    assert last["class"] == "contradiction" and last["variant"] == "first-to-target-wins"
    assert {s["at"] for s in last["says"]} >= {"003:22", "003:131"}
    # Gold Armada: the German 'jemand' is a translation fault; the cover's 2-5 players
    jemand = points["armada"]["special-any-symbol-first"]
    assert jemand["class"] == "translation fault"
    assert any(s.get("fault") and s["edition"] == "de" for s in jemand["says"])
    players = points["armada"]["players"]
    assert players["class"] == "stated by one edition" and players["says"][0]["edition"] == "cover"
    # Die Dracheninsel: the refill, Süßer Schlummer against a delivery, the waiter's swaps
    assert points["dracheninsel"]["hand-refill"]["class"] == "stated by one edition"
    assert len(points["dracheninsel"]["hand-refill"]["says"]) == 5
    slumber = points["dracheninsel"]["slumber-delivery"]
    assert slumber["variant"] == "slumber-delivery=forbidden" and slumber["measure"] == "turn"
    assert points["dracheninsel"]["waiter-swaps"]["class"] == "contradiction"
    assert points["dracheninsel"]["own-boat-occupied"]["class"] == "stated by one edition"
    # every reading no solver reads says why, in the data and in the report
    for game, by_id in points.items():
        for p in by_id.values():
            if p["measure"] == "none" and p["variant"]:
                assert p["not_measured"], f"{game}/{p['id']}"
    models, _ = _unread_copy(tmp_path)
    entries = {"sabords": check_editions("sabords", models)}
    text = ambiguities_markdown(entries, {"sabords": []})
    block = text.split("### card-kept-die:")[1].split("###")[0]
    assert "not measured: no solver reads this rule" in block
    assert "Why: No solver reads it (this test says so)." in block
