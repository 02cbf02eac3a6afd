"""Malformed input for every command of every game: no traceback, exit status 2, and one line
on stderr naming the file or the argument and the problem.

The corpus is a table: each case is a command line and the words its error must contain.
Everything runs in-process through :func:`solver.cli.main`, so a traceback fails the test
(an exception escapes) rather than printing."""

from __future__ import annotations

import pytest

from tests.cli_helpers import run

HUGE = "9" * 40
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
    (["sabords", "review"], "game record"),
    (["armada", "review"], "game record"),
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


def _huge_armada_board(tmp_path) -> str:
    from solver.armada.board import BOARD_FILE

    text = BOARD_FILE.read_text(encoding="utf-8").replace("values = [1, 2, 3]",
                                                          f"values = [1, 2, {HUGE_INT}]", 1)
    assert str(HUGE_INT) in text
    return text


HUGE_INT = 10**18


def _many_doubloons_board(_tmp_path) -> str:
    """The shipped board with every count pier given three more doubloons: 7 ** 6 * 4 ** 4
    ways to take them, far more than the tables hold."""
    from solver.armada.board import BOARD_FILE

    text = BOARD_FILE.read_text(encoding="utf-8")
    pier = ('values = [1, 2, 3]\nneed = [2, 3, 4]\nallowed = [["{0}"], ["{0}"], ["{0}"]]')
    more = ('values = [1, 2, 3, 1, 1, 1]\nneed = [2, 3, 4, 5, 5, 5]\nallowed = '
            '[["{0}"], ["{0}"], ["{0}"], ["{0}"], ["{0}"], ["{0}"]]')
    symbols = [line.split('"')[1] for line in text.splitlines()
               if line.startswith("allowed = [[") and line.count("[") == 4]
    for symbol in symbols:
        text = text.replace(pier.format(symbol), more.format(symbol))
    assert text.count("need = [2, 3, 4, 5, 5, 5]") == 6
    return text


def test_empty_position_file_means_every_hunter_in_its_boat(files, tmp_path, capsys):
    """The documented meaning (--position's help): a file without [hunters], an empty one
    say, is the opening, all six hunters in their boats; a file listing one hunter means only
    that one plays."""
    from solver.dragon.board import load_island
    from solver.dragon.position import load_position, opening

    code, out, _ = run(["dragon", "route", "--help"], capsys)
    assert code == 0 and "(an empty file, say) means all six, each in its boat" in " ".join(
        out.split())
    island = load_island(None)
    empty, start = load_position(files["empty"], island), opening(island)
    assert len(empty.hunters) == 6 and empty.hunters == start.hunters
    assert (empty.tiles, empty.dragons, empty.treasure) == (start.tiles, start.dragons,
                                                            start.treasure)
    argv = ["dragon", "route", "--hunter", "red", "--hand", "forest", "--json"]
    code, with_empty, err = run([*argv, "--position", files["empty"]], capsys)
    assert code == 0 and err == ""
    assert with_empty == run(argv, capsys)[1]
    one = tmp_path / "one.toml"
    one.write_text('[hunters]\nblue = "boat"\n', encoding="utf-8")
    assert list(load_position(one, island).hunters) == ["blue"]
    code, _, err = run([*argv, "--position", str(one)], capsys)
    assert_one_line_error(code, err, "hunter red is not on the board")


# Files with numbers far out of range: the file's text and words the error must contain.
HUGE_FILES = [
    (["armada", "value", "--objective", "turn", "--board"], _huge_armada_board,
     "integers from 0 to 1000"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--position"],
     lambda _: f'dragons = ["{HUGE_INT},0"]\n', "not on the island"),
    (["dragon", "patrol", "--hunter", "red", "--position"],
     lambda _: f"treasure = {HUGE_INT}\n", "no coin of value"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--position"],
     lambda _: f'[hunters]\nred = "{HUGE_INT},-{HUGE_INT}"\n', "not on the island"),
]


def _board_with(game: str, line: str) -> str:
    """The game's shipped board file with its ``reconstruction = true`` line replaced."""
    from importlib import import_module

    text = import_module(f"solver.{game}.board").BOARD_FILE.read_text(encoding="utf-8")
    assert "reconstruction = true" in text
    return text.replace("reconstruction = true", line, 1)


