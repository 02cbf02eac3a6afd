"""Repair turns a relaxed route (swap cards paying like jokers) into a real one that the move
generator accepts; a failed repair costs the router a full round, so the cases it must handle
are pinned here on bench positions stored as data (tests/data/dracheninsel)."""

from __future__ import annotations

from solver.dragon.move import Move
from solver.dragon.route_search import replay
from solver.dragon.router.facts import Facts
from solver.dragon.router.repair import repair
from tests.dragon_pinned import pinned
from tests.test_dragon_route_relax import _waiting_position


def _step(to: str, card: str | None = None, **extra) -> dict:
    return {"action": "step", "card": card, "to": to, **extra}


def _plan(entries: list[dict]) -> list[Move]:
    """A relaxed plan written in its JSON form (the form the CLI prints)."""
    return [Move.from_json(e) for e in entries]


def test_a_source_that_a_later_joker_refills():
    """Two Zerstörende Kräfte: the first joker takes its tile from the next field of the
    route, which the second joker then refills from beside it. The only free tile beside
    the first joker's field lies there, so refusing every field the route still uses (as
    repair once did) found no swap at all."""
    q = pinned("bench-7-123")  # grey hunter, two Zerstörende Kräfte, Weite Reise, water
    relaxed = Facts.of(q, relax_swaps=True, min_swaps=2)
    plan = _plan([
        {"action": "long-journey", "card": "long-journey", "to": "boat:grey",
         "with": "water", "terrain": "water"},
        {"action": "flight", "card": "flight", "to": "-2,4", "over": "-1,4"},
        _step("-2,3", "swap-adjacent", use="forest"),
        _step("-2,2", "swap-adjacent", use="mountain"),
        _step("-2,1"), _step("-1,0"), _step("0,0"), _step("-1,0", leave=True),
    ])
    real = repair(relaxed, plan, 0, [])
    assert real is not None
    swaps = [set(e.swap) for e in real if e.action == "swap"]
    assert swaps == [{"-2,3", "-2,2"}, {"-3,2", "-2,2"}]
    assert replay(q, real) == ((0, 5), True)


def test_a_far_swap_leaves_the_tile_a_later_neighbour_swap_needs():
    """Green (forest) with a Zerstörende Kräfte and a Tosende Elemente: the first joker (on
    1,-4) has no forest beside it that a Zerstörende Kräfte could take (0,-3 holds a dragon),
    so the Tosende Elemente brings one. It used to take the forest on 2,-2, the only one beside
    the second joker's field 1,-1, and the Zerstörende Kräfte left for 1,-1 found none: repair
    failed and the router paid a full round (seed 10 #137: 4.0 s, now 1.5 s)."""
    q = pinned("bench-10-137")  # flight, Zerstörende Kräfte, Tosende Elemente, water, ...
    relaxed = Facts.of(q, relax_swaps=True, min_swaps=1)
    plan = _plan([
        _step("1,-4", "swap-adjacent", use="mountain"),
        {"action": "flight", "card": "flight", "to": "1,-2", "over": "1,-3", "pay": "water",
         "use": "water"},
        _step("1,-1", "swap-any", use="farmland"),
        _step("0,0"),
        _step("1,-1", "swap-any", use="farmland", leave=True),
    ])
    real = repair(relaxed, plan, 0, [])
    assert real is not None
    swaps = [e for e in real if e.action == "swap"]
    assert [e.card for e in swaps] == ["swap-any", "swap-adjacent"]
    assert "2,-2" not in swaps[0].swap
    assert replay(q, real) == ((0, 4), True)


