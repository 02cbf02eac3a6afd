"""The API's request bodies: the command line's options as JSON fields (same names, with
``_`` for ``-``), strictly typed (a number is not a string, a flag is a JSON boolean) and
closed (an unknown field is an error, so a misspelt option is not silently ignored).

What the domain checks (a dice string, a card name, a score, a board state) is left to the
functions the command line uses, so the API and the CLI reject the same input with the same
words. Only what the server itself must bound is checked here: string lengths, and the whole
game's target (a target of a million points would queue a solve that never ends).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_TARGET = 10_000  # the largest whole game the server solves (about two minutes cold)


def _names():
    """A list of variant names (a handful at most)."""
    return Field(default_factory=list, max_length=20)


class Query(BaseModel):
    """Strict, closed request bodies."""

    model_config = ConfigDict(strict=True, extra="forbid")


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

    card: str = Field(default="none", max_length=60)
    dice: str = Field(max_length=100)
    me: int | None = None
    opponent: int | None = None
    sudden_death: bool = False
    sorceress_used: bool = False
    rerolled: bool = False
    objective: str | None = Field(default=None, max_length=60)
    all: bool = True  # the JSON always lists every option, as the CLI's --json does


class SabordsGame(GameQuery):
    """``treasure sabords game --me --opponent [--card]``: my chance to win."""

    me: int
    opponent: int
    sudden_death: bool = False
    card: str | None = Field(default=None, max_length=60)


class ArmadaHold(Query):
    """``treasure armada hold`` on the shipped board."""

    dice: str = Field(max_length=100)
    board_state: str = Field(default="0000000000/0", max_length=40)
    rolls_left: int
    objective: str = Field(default="solo", max_length=20)
    variants: list[str] = _names()
    all: bool = True  # the JSON always lists every option, as the CLI's --json does
