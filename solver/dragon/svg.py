"""Pictures of the island (SVG, written by hand: deterministic, no ids, no timestamps).

Fields are coloured by the tile on them; boats are drawn off the coast in their hunter's colour
with arrows to their two landing fields; hunters are pawns with their initials, dragons dark
diamonds, the treasure gold. A planned route is drawn over the board: steps as arrows, flights
as dashed arcs, swaps as dotted double arrows, every card play numbered.

With ``labels`` (the table companion's board) every field, boat and the treasure field carry
``data-field="<name>"`` and every route element ``data-step="<n>"`` (its move, from 1), so a
page can tell which field was tapped and show the route move by move; its words (the
reconstruction line, "empty", the hunters' initials) carry ``data-i18n="<key>"``, the key of
the page's word tables it translates them by. The CLI's picture has no such labels.
"""

from __future__ import annotations

import math

from solver.dragon import geometry as geo
from solver.dragon.move import Move
from solver.dragon.position import Position

SIZE = 30.0  # hex radius in pixels
SEA = "#d6ebf5"
INK = "#222222"
HUNTER_FILL = {
    "blue": "#1f5fbf", "red": "#c62828", "grey": "#6d6d6d",
    "brown": "#7b4a1e", "green": "#2e7d32", "yellow": "#f2c200",
}
INITIALS = {"blue": "Bl", "red": "R", "grey": "Gy", "brown": "Br", "green": "Gn", "yellow": "Y"}
ROUTE = "#d81b60"


def _f(x: float) -> str:
    return f"{x:.1f}"


def _hex_points(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(6):
        a = math.radians(60 * k - 30)
        pts.append(f"{_f(cx + r * math.cos(a))},{_f(cy + r * math.sin(a))}")
    return " ".join(pts)


class Canvas:
    """Pixel positions for an island and the SVG elements drawn so far."""

    def __init__(self, pos: Position, labels: bool = False, legend: bool = True) -> None:
        self.pos, self.isl = pos, pos.island
        self.labels = labels
        xs, ys = zip(*(geo.pixel(h, SIZE) for h in self.isl.hexes), strict=True)
        self.margin = SIZE * 1.6
        self.ox = -min(xs) + self.margin
        self.oy = -min(ys) + self.margin + 56  # room for the title
        self.width = max(xs) - min(xs) + 2 * self.margin + (230 if legend else 0)  # on the right
        self.height = max(ys) - min(ys) + 2 * self.margin + 56
        self.items: list[str] = []

    def xy(self, v: int) -> tuple[float, float]:
        x, y = geo.pixel(self.isl.hexes[v], SIZE)
        return x + self.ox, y + self.oy

    def add(self, element: str) -> None:
        self.items.append(element)

    def label(self, key: str, value: object) -> str:
        """`` data-KEY="VALUE"`` for a labelled board, else nothing."""
        return f' data-{key}="{_escape(str(value))}"' if self.labels else ""

    def text(self, x: float, y: float, s: str, size: float = 11, fill: str = INK,
             anchor: str = "middle", weight: str = "normal", attrs: str = "") -> None:
        self.add(f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{fill}" '
                 f'text-anchor="{anchor}" font-weight="{weight}" '
                 f'font-family="Helvetica, Arial, sans-serif"{attrs}>{_escape(s)}</text>')

    def svg(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(self.width)}" '
                f'height="{_f(self.height)}" viewBox="0 0 {_f(self.width)} {_f(self.height)}">')
        defs = ('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" '
                'markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
                f'<path d="M0,0 L10,5 L0,10 z" fill="{ROUTE}"/></marker>'
                '<marker id="boatarrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
                f'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/>'
                '</marker></defs>')
        return "\n".join([head, defs, *self.items, "</svg>"]) + "\n"


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw_board(pos: Position, route: dict | None = None, title: str | None = None,
               labels: bool = False, legend: bool = True) -> str:
    """The island in ``pos`` as SVG; ``route`` is a route's JSON (with ``hunter`` and ``plan``);
    ``labels``: name the fields and number the route's elements (see the module's docstring);
    without ``legend`` the picture is the island alone (a phone's page explains it below)."""
    c = Canvas(pos, labels, legend)
    isl, model = c.isl, c.isl.model
    c.add(f'<rect x="0" y="0" width="{_f(c.width)}" height="{_f(c.height)}" fill="{SEA}"/>')
    c.text(16, 26, title or "Die Dracheninsel", size=16, anchor="start", weight="bold")
    if isl.reconstruction:
        c.text(16, 46, "Board: reconstructed layout, not the printed board", size=12,
               anchor="start", fill="#8b0000", attrs=c.label("i18n", "dragon.board.reconstructed"))
    fronts = set(isl.fronts)
    for v in isl.fields:
        x, y = c.xy(v)
        terrain = pos.tiles[v]
        c.add(f'<polygon points="{_hex_points(x, y, SIZE - 1)}" fill="{model.fill[terrain]}" '
              f'stroke="#ffffff" stroke-width="2"{c.label("field", isl.names[v])}'
              f'{c.label("terrain", terrain)}/>')
        if v in fronts:  # a landing field: never a dragon here
            c.add(f'<polygon points="{_hex_points(x, y, SIZE - 6)}" fill="none" '
                  'stroke="#ffffff" stroke-width="1.5" stroke-dasharray="3,3"/>')
        c.text(x, y + SIZE * 0.62, isl.names[v], size=7, fill="#ffffff")
    tx, ty = c.xy(isl.treasure)
    c.add(f'<polygon points="{_hex_points(tx, ty, SIZE - 1)}" fill="#f7d774" '
          f'stroke="#b8860b" stroke-width="2"{c.label("field", isl.names[isl.treasure])}/>')
    if pos.treasure is not None:
        c.add(f'<circle cx="{_f(tx)}" cy="{_f(ty - 8)}" r="9" fill="#ffcc33" '
              'stroke="#b8860b" stroke-width="1.5"/>')
        c.text(tx, ty - 5, str(pos.treasure), size=7, weight="bold")
    else:
        c.text(tx, ty - 4, "empty", size=8, attrs=c.label("i18n", "dragon.board.empty"))
    for colour in isl.boat_colours:
        _boat(c, colour)
    for d in sorted(pos.dragons):
        _dragon(c, d)
    _hunters(c)
    if route:
        _route(c, route)
    if legend:
        _legend(c)
    return c.svg()


