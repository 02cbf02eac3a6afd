"""A position: everything on the island that changes during play.

Position file (TOML)::

    treasure = 125                     # coin value lying on the treasure field; 0 = none left
    dragons = ["1,2", "-2,0"]          # at most two dragons on the board
    [hunters]                          # hunters not listed are not in the game; without
                                       # [hunters] (an empty file) all six are, in their boats
    blue = "boat"                      # in its own boat
    red = "boat:green"                 # in another boat (stays there after a delivery)
    grey = "0,0"                       # waiting alone on the treasure field
    green = "2,-1"                     # on a field
    yellow = { at = "1,1", with = "brown" }    # carrying a treasure with brown ...
    brown = { at = "1,1", with = "yellow" }    # ... who names yellow in turn
    # a hunter left alone with a treasure (its partner sent home): { at = "3,0", guarding = true }
    [tiles]                            # optional: the tile on every field (default: start layout)
    "0,-4" = "water"

Without a position file every hunter stands in its own boat on the opening board and the two
100 coins lie on the treasure field.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from solver.dragon.board import Island
from solver.errors import InputError
from solver.io import read_toml


@dataclass(frozen=True)
class Hunter:
    """One hunter: where it is, and with whom it carries a treasure."""

    colour: str
    at: int
    partner: str | None = None
    guarding: bool = False


@dataclass
class Position:
    """Tiles, dragons, hunters and the treasure on the treasure field."""

    island: Island
    tiles: list[str]
    dragons: list[int] = field(default_factory=list)
    hunters: dict[str, Hunter] = field(default_factory=dict)
    treasure: int | None = 100

    def validate(self, source: str = "position") -> Position:
        """Check every rule a position must obey; raise InputError naming the first breach."""
        isl, model = self.island, self.island.model

        def fail(msg: str) -> InputError:
            return InputError(f"{source}: {msg}")

        if len(self.tiles) != isl.n_fields:
            raise fail(f"{len(self.tiles)} tiles for {isl.n_fields} fields")
        counts = Counter(self.tiles)
        for t in model.terrains:
            if counts[t] != int(model.board["tiles_per_terrain"]):
                raise fail(f"{t}: {counts[t]} tiles, expected {model.board['tiles_per_terrain']}")
        if self.treasure is not None and self.treasure not in model.coins["values"]:
            raise fail(f"no coin of value {self.treasure}")
        if len(self.dragons) > int(model.components["dragons_in_play"]):
            most = model.components["dragons_in_play"]
            raise fail(f"{len(self.dragons)} dragons, at most {most} play")
        if len(set(self.dragons)) != len(self.dragons):
            raise fail("two dragons on one field")
        for d in self.dragons:
            if not isl.is_field(d):
                raise fail(f"a dragon may not stand on {isl.names[d]}")
            if d in isl.fronts:
                raise fail(f"a dragon may never stand on {isl.names[d]}, in front of a boat")
        by_node: dict[int, list[Hunter]] = {}
        for h in self.hunters.values():
            by_node.setdefault(h.at, []).append(h)
            if h.partner is not None:
                other = self.hunters.get(h.partner)
                if other is None or other.partner != h.colour or other.at != h.at:
                    raise fail(f"{h.colour} carries with {h.partner}, who must stand on the same "
                               f"field and name {h.colour}")
                if not isl.is_field(h.at):
                    raise fail(f"a carrying pair stands on a terrain field, not {isl.names[h.at]}")
                if h.guarding:
                    raise fail(f"{h.colour} cannot both guard alone and carry with {h.partner}")
            if h.guarding and not isl.is_field(h.at):
                raise fail(f"{h.colour} can guard a treasure only on a terrain field")
        for v, group in by_node.items():
            names = ", ".join(sorted(h.colour for h in group))
            if isl.is_field(v):
                if v in self.dragons:
                    raise fail(f"{names} and a dragon on {isl.names[v]}")
                if len(group) > 2 or (len(group) == 2 and group[0].partner is None):
                    raise fail(f"{names} on one field {isl.names[v]} without carrying together")
            elif v == isl.treasure:
                if len(group) > 1:
                    raise fail(f"{names} on the treasure field: the second leaves with the pair")
                if self.treasure is None:
                    raise fail(f"{names} waits on an empty treasure field")
        return self


def opening(island: Island, colours: list[str] | None = None) -> Position:
    """The start of a game: every hunter in its boat, the start layout, 100 coins, no dragon."""
    colours = colours if colours is not None else island.boat_colours
    hunters = {c: Hunter(c, island.boat_node[c]) for c in colours}
    return Position(island, island.start_tiles(), [], hunters, island.model.coins["values"][0])


def position_from_data(data: dict, island: Island, source: str = "position") -> Position:
    """Build and validate a position from parsed TOML data."""
    model = island.model

    def fail(msg: str) -> InputError:
        return InputError(f"{source}: {msg}")

    known = {"treasure", "dragons", "hunters", "tiles"}
    extra = sorted(set(data) - known)
    if extra:
        raise fail(f"unknown key {extra[0]!r}; known: {', '.join(sorted(known))}")
    tiles = island.start_tiles()
    if "tiles" in data:
        if not isinstance(data["tiles"], dict):
            raise fail("[tiles] must be a table of field = terrain")
        seen = set()
        for key, value in data["tiles"].items():
            v = island.node(key)
            if not island.is_field(v):
                raise fail(f"{island.names[v]} carries no tile")
            tiles[v] = model.parse_terrain(value)
            seen.add(v)
        if len(seen) != island.n_fields:
            missing = [island.names[v] for v in island.fields if v not in seen]
            raise fail(f"[tiles] must give all {island.n_fields} fields; missing {missing[0]}")
    treasure = data.get("treasure", model.coins["values"][0])
    if treasure in (0, "none", None):
        treasure = None
    elif not isinstance(treasure, int):
        raise fail(f"treasure must be a coin value or 0, got {treasure!r}")
    dragons_raw = data.get("dragons", [])
    if not isinstance(dragons_raw, list):
        raise fail("dragons must be a list of fields")
    dragons = [island.node(d) for d in dragons_raw]
    hunters: dict[str, Hunter] = {}
    raw_hunters = data.get("hunters")
    if raw_hunters is None:
        raw_hunters = {c: "boat" for c in island.boat_colours}
    if not isinstance(raw_hunters, dict):
        raise fail("[hunters] must be a table of colour = place")
    for key, spec in raw_hunters.items():
        colour = model.parse_colour(key)
        if colour in hunters:
            raise fail(f"hunter {colour} given twice")
        if isinstance(spec, str):
            spec = {"at": spec}
        if not isinstance(spec, dict) or "at" not in spec:
            raise fail(f"hunter {colour}: expected a place or a table with 'at'")
        bad = sorted(set(spec) - {"at", "with", "guarding"})
        if bad:
            raise fail(f"hunter {colour}: unknown key {bad[0]!r}")
        place = str(spec["at"]).strip()
        at = island.boat_node[colour] if place.lower() == "boat" else island.node(place)
        partner = model.parse_colour(spec["with"]) if spec.get("with") else None
        if partner == colour:
            raise fail(f"hunter {colour} cannot carry the treasure with itself")
        guarding = spec.get("guarding", False)
        if not isinstance(guarding, bool):
            raise fail(f"hunter {colour}: guarding is true or false, not {guarding!r}")
        hunters[colour] = Hunter(colour, at, partner, guarding)
    pos = Position(island, tiles, dragons, hunters, treasure)
    return pos.validate(source)


def load_position(path: str | Path | None, island: Island) -> Position:
    """Read a position file; without one, the opening position."""
    if path is None:
        return opening(island)
    data = read_toml(path, "position file")
    try:
        return position_from_data(data, island, f"position file {path}")
    except InputError as err:
        if str(err).startswith("position file"):
            raise
        raise InputError(f"position file {path}: {err}") from None


def position_data(pos: Position) -> dict:
    """A position as the parsed data of its file (``position_from_data`` reads it back): each
    hunter as a table (``at``, and ``with`` or ``guarding`` when set), a place ``boat`` for its
    own boat, every field's tile."""
    isl = pos.island
    hunters: dict[str, dict] = {}
    for colour in sorted(pos.hunters):
        h = pos.hunters[colour]
        spec: dict = {"at": "boat" if h.at == isl.boat_node.get(colour) else isl.names[h.at]}
        if h.partner:
            spec["with"] = h.partner
        elif h.guarding:
            spec["guarding"] = True
        hunters[colour] = spec
    return {"treasure": pos.treasure or 0,
            "dragons": [isl.names[d] for d in sorted(pos.dragons)],
            "hunters": hunters,
            "tiles": {isl.names[v]: pos.tiles[v] for v in isl.fields}}


def position_toml(pos: Position) -> str:
    """A position file's text (round-trips through position_from_data)."""
    data = position_data(pos)
    lines = [f"treasure = {data['treasure']}"]
    lines.append("dragons = [" + ", ".join(f'"{d}"' for d in data["dragons"]) + "]")
    lines += ["", "[hunters]"]
    for colour, spec in data["hunters"].items():
        if "with" in spec:
            lines.append(f'{colour} = {{ at = "{spec["at"]}", with = "{spec["with"]}" }}')
        elif spec.get("guarding"):
            lines.append(f'{colour} = {{ at = "{spec["at"]}", guarding = true }}')
        else:
            lines.append(f'{colour} = "{spec["at"]}"')
    lines += ["", "[tiles]"]
    lines += [f'"{name}" = "{terrain}"' for name, terrain in data["tiles"].items()]
    return "\n".join(lines) + "\n"
