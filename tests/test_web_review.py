"""The game review through the API (issue 38): ``POST /api/sabords/review`` and
``/api/armada/review`` answer byte for byte what ``treasure GAME review FILE --json`` prints
for the same record, and a malformed record is the command line's one line (without the file
name) as a 422; ``/review/chart`` is the CLI's chart series. Small games: Mille Sabords at
target 500 with scores floored at zero, Gold Armada on a reduced board (four piers, two
skulls) for the CLI and the API alike."""

from __future__ import annotations

import json

import pytest

from solver.io import dumps_json
from solver.web.errors import one_line
from tests.cli_helpers import run
from tests.test_web_api import client, small_games, wait_until_ready  # noqa: F401 (fixtures)

SABORDS_RECORD = """# a short game: Anne reaches the target, Bruno's last turn falls short
players Anne, Bruno
target 500
variant score-floor-zero

Anne: captain CCDMPSXX, CCDSXXCC
Bruno: gold CDMPPSXX, reroll MPPS CCDDMSXX, stop +600
"""
BAD_SABORDS = [
    ("Anne: captian CCDMPSXX", "turn 1 (line 6): unknown card 'captian'"),
    ("Anne: captain CCDMPSXX, reroll S CCDMPDXX", "turn 1 (line 6), roll 2: rerolls 1 die"),
    ("Anne: captain CCCDDSXX, stop +1000", "the score does not add up"),
]
PIERS = ["barrels", "parrots", "three-of-a-kind", "full-house"]


def check_same(client, game: str, text: str, tmp_path, capsys) -> dict:  # noqa: F811
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = run([game, "review", str(path), "--json"], capsys)
    assert code == 0, err
    response = wait_until_ready(client, f"/api/{game}/review", {"record": text})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.text == out
    doc = response.json()
    chart = client.post(f"/api/{game}/review/chart", json={"record": text})
    assert chart.status_code == 200, chart.text
    assert chart.json() == json.loads(dumps_json(expected_chart(game, doc)))
    return doc


def expected_chart(game: str, doc: dict) -> dict:
    """The chart the page draws: the series the CLI's ``--plot`` draws."""
    if game == "sabords":
        from solver.sabords.review.plot import chart_series
    else:
        from solver.armada.review_cli import chart_series
    xs, ys = chart_series(doc)[:2]
    assert len(ys) == len(doc["players"]) and all(len(y) == len(xs) for y in ys)
    return {"players": doc["players"], "turns": len(doc["turns"]), "x": xs, "series": ys,
            "range": [0.0, 1.0] if doc["objective"] == "win" else None}


def check_bad(client, game: str, text: str, words: str, tmp_path, capsys) -> None:  # noqa: F811
    """The CLI's error, ``game record FILE: ...``, is the API's ``game record: ...`` (cut
at the API's 300 characters)."""
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = run([game, "review", str(path), "--json"], capsys)
    assert (code, out) == (2, "") and err.startswith(f"error: game record {path}: ")
    line = err.removeprefix(f"error: game record {path}: ").rstrip("\n")
    assert words in line and "\n" not in line
    response = wait_until_ready(client, f"/api/{game}/review", {"record": text})
    assert response.status_code == 422
    assert response.json() == {"detail": one_line(f"game record: {line}")}  # 300 at most


def test_sabords_review_is_the_cli_json(client, tmp_path, capsys):  # noqa: F811
    doc = check_same(client, "sabords", SABORDS_RECORD, tmp_path, capsys)
    assert [row["result"] for row in doc["summary"]] == [1.0, 0.0]


@pytest.mark.parametrize("line,words", BAD_SABORDS)
def test_a_bad_sabords_record_is_the_cli_line(client, tmp_path, capsys, line, words):  # noqa: F811
    head = SABORDS_RECORD.split("\n\n")[0]
    check_bad(client, "sabords", f"{head}\n\n{line}\n", words, tmp_path, capsys)


@pytest.fixture
def reduced_armada(monkeypatch):
    """The review's board (``default_game``) reduced, for the CLI and the API alike; the
    duel table and a seeded game on it."""
    from solver.armada import game as game_module
    from solver.armada.review_sim import simulate_record
    from solver.armada.tables import load_table

    game = game_module.default_game().reduced(piers=PIERS, skulls=2)
    monkeypatch.setattr(game_module, "default_game", lambda variants=(): game)
    return simulate_record(game, ("Anne", "Bruno"), load_table(game, "duel"), 5, 0.4)


