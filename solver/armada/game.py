"""A Gold Armada game: a board under rules, with its dice lattice, requirements and states.

Board states are mixed-radix codes: pier ``i`` contributes ``taken_i * stride[i]`` with
``taken_i`` in ``0..doubloons_i``; together with the skulls taken they index the whole-game
tables ``table[skulls, code]``. On the command line a state is written ``0000000000/0``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from solver.armada.board import Board, Pier, load_board
from solver.armada.rules import Rules, load_rules
from solver.engine.horizon import Horizon
from solver.engine.multiset import DiceSpace
from solver.errors import InputError
from solver.names import known_names, normalise_name

VERSION = 1  # bump when a solve's meaning changes (cache keys)
# How the next state's value enters an option's value, per objective (see wholegame.py).
OBJECTIVES = {"turn": 0.0, "solo": 1.0, "duel": -1.0}
SKULL = -1  # a take's target when it is the skull token (a pier's is its index, from 0)


# German and French names of the shipped board's symbols (the rulebook names the barrel,
# Fässer and tonneaux; the board itself is a reconstruction, so the others are plain words).
SYMBOL_ALIASES = {
    "barrel": ("fass", "faesser", "fässer", "tonneau", "tonneaux"),
    "bottle": ("flasche", "flaschen", "flaschenpost", "bouteille", "bouteilles"),
    "parrot": ("papagei", "papageien", "perroquet", "perroquets"),
    "anchor": ("anker", "ancre", "ancres"),
    "cannon": ("kanone", "kanonen", "canon", "canons"),
    "map": ("karte", "karten", "schatzkarte", "schatzkarten", "carte", "cartes"),
}


def symbol_spellings(symbols: tuple[str, ...]) -> dict[str, int]:
    """Normalised word -> symbol index: each name, its plural, and the German aliases."""
    out: dict[str, int] = {}
    for i, name in enumerate(symbols):
        for word in (name, name + "s", *SYMBOL_ALIASES.get(name, ())):
            out.setdefault(normalise_name(word), i)
    return out


def meets(pier: Pier, level: int, counts: np.ndarray, rules: Rules) -> np.ndarray:
    """Which rows of ``counts`` (dice as face counts) meet ``pier``'s requirement at ``level``."""
    sub = counts[:, list(pier.allowed[level])].astype(np.int64)
    need = pier.need[level]
    if pier.kind == "count":
        return sub[:, 0] >= need
    if pier.kind == "of-a-kind":
        return (sub == need).any(axis=1) if rules.exact_kind else (sub >= need).any(axis=1)
    faces = counts.shape[1]
    pair_from = list(range(faces)) if rules.full_house_pair_any else list(pier.allowed[level])
    three = np.zeros(counts.shape, dtype=bool)
    two = np.zeros(counts.shape, dtype=bool)
    three[:, list(pier.allowed[level])] = sub >= 3
    two[:, pair_from] = counts[:, pair_from] >= 2
    other_pair = (two.sum(axis=1, keepdims=True) - two) > 0
    full_house = (three & other_pair).any(axis=1)
    if rules.five_kind_full_house:
        full_house |= (sub >= 5).any(axis=1)
    return full_house


# The most pier states (doubloons taken on each pier) a board may have: the tables grow with
# them, and the printed board's ten piers of three doubloons have 4**10.
MAX_CODES = 4 * 4**10