def test_a_token_with_nothing_left_to_free_is_left_out():
    """The relaxation may spend a swap card on a token although the route reaches the goal;
    repair leaves that token out instead of giving up on the whole route (which cost the
    router a full round)."""
    q = pinned("bench-7-123")
    relaxed = Facts.of(q, relax_swaps=True, min_swaps=1)
    plan = _plan([
        {"action": "long-journey", "card": "long-journey", "to": "boat:grey",
         "with": "water", "terrain": "water"},
        _step("-1,4", "swap-adjacent", use="forest"),
        _step("-2,4"),
        {"action": "flight", "card": "flight", "to": "-2,2", "over": "-2,3"},
        _step("-3,2"), _step("-2,1"), _step("-1,0"), _step("0,0"), _step("-1,0", leave=True),
    ])
    real = repair(relaxed, plan, 1, [])
    assert real is not None
    assert sum(e.action == "swap" for e in real) == 2  # two chained swaps, no token swap
    assert replay(q, real) == ((0, 5), True)


def test_a_free_tile_first_keeps_the_field_free_for_the_way_back():
    """Two Zerstörende Kräfte, a hunter waiting on the treasure field: the relaxed route lands
    on -1,0 with a swap bringing a water tile (paid with the water card) and steps back onto
    -1,0 with the pair by another joker. Realised literally, the way back finds no mountain
    tile beside -1,0. Bringing a mountain tile first (two chained swaps) keeps -1,0 free for
    the way back and saves the water card: the optimum, three cards."""
    q = pinned("bench-1-165")  # grey hunter: flight, two Zerstörende Kräfte, water
    relaxed = Facts.of(q, relax_swaps=True, min_swaps=1)
    plan = _plan([
        {"action": "flight", "card": "flight", "to": "-1,0", "over": "-1,-1",
         "pay": "swap-adjacent", "use": "volcano", "relaxed_pay": "water"},
        _step("0,0"),
        _step("-1,0", "swap-adjacent", use="volcano", leave=True),
    ])
    assert repair(relaxed, plan, 0, []) is None
    real = repair(relaxed, plan, 0, [], free_first=True)
    assert real is not None
    assert [set(e.swap) for e in real if e.action == "swap"] \
        == [{"-3,0", "-2,0"}, {"-2,0", "-1,0"}]
    assert replay(q, real) == ((0, 3), True)


def test_a_token_goes_first_to_a_field_the_continuation_enters_twice():
    """The relaxed route flies to 3,0 and ends there; its one token frees 1,0, which the
    continuation enters twice (in, and out with the pair waiting on the treasure field). The
    first paid field of the continuation, 2,0, would save only one card."""
    q = _waiting_position()
    relaxed = Facts.of(q, relax_swaps=True, min_swaps=1)
    plan = _plan([{"action": "flight", "card": "flight", "to": "3,0", "over": "3,1"}])
    continuation = [relaxed.isl.node(v) for v in ("2,0", "1,0", "0,0", "1,0")]
    real = repair(relaxed, plan, 2, continuation)
    assert [set(e.swap) for e in real if e.action == "swap"] == [{"2,-1", "1,0"}]
    assert replay(q, real) == ((1, 2), False)


def test_a_tile_walks_three_fields_to_its_joker():
    """Grey (mountain) with three Zerstörende Kräfte flies over 0,3 onto 0,2 and pays the
    landing with a joker: the nearest mountain lies three fields away on 3,-1, so three
    neighbour swaps walk it there (by 2,0 and 1,1). Repair once brought a tile one or two
    fields only; it failed here, and the router found this route (five cards) only by its
    last round's full model (seed 3 #149: 10 s, now under a second)."""
    q = pinned("bench-3-149")  # flight, three Zerstörende Kräfte, farmland, curse+betrayal
    relaxed = Facts.of(q, relax_swaps=True, min_swaps=1)
    plan = _plan([
        {"action": "flight", "card": "flight", "to": "0,2", "over": "0,3",
         "pay": "swap-adjacent", "use": "volcano"},
        _step("0,1", "farmland", use="farmland"),
        _step("0,0"),
    ])
    real = repair(relaxed, plan, 0, [])
    assert real is not None
    swaps = [set(e.swap) for e in real if e.action == "swap"]
    assert swaps == [{"3,-1", "2,0"}, {"2,0", "1,1"}, {"1,1", "0,2"}]
    assert replay(q, real) == ((0, 5), True)
