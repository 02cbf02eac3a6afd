"""Malformed input for every command of every game: no traceback, exit status 2, and one line
on stderr naming the file or the argument and the problem.

The corpus is a table: each case is a command line and the words its error must contain.
Everything runs in-process through :func:`solver.cli.main`, so a traceback fails the test
(an exception escapes) rather than printing."""

from __future__ import annotations

import pytest

from tests.cli_helpers import run

LATIN1_TOML = "# Spielstand für die Grüne Insel\nname = \"Grüße\"\n".encode("latin-1")
BINARY = bytes(range(256)) * 4


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """One file of each malformed kind, by kind."""
    folder = tmp_path_factory.mktemp("corpus")
    contents = {
        "latin1": LATIN1_TOML,
        "binary": BINARY,
        "empty": b"",
        "notoml": b"this is [ not toml\n",
        "nojson": b"{not json",
    }
    paths = {}
    for kind, data in contents.items():
        path = folder / f"{kind}.dat"
        path.write_bytes(data)
        paths[kind] = str(path)
    paths["missing"] = str(folder / "missing.toml")
    paths["folder"] = str(folder)
    paths["no_parent"] = str(folder / "no" / "such" / "folder" / "out.svg")
    return paths


def assert_one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert lines and "Traceback" not in err
    message = lines[-1].lower()
    for word in words:
        assert word.lower() in message, (word, err)


# Commands taking an input file: the command line before the file, and what the file is.
FILE_READERS = [
    (["armada", "hold", "--objective", "turn", "--rolls-left", "0", "BBBAA", "--board"],
     "board file"),
    (["armada", "value", "--objective", "turn", "--board"], "board file"),
    (["armada", "solve", "--board"], "board file"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--board"], "board file"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--position"], "position file"),
    (["dragon", "patrol", "--hunter", "red", "--board"], "board file"),
    (["dragon", "patrol", "--hunter", "red", "--position"], "position file"),
    (["dragon", "board", "--svg", "{out}", "--board"], "board file"),
    (["dragon", "board", "--svg", "{out}", "--position"], "position file"),
    (["dragon", "board", "--svg", "{out}", "--route"], "route file"),
]
# What reading each kind of bad file must say (beyond naming the file).
FILE_PROBLEMS = {
    "latin1": "not utf-8",
    "binary": "binary",
    "missing": "no such file",
    "notoml": "",
}


def _file_cases():
    for prefix, what in FILE_READERS:
        for kind, problem in FILE_PROBLEMS.items():
            if kind == "notoml" and what == "route file":
                yield prefix, "nojson", what, "not json"
            else:
                yield prefix, kind, what, problem
        if what in ("board file", "route file"):
            yield prefix, "empty", what, ""


@pytest.mark.parametrize("prefix, kind, what, problem", list(_file_cases()),
                         ids=lambda x: x if isinstance(x, str) else None)
def test_bad_input_file(prefix, kind, what, problem, files, tmp_path, capsys):
    argv = [a.replace("{out}", str(tmp_path / "x.svg")) for a in prefix] + [files[kind]]
    code, _, err = run(argv, capsys)
    assert_one_line_error(code, err, files[kind], problem)
    assert what in err.lower()


@pytest.mark.parametrize("argv", [
    ["dragon", "board", "--svg", "{no_parent}"],
    ["dragon", "layout", "--out", "{no_parent}"],
])
def test_output_in_a_missing_folder(argv, files, capsys):
    argv = [a.format(**files) for a in argv]
    code, _, err = run(argv, capsys)
    assert_one_line_error(code, err, "does not exist", files["no_parent"])
