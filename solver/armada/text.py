"""Aligned text tables for people (terminal) and for reports (Markdown)."""

from __future__ import annotations

from collections.abc import Sequence


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str,
          markdown: bool = False) -> str:
    """Columns padded to width; ``align`` has one ``l`` or ``r`` per column."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[j]) for row in cells) for j in range(len(headers))]

    def fmt(row: list[str]) -> str:
        parts = [c.rjust(w) if a == "r" else c.ljust(w)
                 for c, w, a in zip(row, widths, align, strict=True)]
        return ("| " + " | ".join(parts) + " |") if markdown else "  ".join(parts).rstrip()

    if markdown:
        rule = "|" + "|".join(("-" * (w + 1) + ":") if a == "r" else ("-" * (w + 2))
                              for w, a in zip(widths, align, strict=True)) + "|"
    else:
        rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(cells[0]), rule, *(fmt(r) for r in cells[1:])]) + "\n"
