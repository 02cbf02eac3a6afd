"""Reading Markdown tables back in tests: each row's cells without the padding that
:func:`solver.text.table` adds, so a test pins a row's content, not its column widths."""

from __future__ import annotations

import re

_RULE = re.compile(r"-+:?")


def table_rows(text: str) -> list[tuple[str, ...]]:
    """The cells of every table row in ``text`` (headers included, rule lines left out); a
    ``\\|`` inside a cell does not split it."""
    rows = []
    for line in text.splitlines():
        if not (line.startswith("|") and line.endswith("|")):
            continue
        cells = tuple(c.strip() for c in re.split(r"(?<!\\)\|", line[1:-1]))
        if not all(_RULE.fullmatch(c) for c in cells):
            rows.append(cells)
    return rows

