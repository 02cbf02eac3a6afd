"""The table companion's JSON API (``solver.web``) through FastAPI's test client: every
endpoint; each answer byte for byte what the CLI's ``--json`` prints for the same query; every
class of bad input a one-line 422, never a 500; a cold whole game answered 202 and built once
in the background; two concurrent requests for a cold turn table building it once; the
shipped whole-game table used instead of a solve. Whole games are small (target 400 or 500,
lowest score -300: a few seconds), in a cache folder of this module's own."""

from __future__ import annotations

import json
import threading
import time
import warnings

import pytest
from click.testing import CliRunner

from solver.cli import cli
from solver.io import dumps_json
from solver.sabords.game.two_player import DEFAULT_LOW as SHIPPED_LOW  # before the fixture below

with warnings.catch_warnings():  # Starlette now prefers httpx2 to httpx; both work
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from solver.web.app import create_app  # noqa: E402

LOW = -300


@pytest.fixture(scope="module", autouse=True)
def small_games(tmp_path_factory):
    """A cache folder for this module (cold tables stay cold until a test builds them) and
    small whole games."""
    mp = pytest.MonkeyPatch()
    mp.setenv("TREASURE_CACHE", str(tmp_path_factory.mktemp("web-cache")))
    mp.setattr("solver.sabords.game.two_player.DEFAULT_LOW", LOW)
    yield
    mp.undo()


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(proofs_dir=tmp_path_factory.mktemp("no-proofs"))
    with TestClient(app) as test_client:
        yield test_client


