"""A recorded game's review over the API (issue 38), for the pages' Review action.

``POST /api/sabords/review`` and ``/api/armada/review`` answer byte for byte what ``treasure
GAME review FILE --json`` prints for the record's text: the same answer function
(``review_answer`` of each game), with the server's tables (a table not built yet is built in
the background: 202, ask again). ``POST /api/GAME/review/chart`` answers the review's chart as
numbers, from the very series the command line's ``--plot`` draws, so the page draws the
same lines: ``players``, ``turns``, ``x`` (turns from the start, a step per card, roll and
decision), ``series`` (one list of values per player) and ``range`` (``[0, 1]`` for P(win),
else null).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from fastapi import APIRouter
from fastapi.responses import Response

from solver.web.answers import json_response
from solver.web.builds import Builds
from solver.web.models import Review
from solver.web.tables import GameTables, WholeTables, armada_ready


def chart_answer(doc: dict, series: Callable[[dict], tuple]) -> dict:
    """The chart of the review ``doc``: ``series(doc)`` is the game's ``chart_series`` (its
    first two items: the x positions and one list per player)."""
    xs, ys = series(doc)[:2]
    return {"players": doc["players"], "turns": len(doc["turns"]), "x": xs, "series": ys,
            "range": [0.0, 1.0] if doc["objective"] == "win" else None}


def review_router(game_tables: GameTables, builds: Builds) -> APIRouter:
    """The review endpoints, reading Mille Sabords tables from ``game_tables`` and building
    Gold Armada's with ``builds``."""
    router = APIRouter()
    whole_tables = WholeTables(builds)  # three players: the exact table, built as for hold

    def sabords(record: str) -> dict:
        from solver.sabords.review.moves import review_answer

        return review_answer(record, game_tables, whole=whole_tables)

    def armada(record: str) -> dict:
        from solver.armada.review import review_answer
        from solver.armada.tables import load_table

        def table(game, objective: str):
            armada_ready(builds, game, objective)
            return load_table(game, objective, show_progress=False)

        return review_answer(record, table)

    for game, review, plot in (("sabords", sabords, "solver.sabords.review.plot"),
                               ("armada", armada, "solver.armada.review_cli")):
        _endpoints(router, game, review, plot)
    return router


def _endpoints(router: APIRouter, game: str, review: Callable[[str], dict], plot: str) -> None:
    """``/api/GAME/review`` (``review(record)``) and its chart (``chart_series`` of the
    module ``plot``, the command line's chart)."""

    @router.post(f"/api/{game}/review", name=f"{game}_review")
    def answer(query: Review) -> Response:
        return json_response(review(query.record))

    @router.post(f"/api/{game}/review/chart", name=f"{game}_review_chart")
    def chart(query: Review) -> Response:
        series = importlib.import_module(plot).chart_series
        return json_response(chart_answer(review(query.record), series))
