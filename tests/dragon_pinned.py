"""Pinned Die Dracheninsel route queries, stored as data (``tests/data/dracheninsel``): a
regression case names its position and hand in a file, not an index into a random
generator's stream that a change to its draw order would silently move."""

from __future__ import annotations

import tomllib
from pathlib import Path

from solver.dragon.board import default_island
from solver.dragon.cards import parse_hand
from solver.dragon.position import position_from_data
from solver.dragon.route import RouteQuery

DATA = Path(__file__).resolve().parent / "data" / "dracheninsel"


def pinned(name: str) -> RouteQuery:
    """The query stored in ``tests/data/dracheninsel/<name>.toml``: ``[query]`` (the hunter
    and the hand) and ``[position]`` (a position file's keys, see solver/dragon/position.py)."""
    path = DATA / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    position = position_from_data(data["position"], default_island(), str(path))
    return RouteQuery(position, data["query"]["hunter"], parse_hand(data["query"]["hand"]))
