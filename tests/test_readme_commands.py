"""The README's commands run as written on a fresh clone: every ``$ treasure ...`` line parses
(its commands and options exist), every file it reads is in the repository, and the outputs
of the quick ones are what the command prints: whole, or where the README trims them, line by
line in order up to a ``...`` line."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from solver.cli import cli
from solver.paths import REPO_ROOT
from tests.cli_helpers import run

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
READS_A_FILE = ("--position", "--board")  # options whose value is a file the command reads
QUICK = ("sabords score", "dragon route", "dragon patrol", "dragon board")  # under a second


def examples() -> list[tuple[list[str], list[str]]]:
    """Each ``$ treasure`` line of the README's indented blocks with the lines shown below it
    (blank lines inside included) up to the next command or the block's end."""
    found: list[tuple[list[str], list[str]]] = []
    open_block = False
    for line in README.splitlines():
        command = re.match(r"^    \$ treasure (.+)$", line)
        if command:
            found.append((shlex.split(command[1]), []))
            open_block = True
        elif open_block and (line.startswith("    ") or not line.strip()):
            found[-1][1].append(line[4:])
        else:
            open_block = False
    for _, shown in found:
        while shown and not shown[-1].strip():
            shown.pop()
    return found


def parse(args: list[str]) -> click.Context:
    """Parse ``treasure ARGS`` down to its command, without running it."""
    command: click.Command = cli
    ctx = command.make_context("treasure", list(args))
    while isinstance(command, click.Group):
        rest = [*getattr(ctx, "_protected_args", ctx.protected_args), *ctx.args]
        if not rest:
            break
        name, command, rest = command.resolve_command(ctx, rest)
        ctx = command.make_context(name, rest, parent=ctx)
    return ctx


EXAMPLES = examples()


def test_the_readme_shows_commands():
    assert len(EXAMPLES) > 10


@pytest.mark.parametrize("args", [a for a, _ in EXAMPLES], ids=" ".join)
def test_every_readme_command_parses_and_its_files_exist(args):
    parse(args)
    for option, value in zip(args, args[1:], strict=False):
        if option in READS_A_FILE:
            assert (REPO_ROOT / value).is_file(), f"the README reads {value}, not shipped"


@pytest.mark.parametrize("args,shown", [pytest.param(a, o, id=" ".join(a)) for a, o in EXAMPLES
                                        if " ".join(a[:2]) in QUICK and o])
def test_quick_outputs_are_what_the_command_prints(args, shown, capsys, tmp_path,
                                                   monkeypatch):
    monkeypatch.chdir(tmp_path)  # a file the command writes lands here
    for option in READS_A_FILE:
        if option in args:
            i = args.index(option) + 1
            args = [*args[:i], str(Path(REPO_ROOT) / args[i]), *args[i + 1:]]
    code, out, err = run(args, capsys)
    assert code == 0, err
    printed = out.rstrip("\n").splitlines()
    if "..." not in shown:
        assert printed == shown, "the README shows another output (or trims it without ...)"
        return
    at = 0
    for line in shown:
        if line == "...":
            continue
        assert line in printed[at:], f"{line!r} is not printed (in this order)"
        at = printed.index(line, at) + 1