def test_armada_review_is_the_cli_json(client, tmp_path, capsys, reduced_armada):  # noqa: F811
    doc = check_same(client, "armada", reduced_armada, tmp_path, capsys)
    assert doc["objective"] == "duel" and doc["summary"][0]["finished"]
    first = next(line for line in reduced_armada.splitlines() if line.startswith("Anne:"))
    broken = reduced_armada.replace(first, first.replace("take ", "take treasure ", 1), 1)
    check_bad(client, "armada", broken, "unknown pier 'treasure", tmp_path, capsys)


@pytest.mark.parametrize("body,words", [
    ({}, "record: required field missing"),
    ({"record": 5}, "record: Input should be a valid string"),
    ({"record": "players A\x00"}, "record: control character"),
    ({"record": "x" * 60_001}, "record: String should have at most 60000 characters"),
    ({"record": "", "target": 500}, "target: unknown field"),
])
def test_a_malformed_request_is_a_one_line_422(client, body, words):  # noqa: F811
    for url in ("sabords/review", "armada/review", "sabords/review/chart",
                "armada/review/chart"):
        response = client.post(f"/api/{url}", json=body)
        assert response.status_code == 422 and words in response.json()["detail"], response.text


def test_a_record_keeps_its_lines_and_tabs(client, tmp_path, capsys):  # noqa: F811
    """Newlines (CRLF too) and tabs are the record's own, not refused as control
    characters."""
    text = SABORDS_RECORD.replace("\n", "\r\n").replace("Anne: ", "Anne:\t")
    check_same(client, "sabords", text, tmp_path, capsys)


def test_the_review_keys_built_from_names_exist():
    """The page builds keys from the review's words (review.js: ``review.rating.${rating}``,
    ``review.values.${objective}``, ``review.chart.${objective}``): each is in every
    language."""
    from solver.review import RATINGS
    from tests.test_web_i18n import TABLES

    words = {word for ratings in RATINGS.values() for _, word in ratings}
    keys = {f"review.rating.{word}" for word in words} | {
        f"review.{kind}.{objective}" for kind in ("values", "chart")
        for objective in ("win", "points", "solo", "duel")}
    for table in TABLES.values():
        assert keys <= set(table)


def _mutants(text: str, seed: int, count: int) -> list[str]:
    """Seeded damaged copies of a record: characters dropped, doubled or replaced, lines
    swapped or cut."""
    import random

    rng = random.Random(seed)
    alphabet = "CDMPSXBOAx ,:+-0123456789\n#" + "éß💀\t"
    out = []
    for _ in range(count):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(chars))
            kind = rng.randrange(3)
            if kind == 0:
                del chars[i]
            elif kind == 1:
                chars.insert(i, chars[i])
            else:
                chars[i] = rng.choice(alphabet)
        lines = "".join(chars).split("\n")
        if rng.random() < 0.3:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        if rng.random() < 0.2:
            lines = lines[:rng.randrange(len(lines) + 1)]
        out.append("\n".join(lines))
    return out


@pytest.mark.slow
def test_no_damaged_record_makes_a_500(client, monkeypatch, reduced_armada):  # noqa: F811
    """Seeded damaged records of both games and odd JSON values: only 200, 202 (a table
    that would be built; none is here) or a one-line 422."""
    from solver.web.builds import Building
    from tests.test_web_api import ODD_VALUES

    def no_build(key, what, run, **kwargs):
        raise Building(what)

    monkeypatch.setattr(client.app.state.builds, "build_in_background", no_build)
    seen = {200: 0, 202: 0, 422: 0}
    bodies = [{"record": value} for value in ODD_VALUES]
    bodies += [{"record": text} for text in _mutants(SABORDS_RECORD, 38, 120)]
    for game, extra in (("sabords", []), ("armada", _mutants(reduced_armada, 38, 120))):
        for body in bodies + [{"record": text} for text in extra]:
            response = client.post(f"/api/{game}/review", json=body)
            assert response.status_code in seen, (game, body, response.text)
            seen[response.status_code] += 1
            if response.status_code == 422:
                assert "\n" not in response.json()["detail"]
    assert seen[422] > 200 and seen[200] > 0


THREE_RECORD = """players Anne, Bruno, Carla
target 300
variant score-floor-zero

Anne: gold CDMPPSXX, reroll MPPS CCDDMSXX, stop
Bruno: captain CCCMMPXX, stop
Carla: diamond CCDMPSSX, reroll CCDMP SSSSSSXX
"""


def test_a_three_player_review_is_the_cli_json(client, tmp_path, capsys):  # noqa: F811
    """Three players (the shipped table): the API answers the CLI's review, chart included
    (one series per player)."""
    doc = check_same(client, "sabords", THREE_RECORD, tmp_path, capsys)
    assert doc["exact"] and [row["result"] for row in doc["summary"]] == [0.0, 0.0, 1.0]
