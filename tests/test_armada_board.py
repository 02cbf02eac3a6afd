"""The board file, its validation, and the requirements checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from solver.armada.board import BOARD_FILE, load_board, parse_board
from solver.armada.game import Game, default_game, meets
from solver.errors import InputError


def counts(game: Game, dice: str) -> np.ndarray:
    return game.parse_dice(dice)[None, :]


def pier(game: Game, name: str):
    return next(p for p in game.board.piers if p.name == name)


def test_reconstruction_is_labelled_and_complete():
    board = load_board()
    assert board.reconstruction and "RECONSTRUCTION" in board.label
    assert board.symbols == ("barrel", "bottle", "parrot", "anchor", "cannon", "map")
    assert "".join(board.letters) == "BOPACM"
    assert len(board.piers) == 10
    assert sum(p.doubloons for p in board.piers) == 30
    assert sorted({v for p in board.piers for v in p.values}) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("name", "level", "dice", "ok"),
    [
        ("barrels", 0, "BBOPA", True),
        ("barrels", 0, "BBBBB", True),  # at least two
        ("barrels", 1, "BBOPA", False),
        ("barrels", 2, "BBBBA", True),
        ("three-of-a-kind", 0, "MMMAC", True),  # any symbol first
        ("three-of-a-kind", 1, "MMMAC", False),  # then barrel/bottle/parrot
        ("three-of-a-kind", 1, "PPPPA", True),  # four meets three
        ("three-of-a-kind", 2, "PPPAC", False),  # then barrel/bottle only
        ("three-of-a-kind", 2, "OOOAC", True),
        ("full-house", 0, "MMMBB", True),
        ("full-house", 1, "PPPAA", True),
        ("full-house", 1, "PPPBB", False),  # both symbols must be allowed
        ("full-house", 2, "AAACC", True),
        ("full-house", 2, "AAAPP", False),
        ("full-house", 0, "BBBBB", False),  # five of a kind is not a full house (default)
        ("full-house", 0, "BBBBO", False),
        ("four-of-a-kind", 0, "AAAAC", True),
        ("four-of-a-kind", 1, "AAAAC", False),
        ("four-of-a-kind", 2, "BBBBB", True),  # five meets four
        ("four-of-a-kind", 2, "CCCCB", False),
        ("five-of-a-kind", 0, "PPPPP", True),
        ("five-of-a-kind", 1, "PPPPP", False),
        ("five-of-a-kind", 2, "MMMMM", True),
        ("five-of-a-kind", 2, "AAAAA", False),
    ],
)
def test_requirements_by_hand(name, level, dice, ok):
    game = default_game()
    assert bool(meets(pier(game, name), level, counts(game, dice), game.rules)[0]) is ok


def test_variant_requirements():
    fh = Game.load(None, ("five-kind-full-house",))
    assert meets(pier(fh, "full-house"), 0, counts(fh, "BBBBB"), fh.rules)[0]
    assert not meets(pier(fh, "full-house"), 1, counts(fh, "BBBBB"), fh.rules)[0]
    pair_any = Game.load(None, ("full-house-pair-any",))
    assert meets(pier(pair_any, "full-house"), 1, counts(pair_any, "PPPBB"), pair_any.rules)[0]
    assert not meets(pier(pair_any, "full-house"), 1, counts(pair_any, "BBBPP"),
                     pair_any.rules)[0]
    exact = Game.load(None, ("exact-kind",))
    assert not meets(pier(exact, "three-of-a-kind"), 0, counts(exact, "PPPPA"), exact.rules)[0]
    assert meets(pier(exact, "barrels"), 0, counts(exact, "BBBBA"), exact.rules)[0]


def test_number_of_qualifying_rolls_by_hand():
    """Of the 252 five-dice multisets: >= 2 of one symbol = multisets of 3 more dice = 56;
    >= 3: 21; >= 4: 6; three of a kind 6 x 21; full house 6 x 5; four of a kind 6 x 6."""
    q = default_game().qualify.sum(axis=2)
    assert q[0].tolist() == [56, 21, 6]
    assert q[6, 0] == 126 and q[7, 0] == 30 and q[8, 0] == 36 and q[9, 0] == 6
    assert q[7, 1] == 6 and q[7, 2] == 2 and q[9, 2] == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not toml [", "not valid TOML"),
        ("[[symbol]]\nname='a'\nletter='A'\n", "at least two"),
        ("[[symbol]]\nname='a'\nletter='A'\n[[symbol]]\nname='b'\nletter='A'\n", "twice"),
        ("[[symbol]]\nname='a'\nletter='A'\n[[symbol]]\nname='b'\nletter='B'\n", "[[pier]]"),
    ],
)
def test_malformed_boards_are_rejected(text, message):
    with pytest.raises(InputError, match=message.replace("[", r"\[")):
        parse_board(text, "x.toml")


def test_bad_pier_fields_are_rejected():
    base = BOARD_FILE.read_text()
    for old, new, message in [
        ('kind = "full-house"', 'kind = "pair"', "kind must be"),
        ("values = [1, 2, 3]", "values = [1, 2]", "need must be a list of 2"),
        ('allowed = [["barrel"], ["barrel"], ["barrel"]]',
         'allowed = [["barrel"], ["rum"], ["barrel"]]', "unknown symbol 'rum'"),
        ("need = [2, 3, 4]", "need = [2, 3]", "need must be"),
        ('name = "maps"', 'name = "barrels"', "appears twice"),
    ]:
        with pytest.raises(InputError, match=message):
            parse_board(base.replace(old, new, 1), "x.toml")


def test_states_and_dice_parse():
    game = default_game()
    assert game.parse_state("0000000000/0") == ((0,) * 10, 0)
    assert game.format_state(*game.parse_state("3210000123/5")) == "3210000123/5"
    for bad in ["000000000/0", "4000000000/0", "0000000000/7", "0000000000", "x"]:
        with pytest.raises(InputError):
            game.parse_state(bad)
    assert game.parse_dice("bbopa").tolist() == [2, 1, 1, 1, 0, 0]
    for bad in ["BBOP", "BBOPAA", "BBOPX"]:
        with pytest.raises(InputError):
            game.parse_dice(bad)
    assert game.n_states == 4**10 * 7
