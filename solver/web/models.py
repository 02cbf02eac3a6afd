"""The API's request bodies: the command line's options as JSON fields (same names, with
``_`` for ``-``), strictly typed (a number is not a string, a flag is a JSON boolean) and
closed (an unknown field is an error, so a misspelt option is not silently ignored).

What the domain checks (a dice string, a card name, a score, a board state) is left to the
functions the command line uses, so the API and the CLI reject the same input with the same
words. Only what the server itself must bound is checked here: string lengths (every string
has a cap, so no error echoes a megabyte back), control characters (a NUL in a card name is
refused, not dropped by the name folding), and the whole game's target (a target of a million
points would queue a solve that never ends).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_TARGET = 10_000  # the largest whole game the server solves (about two minutes cold)
MAX_TEXT = 100  # the longest string any field takes (a dice string in words is under 80)
NAME = 60  # a card, variant or objective name (the longest is under 40)


def _names():
    """A list of variant names (a handful at most)."""
    return Field(default_factory=list, max_length=20)


def control_character(value: Any) -> str | None:
    """The first control character (Unicode category Cc: NUL, tab, newline, DEL...) in a
    string or in the strings of a list, else None."""
    texts = value if isinstance(value, list) else [value]
    for text in texts:
        if isinstance(text, str):
            bad = next((c for c in text if unicodedata.category(c) == "Cc"), None)
            if bad is not None:
                return bad
    return None


class Query(BaseModel):
    """Strict, closed request bodies; no string longer than ``MAX_TEXT``, none with a
    control character."""

    model_config = ConfigDict(strict=True, extra="forbid", str_max_length=MAX_TEXT)

    @field_validator("*")
    @classmethod
    def _no_control_characters(cls, value: Any) -> Any:
        bad = control_character(value)
        if bad is not None:
            raise ValueError(f"control character {bad!r} not allowed")
        return value


class GameQuery(Query):
    """A Mille Sabords scoreboard: the game's target and readings."""

    variants: list[str] = _names()
    target: int | None = None

    @field_validator("target")
    @classmethod
    def _target(cls, target: int | None) -> int | None:
        if target is None:
            return None
        if not 100 <= target <= MAX_TARGET or target % 100:
            raise ValueError(f"bad target {target}: a multiple of 100 points from 100 to "
                             f"{MAX_TARGET} (the largest game this server solves)")
        return target


class SabordsHold(GameQuery):
    """``treasure sabords hold``: the card, the dice and, optionally, the scoreboard. Without
    scores ``target`` is not used (the page always sends it); with scores ``objective`` must
    be ``points`` or null (the objective is then winning the game)."""

    card: str = Field(default="none", max_length=NAME)
    dice: str
    me: int | None = None
    opponent: int | None = None
    sudden_death: bool = False
    sorceress_used: bool = False
    rerolled: bool = False
    objective: str | None = Field(default=None, max_length=NAME)
    all: bool = True  # the JSON always lists every option, as the CLI's --json does


class SabordsGame(GameQuery):
    """``treasure sabords game --me --opponent [--card]``: my chance to win."""

    me: int
    opponent: int
    sudden_death: bool = False
    card: str | None = Field(default=None, max_length=NAME)


class ArmadaHold(Query):
    """``treasure armada hold`` on the shipped board."""

    dice: str
    board_state: str = Field(default="0000000000/0", max_length=40)
    rolls_left: int
    objective: str = Field(default="solo", max_length=NAME)
    variants: list[str] = _names()
    all: bool = True  # the JSON always lists every option, as the CLI's --json does
