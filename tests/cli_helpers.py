"""Running ``treasure`` in-process for tests: exit status, stdout and stderr."""

from __future__ import annotations

from solver.cli import main


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of one in-process ``treasure`` run (an exception that
    escapes, a traceback in a real run, fails the calling test)."""
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out = capsys.readouterr()
    return code, out.out, out.err
