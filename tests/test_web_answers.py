"""Answers kept by the web server (solver.web.answers): the same query computed once, also
when requests arrive together; bad input never kept; a bounded number kept; and through the
API, a kept answer is byte for byte the computed one."""

from __future__ import annotations

import threading
import time
import warnings

import pytest

from solver.io import dumps_json
from solver.web.answers import Answers

with warnings.catch_warnings():  # Starlette now prefers httpx2 to httpx; both work
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_the_same_query_arriving_together_is_computed_once():
    answers = Answers()
    calls = []

    def make() -> dict:
        calls.append(1)
        time.sleep(0.3)  # the others arrive while this one computes
        return {"answer": 42}

    barrier = threading.Barrier(8)
    bodies = []

    def ask() -> None:
        barrier.wait()
        bodies.append(answers.body("e", ("q", 1), make))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(calls) == 1 and bodies == [dumps_json({"answer": 42})] * 8
    assert answers.body("e", ("q", 2), lambda: {"answer": 7}) == dumps_json({"answer": 7})
    assert answers.body("other", ("q", 1), lambda: {"x": 0}) == dumps_json({"x": 0})
    assert answers.made == 3


def test_errors_are_not_kept_and_the_size_is_bounded():
    answers = Answers(size=2)

    def bad() -> dict:
        raise ValueError("bad dice")

    for _ in range(2):
        with pytest.raises(ValueError):
            answers.body("e", "q", bad)
    assert answers.body("e", "q", lambda: {"a": 1}) == dumps_json({"a": 1})
    for n in range(3):
        answers.body("e", n, lambda n=n: {"n": n})
    made = answers.made
    answers.body("e", 0, lambda: {"n": 0})  # pushed out by 1 and 2: computed again
    answers.body("e", 2, lambda: {"n": 2})  # kept
    assert answers.made == made + 1


def test_a_kept_answer_is_the_computed_one(tmp_path, monkeypatch):
    from solver.web.app import create_app

    monkeypatch.setenv("TREASURE_CACHE", str(tmp_path))
    with TestClient(create_app(proofs_dir=tmp_path)) as client:
        answers = client.app.state.answers
        body = {"card": "captain", "dice": "CCDMPSXX"}
        first = client.post("/api/sabords/hold", json=body)
        made = answers.made
        again = client.post("/api/sabords/hold", json=body)
        assert first.status_code == again.status_code == 200
        assert again.content == first.content and answers.made == made
        other = client.post("/api/sabords/hold", json={**body, "dice": "CCCDMPSX"})
        assert other.status_code == 200 and other.content != first.content
        assert answers.made == made + 1
        bad = client.post("/api/sabords/hold", json={**body, "dice": "CCDMPSXQ"})
        assert bad.status_code == 422 and answers.made == made + 1
