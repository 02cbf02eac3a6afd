"""The plain-text record of a Mille Sabords game (``models/sabords/record.md`` documents it):
read into turns of dice, with one-line errors naming the line or the turn.

This module reads the text only: names, numbers and dice letters. Whether each roll can
follow the last under the card (a kept skull, a reroll of one die, dice that do not follow,
a score that does not add up) is the turn's own rules, checked where the turn is replayed
(:mod:`solver.sabords.review.moves`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from solver.errors import InputError
from solver.names import normalise_name
from solver.sabords.dice import parse_dice
from solver.sabords.rules import Rules, load_rules

HEADER_KEYS = ("game", "players", "target", "variant", "variants")
ENDS = ("stop", "bust", "island")
MARKS = ("keep", "reroll", "chest")


@dataclass(frozen=True)
class Step:
    """One roll of a turn: the dice showing (face counts), and what the record says was kept
    (``keep``), rerolled (``reroll``) or put on the chest (``chest``) before it."""

    roll: tuple[int, ...]
    keep: tuple[int, ...] | None = None
    reroll: tuple[int, ...] | None = None
    chest: tuple[int, ...] | None = None


@dataclass(frozen=True)
class TurnRecord:
    """One turn: its number (from 1), the player (index), the card, the rolls, how it ended
    (``stop``, ``bust``, ``island`` or None when not written) and the points written after
    the end (None when not written)."""

    number: int
    player: int
    card: str
    steps: tuple[Step, ...]
    end: str | None = None
    points: int | None = None
    line: int = 0  # its line in the record


@dataclass(frozen=True)
class GameRecord:
    """A whole record: the players (names), the target (None: a review in expected points,
    turn by turn), the rules with the record's variants, and the turns."""

    players: tuple[str, ...]
    target: int | None
    rules: Rules
    turns: tuple[TurnRecord, ...] = field(default=())

    @property
    def variants(self) -> tuple[str, ...]:
        return self.rules.variants


def parse_record(text: str) -> GameRecord:
    """The record in ``text``; bad input is one :class:`InputError` line naming the line (in
    the header) or the turn (and the roll) and the problem."""
    header: dict[str, list[tuple[int, str]]] = {}
    turn_lines: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.split(None, 1)[0].lower()
        if word in HEADER_KEYS and not turn_lines:
            header.setdefault(word, []).append((number, line.split(None, 1)[1:]))
        else:
            turn_lines.append((number, line))
    players, target, variants = _header(header)
    rules = load_rules(variants)
    turns = tuple(parse_turn(index, number, line, players, rules)
                  for index, (number, line) in enumerate(turn_lines, 1))
    if not turns:
        raise InputError("the record has no turn: write one line per turn, e.g. "
                         "'Anne: captain CCDMPSXX, stop'")
    return GameRecord(players, target, rules, turns)


def _header(header: dict) -> tuple[tuple[str, ...], int | None, list[str]]:
    """The players, target and variants of the header lines (each key at most once, but
    ``variant`` may repeat)."""
    for key, lines in header.items():
        if key != "variant" and len(lines) > 1:
            raise InputError(f"line {lines[1][0]}: '{key}' given twice")
        for number, value in lines:
            if not value:
                raise InputError(f"line {number}: '{key}' needs a value")

    def value(key: str) -> tuple[int, str] | None:
        return (header[key][0][0], header[key][0][1][0].strip()) if key in header else None

    game = value("game")
    if game is not None and normalise_name(game[1]) not in (
            "sabords", "mille-sabords", "piraten-kapern"):
        raise InputError(f"line {game[0]}: game {game[1]!r}: this is the Mille Sabords "
                         "review (treasure armada review reads Gold Armada records)")
    players: tuple[str, ...] = ()
    named = value("players")
    if named is not None:
        players = tuple(name for name in re.split(r"[\s,]+", named[1]) if name)
        if len(set(map(str.lower, players))) != len(players):
            raise InputError(f"line {named[0]}: a player is named twice")
        most = load_rules().max_players
        if len(players) > most:
            raise InputError(f"line {named[0]}: {len(players)} players: a game has at most "
                             f"{most}")
    target = None
    given = value("target")
    if given is not None:
        try:
            target = int(given[1])
        except ValueError:
            raise InputError(f"line {given[0]}: bad target {given[1]!r}: a whole number of "
                             "points") from None
        if len(players) < 2:
            raise InputError(f"line {given[0]}: a target needs two players or more (write "
                             "'players A, B'); without a target each turn is reviewed in "
                             "expected points")
    variants = [word for key in ("variant", "variants") for _, rest in header.get(key, [])
                for word in re.split(r"[\s,]+", rest[0]) if word]
    return players, target, variants


