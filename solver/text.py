"""Text for people and reports: the one plain-table formatter (aligned text tables for the
terminal, Markdown for reports), used by every game's command line and reports, and the
numbers in them."""

from __future__ import annotations

from collections.abc import Sequence


def table(headers: Sequence[str] | None, rows: Sequence[Sequence[object]], align: str,
          markdown: bool = False, rule: bool = True, widths: Sequence[int] = ()) -> str:
    """Columns padded to width; ``align`` has one ``l`` or ``r`` per column; ``widths`` gives
    columns a least width (a column of dice as wide as a whole roll, whichever rows show);
    ``rule=False`` leaves out the line under the headers, ``headers=None`` the headers too
    (rows of names and values; plain text only)."""
    if markdown and headers is None:
        raise ValueError("a Markdown table needs headers")
    head = [] if headers is None else [[str(c) for c in headers]]
    cells = head + [[str(c) for c in row] for row in rows]
    least = [*widths, *[0] * (len(align) - len(widths))]
    sizes = [max([least[j], *(len(row[j]) for row in cells)]) for j in range(len(align))]

    def fmt(row: list[str]) -> str:
        parts = [c.rjust(w) if a == "r" else c.ljust(w)
                 for c, w, a in zip(row, sizes, align, strict=True)]
        return ("| " + " | ".join(parts) + " |") if markdown else "  ".join(parts).rstrip()

    if markdown:
        rule_md = "|" + "|".join(("-" * (w + 1) + ":") if a == "r" else ("-" * (w + 2))
                              for w, a in zip(sizes, align, strict=True)) + "|"
        return "\n".join([fmt(cells[0]), rule_md, *(fmt(r) for r in cells[1:])]) + "\n"
    under = ["  ".join("-" * w for w in sizes)] if rule and head else []
    return "\n".join([*map(fmt, cells[:len(head)]), *under, *map(fmt, cells[len(head):])]) + "\n"


def markdown_lines(headers: Sequence[str], rows: Sequence[Sequence[object]],
                   align: str) -> list[str]:
    """:func:`table` in Markdown, as lines, for a report built as a list of lines."""
    return table(headers, rows, align, markdown=True).splitlines()


def distinguishing_digits(values: list[float], least: int, most: int) -> int:
    """The fewest decimals (from ``least`` up to ``most``) at which values that differ (by
    more than 1e-9) also print differently, so a table tells its options apart."""
    distinct = sorted(set(round(v, 9) for v in values))
    for digits in range(least, most):
        shown = {f"{v:.{digits}f}" for v in distinct}
        if len(shown) == len(distinct):
            return digits
    return most


def fmt_float(x: float, digits: int = 4) -> str:
    """Fixed float formatting for reports (byte-identical across runs)."""
    return f"{x:.{digits}f}"
