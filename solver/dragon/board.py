"""The island: 60 terrain fields, the treasure field and six boats, as a graph of nodes.

A board file (TOML) gives the start terrain of every field and each boat's two landing fields::

    reconstruction = true            # false for a transcription of the printed board
    [boats]
    blue = ["4,-4", "4,-3"]          # the two fields the boat touches (printed arrows)
    [fields]
    "0,-4" = "water"                 # all 60 fields, ten of each terrain

Nodes are numbered: the fields in row order, then the treasure field, then the boats in
colour order. Node names are ``q,r`` for fields, ``0,0`` for the treasure field and
``boat:<colour>`` for boats.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from solver.dragon import geometry as geo
from solver.dragon.rules import MODEL_DIR, Rules, rules
from solver.errors import InputError
from solver.io import read_toml

BOARD_FILE = MODEL_DIR / "board.toml"


@dataclass
class Island:
    """The board graph with its start layout."""

    model: Rules
    start: dict[geo.Hex, str]  # field -> start terrain
    boats: dict[str, tuple[geo.Hex, geo.Hex]]  # colour -> its two landing fields
    reconstruction: bool = True
    note: str = ""
    # derived
    hexes: list[geo.Hex] = field(init=False)
    names: list[str] = field(init=False)
    kind: list[str] = field(init=False)
    index: dict[str, int] = field(init=False)
    adj: list[list[int]] = field(init=False)

    def __post_init__(self) -> None:
        size = int(self.model.board["radius"])
        self.size = size
        fields = [h for h in geo.disc(size) if h != geo.CENTRE]
        self.hexes = list(fields) + [geo.CENTRE]
        self.names = [geo.fmt_hex(h) for h in self.hexes]
        self.kind = ["field"] * len(fields) + ["treasure"]
        self.boat_colours = [c for c in self.model.colours if c in self.boats]
        for colour in self.boat_colours:
            f1, f2 = self.boats[colour]
            self.hexes.append(geo.boat_hex(f1, f2, size))
            self.names.append(f"boat:{colour}")
            self.kind.append("boat")
        self.index = {n: i for i, n in enumerate(self.names)}
        at = {h: i for i, h in enumerate(self.hexes)}
        self.adj = [
            sorted(at[n] for n in geo.neighbours(h) if n in at) for h in self.hexes
        ]
        self.n_fields = len(fields)
        self.treasure = self.n_fields
        self.boat_node = {c: self.index[f"boat:{c}"] for c in self.boat_colours}
        self.boat_owner = {v: c for c, v in self.boat_node.items()}
        self.fronts = sorted(at[f] for pair in self.boats.values() for f in pair)

    # -- small queries -------------------------------------------------------------------
    @property
    def fields(self) -> range:
        return range(self.n_fields)

    def is_field(self, v: int) -> bool:
        return v < self.n_fields

    def node(self, name: str) -> int:
        """A node from its name (``q,r``, ``0,0``, ``treasure``, ``boat:blue``)."""
        key = str(name).strip()
        if key.lower() in ("treasure", "t"):
            return self.treasure
        if key.lower().startswith("boat:"):
            colour = self.model.parse_colour(key.split(":", 1)[1])
            if colour not in self.boat_node:
                raise InputError(f"no boat of colour {colour}")
            return self.boat_node[colour]
        h = geo.parse_hex(key)
        name = geo.fmt_hex(h)
        if name not in self.index:
            raise InputError(f"cell {name} is not on the island")
        return self.index[name]

    def flights(self, start: int) -> tuple[tuple[int, int], ...]:
        """Every (overflown, landing) pair for a flight from ``start``.

        The overflown cell is a neighbouring field or the treasure field; the landing cell is
        one of the three cells behind it (a field, the treasure field or a boat) on the board.
        Computed once per cell (the board never changes; the searches ask often).
        """
        cache = self.__dict__.setdefault("_flights", {})
        found = cache.get(start)
        if found is None:
            found = cache[start] = tuple(self._flights_from(start))
        return found

    def _flights_from(self, start: int) -> list[tuple[int, int]]:
        out = []
        h = self.hexes[start]
        for b in self.adj[start]:
            if self.kind[b] == "boat":
                continue
            for land in geo.behind(h, self.hexes[b]):
                v = self._hex_node.get(land)
                if v is not None:
                    out.append((b, v))
        return out

    def hops(self, start: int) -> dict[int, int]:
        """Steps from ``start`` to every node (breadth first over the board graph)."""
        hops = {start: 0}
        queue = deque(hops)
        while queue:
            u = queue.popleft()
            for v in self.adj[u]:
                if v not in hops:
                    hops[v] = hops[u] + 1
                    queue.append(v)
        return hops

    @property
    def _hex_node(self) -> dict[geo.Hex, int]:
        cache = self.__dict__.get("_hn")
        if cache is None:
            cache = {h: i for i, h in enumerate(self.hexes)}
            self.__dict__["_hn"] = cache
        return cache

    def start_tiles(self) -> list[str]:
        """The start terrain of each field, by node number."""
        return [self.start[self.hexes[v]] for v in self.fields]


def _fail(source: str, message: str) -> InputError:
    return InputError(f"{source}: {message}")


def island_from_data(data: dict, source: str = "board", model: Rules | None = None) -> Island:
    """Build and validate an island from parsed TOML data."""
    model = model or rules()
    size = int(model.board["radius"])
    want = int(model.board["tiles_per_terrain"])
    if not isinstance(data.get("fields"), dict):
        raise _fail(source, "no [fields] table")
    if not isinstance(data.get("boats"), dict):
        raise _fail(source, "no [boats] table")
    cells = set(geo.disc(size))
    start: dict[geo.Hex, str] = {}
    for key, value in data["fields"].items():
        h = geo.parse_hex(key)
        if h not in cells:
            raise _fail(source, f"cell {geo.fmt_hex(h)} is not on the island (radius {size})")
        if h == geo.CENTRE:
            raise _fail(source, "the treasure field 0,0 carries no terrain tile")
        if h in start:
            raise _fail(source, f"field {geo.fmt_hex(h)} is given twice")
        if not isinstance(value, str):
            raise _fail(source, f"field {geo.fmt_hex(h)}: terrain must be a name")
        start[h] = model.parse_terrain(value)
    missing = sorted(cells - set(start) - {geo.CENTRE}, key=lambda h: (h[1], h[0]))
    if missing:
        first = geo.fmt_hex(missing[0])
        raise _fail(source, f"field {first} has no terrain ({len(missing)} missing)")
    counts = Counter(start.values())
    for t in model.terrains:
        if counts[t] != want:
            raise _fail(source, f"{t}: {counts[t]} fields, expected {want}")
    boats: dict[str, tuple[geo.Hex, geo.Hex]] = {}
    used: dict[geo.Hex, str] = {}
    for key, value in data["boats"].items():
        colour = model.parse_colour(key)
        if colour in boats:
            raise _fail(source, f"two boats of colour {colour}")
        if not isinstance(value, list) or len(value) != 2:
            raise _fail(source, f"boat {colour} must touch exactly two fields, got {value!r}")
        f1, f2 = (geo.parse_hex(x) for x in value)
        for f in (f1, f2):
            if geo.radius(f) != size:
                raise _fail(source, f"boat {colour}: field {geo.fmt_hex(f)} is not on the coast")
            if f in used:
                raise _fail(source, f"boat {colour}: field {geo.fmt_hex(f)} already belongs "
                                    f"to the {used[f]} boat")
        if geo.distance(f1, f2) != 1 or geo.boat_hex(f1, f2, size) is None:
            raise _fail(source, f"boat {colour} does not touch two neighbouring coast fields")
        used[f1] = used[f2] = colour
        boats[colour] = (f1, f2)
    hexes = [geo.boat_hex(*b, size) for b in boats.values()]
    if len(set(hexes)) != len(hexes):
        raise _fail(source, "two boats lie at the same place")
    missing_boats = [c for c in model.colours if c not in boats]
    if missing_boats:
        raise _fail(source, f"no boat for colour {missing_boats[0]}")
    reconstruction = data.get("reconstruction", False)
    if not isinstance(reconstruction, bool):
        raise _fail(source, f"reconstruction is true or false, not {reconstruction!r}")
    return Island(
        model=model,
        start=start,
        boats=boats,
        reconstruction=reconstruction,
        note=str(data.get("note", "")),
    )


def load_island(path: str | Path | None = None, model: Rules | None = None) -> Island:
    """Read a board file (default: the shipped reconstruction)."""
    if path is None:
        return default_island()
    data = read_toml(path, "board file")
    try:
        return island_from_data(data, f"board file {path}", model)
    except InputError as err:
        if str(err).startswith("board file"):
            raise
        raise InputError(f"board file {path}: {err}") from None


@lru_cache(maxsize=1)
def default_island() -> Island:
    """The shipped reconstruction ``models/dracheninsel/board.toml``."""
    return island_from_data(read_toml(BOARD_FILE, "board file"), str(BOARD_FILE))


def board_toml(island: Island, header: str) -> str:
    """A board file's text for an island (fields by row, boats in colour order)."""
    lines = [header.rstrip(), ""]
    lines.append(f"reconstruction = {'true' if island.reconstruction else 'false'}")
    if island.note:
        lines.append(f'note = "{island.note}"')
    lines += ["", "[boats]            # the two coast fields each boat touches (printed arrows)"]
    for colour in island.boat_colours:
        f1, f2 = island.boats[colour]
        lines.append(f'{colour} = ["{geo.fmt_hex(f1)}", "{geo.fmt_hex(f2)}"]')
    lines += ["", "[fields]           # start terrain of every field, row by row"]
    for v in island.fields:
        lines.append(f'"{island.names[v]}" = "{island.start[island.hexes[v]]}"')
    return "\n".join(lines) + "\n"