@dataclass(frozen=True)
class Game:
    """A board played under rules."""

    board: Board
    rules: Rules

    @staticmethod
    def load(board_file: str | None = None, variants: tuple[str, ...] = ()) -> Game:
        """The board in ``board_file`` (default: the shipped one) under the named variants; a
        pier needing more dice than the game has is an InputError."""
        board, rules = load_board(board_file), load_rules(variants)
        unread = rules.measured_only()
        if unread:
            raise InputError(f"bad variant: {', '.join(unread)} is a reading no Gold Armada "
                             "table reads (measured by `treasure check`: "
                             "reports/rules/ambiguities.md)")
        for pier in board.piers:
            need = max(pier.need)
            if need > rules.dice:
                raise InputError(f"bad board file {board.source}, pier {pier.name!r}: needs "
                                 f"{need} dice, but the game has {rules.dice}")
        game = Game(board, rules)
        if game.n_codes > MAX_CODES:
            raise InputError(f"bad board file {board.source}: {game.n_codes:,} ways to take its "
                             f"doubloons (each pier's count plus one, multiplied); the solver "
                             f"holds at most {MAX_CODES:,} (four times the printed board's)")
        return game

    def reduced(self, piers: list[str] | None = None, skulls: int | None = None) -> Game:
        """The same game on fewer piers and/or skulls (small games for exact checks)."""
        board = self.board
        if piers is not None:
            chosen = tuple(p for p in board.piers if p.name in piers)
            board = replace(board, piers=chosen, digest=f"{board.digest}:{','.join(piers)}")
        rules = self.rules if skulls is None else replace(self.rules, skulls=skulls)
        return Game(board, rules)

    # ---- dice ---------------------------------------------------------------------------------
    @cached_property
    def space(self) -> DiceSpace:
        return DiceSpace.of(len(self.board.symbols), self.rules.dice)

    @cached_property
    def horizon(self) -> Horizon:
        r = self.rules
        return Horizon(self.space, r.rolls, r.min_reroll, r.stop_early)

    @cached_property
    def full_counts(self) -> np.ndarray:
        return self.space.counts[self.space.full]

    @cached_property
    def max_doubloons(self) -> int:
        return max(p.doubloons for p in self.board.piers)

    @cached_property
    def qualify(self) -> np.ndarray:
        """``(piers, max_doubloons, F)`` bool: final dice meeting each pier's requirement."""
        out = np.zeros((len(self.board.piers), self.max_doubloons, len(self.space.full)), bool)
        for i, pier in enumerate(self.board.piers):
            for level in range(pier.doubloons):
                out[i, level] = meets(pier, level, self.full_counts, self.rules)
        return out

    @cached_property
    def values(self) -> np.ndarray:
        """``(piers, max_doubloons)`` doubloon values (0 past a pier's last)."""
        out = np.zeros((len(self.board.piers), self.max_doubloons), dtype=np.float64)
        for i, pier in enumerate(self.board.piers):
            out[i, : pier.doubloons] = pier.values
        return out

    # ---- states -------------------------------------------------------------------------------
    @cached_property
    def radix(self) -> np.ndarray:
        return np.array([p.doubloons + 1 for p in self.board.piers], dtype=np.int64)

    @cached_property
    def strides(self) -> np.ndarray:
        return np.concatenate(([1], np.cumprod(self.radix)[:-1])).astype(np.int64)

    @cached_property
    def n_codes(self) -> int:
        return int(np.prod(self.radix))

    @property
    def n_states(self) -> int:
        return self.n_codes * (self.rules.skulls + 1)

    @cached_property
    def total_doubloons(self) -> int:
        return int(self.radix.sum() - len(self.radix))

    @cached_property
    def taken(self) -> np.ndarray:
        """Doubloons taken in each pier-state code."""
        codes = np.arange(self.n_codes, dtype=np.int64)
        return sum((codes // s) % r for s, r in zip(self.strides, self.radix, strict=True))

    def code(self, levels: tuple[int, ...]) -> int:
        return int(np.dot(levels, self.strides))

    def levels(self, code: int) -> tuple[int, ...]:
        return tuple(int(code // s % r) for s, r in zip(self.strides, self.radix, strict=True))

    def over(self, levels: tuple[int, ...], skulls: int) -> bool:
        """Has the game ended (every doubloon or every skull taken)?"""
        return skulls >= self.rules.skulls or sum(levels) >= self.total_doubloons

    def parse_state(self, text: str) -> tuple[tuple[int, ...], int]:
        """``'0000000000/0'`` -> (doubloons taken per pier, skulls taken)."""
        n = len(self.board.piers)
        m = re.fullmatch(r"\s*(\d+)/(\d+)\s*", text or "")
        if not m or len(m.group(1)) != n:
            raise InputError(
                f"bad board state {text!r}: expected {n} digits (doubloons taken per pier), "
                f"'/', skulls taken (e.g. {'0' * n}/0)"
            )
        levels = tuple(int(c) for c in m.group(1))
        for pier, lvl in zip(self.board.piers, levels, strict=True):
            if lvl > pier.doubloons:
                raise InputError(
                    f"bad board state {text!r}: pier {pier.name!r} has only {pier.doubloons} "
                    "doubloons"
                )
        skulls = int(m.group(2))
        if skulls > self.rules.skulls:
            raise InputError(f"bad board state {text!r}: only {self.rules.skulls} skull tokens")
        return levels, skulls

    @staticmethod
    def format_state(levels: tuple[int, ...], skulls: int) -> str:
        return "".join(str(x) for x in levels) + f"/{skulls}"

    @property
    def opening(self) -> tuple[tuple[int, ...], int]:
        return (0,) * len(self.board.piers), 0

    # ---- dice strings ---------------------------------------------------------------------------
    def parse_dice(self, text: str, count: int | None = None) -> np.ndarray:
        """``'BBOPA'`` (any case, spaces allowed) or words (``barrel,barrel,bottle,...``; plurals
        and German names of the shipped symbols too) -> face counts; ``count`` dice exactly
        (default: all)."""
        count = self.rules.dice if count is None else count
        letters = self.board.letters
        words = symbol_spellings(self.board.symbols)
        tokens = [t for t in re.split(r"[\s,;]+", (text or "").strip()) if t]
        shown: list[str] = []
        for token in tokens:
            symbol = words.get(normalise_name(token))
            if symbol is not None:
                shown.append(letters[symbol])
                continue
            bad = [c for c in token.upper() if c not in letters]
            if bad:
                known = " ".join(f"{a}={b}" for a, b in zip(letters, self.board.symbols,
                                                            strict=True))
                what = f"letter {bad[0]!r} in {token!r}" if len(tokens) == 1 else \
                    f"word {token!r}"
                names = {w: self.board.symbols[i] for w, i in words.items()}
                raise InputError(f"unknown die face: {what}; write letters ({known}) or "
                                 f"symbol words ({known_names(names)})")
            shown += list(token.upper())
        if len(shown) != count:
            raise InputError(f"expected {count} dice, got {len(shown)} in {text!r}")
        return np.array([shown.count(c) for c in letters], dtype=np.int64)

    def dice_text(self, counts) -> str:
        pairs = zip(self.board.letters, counts, strict=True)
        return "".join(letter * int(c) for letter, c in pairs)

    def key(self) -> dict:
        """Everything a whole-game solve depends on."""
        return {"board": self.board.digest, "piers": [p.name for p in self.board.piers],
                "rules": self.rules.key(), "version": VERSION}


def default_game(variants: tuple[str, ...] = ()) -> Game:
    return Game.load(None, variants)
