"""The table companion's web application: the JSON API under ``/api`` and the pages.

Every answer to a query is the document the command line prints with ``--json`` for the same
query, built by the same function (:mod:`solver.sabords.answers`,
:func:`solver.armada.advice.hold`) and serialised the same way (:func:`solver.io.dumps_json`),
so the body is byte for byte what the CLI prints. Endpoints are plain functions, which the
server runs on its thread pool: a turn that takes a second to solve holds one thread, not the
server. Tables that take longer are built in the background (:mod:`solver.web.tables`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from solver.errors import InputError
from solver.paths import PROOFS_DIR, REPORTS_DIR
from solver.web import errors
from solver.web.answers import Answers, json_response
from solver.web.builds import Builds
from solver.web.models import ArmadaHold, SabordsGame, SabordsHold
from solver.web.options import options
from solver.web.tables import GameTables, PlayTables, WholeTables, armada_game, armada_ready

STATIC_DIR = Path(__file__).parent / "static"


@cache
def _version() -> str:
    """The installed package's version (read once: the metadata lookup is slow for a health
    check)."""
    try:
        return version("treasure-solver")
    except PackageNotFoundError:
        return "unknown"


def _naming_scores(query, make: Callable[[], dict]) -> Callable[[], dict]:
    """``make`` with the domain's words about a listed score (``my score 150 is not a
    multiple of 100``, ``score 2 ...``) prefixed by the JSON field they are about,
    ``scores``."""
    def run() -> dict:
        try:
            return make()
        except InputError as err:
            text = str(err)
            if query.scores is None or not _SCORE_WORDS.match(text):
                raise
            raise InputError(f"scores: {text}") from None
    return run


_SCORE_WORDS = re.compile(r"(my score|score \d) ")


def create_app(proofs_dir: Path = PROOFS_DIR, reports_dir: Path = REPORTS_DIR) -> FastAPI:
    """The application, with its own queue of background builds. ``proofs_dir``: where to
    look for a shipped whole-game table (``proofs/``); ``reports_dir``: where the whole
    table's report is (the page links the four- and five-player rule's measured cost)."""
    app = FastAPI(title="treasure-solver table companion", version=_version(),
                  docs_url=None, redoc_url=None)  # their pages load scripts from the web
    errors.install(app)
    from solver.web.dragon import router as dragon_api  # /api/dragon/...: the island's page

    app.include_router(dragon_api)
    builds = Builds()
    game_tables = GameTables(builds, proofs_dir)
    play_tables, whole_tables = PlayTables(game_tables), WholeTables(builds)
    answers = Answers()  # the same query asked again is answered from here
    from solver.web.review import review_router  # /api/GAME/review...: a recorded game's

    app.include_router(review_router(game_tables, builds))
    app.state.builds, app.state.game_tables, app.state.answers = builds, game_tables, answers

    @app.get("/api/health")
    def health() -> dict:
        return {"status": "ok", "version": _version()}

    @app.get("/api/options")
    def get_options() -> dict:
        return options()

    @app.get("/api/status")
    def status() -> dict:
        return {"builds": builds.status()}

    @app.post("/api/sabords/hold")
    def sabords_hold(query: SabordsHold) -> Response:
        from solver.sabords.answers import hold_answer, reads_scoreboard

        # the page always sends a target: it makes a query about the game only with scores
        scoreboard = (reads_scoreboard(query.me, query.opponent, query.sudden_death, None)
                      or query.scores is not None)
        objective = query.objective
        if scoreboard and objective == "points":
            objective = None  # the page's default; with scores the objective is winning
        return json_response(answers.body("sabords/hold", query, _naming_scores(
            query, lambda: hold_answer(
            query.card, query.dice, game_tables, objective=objective,
            sorceress_used=query.sorceress_used, rerolled=query.rerolled, me=query.me,
            opponent=query.opponent, sudden_death=query.sudden_death,
            target=query.target if scoreboard else None, variants=query.variants,
            scores=query.scores_text(), trigger=query.trigger, race=query.race,
            whole=whole_tables))))

    @app.post("/api/sabords/game")
    def sabords_game(query: SabordsGame) -> Response:
        from solver.sabords.answers import answered_by_rule, game_answer

        # where the rule answers, it plays the two-player table's play (built ahead)
        rule = query.scores is not None and answered_by_rule(len(query.scores), query.target,
                                                             query.variants)
        return json_response(answers.body("sabords/game", query, _naming_scores(
            query, lambda: game_answer(
            play_tables if rule else game_tables, me=query.me, opponent=query.opponent,
            sudden_death=query.sudden_death, target=query.target, card=query.card,
            variants=query.variants, scores=query.scores_text(), trigger=query.trigger,
            race=query.race, whole=whole_tables))))

    @app.get("/reports/sabords/game.md")
    def whole_game_report() -> Response:
        """The whole game's report (``make solve``), which the page links for the four- and
        five-player rule's measured cost (its section on the whole table)."""
        path = reports_dir / "sabords" / "game.md"
        if not path.is_file():
            raise HTTPException(404, "reports/sabords/game.md is not written yet (make solve)")
        return Response(path.read_text(encoding="utf-8"),
                        media_type="text/markdown; charset=utf-8")

    @app.post("/api/armada/hold")
    def armada_hold(query: ArmadaHold) -> Response:
        from solver.armada.advice import OBJECTIVE_HELP, hold, hold_position

        objective = query.objective.lower()
        if objective not in OBJECTIVE_HELP:
            raise InputError(f"unknown objective {query.objective!r}; known: "
                             f"{', '.join(OBJECTIVE_HELP)}")
        game = armada_game(tuple(query.variants))
        hold_position(game, query.board_state, query.rolls_left, query.dice)
        armada_ready(builds, game, objective)
        return json_response(answers.body("armada/hold", query, lambda: hold(
            game, query.board_state, query.rolls_left, query.dice, objective)))

    if STATIC_DIR.is_dir():
        app.mount("/", StaticFiles(directory=STATIC_DIR, html=True), name="pages")
    return app
