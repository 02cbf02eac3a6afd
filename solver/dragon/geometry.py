"""The hex grid of the island: axial coordinates, rims, rotation, flights, drawing positions.

Cells are axial ``(q, r)``; the treasure field is ``(0, 0)``. Hexes are drawn pointy-top with
the screen's y axis pointing down, so "clockwise" below means clockwise as a person sees it.
"""

from __future__ import annotations

import math
import re

from solver.errors import InputError

Hex = tuple[int, int]

# The six neighbour directions, counter-clockwise on screen starting to the right.
DIRS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
CENTRE: Hex = (0, 0)


def radius(h: Hex) -> int:
    """Hex distance from the centre."""
    q, r = h
    return max(abs(q), abs(r), abs(q + r))


def distance(a: Hex, b: Hex) -> int:
    """Hex distance between two cells."""
    return radius((a[0] - b[0], a[1] - b[1]))


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def neighbours(h: Hex) -> list[Hex]:
    """The six grid neighbours of a cell (on or off the board)."""
    return [add(h, d) for d in DIRS]


def disc(size: int) -> list[Hex]:
    """All cells within ``size`` of the centre, sorted by row then column."""
    cells = [
        (q, r)
        for r in range(-size, size + 1)
        for q in range(-size, size + 1)
        if radius((q, r)) <= size
    ]
    return sorted(cells, key=lambda h: (h[1], h[0]))


def rotate_cw(h: Hex, times: int = 1) -> Hex:
    """Rotate a cell by 60 degrees clockwise (on screen) about the centre, ``times`` times."""
    q, r = h
    for _ in range(times % 6):
        q, r = -r, q + r
    return (q, r)


def pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Screen position of a cell centre (pointy-top hexes, y down)."""
    q, r = h
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)


def is_clockwise_of(a: Hex, b: Hex) -> bool:
    """True when ``b`` lies clockwise of ``a`` seen from the centre (less than half a turn)."""
    ax, ay = pixel(a)
    bx, by = pixel(b)
    return ax * by - ay * bx > 0


def corners(size: int) -> list[Hex]:
    """The six corner cells of the hexagon of radius ``size``, clockwise from the top right."""
    ring = [(size * dq, size * dr) for dq, dr in DIRS]
    top_right = (size, -size)
    start = ring.index(top_right)
    ccw = ring[start:] + ring[:start]
    return [ccw[0]] + list(reversed(ccw[1:]))


def clockwise_rim_neighbour(corner: Hex, size: int) -> Hex:
    """The rim cell next to a corner, clockwise: with the corner, a boat's two landing fields."""
    rim = [n for n in neighbours(corner) if radius(n) == size]
    (cw,) = [n for n in rim if is_clockwise_of(corner, n)]
    return cw


def boat_hex(f1: Hex, f2: Hex, size: int) -> Hex | None:
    """The off-board cell touching both landing fields, or None when there is none."""
    common = set(neighbours(f1)) & set(neighbours(f2))
    outside = [h for h in common if radius(h) == size + 1]
    return outside[0] if len(outside) == 1 else None


def behind(a: Hex, b: Hex) -> list[Hex]:
    """The three cells behind ``b`` seen from its neighbour ``a`` (the flight's landing cells)."""
    d = (b[0] - a[0], b[1] - a[1])
    k = DIRS.index(d)
    return [add(b, DIRS[(k + j) % 6]) for j in (-1, 0, 1)]


_CELL = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


def parse_hex(text: str) -> Hex:
    """Parse ``"q,r"`` into a cell; raises InputError on anything else."""
    m = _CELL.match(str(text))
    if not m:
        raise InputError(f"not a cell {text!r}: expected axial coordinates like '2,-1'")
    return (int(m.group(1)), int(m.group(2)))


def fmt_hex(h: Hex) -> str:
    return f"{h[0]},{h[1]}"