def parse_turn(index: int, number: int, line: str, players: tuple[str, ...],
               rules: Rules) -> TurnRecord:
    """Turn ``index`` (from 1), written on line ``number`` of the record."""
    where = f"turn {index} (line {number})"
    player = 0
    if ":" in line:
        name, line = (part.strip() for part in line.split(":", 1))
        known = [p.lower() for p in players]
        if name.lower() not in known:
            listed = ", ".join(players) if players else "none: no 'players' line"
            raise InputError(f"{where}: unknown player {name!r}; players: {listed}")
        player = known.index(name.lower())
        if len(players) > 1 and player != (index - 1) % len(players):
            raise InputError(f"{where}: it is {players[(index - 1) % len(players)]}'s turn, "
                             f"not {name}'s (players take turns in the order of the "
                             "'players' line)")
    elif players:
        raise InputError(f"{where}: write the player first ('{players[(index - 1) % len(players)]}"
                         ": CARD DICE, ...')")
    parts = [part.split() for part in line.split(",")]
    if any(not part for part in parts):
        raise InputError(f"{where}: an empty step between commas")
    first = parts[0]
    if len(first) != 2:
        raise InputError(f"{where}: a turn starts with the card and the first roll, e.g. "
                         "'captain CCDMPSXX'")
    try:
        card = rules.card(first[0]).name
    except InputError as err:
        raise InputError(f"{where}: {err}") from None
    if not dict(rules.deck).get(card):
        raise InputError(f"{where}: the {card} card is not in this game's deck (variant "
                         "promo-deck adds the promo cards)")
    steps = [Step(_dice(first[1], rules, f"{where}, roll 1"))]
    end, points = None, None
    for part in parts[1:]:
        if end is not None:
            raise InputError(f"{where}: nothing follows the turn's end ({end})")
        if part[0].lower() in ENDS:
            end, points = _end(part, f"{where}")
            continue
        steps.append(_step(part, rules, f"{where}, roll {len(steps) + 1}"))
    return TurnRecord(index, player, card, tuple(steps), end, points, number)


def _end(part: list[str], where: str) -> tuple[str, int | None]:
    end = part[0].lower()
    if len(part) > 2:
        raise InputError(f"{where}: '{end}' takes at most the points, e.g. '{end} +600'")
    if len(part) == 1:
        return end, None
    try:
        return end, int(part[1])
    except ValueError:
        raise InputError(f"{where}: bad points {part[1]!r} after '{end}': a whole number "
                         "such as +600 or -500") from None


def _step(part: list[str], rules: Rules, where: str) -> Step:
    marks: dict[str, tuple[int, ...]] = {}
    words = list(part)
    while len(words) > 1 and words[0].lower() in MARKS:
        mark, dice = words[0].lower(), words[1]
        if mark in marks:
            raise InputError(f"{where}: '{mark}' given twice")
        marks[mark] = _dice(dice, rules, f"{where}, {mark}", count=len(dice))
        words = words[2:]
    if "keep" in marks and "reroll" in marks:
        raise InputError(f"{where}: write either 'keep' or 'reroll', not both")
    if len(words) != 1:
        raise InputError(f"{where}: a roll is [keep DICE | reroll DICE] [chest DICE] and the "
                         f"{rules.dice} dice showing, e.g. 'reroll PS CCDMCCXX'")
    return Step(_dice(words[0], rules, where), **marks)


def _dice(text: str, rules: Rules, where: str, count: int | None = None) -> tuple[int, ...]:
    if not text.isalpha():
        raise InputError(f"{where}: bad dice {text!r}: write dice letters, e.g. CCDMPSXX")
    try:
        return parse_dice(text, rules, count=count)
    except InputError as err:
        raise InputError(f"{where}: {err}") from None
