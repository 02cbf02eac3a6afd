"""The pages' three languages: the names file is the one solver/web/i18n.py writes, every
French and German card, face and symbol name the pages show is one the command line accepts
(as that very thing), the three string tables have the same keys and placeholders, and every
key the pages use is in them."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from solver.names import normalise_name
from solver.sabords.names import face_name
from solver.sabords.rules import load_rules
from solver.web import i18n

STATIC = i18n.NAMES_FILE.parent.parent
TABLES = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
          for lang in i18n.LANGUAGES}


def test_names_file_is_the_python_document():
    shipped = json.loads(i18n.NAMES_FILE.read_text(encoding="utf-8"))
    assert shipped == i18n.names_document(), "run: python -m solver.web.i18n"


def test_names_file_is_written_whole_and_sorted(tmp_path, monkeypatch):
    path = tmp_path / "names.json"
    monkeypatch.setattr("sys.argv", ["i18n", str(path)])
    i18n.main()
    assert path.read_text(encoding="utf-8") == i18n.NAMES_FILE.read_text(encoding="utf-8")


def test_names_file_that_cannot_be_written_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["i18n", str(tmp_path / "missing" / "names.json")])
    with pytest.raises(SystemExit) as stop:
        i18n.main()
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and "does not exist" in err


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_card_name_shown_is_accepted_by_the_cli(lang):
    rules = load_rules()
    cards = i18n.names_document()["sabords"]["cards"]
    assert set(cards) == set(rules.cards)
    for name, shown in cards.items():
        assert rules.card(shown[lang]).name == name, shown[lang]


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_every_face_name_shown_is_accepted_by_the_cli(lang):
    faces = list(load_rules().faces)
    for name, shown in i18n.names_document()["sabords"]["faces"].items():
        assert face_name(shown[lang], faces) == name, shown[lang]


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_every_armada_symbol_shown_is_accepted_by_the_cli(lang):
    from solver.armada.game import default_game

    game = default_game()
    for name, shown in i18n.names_document()["armada"]["faces"].items():
        letter = game.board.letters[game.board.symbols.index(name)]
        word = normalise_name(shown[lang])
        assert game.dice_text(game.parse_dice(" ".join([word] * game.rules.dice))) == (
            letter * game.rules.dice), shown[lang]


def test_the_printed_names_where_the_rulebooks_print_them():
    doc = i18n.names_document()
    cards, piers = doc["sabords"]["cards"], doc["armada"]["piers"]
    assert [cards[c]["fr"] for c in ("captain", "sorceress", "monkey-business")] == [
        "Pirate", "Gardienne", "Animaux"]
    assert cards["sorceress"]["de"] == "Wächterin"
    assert [piers[p]["fr"] for p in ("three-of-a-kind", "full-house", "four-of-a-kind",
                                     "five-of-a-kind")] == ["Brelan", "Full", "Carré", "Yam's"]
    assert [piers[p]["de"] for p in ("three-of-a-kind", "four-of-a-kind", "five-of-a-kind")] == [
        "Drilling", "Vierling", "Fünfling"]
    assert doc["armada"]["faces"]["barrel"] == {"en": "Barrel", "fr": "Tonneau", "de": "Fass"}


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_string_tables_have_the_same_keys_and_placeholders(lang):
    assert set(TABLES[lang]) == set(TABLES["en"])
    for key, text in TABLES["en"].items():
        assert _placeholders(TABLES[lang][key]) == _placeholders(text), key
        assert TABLES[lang][key].strip(), key


def _used_keys() -> dict[str, str]:
    """Every key a page asks for: data-i18n attributes, data-i18n-attr pairs, t("...") calls
    with a literal key and the game panel's buttons, by the file using it."""
    used = {}
    for path in sorted(STATIC.glob("*.html")) + sorted(STATIC.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        # an attribute in HTML (data-i18n="key"), in el()'s attributes ("data-i18n": "key")
        sep = '="' if path.suffix == ".html" else '": "'
        keys = re.findall(f'data-i18n{sep}([^"]+)"', text)
        for pairs in re.findall(f'data-i18n-attr{sep}([^"]+)"', text):
            keys += [pair.split(":", 1)[1] for pair in pairs.split()]
        keys += re.findall(r'\bt\("([\w.-]+)"', text)
        keys += re.findall(r'\bbutton\("[\w-]+", "([\w.-]+)"\)', text)  # turns.js
        used.update({key: path.name for key in keys})
    return used


def test_every_key_the_pages_use_is_in_english():
    used = _used_keys()
    assert {"sabords.value.win", "dice.undo", "game.export", "armada.take"} <= set(used)
    missing = {key: where for key, where in used.items() if key not in TABLES["en"]}
    assert missing == {}


def test_verdict_and_objective_keys_built_from_names_exist():
    """Keys the pages build from an answer's names (t(`sabords.verdict.${action}`))."""
    for action in ("stop", "reroll", "island"):
        assert f"sabords.verdict.{action}" in TABLES["en"]
    for action in ("stop", "island"):
        assert f"sabords.differs.{action}" in TABLES["en"]
    from solver.armada.advice import OBJECTIVE_HELP

    for name, meaning in OBJECTIVE_HELP.items():
        assert f"armada.objective.{name}" in TABLES["en"]
        assert TABLES["en"][f"armada.meaning.{name}"] == meaning


def test_the_shipped_board_warning_is_the_english_string():
    from solver.web.options import armada_options

    assert armada_options()["board_warning"] == TABLES["en"]["armada.reconstruction"]


def test_built_in_words_are_the_english_table():
    """common.js keeps the words it shows when the tables cannot be fetched; they are en's."""
    text = (STATIC / "common.js").read_text(encoding="utf-8")
    built_in = re.search(r"const BUILT_IN = (\{.*?\});", text, re.S).group(1)
    pairs = dict(re.findall(r'"([\w.-]+)": "([^"]*)"', built_in))
    assert pairs and all(TABLES["en"][key] == value for key, value in pairs.items())


# -- Die Dracheninsel --------------------------------------------------------------------------

def test_dragon_names_are_the_rulebooks_and_the_cli_reads_them():
    """German names are the rules file's (which quotes the rulebook), English the command
    line's; the command line reads both as the same terrain, colour and card."""
    from solver.dragon.cards import parse_hand
    from solver.dragon.rules import rules

    model, names = rules(), i18n.names_document()["dragon"]
    assert set(names["terrains"]) == set(model.terrains)
    assert set(names["colours"]) == set(model.colour_german)
    assert set(names["actions"]) == set(model.actions)
    for t, shown in names["terrains"].items():
        assert shown["de"] == model.terrain_german[t]
        assert {model.parse_terrain(shown["de"]), model.parse_terrain(shown["en"])} == {t}
    for c, shown in names["colours"].items():
        assert shown["de"] == model.colour_german[c]
        assert {model.parse_colour(shown["de"]), model.parse_colour(shown["en"])} == {c}
    for a, shown in names["actions"].items():
        assert shown["de"] == model.actions[a].german
        assert [card.name for card in parse_hand([shown["de"], shown["en"]], model)] == [a, a]
    assert names["actions"]["flight"] == {"en": "flight", "fr": "vol téméraire",
                                          "de": "Tollkühner Flug"}


# Keys whose words are the same in two languages: the game's name, the hunters' initials
# (R is rouge and rot too), and words French or German share with English.
SAME_WORDS = {
    "fr": {"dragon.name", "dragon.initials.red", "dragon.tool.dragon", "dragon.col.action",
           "dragon.patrol.options"},
    "de": {"dragon.name", "dragon.initials.red", "dragon.initials.blue", "dragon.initials.brown",
           "dragon.initials.green"},
}


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_dragon_word_is_translated(lang):
    """Not a copy of the English: every dragon.* key of en.json has its own words in French and
    German, but for the few listed the same on purpose."""
    dragon = {key: text for key, text in TABLES["en"].items() if key.startswith("dragon.")}
    assert len(dragon) > 80
    same = {key for key, text in dragon.items() if TABLES[lang].get(key) == text}
    assert same == SAME_WORDS[lang]


def test_the_dragon_keys_built_from_names_exist():
    """Keys dragon.js and the board drawing build from names: the tools, each move's action,
    the verdicts, the columns, and the data-i18n keys of the labelled board."""
    from solver.dragon.board import default_island
    from solver.dragon.move import ACTIONS
    from solver.dragon.position import opening
    from solver.dragon.rules import rules
    from solver.dragon.svg import draw_board

    script = (STATIC / "dragon.js").read_text(encoding="utf-8")
    tools = re.search(r"const TOOLS = \[(.*?)\];", script, re.S).group(1)
    keys = [f"dragon.tool.{name}{end}" for name in re.findall(r'"([\w-]+)"', tools)
            for end in ("", ".hint")]
    keys += [f"dragon.action.{action}" for action in ACTIONS]
    keys += [f"dragon.verdict.{kind}.{goal}" for kind in ("reach", "reach-one", "never", "later")
             for goal in ("treasure", "boat")]
    columns = re.search(r"const columns = \[(.*?)\];", script).group(1)
    keys += [f"dragon.col.{c}" for c in re.findall(r'"(\w+)"', columns)]
    keys += [f"dragon.initials.{colour}" for colour in rules().colour_german]
    pos = replace(opening(default_island()), treasure=None)  # "empty" on the treasure field
    svg = draw_board(pos, labels=True, legend=False)
    drawn = re.findall(r'data-i18n="([\w.-]+)"', svg)
    assert {"dragon.initials.red", "dragon.board.reconstructed", "dragon.board.empty"} <= set(
        drawn)
    keys += drawn
    assert len(keys) > 40
    assert [key for key in keys if key not in TABLES["en"]] == []
    # the board's English words are the drawing's own
    assert TABLES["en"]["dragon.board.reconstructed"] in svg