def cli_json(*args: str) -> str:
    """What ``treasure ARGS`` prints (in-process), which must succeed."""
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def wait_until_ready(client, url: str, body: dict, seconds: float = 120):
    """Ask again while the answer is 202 (as the page does), at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        response = client.post(url, json=body)
        if response.status_code != 202 or time.monotonic() > deadline:
            return response
        time.sleep(0.2)


# -- the endpoints -----------------------------------------------------------------------------

def test_health(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json()["status"] == "ok" and response.json()["version"]


def test_options_are_read_from_the_rules(client):
    from solver.armada.game import Game
    from solver.sabords.rules import load_rules, variant_names

    doc = client.get("/api/options").json()
    rules = load_rules(())
    sabords = doc["sabords"]
    assert [c["name"] for c in sabords["cards"]] == list(rules.cards)
    assert {"name": "captain", "label": "Captain"}.items() <= sabords["cards"][2].items()
    assert [(f["letter"], f["name"]) for f in sabords["faces"]] == list(
        zip(rules.letters, rules.faces, strict=True))
    assert [v["name"] for v in sabords["variants"]] == list(variant_names())
    assert all(v["summary"] for v in sabords["variants"])
    assert sabords["targets"] == [5000, 6000, 8000] and sabords["dice"] == 8
    armada = doc["armada"]
    board = Game.load(None, ()).board
    assert [p["name"] for p in armada["piers"]] == [p.name for p in board.piers]
    assert [p["index"] for p in armada["piers"]] == list(range(len(board.piers)))
    assert armada["board_warning"] == board.note and "econstruct" in board.note
    assert [f["letter"] for f in armada["faces"]] == list(board.letters)
    assert armada["variants"] and armada["dice"] == 5


def test_the_pages_are_served(client):
    from solver.web.app import STATIC_DIR

    response = client.get("/")
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    for page in STATIC_DIR.glob("*.html"):
        assert client.get(f"/{page.name}").status_code == 200, page.name


HOLDS = [
    ({"dice": "CCDMPSXX"}, ["CCDMPSXX"]),
    ({"card": "captain", "dice": "CCDMPSXX", "all": True, "target": 6000,
      "objective": "points"}, ["--card", "captain", "--all", "CCDMPSXX"]),
    ({"card": "Kapitän", "dice": "coin,coin,skull,skull,monkey,parrot,sabre,diamond"},
     ["--card", "Kapitän", "coin,coin,skull,skull,monkey,parrot,sabre,diamond"]),
    ({"card": "sorceress", "dice": "CCDMPSXX", "sorceress_used": True},
     ["--card", "sorceress", "--sorceress-used", "CCDMPSXX"]),
    ({"dice": "CCCDDMPX", "objective": "reach:1000"},
     ["--objective", "reach:1000", "CCCDDMPX"]),
    ({"dice": "XXXXCCDM"}, ["XXXXCCDM"]),
    ({"dice": "XXXXCCDM", "variants": ["island-choose-dice"]},
     ["--variant", "island-choose-dice", "XXXXCCDM"]),
    ({"dice": "CCCDMPXX", "me": 0, "opponent": 600, "target": 500},
     ["--target", "500", "--me", "0", "--opponent", "600", "CCCDMPXX"]),
    ({"card": "captain", "dice": "CCDMPSXX", "me": 200, "opponent": 300, "target": 500,
      "objective": "points"},
     ["--card", "captain", "--target", "500", "--me", "200", "--opponent", "300",
      "CCDMPSXX"]),
    ({"dice": "CCCDMPXX", "me": 100, "opponent": 400, "sudden_death": True, "target": 500},
     ["--target", "500", "--me", "100", "--opponent", "400", "--sudden-death", "CCCDMPXX"]),
    ({"dice": "XXXXCCDM", "me": 0, "opponent": 0, "target": 500},
     ["--target", "500", "--me", "0", "--opponent", "0", "XXXXCCDM"]),
]


@pytest.mark.parametrize("body,args", HOLDS)
def test_sabords_hold_is_the_cli_json(client, body, args):
    printed = cli_json("sabords", "hold", "--json", *args)  # solves what is cold, inline
    response = client.post("/api/sabords/hold", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.text == printed


GAMES = [
    ({"me": 0, "opponent": 300, "target": 500}, ["--me", "0", "--opponent", "300"]),
    ({"me": 200, "opponent": 600, "target": 500, "card": "captain"},
     ["--me", "200", "--opponent", "600", "--card", "captain"]),
    ({"me": 200, "opponent": 400, "target": 500, "sudden_death": True},
     ["--me", "200", "--opponent", "400", "--sudden-death"]),
    ({"me": 100, "opponent": 400, "target": 500, "variants": ["score-floor-zero"]},
     ["--me", "100", "--opponent", "400", "--variant", "score-floor-zero"]),
]


@pytest.mark.parametrize("body,args", GAMES)
def test_sabords_game_is_the_cli_json(client, body, args):
    printed = cli_json("sabords", "game", "--target", "500", "--json", *args)
    response = client.post("/api/sabords/game", json=body)
    assert response.status_code == 200, response.text
    assert response.text == printed


ARMADA = [
    ({"dice": "BBOPA", "rolls_left": 2, "objective": "turn"},
     ["--rolls-left", "2", "--objective", "turn", "BBOPA"]),
    ({"dice": "BBBAA", "rolls_left": 0, "objective": "TURN", "board_state": "1000000000/0"},
     ["--rolls-left", "0", "--objective", "TURN", "--board-state", "1000000000/0", "BBBAA"]),
    ({"dice": "CCMMA", "rolls_left": 1, "objective": "turn", "variants": ["may-take-skull"],
      "all": False}, ["--rolls-left", "1", "--objective", "turn", "--variant",
                      "may-take-skull", "CCMMA"]),
]


@pytest.mark.parametrize("body,args", ARMADA)
def test_armada_hold_is_the_cli_json(client, body, args):
    printed = cli_json("armada", "hold", "--json", *args)
    response = client.post("/api/armada/hold", json=body)
    assert response.status_code == 200, response.text
    assert response.text == printed


# -- bad input ---------------------------------------------------------------------------------

HOLD, GAME, ARMADA_HOLD = "/api/sabords/hold", "/api/sabords/game", "/api/armada/hold"
SCORES = {"me": 0, "opponent": 300, "target": 500}

BAD = [
    (HOLD, {"dice": "CCDMPSXQ"}, "unknown die face"),
    (HOLD, {"dice": ""}, "no dice"),
    (HOLD, {"dice": "CCDMPSX"}, "expected 8 dice"),
    (HOLD, {"dice": "CCDMPSXXC"}, "expected 8 dice"),
    (HOLD, {"dice": "CCDMPSXX", "card": "joker"}, "unknown card"),
    (HOLD, {"dice": "CCDMPSXX", "variants": ["house-rules"]}, "unknown variant"),
    (HOLD, {"dice": "CCDMPXXX"}, "bust"),
    (HOLD, {"dice": "CCDMPSXX", "sorceress_used": True}, "only the Sorceress"),
    (HOLD, {"dice": "CCDMPSXX", "objective": "glory"}, "objective"),
    (HOLD, {"dice": "CCDMPSXX", "objective": "margin", **SCORES}, "turn objective"),
    (HOLD, {"dice": "CCDMPSXX", "me": 150, "opponent": 0}, "multiple of 100"),
    (HOLD, {"dice": "CCDMPSXX", "me": 0}, "both me and opponent"),
    (HOLD, {"dice": "CCDMPSXX", "me": 0, "opponent": 10**12}, "not a score"),
    (HOLD, {"dice": "CCDMPSXX", "me": 600, "opponent": 0, "target": 500}, "at or above"),
    (HOLD, {"dice": "CCDMPSXX", "target": 250}, "bad target"),
    (HOLD, {"dice": "CCDMPSXX", "target": 10**9}, "bad target"),
    (HOLD, {"dice": "C" * 5000}, "dice"),
    (GAME, {"me": 0, "opponent": 700, "target": 500, "sudden_death": True}, "sudden death"),
    (GAME, {"me": 500, "opponent": 700, "target": 500}, "at or above the target"),
    (GAME, {"me": 0, "opponent": 0, "target": -500}, "bad target"),
    (GAME, {"me": 0, "opponent": 0, "target": 500, "card": "joker"}, "unknown card"),
    (GAME, {"me": 0, "opponent": 0, "target": 500, "variants": ["x"]}, "unknown variant"),
    (GAME, {"me": 0, "target": 500}, "opponent: required field missing"),
    (GAME, {"me": 0, "opponent": 0, "target": 500, "sudden_death": True,
            "variants": ["endgame-new-final-round"]}, "no sudden death"),
    (GAME, {"me": -300, "opponent": 400, "target": 500, "variants": ["score-floor-zero"]},
     "no score goes below zero"),
    (ARMADA_HOLD, {"dice": "BBOPA", "rolls_left": 2, "board_state": "12"}, "bad board state"),
    (ARMADA_HOLD, {"dice": "BBOPA", "rolls_left": 2, "board_state": "3333333333/0"},
     "game is over"),
    (ARMADA_HOLD, {"dice": "BBOPA", "rolls_left": 3}, "rolls left must be 0 to 2"),
    (ARMADA_HOLD, {"dice": "BBOPA", "rolls_left": -1}, "rolls left"),
    (ARMADA_HOLD, {"dice": "BBOPAB", "rolls_left": 2}, "dice"),
    (ARMADA_HOLD, {"dice": "BBOPZ", "rolls_left": 2}, "unknown die face"),
    (ARMADA_HOLD, {"dice": "BBOPA", "rolls_left": 2, "objective": "glory"}, "objective"),
    (ARMADA_HOLD, {"dice": "BBOPA", "rolls_left": 2, "variants": ["x"]}, "variant"),
    (ARMADA_HOLD, {"dice": "BBOPA"}, "rolls_left: required field missing"),
    # wrong JSON types: strict, no quiet conversion
    (HOLD, {"dice": "CCDMPSXX", "me": "5400", "opponent": 0}, "me:"),
    (HOLD, {"dice": "CCDMPSXX", "me": 5400.0, "opponent": 0}, "me:"),
    (HOLD, {"dice": "CCDMPSXX", "me": True, "opponent": 0}, "me:"),
    (HOLD, {"dice": 12345678}, "dice:"),
    (HOLD, {"dice": "CCDMPSXX", "sudden_death": "yes"}, "sudden_death:"),
    (HOLD, {"dice": "CCDMPSXX", "variants": "nine-as-set"}, "variants:"),
    (HOLD, {"dice": "CCDMPSXX", "variants": [1]}, "variants[0]:"),
    (HOLD, {"dice": "CCDMPSXX", "sudden-death": True}, "sudden-death: unknown field"),
    (GAME, {"me": None, "opponent": 0}, "me:"),
    (ARMADA_HOLD, {"dice": "BBOPA", "rolls_left": "2"}, "rolls_left:"),
    (HOLD, {}, "dice: required field missing"),
    (HOLD, [], "JSON object"),
    (HOLD, "CCDMPSXX", "JSON object"),
    # every string is capped and refuses control characters (never silently dropped)
    (HOLD, {"dice": "CCDMPSXX", "card": "captain\u0000"}, "card: control character '\\x00'"),
    (HOLD, {"dice": "CCDMPSXX\t"}, "dice: control character"),
    (HOLD, {"dice": "CCDMPSXX", "variants": ["nine-as-set\n"]}, "variants: control"),
    (GAME, {"me": 0, "opponent": 0, "card": "\u007fcaptain"}, "card: control character"),
    (ARMADA_HOLD, {"dice": "BBOPA", "rolls_left": 2, "board_state": "0000000000/0\u0085"},
     "board_state: control character"),
    (HOLD, {"dice": "CCDMPSXX", "variants": ["x" * 10**4]}, "variants[0]: String should"),
    (HOLD, {"dice": "CCDMPSXX", "card": "x" * 61}, "card: String should have at most 60"),
    (ARMADA_HOLD, {"dice": "BBOPA", "rolls_left": 2, "objective": "o" * 500}, "objective:"),
    # errors name the JSON fields, not the command line's flags
    (HOLD, {"dice": "CCDMPSXX", "opponent": 0}, "a position needs both me and opponent"),
    (HOLD, {"dice": "CCDMPSXX", "sorceress_used": True}, "sorceress_used means nothing"),
    (HOLD, {"dice": "CCDMPSXX", "card": "captain", "rerolled": True}, "rerolled means nothing"),
    (HOLD, {"dice": "CCDMPSXX", "objective": "margin", **SCORES},
     "objective is a turn objective; with me and opponent"),
]


def _one_line_422(response, words: str) -> None:
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and detail.strip() == detail
    assert words in detail, detail
    assert len(detail) <= 300 and "--" not in detail, detail


@pytest.mark.parametrize("url,body,words", BAD)
def test_bad_input_is_a_one_line_422(client, url, body, words):
    _one_line_422(client.post(url, json=body), words)


@pytest.mark.parametrize("content,words", [
    (b"{not json", "not valid JSON"),
    (b"", "missing"),
    (b'{"dice": "CCDMPSXX",}', "not valid JSON"),
    ("{\"dice\": \"\udcff\"}".encode("utf-8", "surrogatepass"), "not valid UTF-8 (byte 10)"),
    (b'{"dice": "CC\xff\xfe"}', "not valid UTF-8"),
    (b"[" * 5000 + b"]" * 5000, "nests objects or lists more than 16 deep"),
    (b'{"dice": ' + b"[" * 16 + b"]" * 16 + b"}", "more than 16 deep"),
    (b'{"dice": ' + b"[" * 15 + b"]" * 15 + b"}", "dice:"),  # 16 deep: parsed, then refused
    (b'{"dice": "' + b"[" * 5000 + b'"}', "dice: String should have at most 100"),
    (b'{"dice": "\\u0000CCDMPSXX"}', "dice: control character"),
])
def test_a_body_that_is_not_json_is_a_422(client, content, words):
    response = client.post(HOLD, content=content, headers={"content-type": "application/json"})
    _one_line_422(response, words)


BASES = {
    HOLD: {"card": "none", "dice": "CCDMPSXX", "objective": "points", "variants": [],
           "sorceress_used": False, "rerolled": False, "all": True},
    GAME: {"me": 0, "opponent": 300, "target": 500, "card": "captain", "variants": [],
           "sudden_death": False},
    ARMADA_HOLD: {"dice": "BBOPA", "rolls_left": 2, "objective": "turn",
                  "board_state": "0000000000/0", "variants": []},
}
ODD_VALUES = [None, True, False, 0, -1, 1.5, 10**30, -(10**30), "", "x", "💀" * 9,
              "C" * 1000, [], ["x"], {}, {"a": 1}]


def test_no_bad_input_makes_a_500(client, monkeypatch):
    """Every field of every endpoint replaced by values of every JSON type, and whole bodies
    that are not objects: only 200 (the value happens to be valid), 202 (a valid query whose
    table is cold; no build is started here) or 422."""
    from solver.web.builds import Building

    def no_build(key, what, run, **kwargs):
        raise Building(what)

    monkeypatch.setattr(client.app.state.builds, "build_in_background", no_build)
    seen = {200: 0, 202: 0, 422: 0}
    for url, base in BASES.items():
        for field in [*base, "me", "opponent", "target", "unknown"]:
            for value in ODD_VALUES:
                response = client.post(url, json={**base, field: value})
                assert response.status_code in seen, (url, field, value, response.text)
                seen[response.status_code] += 1
                if response.status_code == 422:
                    assert "\n" not in response.json()["detail"]
        for body in (None, [], [base], "x", 1, 1.5, True):
            response = client.post(url, json=body)
            assert response.status_code == 422, (url, body, response.text)
    assert seen[422] > 300 and seen[200] > 10
    assert client.get("/api/nothing-here").status_code == 404


# -- HTTP: methods, sizes ----------------------------------------------------------------------

@pytest.mark.parametrize("method,url,allow", [
    ("GET", HOLD, "POST"), ("PUT", GAME, "POST"), ("DELETE", ARMADA_HOLD, "POST"),
    ("HEAD", HOLD, "POST"), ("POST", "/api/health", "GET, HEAD"),
    ("PATCH", "/api/options", "GET, HEAD"), ("POST", "/api/status", "GET, HEAD"),
])
def test_a_wrong_method_is_405_with_allow(client, method, url, allow):
    response = client.request(method, url)
    assert response.status_code == 405 and response.headers["allow"] == allow
    if method != "HEAD":
        assert "not allowed" in response.json()["detail"]


@pytest.mark.parametrize("url", ["/api/health", "/api/options", "/api/status", "/",
                                 "/index.html"])
def test_head_works_wherever_get_does(client, url):
    got, head = client.get(url), client.head(url)
    assert got.status_code == head.status_code == 200
    assert head.content == b"" and head.headers["content-length"] == str(len(got.content))
    assert head.headers["content-type"] == got.headers["content-type"]


def test_included_routers_keep_the_http_promises(tmp_path):
    """Endpoints another module adds with ``include_router`` (FastAPI keeps them in a router
    of their own, under its prefix) get 405 with Allow and HEAD too."""
    from fastapi import APIRouter

    router = APIRouter()

    @router.get("/thing")
    def thing() -> dict:
        return {"thing": 1}

    @router.post("/do")
    def do() -> dict:
        return {"done": True}

    from fastapi import FastAPI

    from solver.web import errors

    app = FastAPI()
    errors.install(app)
    app.include_router(router, prefix="/api/extra")
    with TestClient(app) as extra:
        assert extra.head("/api/extra/thing").status_code == 200
        for method, url, allow in (("GET", "/api/extra/do", "POST"),
                                   ("POST", "/api/extra/thing", "GET, HEAD")):
            response = extra.request(method, url)
            assert response.status_code == 405 and response.headers["allow"] == allow, url
        assert extra.post("/api/extra/do").json() == {"done": True}
        assert extra.get("/api/extra/nothing").status_code == 404
    with TestClient(create_app(proofs_dir=tmp_path)) as real:  # the island's page's API
        assert real.head("/api/dragon/options").status_code == 200
        carrying = {"hunters": {"red": {"at": "1,1", "with": "blue"},
                                "blue": {"at": "1,1", "with": "red"}}}
        _one_line_422(real.post("/api/dragon/route", json={
            "hunter": "red", "hand": ["volcano"], "goal": "treasure", "position": carrying}),
            "its goal is a boat (goal boat)")  # the field, not the flag --goal
        route = {"hunter": "red", "hand": ["volcano"]}
        _one_line_422(real.post("/api/dragon/route", json={**route, "hunter": "red\u0000"}),
                      "hunter: control character '\\x00' not allowed")
        _one_line_422(real.post("/api/dragon/route", json={
            **route, "position": {"hunters": {"red": "boat\u0007"}}}),
            "position.hunters.red: control character")
        for method, url, allow in (("GET", "/api/dragon/route", "POST"),
                                   ("PUT", "/api/dragon/patrol", "POST")):
            response = real.request(method, url)
            assert response.status_code == 405 and response.headers["allow"] == allow, url


def test_a_body_over_64_kb_is_413(client):
    for size in (64 * 1024 + 1, 50 * 10**6):
        body = b'{"dice": "' + b" " * (size - 12) + b'"}'
        response = client.post(HOLD, content=body, headers={"content-type": "application/json"})
        assert response.status_code == 413 and "64 KB" in response.json()["detail"]

    def streamed():  # no Content-Length: refused once the bound is passed
        for _ in range(100):
            yield b" " * 1024

    response = client.post(HOLD, content=streamed(), headers={"content-type": "application/json"})
    assert response.status_code == 413
    padded = b" " * (60 * 1024) + b'{"dice": "CCDMPSXX"}'  # under the bound: answered
    assert client.post(HOLD, content=padded,
                       headers={"content-type": "application/json"}).status_code == 200


def test_a_real_server_keeps_the_http_promises(tmp_path):
    """The same through uvicorn: 405 with Allow, HEAD without a body, 413, 422 for bad UTF-8."""
    import http.client
    import urllib.parse

    from solver.web.serve import in_thread

    with in_thread(create_app(proofs_dir=tmp_path)) as base:
        address = urllib.parse.urlsplit(base)

        def ask(method: str, url: str, body: bytes | None = None):
            connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
            connection.request(method, url, body=body,
                               headers={"Content-Type": "application/json"})
            reply = connection.getresponse()
            data = reply.read()
            connection.close()
            return reply.status, reply.getheader("Allow"), data

        assert ask("GET", HOLD)[:2] == (405, "POST")
        status, _, data = ask("HEAD", "/api/options")
        assert status == 200 and data == b""
        assert ask("POST", HOLD, b"{" + b" " * 70000 + b"}")[0] == 413
        status, _, data = ask("POST", HOLD, b'{"dice": "\xff"}')
        assert status == 422 and b"UTF-8" in data


# -- slow tables -------------------------------------------------------------------------------

def test_a_cold_whole_game_is_built_once_in_the_background(client, monkeypatch):
    import solver.sabords.game.solved as game_module

    solves = []
    real = game_module.solve_game

    def counted(spec, *args, **kwargs):
        if kwargs.get("fixed") is None:
            solves.append(spec.target)
            time.sleep(0.5)  # the requests below arrive while the build runs
        return real(spec, *args, **kwargs)

    monkeypatch.setattr(game_module, "solve_game", counted)
    body = {"me": 100, "opponent": 200, "target": 400}
    first = client.post(GAME, json=body)
    assert first.status_code == 202, first.text
    doc = first.json()
    assert doc["status"] == "building" and doc["retry_after"] == 5
    assert "whole Mille Sabords game (target 400" in doc["detail"] and "\n" not in doc["detail"]
    assert first.headers["retry-after"] == "5"
    hold = client.post(HOLD, json={"dice": "CCDMPSXX", **body})
    assert hold.status_code == 202  # the same table: joins the same build
    builds = client.get("/api/status").json()["builds"]
    assert len(builds) == 1 and "target 400" in builds[0]["what"]
    assert builds[0]["state"] in ("queued", "building")
    answer = wait_until_ready(client, GAME, body)
    assert answer.status_code == 200, answer.text
    assert solves == [400]
    assert client.get("/api/status").json()["builds"] == []
    assert answer.text == cli_json("sabords", "game", "--target", "400", "--me", "100",
                                   "--opponent", "200", "--json")
    assert solves == [400]  # the CLI read the table the server built


def test_a_failed_build_is_reported_once_then_retried(client, monkeypatch):
    import solver.sabords.game.solved as game_module

    def broken(spec, *args, **kwargs):
        raise RuntimeError("out of\nmemory")

    monkeypatch.setattr(game_module, "solve_game", broken)
    body = {"me": 0, "opponent": 0, "target": 300}
    assert client.post(GAME, json=body).status_code == 202
    answer = wait_until_ready(client, GAME, body, seconds=30)
    assert answer.status_code == 503 and answer.json()["detail"].endswith(
        "failed: out of memory; ask again to retry")
    assert client.post(GAME, json=body).status_code == 202  # queued again
    assert wait_until_ready(client, GAME, body, seconds=30).status_code == 503


def test_a_cold_armada_table_is_built_in_the_background(client, monkeypatch):
    import solver.armada.tables as tables

    release = threading.Event()
    started = []

    def slow(game, objective, **kwargs):
        started.append(objective)
        release.wait(30)
        raise RuntimeError("not built in this test")

    monkeypatch.setattr(tables, "load_table", slow)
    body = {"dice": "BBOPA", "rolls_left": 2, "objective": "duel"}
    response = client.post(ARMADA_HOLD, json=body)
    assert response.status_code == 202, response.text
    assert "Gold Armada duel table" in response.json()["detail"]
    # the position is checked before any table: bad input is still a 422 at once
    _one_line_422(client.post(ARMADA_HOLD, json={**body, "dice": "BBOP"}), "dice")
    release.set()
    assert wait_until_ready(client, ARMADA_HOLD, body, seconds=30).status_code == 503
    assert started == ["duel"]


def test_two_requests_for_a_cold_turn_table_build_it_once(client, monkeypatch, tmp_path):
    import solver.sabords.turn.solve as solve_module

    monkeypatch.setenv("TREASURE_CACHE", str(tmp_path))  # every turn table cold
    solve_module.solve_turn.cache_clear()
    builds = []
    real = solve_module.solve

    def counted(problem, *args, **kwargs):
        builds.append(threading.current_thread().name)
        time.sleep(0.5)  # the second request arrives while the first builds
        return real(problem, *args, **kwargs)

    monkeypatch.setattr(solve_module, "solve", counted)
    barrier = threading.Barrier(2)
    answers = []

    def ask(dice: str) -> None:
        barrier.wait()
        answers.append(client.post(HOLD, json={"card": "gold", "dice": dice}))

    threads = [threading.Thread(target=ask, args=(d,)) for d in ("CCDMPSXX", "CCCDMPSX")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    solve_module.solve_turn.cache_clear()
    assert [a.status_code for a in answers] == [200, 200]
    assert len(builds) == 1, builds
    assert len(list(tmp_path.glob("sabords/gold-points-*.tsc"))) == 1


@pytest.mark.parametrize("cache", ["empty", "unusable"])
def test_the_shipped_table_answers_without_a_solve(cache, monkeypatch, tmp_path_factory):
    """A whole game whose table ships in proofs/ (same rules, target, lowest score) is
    answered from it at once, also when the cache folder cannot be used (a regular file
    here); one solved under other rules is not used."""
    import solver.sabords.game.solved as game_module
    from solver.sabords.answers import game_answer
    from solver.sabords.game.report import _proof
    from solver.sabords.game.solved import load_game
    from solver.sabords.game.two_player import GameSpec
    from solver.sabords.rules import load_rules

    table = load_game(GameSpec(load_rules(()), 500))  # built by the tests above, or now
    proofs = tmp_path_factory.mktemp("proofs")
    (proofs / "sabords").mkdir()
    (proofs / "sabords" / "game-500.json").write_text(_proof(table))
    folder = tmp_path_factory.mktemp("cache")
    if cache == "unusable":
        folder = folder / "a-file"
        folder.write_text("not a folder")
    monkeypatch.setenv("TREASURE_CACHE", str(folder))

    def refuse(*args, **kwargs):
        raise AssertionError("solved instead of reading the shipped table")

    monkeypatch.setattr(game_module, "solve_game", refuse)
    body = {"me": 200, "opponent": 300, "target": 500, "card": "captain"}
    with TestClient(create_app(proofs_dir=proofs)) as client:
        response = client.post(GAME, json=body)
        assert response.status_code == 200, response.text
        expected = game_answer(lambda spec: table, me=200, opponent=300, target=500,
                               card="captain")
        assert response.text == dumps_json(expected)
        hold = client.post(HOLD, json={"dice": "CCCDMPXX", "me": 0, "opponent": 600,
                                       "target": 500})
        assert hold.status_code == 200 and json.loads(hold.text)["phase"] == "last"
        if cache == "empty":
            # another reading's table is a different game: built, not read from the file
            other = client.post(GAME, json={**body, "variants": ["nine-as-set"]})
            assert other.status_code == 202


def test_the_default_game_ships_its_table():
    """proofs/sabords/game-6000.json is the default game under the current rules file, so
    the page's default scoreboard queries need no whole-game solve."""
    from solver.sabords.game.two_player import GameSpec
    from solver.sabords.rules import load_rules
    from solver.web.builds import Builds
    from solver.web.tables import GameTables

    # the module's fixture lowers DEFAULT_LOW for its small games: name the real one
    spec = GameSpec(load_rules(()), 6000, SHIPPED_LOW)
    table = GameTables(Builds()).shipped(spec)
    span = spec.top - spec.bottom
    assert table is not None and table.normal.shape == (span, span)