def _boat(c: Canvas, colour: str) -> None:
    isl = c.isl
    v = isl.boat_node[colour]
    x, y = c.xy(v)
    cx, cy = c.xy(isl.treasure)
    angle = math.degrees(math.atan2(y - cy, x - cx)) + 90
    fill = HUNTER_FILL.get(colour, "#888888")
    c.add(f'<g transform="translate({_f(x)},{_f(y)}) rotate({_f(angle)})">'
          f'<path d="M-22,-6 L22,-6 L15,9 L-15,9 Z" fill="{fill}" stroke="{INK}" '
          f'stroke-width="1.5"{c.label("field", isl.names[v])}/></g>')
    for f in isl.adj[v]:
        fx, fy = c.xy(f)
        sx, sy = x + (fx - x) * 0.35, y + (fy - y) * 0.35
        ex, ey = x + (fx - x) * 0.62, y + (fy - y) * 0.62
        c.add(f'<line x1="{_f(sx)}" y1="{_f(sy)}" x2="{_f(ex)}" y2="{_f(ey)}" stroke="{INK}" '
              'stroke-width="1.5" marker-end="url(#boatarrow)"/>')


def _dragon(c: Canvas, v: int) -> None:
    x, y = c.xy(v)
    c.add(f'<polygon points="{_f(x)},{_f(y - 15)} {_f(x + 12)},{_f(y)} {_f(x)},{_f(y + 15)} '
          f'{_f(x - 12)},{_f(y)}" fill="#2b0a3d" stroke="#ffffff" stroke-width="1.5"/>')
    c.text(x, y + 4, "D", size=11, fill="#ffffff", weight="bold")


def _pawn(c: Canvas, x: float, y: float, colour: str) -> None:
    fill = HUNTER_FILL.get(colour, "#888888")
    ink = INK if colour == "yellow" else "#ffffff"
    c.add(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="10" fill="{fill}" stroke="{INK}" '
          'stroke-width="1.5"/>')
    c.text(x, y + 3.5, INITIALS.get(colour, colour[:2]), size=9, fill=ink, weight="bold",
           attrs=c.label("i18n", f"dragon.initials.{colour}"))


def _hunters(c: Canvas) -> None:
    by_node: dict[int, list[str]] = {}
    for colour, h in sorted(c.pos.hunters.items()):
        by_node.setdefault(h.at, []).append(colour)
    for v, colours in sorted(by_node.items()):
        x, y = c.xy(v)
        carrying = any(c.pos.hunters[k].partner or c.pos.hunters[k].guarding for k in colours)
        if carrying:
            c.add(f'<circle cx="{_f(x + 11)}" cy="{_f(y - 11)}" r="6" fill="#ffcc33" '
                  'stroke="#b8860b" stroke-width="1"/>')
        n = len(colours)
        offsets = [(0.0, 0.0)] if n == 1 else [
            (10 * math.cos(2 * math.pi * k / n), 10 * math.sin(2 * math.pi * k / n))
            for k in range(n)]
        for colour, (dx, dy) in zip(colours, offsets, strict=True):
            _pawn(c, x + dx, y + dy + (6 if v == c.isl.treasure else 0), colour)


