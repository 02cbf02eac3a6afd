"""The project's errors: bad input (one line on stderr, exit status 2) and a solve that ended
without its answer (exit status 1), and an OS error in words for those lines."""

from __future__ import annotations


class InputError(ValueError):
    """Bad user input (dice string, card name, board file...): the CLI prints one line, exits 2."""


class SolveError(RuntimeError):
    """A solve that ended without its answer (a solver's work limit reached, or interrupted):
    the CLI prints one line and exits 1."""


def os_error_text(err: OSError) -> str:
    """An OS error as words: ``no such file``, ``permission denied``, ``is a directory``..."""
    reasons = {
        FileNotFoundError: "no such file",
        IsADirectoryError: "is a folder, not a file",
        NotADirectoryError: "a parent in the path is not a folder",
        PermissionError: "permission denied",
    }
    for kind, text in reasons.items():
        if isinstance(err, kind):
            return text
    return (err.strerror or err.__class__.__name__).lower()
