"""Invariants of Die Dracheninsel with certificates that are re-checked, not trusted.

* ``dragons-cannot-cut-boats``: from every boat, three paths to the treasure field share no
  field a dragon may stand on (the two fields in front of each boat never hold one), so by
  Menger's theorem two dragons can never cut a boat off. Proved with networkx (vertex
  capacities, maximum flow); the certificate stores the paths, which verification checks
  against a freshly built board. If it ever fails, the certificate names the placement.
* ``landing-fields-never-dragon``: no boat's landing field is a legal dragon site: the
  position rules reject it and the patrol never offers it.
* ``flights-have-landings``: a flight from A over a neighbouring field (or the treasure field)
  B lands on a neighbour of B that is neither A nor a neighbour of A: the three cells "behind"
  B. On the board graph this set equals the set the router uses, it always has exactly three
  cells when B is not on the coast, and every landing lies two steps from A.
* ``deck-and-coins-add-up``: the rulebook's component numbers recomputed from the models.

``prove_all`` writes one JSON certificate per invariant into ``proofs/dracheninsel/``;
``verify_all`` recomputes everything and compares.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import networkx as nx

from solver.dragon import geometry as geo
from solver.dragon.board import Island, island_from_data
from solver.dragon.cards import deck
from solver.dragon.position import Position, opening
from solver.dragon.rules import MODEL_DIR, Rules, load_rules
from solver.errors import InputError
from solver.io import atomic_write_text, dumps_json, read_toml
from solver.rules.claims import invariant_row

SUBDIR = "dracheninsel"


def _load(model_dir: Path | None) -> tuple[Rules, Island]:
    model_dir = Path(model_dir or MODEL_DIR)
    model = load_rules(model_dir)
    island = island_from_data(read_toml(model_dir / "board.toml", "board file"),
                              str(model_dir / "board.toml"), model)
    return model, island


def dragon_sites(island: Island) -> list[int]:
    """Fields a dragon may ever stand on: not a boat, not in front of a boat, not the treasure."""
    fronts = set(island.fronts)
    return [v for v in island.fields if v not in fronts]


# ---- 1. two dragons never cut a boat off ------------------------------------------------------

def _in(v: int) -> int:
    """Integer node ids keep networkx's flow deterministic (no string hashing)."""
    return 2 * v


def _out(v: int) -> int:
    return 2 * v + 1


def _split_graph(island: Island, sites: set[int]) -> nx.DiGraph:
    g = nx.DiGraph()
    for v in range(len(island.names)):
        g.add_edge(_in(v), _out(v), capacity=1 if v in sites else len(island.names))
        for u in sorted(island.adj[v]):
            g.add_edge(_out(v), _in(u), capacity=len(island.names))
    return g


def _paths_from_flow(flow: dict, source: int, sink: int, count: int) -> list[list[int]]:
    paths = []
    flow = {u: dict(vs) for u, vs in flow.items()}
    for _ in range(count):
        path, node, seen = [source], _out(source), set()
        while node != _in(sink):
            nxt = next(v for v, f in sorted(flow[node].items()) if f > 0)
            flow[node][nxt] -= 1
            node = nxt
            if node % 2 == 0 and node // 2 != sink:
                field = node // 2
                if field in seen:
                    break
                seen.add(field)
                path.append(field)
                flow[node][_out(field)] -= 1
                node = _out(field)
        path.append(sink)
        paths.append(path)
    return paths


def _prove_cut(model: Rules, island: Island) -> tuple[bool, dict]:
    sites = set(dragon_sites(island))
    dragons = int(model.components["dragons_in_play"])
    g = _split_graph(island, sites)
    boats = {}
    holds = True
    for colour in island.boat_colours:
        b = island.boat_node[colour]
        value, flow = nx.maximum_flow(g, _out(b), _in(island.treasure))
        entry = {"paths_needed": dragons + 1, "max_disjoint": int(min(value, dragons + 1))}
        if value > dragons:
            paths = _paths_from_flow(flow, b, island.treasure, dragons + 1)
            entry["paths"] = [[island.names[v] for v in p] for p in paths]
        else:
            holds = False
            _, (reach, _rest) = nx.minimum_cut(g, _out(b), _in(island.treasure))
            cut = [v for v in sites if _in(v) in reach and _out(v) not in reach]
            entry["cut"] = sorted(island.names[v] for v in cut)
        boats[colour] = entry
    return holds, {"dragons": dragons, "boats": boats}