# Files that parse but break a rule (or hold a value of the wrong type), and the words the
# one-line error must contain.
RULE_BREAKING_FILES = [
    (["armada", "value", "--objective", "turn", "--board"], _many_doubloons_board,
     "ways to take its doubloons"),
    (["armada", "value", "--objective", "turn", "--board"],
     lambda _: _board_with("armada", 'reconstruction = "false"'),
     "reconstruction is true or false"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--board"],
     lambda _: _board_with("dragon", 'reconstruction = "no"'), "reconstruction is true or false"),
    (["dragon", "route", "--hunter", "blue", "--hand", "forest", "--position"],
     lambda _: '[hunters]\nblue = { at = "1,1", with = "blue" }\n', "with itself"),
    (["dragon", "patrol", "--hunter", "red", "--position"],
     lambda _: '[hunters]\nred = "boat"\nblue = { at = "1,1", guarding = "false" }\n',
     "guarding is true or false"),
]


@pytest.mark.parametrize("route, words", [
    ('{"hunter": ["red"], "plan": []}', "hunter ['red'] is not on the board"),
    ('{"plan": [{"to": "99,99"}]}', "hunter none is not on the board"),
    ('{"hunter": "red", "plan": [{"action": "step", "to": "99,99"}]}', "99,99"),
    ('{"hunter": "red", "start": 7, "plan": []}', "start 7 is not a cell"),
])
def test_route_files_that_cannot_be_drawn(route, words, tmp_path, capsys):
    path = tmp_path / "route.json"
    path.write_text(route, encoding="utf-8")
    code, _, err = run(["dragon", "board", "--svg", str(tmp_path / "x.svg"), "--route",
                        str(path)], capsys)
    assert_one_line_error(code, err, str(path), words)


@pytest.mark.parametrize("argv", [
    ["sabords", "policy", "--card", "captain", "--out", "{long}"],
    ["dragon", "board", "--svg", "{long}"],
    ["dragon", "layout", "--out", "{long}"],
])
def test_an_output_file_that_cannot_be_written(argv, tmp_path, capsys):
    """A file system's refusal (here a name longer than any file system takes) is one line
    naming the file, not a traceback."""
    long = str(tmp_path / ("x" * 300 + ".out"))
    code, _, err = run([a.format(long=long) for a in argv], capsys)
    assert_one_line_error(code, err, "cannot write", "x" * 300)


@pytest.mark.parametrize("prefix, text, words", HUGE_FILES + RULE_BREAKING_FILES,
                         ids=lambda x: None)
def test_files_out_of_range_or_breaking_a_rule(prefix, text, words, tmp_path, capsys):
    path = tmp_path / "huge.toml"
    path.write_text(text(tmp_path), encoding="utf-8")
    code, _, err = run([*prefix, str(path)], capsys)
    assert_one_line_error(code, err, str(path), words)


@pytest.mark.parametrize("argv", [
    ["dragon", "board", "--svg", "{no_parent}"],
    ["dragon", "layout", "--out", "{no_parent}"],
])
def test_output_in_a_missing_folder(argv, files, capsys):
    argv = [a.format(**files) for a in argv]
    code, _, err = run(argv, capsys)
    assert_one_line_error(code, err, "does not exist", files["no_parent"])


