"""How often a Dracheninsel rule point arises in simulated play: the counter counts the right
situation (hand-built positions where it must and must not arise, witnesses where the reading
must decide the turn), the game bookkeeping is sound, the run is deterministic, and a tampered
record is caught."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from solver.dragon.ambiguity import PLAY_FILE, _query, verify_play
from solver.dragon.board import default_island
from solver.dragon.cards import parse_hand
from solver.dragon.play import SEED, new_game, play_game, play_turn, winners
from solver.dragon.playcount import (
    count_turn,
    game_rows,
    game_share,
    in_play,
    play_markdown,
    share,
)
from solver.dragon.position import Hunter, Position, opening
from solver.dragon.route import RouteQuery
from solver.dragon.rules import rule_variants, rules
from solver.dragon.situation import arises
from solver.paths import PROOFS_DIR
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


@pytest.fixture(scope="module")
def game_0() -> dict:
    """Game 0 of the two-player games, with every position checked on the way."""
    seen = []
    rec = play_game(0, 2, on_turn=lambda g: seen.append(g.pos.validate())).to_json()
    assert seen
    return rec


@pytest.mark.slow
def test_a_game_is_deterministic(game_0, tmp_path):
    """Game 0 played again in a fresh process gives the same record."""
    out = tmp_path / "game.json"
    run_fresh("import json\nfrom pathlib import Path\n"
              "from solver.dragon.play import play_game\n"
              f"Path({str(out)!r}).write_text(json.dumps(play_game(0, 2).to_json()))\n",
              tmp_path / "fresh-cache")
    assert json.loads(json.dumps(game_0)) == json.loads(out.read_text())
    assert game_0["ended"] and game_0["turns"] > 0
    for name in game_0["arises"]:
        assert game_0["decides"][name] <= game_0["arises"][name]


def test_coins_add_up(game_0):
    """Every treasure (two coins of one value) is won or taken out of the game, once."""
    values = rules().coins["values"]
    won = Counter(v for coins in game_0["coins"] for v in coins)
    gone = Counter({v: 2 for v in game_0["removed"]})
    assert won + gone == Counter({v: 2 for v in values})
    assert sum(won.elements()) + 2 * sum(game_0["removed"]) == 2 * sum(values) == 2580
    assert game_0["winners"] == winners(game_0["coins"], "shared")


@pytest.mark.slow
def test_a_reading_that_decides_no_turn_plays_the_same_game(game_0):
    name = next(n for n in ("counterspell-chain", "slumber-ends-turn", "six-actions")
                if not game_0["decides"].get(n))
    other = {"counterspell-chain": "allowed", "slumber-ends-turn": "no-pass",
             "six-actions": "at-most-six"}[name]
    assert play_game(0, 2, readings={name: other}).to_json() == game_0


def test_winners_and_the_tie_break_gap():
    assert winners([[300, 150, 125], [300, 175, 100]], "shared") == [0, 1]
    assert winners([[300, 150, 125], [300, 175, 100]], "next-coin") == [1]
    assert winners([[200], [100, 100]], "shared") == [0]  # the highest single coin
    assert winners([[200, 100], [200, 100], [150]], "next-coin") == [0, 1]  # the same coins
    assert winners([[], []], "shared") == [0, 1]


def _ring(isl) -> list[int]:
    return [v for v in isl.adj[isl.treasure] if isl.is_field(v)]


def _staged(hands: list[str], hunters: dict, treasure: int | None = 100,
            players: int = 4, **readings: str):
    """A four-player game with the given hands and hunters (the others stay in their boats)."""
    g, _ = new_game(0, players, readings=readings or None)
    pos = g.pos
    moved = {c: replace(h) for c, h in pos.hunters.items()}
    moved.update(hunters)
    g.pos = Position(pos.island, pos.tiles, [], moved, treasure)
    g.table.hands = [parse_hand(h) if h else [] for h in hands]
    return g


def test_slumber_stops_the_first_hunter_on_the_treasure_field_and_it_may_pass():
    g0, _ = new_game(0, 4)
    colour = g0.seats[0][0]
    own = ISL.model.terrain_of(colour)
    ring = _ring(ISL)[0]
    hands = [",".join([own] * 6), "slumber,water", "forest", "desert"]
    for reading, exchanged in (("pass-if-nothing-done", True), ("no-pass", False)):
        g = _staged(hands, {colour: Hunter(colour, ring)},
                    **({"slumber-ends-turn": reading} if reading == "no-pass" else {}))
        play_turn(g, 0)
        assert g.pos.hunters[colour].at == ring  # the step was taken back
        assert [c.name for c in g.table.hands[1]] == ["water"]  # the slumber was played
        assert g.record.arises["slumber-ends-turn"] == 1
        assert g.record.decides["slumber-ends-turn"] == 1  # it would lay down unused cards
        assert ([c.name for c in g.table.hands[0]] != [own] * 6) is exchanged
        assert g.record.plays["slumber"] == 1 and len(g.table.hands[0]) == 6
    # with a Gegenzauber the mover cancels it and stands on the treasure field
    g = _staged([",".join([own] * 5) + ",counterspell", "slumber", "forest", "desert"],
                {colour: Hunter(colour, ring)})
    play_turn(g, 0)
    assert g.pos.hunters[colour].at == ISL.treasure


@pytest.mark.parametrize(("owner_cards", "coins"), [("betrayal", [[100, 100], []]),
                                                   ("", [[100], [100]])])
def test_a_delivery_is_cashed_with_untreue_or_shared(owner_cards, coins):
    g0, _ = new_game(0, 4)
    a, b = g0.seats[0][0], g0.seats[1][0]
    front = next(v for v in ISL.adj[ISL.boat_node[a]] if ISL.is_field(v))
    own = ISL.model.terrain_of(a)
    hands = [",".join([own] * 5 + ([owner_cards] if owner_cards else [])), "water", "forest",
             "desert"]
    g = _staged(hands, {a: Hunter(a, front, b), b: Hunter(b, front, a)}, treasure=125)
    g.carried = {a: 100, b: 100}
    play_turn(g, 0)
    assert [sorted(c, reverse=True) for c in g.coins[:2]] == coins
    assert g.carried == {} and g.removed == []


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


@pytest.mark.slow
def test_a_tampered_play_record_is_caught(game_0, tmp_path):
    game = json.loads(json.dumps(game_0))
    sim = {"games": 1, "seed": SEED, "players": [2], "hunters": 4, "per_game": [game],
           "replays": {}}
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


def _hand_built(decides: list[int], changed: list[bool], players: int = 2) -> dict:
    """Games in which six-actions decides ``decides[i]`` turns; the games where it decides one
    replayed, their winners changing as ``changed`` says."""
    games = [{"index": i, "players": players, "turns": 10, "ended": True,
              "coins": [[100], [100]], "bound": [], "arises": {"six-actions": 2},
              "decides": {"six-actions": d}, "value_changes": {}, "first": 0,
              "winners": [0, 1], "plays": {"ambush": 1}} for i, d in enumerate(decides)]
    return {"games": len(games), "seed": 1, "players": [players], "hunters": 4,
            "per_game": games, "replays": {"six-actions": [{"changed": c} for c in changed]}}


def test_game_rows_from_a_hand_built_record():
    """A reading that decides a turn in two of four games, both replayed, one winner changed:
    the share of games whose winner changes is 1/4, with its binomial standard error."""
    sim = _hand_built([1, 0, 2, 0], [True, False])
    spec = rules().variants["six-actions"]
    assert game_rows(sim, "six-actions=drawn-cards-extra", spec) == []
    (row,) = game_rows(sim, "six-actions=at-most-six", spec)
    assert row["objective"] == "share of games whose winner changes"
    assert "stays" not in row["objective"]
    assert row["default"] == 0.0 and row["value"] == 0.25 and row["delta"] == 0.25
    se = (0.25 * 0.75 / 4) ** 0.5  # 0.2165
    assert row["stderr"] == pytest.approx(se, abs=1e-6) and row["relative_to"] == 1.0
    assert row["changed_states"] == 1 and row["claim"] == "changes"
    assert f"1 of 4 games: 25.0 % ± {100 * se:.1f} %" in row["proof"]
    assert row["in_play"]["decides"]["count"] == 3
    assert row["in_play"]["games_decided"]["count"] == 2
    (tie,) = game_rows(sim, "tie-break-gap=next-coin", rules().variants["tie-break-gap"])
    assert tie["value"] == 0.0 and tie["stderr"] == 0.0 and tie["claim"] == "no change seen"
    text = play_markdown(sim, {"six-actions": spec})
    assert "| six-actions=at-most-six | 8 (20.00 % ± 0.00 %) | 3 (7.50 % ± 4.79 %) |" in text
    assert f"1 of 2 replayed (25.0 % ± {100 * se:.1f} % of all games)" in text


def test_game_rows_need_every_decided_game_replayed():
    """A game the reading decided a turn in but not replayed would bias the share: refused."""
    sim = _hand_built([1, 1, 0], [True])
    with pytest.raises(ValueError, match="every such game must be replayed"):
        game_rows(sim, "six-actions=at-most-six", rules().variants["six-actions"])


def test_the_game_share_standard_error_on_a_seeded_sample():
    """On a seeded sample of 0/1 games the standard error is the indicators' population
    standard deviation over sqrt(n), and about 95 % of seeded samples cover the true share
    within two of them (a wrong formula, 10 times too small or too large, fails)."""
    import random

    rng = random.Random(36)
    xs = [rng.random() < 0.3 for _ in range(200)]
    est = game_share(sum(xs), len(xs))
    m = sum(xs) / len(xs)
    sd = (sum((x - m) ** 2 for x in xs) / len(xs)) ** 0.5
    assert est["share"] == m and est["stderr"] == pytest.approx(sd / len(xs) ** 0.5)
    covered = 0
    for _ in range(400):
        k = sum(rng.random() < 0.3 for _ in range(200))
        e = game_share(k, 200)
        covered += abs(e["share"] - 0.3) <= 2 * e["stderr"]
    assert 0.9 <= covered / 400 <= 0.99


def test_the_verifier_shows_the_share_with_its_standard_error():
    """The rules report prints a game-level row as a non-negative share of games whose winner
    changes, with its standard error, sized against all games (not against the default 0)."""
    from solver.rules.effects import change_text

    sim = _hand_built([1, 0, 2, 0], [True, False])
    (row,) = game_rows(sim, "six-actions=at-most-six", rules().variants["six-actions"])
    assert change_text(row) == "+0.2500 ± 0.2165"
    assert change_text({"delta": -0.5}) == "-0.5000"


def test_the_stored_game_rows_are_shares_of_games_with_standard_errors():
    """Every stored game-level row says plainly the share of games whose winner changes (or
    could change), non-negative, with the binomial standard error of its games."""
    rows = json.loads((PROOFS_DIR / "dracheninsel" / "variants.json").read_text())["claims"]
    games = [r for r in rows if rules().variants[r["variant"].partition("=")[0]].get("kind")
             == "game"]
    assert games
    n = json.loads((PROOFS_DIR / PLAY_FILE).read_text())["games"]
    for r in games:
        assert r["objective"].startswith("share of games whose winner ")
        assert "stays" not in r["objective"] and r["default"] == 0.0
        assert 0.0 <= r["value"] == r["delta"] == round(r["changed_states"] / n, 6)
        want = game_share(r["changed_states"], n)["stderr"]
        assert r["stderr"] == pytest.approx(want, abs=1e-6)


def _chain(own: str):
    """Fields a-b-c-d in a row (neighbours) with tiles b = d = x, c = y, none of them ``own``."""
    tiles = ISL.start_tiles()
    for a in ISL.fields:
        for b in ISL.adj[a]:
            for c in ISL.adj[b]:
                for d in ISL.adj[c]:
                    cells = (a, b, c, d)
                    if (all(ISL.is_field(v) for v in cells) and len(set(cells)) == 4
                            and tiles[b] == tiles[d] != tiles[c]
                            and own not in (tiles[b], tiles[c])):
                        return cells, tiles[b], tiles[c]
    raise AssertionError("no such chain on the board")


def test_one_action_breach():
    """long-journey-duration=one-action: the freed terrain is free only until the next card."""
    from solver.dragon.move import Move
    from solver.dragon.play import one_action_breach
    from solver.dragon.rulebook import Turn

    colour = "red"
    (a, b, c, d), x, y = _chain(ISL.model.terrain_of(colour))
    pos = Position(ISL, ISL.start_tiles(), [], {colour: Hunter(colour, a)}, 100)
    turn = Turn(RouteQuery(pos, colour, parse_hand(f"long-journey,{x},{y}")))
    name = ISL.names
    journey = Move("long-journey", name[a], "long-journey", with_card=x, terrain=x)
    plan = [journey, Move("step", name[b]), Move("step", name[c], y, use=y),
            Move("step", name[d])]
    st = turn.initial()
    for m in plan:  # the plan is legal under the default reading
        st, _ = turn.apply(st, m)
    assert one_action_breach(turn, plan) == 3
    assert one_action_breach(turn, plan[:3]) is None