def _check_cut_certificate(model: Rules, island: Island, evidence: dict) -> bool:
    """Menger, checked by hand: enough paths, each a real path, disjoint on dragon sites."""
    sites = {island.names[v] for v in dragon_sites(island)}
    need = int(model.components["dragons_in_play"]) + 1
    for colour in island.boat_colours:
        paths = evidence.get("boats", {}).get(colour, {}).get("paths")
        if not paths or len(paths) < need:
            return False
        used: set[str] = set()
        for p in paths:
            if p[0] != f"boat:{colour}" or p[-1] != island.names[island.treasure]:
                return False
            nodes = [island.node(x) for x in p]
            if any(b not in island.adj[a] for a, b in zip(nodes, nodes[1:], strict=False)):
                return False
            inner = [x for x in p[1:-1] if x in sites]
            if used & set(inner) or len(set(inner)) != len(inner):
                return False
            used |= set(inner)
    return True


# ---- 2. landing fields never hold a dragon ---------------------------------------------------

def _prove_fronts(model: Rules, island: Island) -> tuple[bool, dict]:
    from solver.dragon.patrol import Patrol

    fronts = sorted(island.fronts)
    sites = set(dragon_sites(island))
    pos = opening(island)
    offered = set(Patrol(pos, island.boat_colours[0], "all")._sites())
    rejected = []
    for f in fronts:
        try:
            Position(island, list(pos.tiles), [f], dict(pos.hunters), pos.treasure).validate()
        except InputError:
            rejected.append(island.names[f])
    holds = (not (set(fronts) & sites) and not (set(fronts) & offered)
             and len(rejected) == len(fronts) == 2 * len(island.boat_colours))
    return holds, {
        "landing_fields": {c: [geo.fmt_hex(h) for h in island.boats[c]]
                           for c in island.boat_colours},
        "rejected_by_position_rules": rejected,
        "offered_by_patrol": sorted(island.names[v] for v in offered & set(fronts)),
        "dragon_sites": len(sites),
    }


# ---- 3. flights land behind the field they overfly --------------------------------------------

def _prove_flights(model: Rules, island: Island) -> tuple[bool, dict]:
    holds = True
    by_size: Counter = Counter()
    flights = {}
    for a in range(len(island.names)):
        router = {}
        for b, land in island.flights(a):
            router.setdefault(b, set()).add(land)
        for b in island.adj[a]:
            if island.kind[b] == "boat":
                continue
            graph = {v for v in island.adj[b] if v != a and v not in island.adj[a]}
            got = router.get(b, set())
            coast = island.is_field(b) and geo.radius(island.hexes[b]) == island.size
            ok = graph == got and all(geo.distance(island.hexes[a], island.hexes[v]) == 2
                                      for v in got)
            if not coast and len(got) != 3:
                ok = False
            holds &= ok
            by_size[(("coast" if coast else "inland"), len(got))] += 1
            flights[f"{island.names[a]} over {island.names[b]}"] = sorted(island.names[v]
                                                                          for v in got)
    summary = {f"{kind}, {n} landings": count for (kind, n), count in sorted(by_size.items())}
    return holds, {"definition": "land on a neighbour of the overflown cell that is neither "
                                 "the take-off cell nor one of its neighbours",
                   "summary": summary, "flights": flights}


# ---- 4. the rulebook's numbers ---------------------------------------------------------------

