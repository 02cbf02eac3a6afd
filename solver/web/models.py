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

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

MAX_TARGET = 10_000  # the largest whole game the server solves (its time grows as the square)
MAX_TEXT = 100  # the longest string any field takes (a dice string in words is under 80)
NAME = 60  # a card, variant or objective name (the longest is under 40)
MAX_PLAYERS = 5  # the most scores a position lists (the box: 2 to 5 players)
MAX_SCORE = 100_000  # no score echoed back is longer than this
MAX_RECORD = 60_000  # a game record's characters (a 40-turn game is about 3,000)
LINES = "\n\r\t"  # the control characters a game record may hold


def _names():
    """A list of variant names (a handful at most)."""
    return Field(default_factory=list, max_length=20)


def control_character(value: Any, allowed: str = "") -> str | None:
    """The first control character (Unicode category Cc: NUL, tab, newline, DEL...) not in
    ``allowed`` in a string or in the strings of a list, else None."""
    texts = value if isinstance(value, list) else [value]
    for text in texts:
        if isinstance(text, str):
            bad = next((c for c in text if unicodedata.category(c) == "Cc"
                        and c not in allowed), None)
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
    """A Mille Sabords scoreboard: the game's target and readings, and the whole table's
    position (``scores``: mine first, the others in playing order; ``trigger``: the position,
    2 to N, of the player who triggered the final round; ``race``: the race after the trigger
    player dropped), as ``--scores A,B,C --trigger P --race``."""

    variants: list[str] = _names()
    target: int | None = None
    scores: list[int] | None = Field(default=None, min_length=2, max_length=MAX_PLAYERS)
    trigger: int | None = None
    race: bool = False

    @field_validator("scores")
    @classmethod
    def _scores(cls, scores: list[int] | None) -> list[int] | None:
        bad = next((s for s in scores or () if abs(s) > MAX_SCORE), None)
        if bad is not None:
            raise ValueError(f"{bad} is not a score (at most {MAX_SCORE} points either way)")
        return scores

    def scores_text(self) -> str | None:
        """``scores`` as the command line's ``--scores`` takes them (``"4700,6200,3100"``)."""
        return None if self.scores is None else ",".join(str(s) for s in self.scores)

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
    """``treasure sabords game --me --opponent [--card]`` or ``--scores``: my chance to
    win."""

    me: int | None = None
    opponent: int | None = None
    sudden_death: bool = False
    card: str | None = Field(default=None, max_length=NAME)

    @model_validator(mode="after")
    def _position(self) -> SabordsGame:
        """A position: ``scores``, or both ``me`` and ``opponent`` (no headline here)."""
        if self.scores is None:
            missing = next((name for name in ("me", "opponent") if getattr(self, name) is None),
                           None)
            if missing is not None:
                raise ValueError(f"{missing}: required field missing (or give scores)")
        return self


class ArmadaHold(Query):
    """``treasure armada hold`` on the shipped board."""

    dice: str
    board_state: str = Field(default="0000000000/0", max_length=40)
    rolls_left: int
    objective: str = Field(default="solo", max_length=NAME)
    variants: list[str] = _names()
    all: bool = True  # the JSON always lists every option, as the CLI's --json does


class Review(Query):
    """``treasure sabords review FILE`` or ``treasure armada review FILE``: the record is
    the file's text (lines, tabs and all)."""

    record: str = Field(max_length=MAX_RECORD)

    @field_validator("*")
    @classmethod
    def _no_control_characters(cls, value: Any) -> Any:
        bad = control_character(value, LINES)
        if bad is not None:
            raise ValueError(f"control character {bad!r} not allowed")
        return value
