"""solver.io.dumps_json writes exactly what json.dumps writes with sorted keys, an indent of
two and no ASCII escaping (it takes a faster path for objects and lists of plain values)."""

from __future__ import annotations

import json
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.io import dumps_json


def reference(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


scalars = (st.none() | st.booleans() | st.integers() | st.integers(-10**30, 10**30)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text())
keys = st.text(max_size=8)
values = st.recursive(
    scalars,
    lambda inner: (st.lists(inner, max_size=5) | st.lists(inner, max_size=3).map(tuple)
                   | st.dictionaries(keys, inner, max_size=5)),
    max_leaves=40)
# a flat object's keys may be numbers, booleans or null too (each converted to a string)
flat_keys = st.text(max_size=4) | st.integers() | st.floats(allow_nan=False)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(values)
def test_same_text_as_json_dumps(value):
    assert dumps_json(value) == reference(value)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(flat_keys, scalars, max_size=5), st.integers(0, 3))
def test_keys_that_are_not_strings(flat, depth):
    """Non-string keys are converted as json.dumps converts them, in an innermost object
    (written by the C encoder) and in one that holds a list (left to json.dumps)."""
    for value in (flat, {"a": [flat], "b": flat}, {0: [flat], 1.5: None, True: "x"}):
        for _ in range(depth):
            value = [value, {"x": value}]
        try:
            expected = reference(value)
        except TypeError:  # keys json.dumps cannot sort (a number and a string)
            with pytest.raises(TypeError):
                dumps_json(value)
            continue
        assert dumps_json(value) == expected


def test_subclasses_and_unusual_values():
    """Subclasses of the plain types are written as json.dumps writes them; what JSON cannot
    write raises json.dumps's own error."""

    class Number(int):
        pass

    class Text(str):
        pass

    value = {"a": OrderedDict(b=[Number(3), Text("x"), True]), "c": [float("nan"), -0.0]}
    assert dumps_json(value) == reference(value)
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps_json({"a": [{1, 2}]})
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps_json({"a": {"b": {1, 2}}})
    loop: list = []
    loop.append([loop])
    with pytest.raises(ValueError, match="Circular reference"):
        dumps_json({"a": loop})


def test_a_hold_answer():
    """A real answer: the rows of the options table are the fast path's objects."""
    from solver.sabords.answers import hold_answer

    answer = hold_answer("captain", "CCDMPSSX", None)
    assert len(answer["options"]) > 20
    assert dumps_json(answer) == reference(answer)
