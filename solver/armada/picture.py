"""The board as an SVG picture: the island, ten piers, each doubloon with its value, shaded by
the chance of meeting its requirement within three rolls (written by hand: byte-stable)."""

from __future__ import annotations

import math
from html import escape

from solver.armada.game import Game

SIZE = 1000
CENTER = SIZE / 2


def _shade(p: float) -> str:
    """Pale sand (p = 0) to deep gold (p = 1)."""
    lo, hi = (250, 240, 210), (205, 140, 0)
    rgb = (round(a + (b - a) * p) for a, b in zip(lo, hi, strict=True))
    return "#" + "".join(f"{c:02x}" for c in rgb)


def board_svg(game: Game, levels: tuple[int, ...], meet: list[list[float]],
              take: list[float], title: str) -> str:
    """``meet[i][d]``: chance of meeting doubloon ``d`` of pier ``i`` within a turn aiming at it
    alone; ``take[i]``: chance the policy takes pier ``i``'s next doubloon this turn."""
    board = game.board
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" '
        f'viewBox="0 0 {SIZE} {SIZE}" font-family="sans-serif">',
        f'<rect width="{SIZE}" height="{SIZE}" fill="#cfe8f7"/>',
        f'<text x="{CENTER}" y="30" text-anchor="middle" font-size="20">{escape(title)}</text>',
        f'<text x="{CENTER}" y="55" text-anchor="middle" font-size="14" fill="#a00">'
        f'{escape(board.label)}</text>',
        f'<circle cx="{CENTER}" cy="{CENTER}" r="95" fill="#e9d8a6" stroke="#8a6d3b"/>',
        f'<text x="{CENTER}" y="{CENTER + 5}" text-anchor="middle" font-size="16">island</text>',
    ]
    n = len(board.piers)
    for i, pier in enumerate(board.piers):
        angle = 2 * math.pi * i / n - math.pi / 2
        cos, sin = math.cos(angle), math.sin(angle)

        def at(r: float, cos: float = cos, sin: float = sin) -> tuple[float, float]:
            return CENTER + r * cos, CENTER + r * sin

        (x0, y0), (x1, y1) = at(95), at(100 + 70 * pier.doubloons)
        out.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                   'stroke="#8a6d3b" stroke-width="14"/>')
        for d, value in enumerate(pier.values):
            x, y = at(135 + 70 * d)
            taken = d < levels[i]
            fill = "#ffffff" if taken else _shade(meet[i][d])
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="24" fill="{fill}" '
                       f'stroke="#333" stroke-dasharray="{"4 3" if taken else "none"}"/>')
            out.append(f'<text x="{x:.1f}" y="{y + 6:.1f}" text-anchor="middle" '
                       f'font-size="18">{value}</text>')
            px, py = x - 42 * sin, y + 42 * cos + 4  # beside the coin, across the pier
            out.append(f'<text x="{px:.1f}" y="{py:.1f}" text-anchor="middle" '
                       f'font-size="11">{meet[i][d]:.2f}</text>')
        lx, ly = at(100 + 70 * pier.doubloons + 60)
        level = levels[i]
        need = board.requirement(i, level) if level < pier.doubloons else "(empty)"
        lines = [pier.name, need, f"taken now: {take[i]:.3f}"]
        for k, text in enumerate(lines):
            out.append(f'<text x="{lx:.1f}" y="{ly - 14 + 15 * k:.1f}" text-anchor="middle" '
                       f'font-size="{13 if k == 0 else 11}">{escape(text)}</text>')
    out.append(f'<text x="20" y="{SIZE - 40}" font-size="12">Number beside each doubloon: chance '
               'of meeting its requirement within three rolls, aiming at it alone.</text>')
    out.append(f'<text x="20" y="{SIZE - 22}" font-size="12">"taken now": chance that the '
               'optimal solitaire turn from this state ends on that pier.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