# -- treasure serve ----------------------------------------------------------------------------

def test_serve_rejects_a_bad_port_in_one_line(capsys):
    import socket

    from tests.cli_helpers import run

    for argv in (["serve", "--port", "0"], ["serve", "--port", "http"],
                 ["serve", "--host", "no.such.host.invalid"]):
        code, out, err = run(argv, capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        code, _, err = run(["serve", "--port", str(busy.getsockname()[1])], capsys)
    assert code == 2 and "cannot listen" in err and len(err.strip().splitlines()) == 1


def test_serve_refuses_a_malformed_cache_limit_at_start(capsys, monkeypatch):
    from tests.cli_helpers import run

    monkeypatch.setenv("TREASURE_CACHE_LIMIT", "plenty")
    code, out, err = run(["serve", "--port", "65000"], capsys)  # said before listening
    assert code == 2 and out == "" and "TREASURE_CACHE_LIMIT" in err
    assert len(err.strip().splitlines()) == 1


def test_serve_says_who_can_reach_it():
    from solver.web.serve import address_lines

    assert address_lines("127.0.0.1", 8000) == [
        "treasure serve: open http://127.0.0.1:8000/ in a browser (Ctrl-C stops it)"]
    lines = address_lines("0.0.0.0", 8080)
    assert "from a phone on the same network" in lines[1] and ":8080/" in lines[1]
    assert "anyone who can reach this machine" in lines[2]


def test_serve_runs_a_real_server(tmp_path):
    """``treasure serve`` in a process of its own answers on the port it printed."""
    import os
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "TREASURE_CACHE": str(tmp_path)}
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert f"http://127.0.0.1:{port}/" in server.stdout.readline()
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health",
                                            timeout=5) as reply:
                    assert json.load(reply)["status"] == "ok"
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(10)
