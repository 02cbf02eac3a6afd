"""The table companion's Die Dracheninsel API (``/api/dragon/...``), registered by the app.

A position travels as the parsed data of a position file (:mod:`solver.dragon.position`: the
keys ``treasure``, ``dragons``, ``hunters``, ``tiles``), read by the same function as the
command line's ``--position`` file, so the page's position and the file it exports are one
thing. The route is :func:`solver.dragon.route.route_document`, the very document
``treasure dragon route --json`` prints; the patrol is ``treasure dragon patrol --json``'s.
"""

from __future__ import annotations

import time
import tomllib
from functools import cache

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from solver.errors import InputError
from solver.web.answers import json_response

router = APIRouter()
SOURCE = "position"  # how errors name the position (the CLI names its file)


class DragonQuery(BaseModel):
    """Strict, closed request bodies (as :mod:`solver.web.models`)."""

    model_config = ConfigDict(strict=True, extra="forbid")


class BoardQuery(DragonQuery):
    """The board of a position, and a route's JSON to draw over it."""

    position: dict = Field(default_factory=dict)
    route: dict | None = None


class PositionQuery(DragonQuery):
    """A position to check and convert: its data, or a position file's text."""

    position: dict | None = None
    toml: str | None = Field(default=None, max_length=20_000)


class RouteBody(DragonQuery):
    """``treasure dragon route --position FILE --hunter --hand [--goal] [--variant]``."""

    position: dict = Field(default_factory=dict)
    hunter: str = Field(max_length=40)
    hand: list[str] = Field(max_length=6)
    goal: str | None = Field(default=None, max_length=20)
    variants: list[str] = Field(default_factory=list, max_length=20)


class PatrolBody(DragonQuery):
    """``treasure dragon patrol --position FILE --hunter [--against] [--variant]``."""

    position: dict = Field(default_factory=dict)
    hunter: str = Field(max_length=40)
    against: str = Field(default="all", max_length=40)
    variants: list[str] = Field(default_factory=list, max_length=20)


def _position(data: dict):
    """A position from its file's data (the shipped board), checked as the CLI checks it."""
    from solver.dragon.board import default_island
    from solver.dragon.position import position_from_data

    return position_from_data(data, default_island(), SOURCE)


def _names(items: list[str], what: str) -> None:
    for item in items:
        if not isinstance(item, str) or len(item) > 60:
            raise InputError(f"{what}: a name of at most 60 characters, got {str(item)[:60]!r}")


@cache
def dragon_options() -> dict:
    """Everything the page draws its controls from: hunters, terrains and cards with their
    German names, coin values, the hand size, the readings, the opening position."""
    from solver.dragon.board import default_island
    from solver.dragon.cards import deck
    from solver.dragon.position import opening, position_data
    from solver.dragon.rules import rules, variant_table

    model, island = rules(), default_island()

    def german(card) -> str:
        if card.terrains:
            return "+".join(model.terrain_german[t] for t in card.terrains)
        return "+".join(model.actions[a].german for a in card.actions)

    kinds = sorted(set(deck(model)), key=lambda c: (not c.terrains, len(c.name.split("+")),
                                                     c.name))
    return {
        "hunters": [{"colour": colour, "german": model.colour_german[colour], "terrain": t}
                    for t, colour in model.colour_of.items()],
        "terrains": [{"name": t, "german": model.terrain_german[t], "fill": model.fill[t]}
                     for t in model.terrains],
        "cards": [{"name": c.name, "german": german(c),
                   "kind": "terrain" if c.terrains else "action"} for c in kinds],
        "coins": list(model.coins["values"]),
        "hand_size": model.hand_size,
        "dragons_in_play": int(model.components["dragons_in_play"]),
        "treasure_field": island.names[island.treasure],
        "fronts": [island.names[v] for v in island.fronts],
        "reconstruction": island.reconstruction,
        "variants": [{"name": name, "summary": spec["description"]}
                     for name, spec in variant_table(model).items()],
        "opening": position_data(opening(island)),
    }


@router.get("/api/dragon/options")
def options() -> dict:
    """:func:`dragon_options` and a route query's deadline in seconds (the page's wait and
    answer lines say it)."""
    from solver.dragon.route import DEADLINE

    return {**dragon_options(), "route_deadline": DEADLINE}


@router.post("/api/dragon/board")
def board(query: BoardQuery) -> Response:
    """The island as ``treasure dragon board`` draws it (``svg``), its fields and route
    labelled, without the legend (the page explains the pieces under it, so the island is
    as wide as a phone)."""
    from solver.dragon.svg import draw_board

    svg = draw_board(_position(query.position), query.route, labels=True, legend=False)
    return json_response({"svg": svg})


@router.post("/api/dragon/position")
def position(query: PositionQuery) -> Response:
    """A position checked, as data and as a position file's text (to export it); or a
    position file's text read back (to import it)."""
    from solver.dragon.position import position_data, position_toml

    if (query.position is None) == (query.toml is None):
        raise InputError("send either position (the data) or toml (a position file's text)")
    data = query.position
    if query.toml is not None:
        try:
            data = tomllib.loads(query.toml)
        except tomllib.TOMLDecodeError as err:
            raise InputError(f"position file: malformed TOML ({err})") from None
    pos = _position(data)
    return json_response({"position": position_data(pos), "toml": position_toml(pos)})


@router.post("/api/dragon/route")
def route(query: RouteBody) -> Response:
    """``treasure dragon route --json`` for the position, hunter, hand and goal, within the
    deadline counted from this call (reading the position and the hand counts too)."""
    arrived = time.perf_counter()
    from solver.dragon.cards import parse_hand
    from solver.dragon.route import DEADLINE, WORK_BUDGET, RouteQuery, route_document
    from solver.dragon.route_method import best_route
    from solver.dragon.rules import load_readings

    _names(query.hand, "hand")
    _names(query.variants, "variants")
    if not query.hand:
        raise InputError("hand: no card given; name one or more cards")
    pos = _position(query.position)
    model = pos.island.model
    q = RouteQuery(pos, model.parse_colour(query.hunter), parse_hand(query.hand, model),
                   query.goal, load_readings(query.variants, model))
    left = max(DEADLINE - (time.perf_counter() - arrived), 1e-3)  # (the body read and checked)
    result = best_route(q, "cp-sat", budget=WORK_BUDGET, deadline=left)
    return json_response(route_document(q, result))


def warm_up() -> None:
    """Import what a route query needs (CP-SAT, the router: about half a second), so the
    server's first route answers as fast as the next (``treasure serve`` calls it before it
    listens)."""
    from solver.dragon.route_method import best_route  # noqa: F401
    from solver.dragon.router.rounds import cp_route  # noqa: F401


@router.post("/api/dragon/patrol")
def patrol(query: PatrolBody) -> Response:
    """``treasure dragon patrol --json``: where Drachenpatrouille should set a dragon."""
    from solver.dragon.patrol import cp_patrol
    from solver.dragon.rules import load_readings

    _names(query.variants, "variants")
    pos = _position(query.position)
    model = pos.island.model
    colour = model.parse_colour(query.hunter)
    against = "all" if query.against.strip().lower() == "all" else model.parse_colour(
        query.against)
    readings = load_readings(query.variants, model)
    return json_response(cp_patrol(pos, colour, against, readings).to_json())