def count_checks(model: Rules, island: Island) -> list[dict]:
    """Each stated number, where it comes from, and what the models give."""
    comp, coins, dt = model.components, model.coins, model.deck_terrain
    cards = deck(model)
    terrain_cards = [c for c in cards if c.terrains]
    action_cards = [c for c in cards if c.actions]
    rows = [
        ("terrain-cards", "terrain cards", 54, "8 single cards per terrain x 6 + 6 double cards",
         int(dt["single_per_terrain"]) * len(model.terrains) + int(dt["double_cards"])),
        ("terrain-cards-built", "terrain cards in the built deck", 54, "deck() from rules.toml",
         len(terrain_cards)),
        ("double-cards", "double terrain cards listed", int(dt["double_cards"]),
         "[deck.terrain].doubles", len(dt["doubles"])),
        ("action-cards", "action cards (counts assumed)", 45, "[deck.actions] in rules.toml",
         len(action_cards)),
        ("cards", "cards", 99, "terrain cards + action cards", len(cards)),
        ("coins", "coins", 14, "7 values x 2 coins",
         len(coins["values"]) * int(coins["per_value"])),
        ("coin-value", "coin value in the box", 2580, "2 x (100+125+150+175+200+240+300)",
         sum(coins["values"]) * int(coins["per_value"])),
        ("treasures", "treasures", 7, "one treasure per coin value", len(set(coins["values"]))),
        ("terrain-tiles", "terrain tiles", 60, "10 per terrain x 6 terrains",
         int(model.board["tiles_per_terrain"]) * len(model.terrains)),
        ("terrain-fields", "terrain fields", 60, "fields of the board file", island.n_fields),
        ("cells", "cells of the island", 61, "60 terrain fields + 1 treasure field",
         island.n_fields + 1),
        ("hunters", "hunters", 6, "one per terrain colour", len(model.terrains)),
        ("boats", "boats", 6, "one per hunter", len(island.boat_colours)),
        ("dragons", "dragons in the box", 3, "components", int(comp["dragons"])),
        ("dragons-in-play", "dragons in play", 2, "components (one spare)",
         int(comp["dragons_in_play"])),
        ("hand-size", "hand size", 6, "rules.toml", int(model.hand_size)),
    ]
    return [{"id": i, "what": w, "stated": st, "derived_from": d, "computed": c,
             "holds": st == c} for i, w, st, d, c in rows]


def _prove_counts(model: Rules, island: Island) -> tuple[bool, dict]:
    rows = count_checks(model, island)
    return all(r["holds"] for r in rows), {"checks": rows}


def fact(check: str) -> int:
    """The value the models give for a count check named in editions.toml."""
    model, island = _load(None)
    for row in count_checks(model, island):
        if row["id"] == check:
            return int(row["computed"])
    raise KeyError(check)


INVARIANTS = {
    "dragons-cannot-cut-boats": (
        "Two dragons can never cut a boat off from the treasure field",
        "networkx maximum flow with unit capacity on dragon sites (not the fields in front of "
        "boats); certificate: vertex-disjoint paths, re-checked by Menger's theorem",
        _prove_cut),
    "landing-fields-never-dragon": (
        "No boat's two landing fields can ever hold a dragon",
        "the position rules reject a dragon on each; the patrol never offers one",
        _prove_fronts),
    "flights-have-landings": (
        "Every flight lands on the three cells behind the field it overflies (fewer only over "
        "a coast field)",
        "board-graph definition compared with the router's geometry, for every take-off and "
        "overflown cell",
        _prove_flights),
    "deck-and-coins-add-up": (
        "The deck and coin counts add up to the rulebook's numbers",
        "recomputed from models/dracheninsel/*.toml",
        _prove_counts),
}


def _path(proofs_dir: Path, inv_id: str) -> Path:
    return Path(proofs_dir) / SUBDIR / f"{inv_id}.json"


def _row(inv_id: str, holds: bool, proofs_dir: Path) -> dict:
    statement, method, _ = INVARIANTS[inv_id]
    return invariant_row("dracheninsel", inv_id, statement, method, holds,
                         _path(proofs_dir, inv_id))


def prove_all(proofs_dir: Path, model_dir: Path | None = None) -> list[dict]:
    """Prove every invariant on the models (default: the shipped ones); write certificates."""
    model, island = _load(model_dir)
    rows = []
    for inv_id, (statement, method, prove) in INVARIANTS.items():
        holds, evidence = prove(model, island)
        atomic_write_text(_path(proofs_dir, inv_id), dumps_json({
            "invariant": inv_id, "statement": statement, "method": method,
            "board_reconstruction": island.reconstruction, "holds": holds,
            "evidence": evidence}))
        rows.append(_row(inv_id, holds, proofs_dir))
    return rows


def verify_all(proofs_dir: Path, model_dir: Path | None = None) -> list[dict]:
    """Recompute each invariant; it holds only if it holds now, the certificate's evidence equals
    the recomputation, and (for the paths) the stored witness checks out independently."""
    model, island = _load(model_dir)
    rows = []
    for inv_id, (_, _, prove) in INVARIANTS.items():
        holds, evidence = prove(model, island)
        try:
            stored = json.loads(_path(proofs_dir, inv_id).read_text(encoding="utf-8"))
            same = stored.get("evidence") == json.loads(json.dumps(evidence))
            if inv_id == "dragons-cannot-cut-boats":
                same = same and _check_cut_certificate(model, island, stored.get("evidence", {}))
        except (OSError, ValueError):
            same = False
        rows.append(_row(inv_id, holds and same, proofs_dir))
    return rows
