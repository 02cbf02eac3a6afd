"""The one plain-table formatter: aligned text tables for people (terminal) and for reports
(Markdown), used by every game's command line and reports."""

from __future__ import annotations

from collections.abc import Sequence


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str,
          markdown: bool = False, rule: bool = True) -> str:
    """Columns padded to width; ``align`` has one ``l`` or ``r`` per column; ``rule=False``
    leaves out the line under the headers (plain text only)."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[j]) for row in cells) for j in range(len(headers))]

    def fmt(row: list[str]) -> str:
        parts = [c.rjust(w) if a == "r" else c.ljust(w)
                 for c, w, a in zip(row, widths, align, strict=True)]
        return ("| " + " | ".join(parts) + " |") if markdown else "  ".join(parts).rstrip()

    if markdown:
        rule_md = "|" + "|".join(("-" * (w + 1) + ":") if a == "r" else ("-" * (w + 2))
                              for w, a in zip(widths, align, strict=True)) + "|"
        return "\n".join([fmt(cells[0]), rule_md, *(fmt(r) for r in cells[1:])]) + "\n"
    under = ["  ".join("-" * w for w in widths)] if rule else []
    return "\n".join([fmt(cells[0]), *under, *(fmt(r) for r in cells[1:])]) + "\n"