# Every command with each of its options or arguments given a wrong value: the command line
# and words its one-line error must contain.
BAD_ARGUMENTS = [
    # treasure sabords ...
    (["sabords", "score"], "missing argument 'dice'"),
    (["sabords", "score", "--card", "42", "CCCCDSSX"], "unknown card '42'"),
    (["sabords", "score", "--card", "", "CCCCDSSX"], "unknown card ''"),
    (["sabords", "score", "--island=yes", "CCCCDSSX"], "--island"),
    (["sabords", "score", "--variant", "nope", "CCCCDSSX"], "unknown variant"),
    (["sabords", "score", "C" * 10000], "expected 8 dice, got 10000"),
    (["sabords", "score", ""], "no dice given"),
    (["sabords", "score", "☠☠☠☠CCCC"], "unknown die face"),
    (["sabords", "score", "--island", "CCCCDSSX"], "island of skulls"),
    (["sabords", "hold", "--objective", "reach:abc", "CCDMPSSX"], "bad objective"),
    (["sabords", "hold", "--objective", "reach:1e3", "CCDMPSSX"], "bad objective"),
    (["sabords", "hold", "--objective", f"reach:{HUGE}", "CCDMPSSX"], "cannot be reached"),
    (["sabords", "hold", "--objective", "reach:-5", "CCDMPSSX"], "at least 1 point"),
    (["sabords", "hold", "--objective", "", "CCDMPSSX"], "bad objective"),
    (["sabords", "hold", "--card", "captain", "--sorceress-used", "CCDMPSSX"],
     "--sorceress-used"),
    (["sabords", "hold", "--rerolled", "CCDMPSSX"], "--rerolled"),
    (["sabords", "hold", "CCCXXXMP"], "bust"),
    (["sabords", "hold", "--all=3", "CCDMPSSX"], "--all"),
    (["sabords", "value", "--card", "nope"], "unknown card 'nope'"),
    (["sabords", "value", "--objective", "margin:3"], "bad objective"),
    (["sabords", "value", "--card", "captain", "--objective", f"reach:{HUGE}"],
     "cannot be reached with the captain card"),
    (["sabords", "variants", "--json=1"], "--json"),
    (["sabords", "policy"], "missing option '--card'"),
    (["sabords", "policy", "--card", "captain", "--format", "xml"], "--format"),
    (["sabords", "policy", "--card", "captain", "--objective", "reach:0"], "at least 1"),
    (["sabords", "policy", "--card", "captain", "--out", "/no/such/folder/p.csv"],
     "does not exist"),
    (["sabords", "hold", "--me", "0", "--opponent", "0", "--objective", "points", "CCDMPSSX"],
     "--objective is a turn objective"),
    (["sabords", "hold", "--me", "50", "--opponent", "0", "CCDMPSSX"], "multiple of 100"),
    (["sabords", "hold", "--me", "0", "--opponent", "0", "--card", "joker", "CCDMPSSX"],
     "unknown card 'joker'"),
    (["sabords", "game", "--target", "250"], "bad target 250"),
    (["sabords", "game", "--target", "0"], "bad target 0"),
    (["sabords", "game", "--target", HUGE], "bad target"),
    (["sabords", "game", "--target", "1" + "0" * 20], "at most 20000"),
    (["sabords", "hold", "--target", "1000000000", "--me", "0", "--opponent", "0",
      "CCDMPSXX"], "at most 20000"),
    (["sabords", "game", "--me", "abc", "--opponent", "0"], "not a valid integer"),
    (["sabords", "game", "--me", "0"], "both --me and --opponent"),
    (["sabords", "game", "--me", "150", "--opponent", "0"], "multiple of 100"),
    (["sabords", "game", "--me", "6000", "--opponent", "0"], "at or above the target"),
    (["sabords", "game", "--me", "0", "--opponent", HUGE], "not a score"),
    (["sabords", "game", "--me", "0", "--opponent", "6500", "--sudden-death"], "sudden death"),
    (["sabords", "game", "--me", "0", "--opponent", "0", "--card", "nope"],
     "unknown card 'nope'"),
    (["sabords", "game", "--variant", "nope"], "unknown variant"),
    # treasure armada ...
    (["armada", "hold", "BBOPA"], "missing option '--rolls-left'"),
    (["armada", "hold", "--rolls-left", "abc", "BBOPA"], "not a valid integer"),
    (["armada", "hold", "--rolls-left", "-1", "BBOPA"], "rolls left must be 0 to 2"),
    (["armada", "hold", "--rolls-left", HUGE, "BBOPA"], "rolls left must be 0 to 2"),
    (["armada", "hold", "--rolls-left", "1", "--board-state", "00/0", "BBOPA"],
     "bad board state '00/0'"),
    (["armada", "hold", "--rolls-left", "1", "--board-state", "abc", "BBOPA"],
     "bad board state"),
    (["armada", "hold", "--rolls-left", "1", "--board-state", "9999999999/0", "BBOPA"],
     "bad board state"),
    (["armada", "hold", "--rolls-left", "1", "--board-state", f"0000000000/{HUGE}", "BBOPA"],
     "bad board state"),
    (["armada", "hold", "--rolls-left", "1", "--board-state", "3333333333/0", "BBOPA"],
     "the game is over"),
    (["armada", "hold", "--rolls-left", "1", "--objective", "fun", "BBOPA"], "--objective"),
    (["armada", "hold", "--rolls-left", "1", "BBOPQ"], "unknown die face"),
    (["armada", "hold", "--rolls-left", "1", "B" * 5000], "expected 5 dice, got 5000"),
    (["armada", "hold", "--rolls-left", "1", ""], "expected 5 dice, got 0"),
    (["armada", "hold", "--rolls-left", "1", "--variant", "nope", "BBOPA"],
     "unknown variant"),
    (["armada", "value", "--board-state", "0/0"], "bad board state"),
    (["armada", "value", "--objective", "all"], "--objective"),
    (["armada", "solve", "--objective", "turn"], "--objective"),
    (["armada", "export"], "missing option '--out'"),
    (["armada", "export", "--format", "xlsx", "--out", "t.csv"], "--format"),
    (["armada", "export", "--out", "/no/such/folder/t.csv"], "does not exist"),
    (["armada", "variants", "extra"], "unexpected extra argument"),
    # treasure dragon ...
    (["dragon", "route", "--hand", "forest"], "missing option '--hunter'"),
    (["dragon", "route", "--hunter", "42", "--hand", "forest"], "unknown hunter colour '42'"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest+"], "unknown card 'forest+'"),
    (["dragon", "route", "--hunter", "red", "--hand", "lava"], "unknown card 'lava'"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--goal", "home"], "--goal"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--method", "magic"],
     "--method"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--work-limit", "abc"],
     "--work-limit"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--work-limit", "0"],
     "--work-limit"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--work-limit", "-1"],
     "--work-limit"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--work-limit", "1e400"],
     "--work-limit': inf is not a finite number"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--work-limit", "nan"],
     "--work-limit': nan is not a finite number"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--work-budget", "0"],
     "--work-budget"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--work-budget", "inf"],
     "--work-budget': inf is not a finite number"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--deadline", "-1"],
     "--deadline"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--deadline", "inf"],
     "--deadline': inf is not a finite number"),
    (["dragon", "route", "--hunter", "red", "--hand", ""], "--hand': no card given"),
    (["dragon", "route", "--hunter", "red", "--hand", " , "], "--hand': no card given"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--variant", "nope"],
     "unknown variant 'nope'"),
    (["dragon", "route", "--hunter", "red", "--hand", "forest", "--variant",
      "flight-from-boat=maybe"], "unknown variant"),
    (["dragon", "patrol", "--hunter", "red", "--against", "purple"], "unknown hunter colour"),
    (["dragon", "patrol", "--hunter", "red", "--method", "guess"], "--method"),
    (["dragon", "patrol", "--hunter", "red", "--against", "red"], "against itself"),
    (["dragon", "board"], "missing option '--svg'"),
    (["dragon", "layout", "--out", "/no/such/folder/b.toml"], "does not exist"),
    (["dragon", "variants", "--json=yes"], "--json"),
    # the other commands
    (["cache", "empty"], "no such command 'empty'"),
    (["cache", "clear", "--all"], "no such option"),
    (["check", "--game", "chess"], "unknown game 'chess'"),
    (["nosuchgame"], "no such command 'nosuchgame'"),
]


@pytest.mark.parametrize("argv, words", BAD_ARGUMENTS, ids=lambda x: None)
def test_bad_argument(argv, words, capsys):
    code, _, err = run(argv, capsys)
    assert_one_line_error(code, err, words)


def test_the_corpus_covers_every_command():
    """Each command of each game appears in the corpus (a new command needs its cases)."""
    import click

    from solver.cli import SUBCOMMANDS, cli
    from solver.games import find

    said = {tuple(a for a in argv[:2] if not a.startswith("-"))
            for argv, _ in BAD_ARGUMENTS} | {tuple(p[:2]) for p, _ in FILE_READERS}
    covered = {(find(c[0]).name, *c[1:]) if find(c[0]) else c for c in said}
    ctx = click.Context(cli)
    for name in SUBCOMMANDS:
        command = cli.get_command(ctx, name)
        subcommands = command.commands if isinstance(command, click.Group) else {}
        for sub in subcommands:
            assert (name, sub) in covered, f"no malformed-input case for treasure {name} {sub}"
