"""One spelling everywhere: names are case-insensitive, German (and French) names work, dice
may be words in both dice games."""

from __future__ import annotations

import pytest

from solver.armada.game import default_game
from solver.errors import InputError
from solver.names import normalise_name
from solver.sabords.dice import parse_dice
from solver.sabords.rules import load_rules
from tests.cli_helpers import run


def test_normalise_name_folds_case_umlauts_and_punctuation():
    assert normalise_name("Kapitän") == normalise_name("KAPITAEN") == "kapitaen"
    assert normalise_name("  Tête de mort ") == "tete-de-mort"
    assert normalise_name("Sea_Battle 2") == "sea-battle-2"


@pytest.mark.parametrize("spelling, card", [
    ("Captain", "captain"), ("Kapitän", "captain"), ("ZAUBERIN", "sorceress"),
    ("Schatzinsel", "treasure-island"), ("Totenkopf 2", "skulls-2"),
    ("Piratenschiff-3", "sea-battle-3"), ("Diamant", "diamond"), ("Sea Battle 4", "sea-battle-4"),
])
def test_card_names(spelling, card):
    assert load_rules().card(spelling).name == card


def test_unknown_card_lists_the_known_ones_in_three_languages():
    with pytest.raises(InputError) as err:
        load_rules().card("Kaptain")
    text = str(err.value)
    assert text.startswith("unknown card 'Kaptain'; known: none (no-card, keine, ")
    assert "\n" not in text
    for group in ("captain (kapitaen, kapitan, pirate)", "sorceress (zauberin, waechterin, ",
                  "skulls-2 (skull-2, totenkopf-2, totenkoepfe-2, tete-de-mort-2)", "truce ("):
        assert group in text


def test_unknown_die_lists_the_face_words_in_three_languages():
    with pytest.raises(InputError, match=r"monkey \(monkeys, affe, affen, singe, singes\)"):
        parse_dice("CC QQ DMPSXX", load_rules())
    with pytest.raises(InputError, match=r"barrel \(barrels, fass, faesser, tonneau, tonneaux\)"):
        default_game().parse_dice("BBOPQ")


def test_unknown_dragon_card_lists_the_german_names_too():
    from solver.dragon.cards import parse_card

    with pytest.raises(InputError, match=r"unknown card 'Flug'; known: water \(wasser\), "):
        parse_card("Flug")
    with pytest.raises(InputError, match=r"flight \(tollkuehner-flug\), "):
        parse_card("Flug")


@pytest.mark.parametrize("text", [
    "CCDMPSXX", "ccdmpsxx", "CC DMPSXX", "coin,coin,diamond,monkey,parrot,sabre,skull,skull",
    "Münze Münze Diamant Affe Papagei Säbel Totenkopf Totenkopf", "CC,diamond,M,P,S,XX",
])
def test_sabords_dice_spellings(text):
    assert parse_dice(text, load_rules()) == (2, 1, 1, 1, 1, 2)


@pytest.mark.parametrize("text, message", [
    ("CCDMPSXQ", "letter 'Q' in 'CCDMPSXQ'"),
    ("CC QQ DMPSXX", "word 'QQ'"),
    ("CCDMPSX", "expected 8 dice, got 7"),
])
def test_sabords_dice_errors_say_what_is_wrong(text, message):
    with pytest.raises(InputError, match=message):
        parse_dice(text, load_rules())


@pytest.mark.parametrize("text", ["BBOPA", "bb opa", "barrel,barrels,bottle,parrot,anchor",
                                  "Fass Fass Flasche Papagei Anker",
                                  "tonneau tonneaux bouteille perroquet ancre"])
def test_armada_dice_spellings(text):
    game = default_game()
    assert game.dice_text(game.parse_dice(text)) == "BBOPA"


def test_variant_names_ignore_case():
    assert load_rules(["Promo-Deck"]).variants == ("promo-deck",)
    from solver.armada.rules import load_rules as armada_rules

    assert armada_rules(["EXACT-KIND"]).variants == ("exact-kind",)


def test_board_pier_needing_more_dice_than_the_game_has(tmp_path, capsys):
    from solver.armada.board import BOARD_FILE

    text = BOARD_FILE.read_text(encoding="utf-8").replace("need = [2, 3, 4]", "need = [2, 3, 9]",
                                                           1)
    assert "need = [2, 3, 9]" in text
    board = tmp_path / "nine.toml"
    board.write_text(text, encoding="utf-8")
    code, _, err = run(["armada", "value", "--objective", "turn", "--board", str(board)], capsys)
    assert code == 2 and "needs 9 dice, but the game has 5" in err and str(board) in err


def test_check_game_dragon_is_accepted(monkeypatch, capsys):
    import solver.rules.check as check

    seen = {}
    def fake_check(games, progress=None):
        seen["games"] = games
        progress("a step")
        return {"ok": True, "games": {}}

    monkeypatch.setattr(check, "run_check", fake_check)
    code, _, _ = run(["check", "--game", "Dragon", "--game", "armada"], capsys)
    assert seen["games"] == ["dracheninsel", "armada"] and code == 0
    code, _, err = run(["check", "--game", "chess"], capsys)
    assert code == 2 and "unknown game 'chess'" in err


@pytest.mark.parametrize("game", ["sabords", "armada", "dragon"])
def test_variants_json_is_one_format_marking_the_default(game, capsys):
    import json

    code, out, _ = run([game, "variants", "--json"], capsys)
    readings = json.loads(out)
    assert code == 0 and readings
    for spec in readings.values():
        assert set(spec) == {"description", "default", "sets", "default_reading"}
        assert spec["sets"].keys() == spec["default_reading"].keys()
        assert spec["default"] == (spec["sets"] == spec["default_reading"])


def test_dragon_variant_is_a_name_like_the_other_games():
    from solver.dragon.cli import _variants

    assert _variants(("Flight-From-Boat-Forbidden",))["flight-from-boat"] == "forbidden"
    assert _variants(("flight-from-boat=forbidden",))["flight-from-boat"] == "forbidden"
    with pytest.raises(InputError, match="contradict"):
        _variants(("flight-from-boat-forbidden", "flight-from-boat-allowed"))