def _route(c: Canvas, route: dict) -> None:
    isl = c.isl
    hunter = route.get("hunter")
    at = isl.node(route["start"]) if route.get("start") else (
        c.pos.hunters[hunter].at if hunter in c.pos.hunters else None)
    if at is None:
        return
    n = 0
    for step, entry in enumerate(route.get("plan", []), 1):
        move = Move.from_json(entry, "route")
        mark = c.label("step", step)
        action = move.action
        cards = move.cards()
        if action == "swap":
            a, b = (isl.node(x) for x in move.swap)
            (ax, ay), (bx, by) = c.xy(a), c.xy(b)
            c.add(f'<line x1="{_f(ax)}" y1="{_f(ay)}" x2="{_f(bx)}" y2="{_f(by)}" '
                  f'stroke="{ROUTE}" stroke-width="2.5" stroke-dasharray="2,4" '
                  f'marker-start="url(#arrow)" marker-end="url(#arrow)"{mark}/>')
        target = isl.node(move.to)
        if action in ("step", "flight") or (action == "fright" and target != at):
            (x1, y1), (x2, y2) = c.xy(at), c.xy(target)
            if action == "flight":
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                nx, ny = -(y2 - y1) * 0.35, (x2 - x1) * 0.35
                curve = f"M{_f(x1)},{_f(y1)} Q{_f(mx + nx)},{_f(my + ny)} {_f(x2)},{_f(y2)}"
                c.add(f'<path d="{curve}" fill="none" stroke="{ROUTE}" stroke-width="3" '
                      f'stroke-dasharray="7,4" marker-end="url(#arrow)"{mark}/>')
            else:
                dash = ' stroke-dasharray="1,5"' if action == "fright" else ""
                c.add(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" '
                      f'stroke="{ROUTE}" stroke-width="3.5"{dash} marker-end="url(#arrow)"{mark}/>')
            at = target
        if cards:
            n += len(cards)
            x, y = c.xy(at)
            c.add(f'<circle cx="{_f(x - 13)}" cy="{_f(y + 12)}" r="8" fill="#ffffff" '
                  f'stroke="{ROUTE}" stroke-width="1.5"{mark}/>')
            c.text(x - 13, y + 15.5, str(n), size=9, fill=ROUTE, weight="bold", attrs=mark)


def _legend(c: Canvas) -> None:
    model = c.isl.model
    x0 = c.width - 215
    y = 70
    c.text(x0, y, "Terrain (hunter colour)", size=12, anchor="start", weight="bold")
    for t in model.terrains:
        y += 22
        c.add(f'<rect x="{_f(x0)}" y="{_f(y - 12)}" width="16" height="16" '
              f'fill="{model.fill[t]}" stroke="{INK}" stroke-width="0.5"/>')
        c.text(x0 + 24, y + 1, f"{t} ({model.colour_of[t]})", size=11, anchor="start")
    y += 34
    c.text(x0, y, "Pieces", size=12, anchor="start", weight="bold")
    rows = [
        ("pawn", "hunter (initials)"),
        ("coin", "treasure (coin value)"),
        ("dragon", "dragon"),
        ("boat", "boat, arrows to its 2 fields"),
        ("front", "dashed: no dragon allowed"),
    ]
    for kind, text in rows:
        y += 26
        if kind == "pawn":
            _pawn(c, x0 + 8, y - 4, "red")
        elif kind == "coin":
            c.add(f'<circle cx="{_f(x0 + 8)}" cy="{_f(y - 4)}" r="7" fill="#ffcc33" '
                  'stroke="#b8860b" stroke-width="1"/>')
        elif kind == "dragon":
            c.add(f'<polygon points="{_f(x0 + 8)},{_f(y - 14)} {_f(x0 + 16)},{_f(y - 4)} '
                  f'{_f(x0 + 8)},{_f(y + 6)} {_f(x0)},{_f(y - 4)}" fill="#2b0a3d"/>')
        elif kind == "boat":
            c.add(f'<path d="M{_f(x0 - 4)},{_f(y - 9)} L{_f(x0 + 20)},{_f(y - 9)} '
                  f'L{_f(x0 + 15)},{_f(y + 1)} L{_f(x0 + 1)},{_f(y + 1)} Z" fill="#888888" '
                  f'stroke="{INK}"/>')
        else:
            c.add(f'<polygon points="{_hex_points(x0 + 8, y - 4, 9)}" fill="#999999" '
                  'stroke="#ffffff" stroke-dasharray="2,2"/>')
        c.text(x0 + 26, y, text, size=11, anchor="start")
    y += 34
    c.text(x0, y, "Route", size=12, anchor="start", weight="bold")
    for dash, text in (("", "step"), ("7,4", "Tollkühner Flug"), ("2,4", "swap of two tiles")):
        y += 22
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        c.add(f'<line x1="{_f(x0)}" y1="{_f(y - 4)}" x2="{_f(x0 + 18)}" y2="{_f(y - 4)}" '
              f'stroke="{ROUTE}" stroke-width="3"{extra}/>')
        c.text(x0 + 26, y, text, size=11, anchor="start")
    y += 22
    c.add(f'<circle cx="{_f(x0 + 8)}" cy="{_f(y - 4)}" r="7" fill="#ffffff" stroke="{ROUTE}"/>')
    c.text(x0 + 8, y - 0.5, "n", size=8, fill=ROUTE)
    c.text(x0 + 26, y, "cards played so far", size=11, anchor="start")
