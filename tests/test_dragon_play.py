"""How often a Dracheninsel rule point arises in simulated play: the counter counts the right
situation (hand-built positions where it must and must not arise, witnesses where the reading
must decide the turn), the game bookkeeping is sound, the run is deterministic, and a tampered
record is caught."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from solver.dragon.ambiguity import PLAY_FILE, _query, in_play, verify_play
from solver.dragon.board import default_island
from solver.dragon.cards import parse_hand
from solver.dragon.play import SEED, after_turn, arises, count_turn, play_game, share
from solver.dragon.position import Hunter, Position, opening
from solver.dragon.route import RouteQuery
from solver.dragon.route_search import search_route
from solver.dragon.rules import rule_variants
from solver.util import PROOFS_DIR
from tests.fresh_process import run_fresh

ISL = default_island()


def _moved(pos: Position, hunter: Hunter) -> Position:
    """The position with one hunter put elsewhere."""
    return replace(pos, hunters={**pos.hunters, hunter.colour: hunter})


def _spec(name: str) -> dict:
    return rule_variants()[name]["situation"]


def _field_next_to_boat(colour: str) -> int:
    return next(v for v in ISL.adj[ISL.boat_node[colour]] if ISL.is_field(v))


def test_flight_from_boat_arises_only_in_the_boat_with_a_flight():
    pos = opening(ISL, ["red"])
    hand = parse_hand("flight,water,forest,desert,farmland,mountain")
    spec = _spec("flight-from-boat")
    assert arises(RouteQuery(pos, "red", hand), spec)
    # one field out of the boat: the point cannot arise
    out = _moved(pos, Hunter("red", _field_next_to_boat("red")))
    assert not arises(RouteQuery(out, "red", hand), spec)
    # in the boat without a flight: neither
    assert not arises(RouteQuery(pos, "red", parse_hand("water,forest,desert")), spec)


def test_double_card_joker_needs_the_own_colour_on_the_double_card():
    pos = opening(ISL, ["green"])  # green hunters walk forest
    spec = _spec("double-card-joker")
    own = ISL.model.terrain_of("green")
    with_own = next(c for c in ("farmland+forest", "forest+desert") if own in c)
    assert arises(RouteQuery(pos, "green", parse_hand(f"{with_own},water")), spec)
    assert not arises(RouteQuery(pos, "green", parse_hand("desert+water,water")), spec)


def test_two_long_journeys_are_needed_for_stacking():
    pos = opening(ISL, ["blue"])
    spec = _spec("long-journey-stacking")
    assert arises(RouteQuery(pos, "blue", parse_hand("long-journey,long-journey+slumber")), spec)
    assert not arises(RouteQuery(pos, "blue", parse_hand("long-journey,water,forest")), spec)


def test_leaving_by_flight_needs_a_waiter():
    spec = _spec("treasure-leave-by-flight")
    hand = parse_hand("flight,water")
    alone = opening(ISL, ["grey", "red"])
    assert not arises(RouteQuery(alone, "grey", hand), spec)
    waiting = _moved(alone, Hunter("red", ISL.treasure))
    assert arises(RouteQuery(waiting, "grey", hand), spec)
    # the waiter itself is never in the situation
    assert not arises(RouteQuery(waiting, "red", hand), spec)


def test_empty_field_point_needs_the_last_treasure_carried():
    spec = _spec("empty-treasure-field-carriers")
    v = _field_next_to_boat("yellow")
    pair = {"yellow": Hunter("yellow", v, "blue"), "blue": Hunter("blue", v, "yellow")}
    last = Position(ISL, ISL.start_tiles(), [], pair, None)
    assert arises(RouteQuery(last, "yellow", []), spec)
    more = Position(ISL, ISL.start_tiles(), [], pair, 300)
    assert not arises(RouteQuery(more, "yellow", []), spec)


def _witness(variant: str) -> RouteQuery:
    rows = json.loads((PROOFS_DIR / "dracheninsel" / "variants.json").read_text())["claims"]
    row = next(r for r in rows if r["variant"] == variant and "witness" in r)
    return _query(row["witness"], ISL)


@pytest.mark.parametrize("variant", ["flight-from-boat=forbidden",
                                     "treasure-leave-by-flight=forbidden",
                                     "double-card-joker=no-joker"])
def test_a_witness_turn_arises_and_is_decided(variant):
    """The stored witness (its optimum differs between the readings) must count as arising and
    decided; with the card the point needs taken out of the hand it must not arise at all."""
    name = variant.partition("=")[0]
    q = _witness(variant)
    counts = count_turn(q)
    assert counts[name].arises and counts[name].decides and counts[name].value_changes
    key = {"flight-from-boat": "flight", "treasure-leave-by-flight": "flight"}.get(name)
    if key is None:
        hand = [c for c in q.hand if len(c.terrains) != 2]
    else:
        hand = [c for c in q.hand if key not in c.actions]
    assert not count_turn(RouteQuery(q.position, q.hunter, hand))[name].arises


def test_a_turn_that_arises_without_being_decided():
    """In the boat with a flight, but one own-colour step from the boat's other landing field
    needs no flight: the point arises, and the turn is the same under both readings when the
    hand reaches the goal without it."""
    pos = opening(ISL, ["red"])
    own = ISL.model.terrain_of("red")
    hand = parse_hand(f"flight,{own},{own},{own},{own},{own}")
    c = count_turn(RouteQuery(pos, "red", hand))["flight-from-boat"]
    assert c.arises
    assert not c.value_changes


def test_after_turn_bookkeeping():
    rng = random.Random(1)
    # first on the treasure field: waits there
    q = RouteQuery(Position(ISL, ISL.start_tiles(), [], {"red": Hunter("red", next(
        v for v in ISL.adj[ISL.treasure] if ISL.is_field(v)))}, 100), "red",
        parse_hand("water,forest,desert,farmland,mountain,volcano"))
    r = search_route(q)
    assert r.reachable
    pos, delivered = after_turn(q, r.plan, rng)
    assert pos.hunters["red"].at == ISL.treasure and delivered == 0 and pos.treasure == 100
    # the second joins and leaves with the pair; the next treasure is laid out
    ring = [v for v in ISL.adj[ISL.treasure] if ISL.is_field(v)]
    pos = _moved(pos, Hunter("blue", ring[3]))
    q2 = RouteQuery(pos, "blue", parse_hand("water,forest,desert,farmland,mountain,volcano"))
    r2 = search_route(q2)
    assert r2.reachable
    pos2, _ = after_turn(q2, r2.plan, rng)
    assert pos2.hunters["blue"].partner == "red" and pos2.hunters["red"].partner == "blue"
    assert pos2.treasure == 125
    pos2.validate()
    # the pair delivers: both stand in a boat, separated
    q3 = RouteQuery(pos2, "blue", parse_hand("water,forest,desert,farmland,mountain,volcano"))
    r3 = search_route(q3)
    if r3.reachable:
        pos3, delivered = after_turn(q3, r3.plan, rng)
        assert delivered == 1
        assert pos3.hunters["blue"].partner is None and pos3.hunters["red"].partner is None
        assert ISL.kind[pos3.hunters["blue"].at] == "boat"


def test_a_game_is_deterministic_and_every_position_is_legal(tmp_path):
    """Game 0 played twice, the second time in a fresh process, gives the same record."""
    seen = []
    first = play_game(0, on_turn=lambda q: seen.append(q.position.validate())).to_json()
    out = tmp_path / "game.json"
    run_fresh("import json\nfrom pathlib import Path\n"
              "from solver.dragon.play import play_game\n"
              f"Path({str(out)!r}).write_text(json.dumps(play_game(0).to_json()))\n",
              tmp_path / "fresh-cache")
    assert json.loads(json.dumps(first)) == json.loads(out.read_text())
    assert first["ended"] and first["turns"] > 0 and seen
    for name in first["arises"]:
        assert first["decides"][name] <= first["arises"][name]
        assert first["value_changes"][name] <= first["arises"][name]


def test_share_and_its_clustered_standard_error():
    games = [{"turns": 10, "arises": {"x": 1}}, {"turns": 30, "arises": {"x": 3}}]
    s = share(games, "arises", "x")
    assert s["count"] == 4 and s["turns"] == 40 and s["share"] == pytest.approx(0.1)
    assert s["stderr"] == pytest.approx(0.0)  # both games at exactly 10 %
    games[1]["arises"]["x"] = 9
    s = share(games, "arises", "x")
    p = 10 / 40
    want = (2 * ((1 - p * 10) ** 2 + (9 - p * 30) ** 2)) ** 0.5 / 40
    assert s["stderr"] == pytest.approx(want)


def test_a_tampered_play_record_is_caught(tmp_path):
    game = play_game(0).to_json()
    sim = {"games": 1, "seed": SEED, "players": 4, "per_game": [game]}
    (tmp_path / PLAY_FILE).parent.mkdir(parents=True)
    (tmp_path / PLAY_FILE).write_text(json.dumps(sim))
    assert verify_play(tmp_path) == []
    name = next(iter(game["arises"]))
    game["arises"][name] += 1
    (tmp_path / PLAY_FILE).write_text(json.dumps(sim))
    assert any("game 0" in e for e in verify_play(tmp_path))
    summary = in_play(sim, name)
    assert summary["arises"]["count"] == game["arises"][name]


def test_the_stored_record_matches_the_claims():
    path = PROOFS_DIR / PLAY_FILE
    if not path.is_file():
        pytest.skip("no stored simulated play (make solve writes it)")
    sim = json.loads(path.read_text())
    rows = json.loads((PROOFS_DIR / "dracheninsel" / "variants.json").read_text())["claims"]
    for r in rows:
        name = r["variant"].partition("=")[0]
        assert r["in_play"] == json.loads(json.dumps(in_play(sim, name)))
