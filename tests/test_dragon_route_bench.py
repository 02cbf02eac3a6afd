"""``make bench``'s query sets for Die Dracheninsel are what its report says they are: the
three-swap hands hold exactly three swap cards, the mixes in turn, and the same seed gives
the same queries."""

from __future__ import annotations

from collections import Counter

from solver.dragon.bench import THREE_SWAP_MIXES, THREE_SWAP_QUERIES, three_swap_queries


def _swaps(q) -> Counter:
    return Counter(use for card in q.hand for use in ("swap-adjacent", "swap-any")
                   if card.does(use))


def test_three_swap_hands_hold_exactly_three_swap_cards():
    queries = three_swap_queries()
    assert len(queries) == THREE_SWAP_QUERIES
    for i, q in enumerate(queries):
        assert len(q.hand) == 6
        assert _swaps(q) == Counter(THREE_SWAP_MIXES[i % len(THREE_SWAP_MIXES)])
        q.position.validate("bench position")


def test_the_same_seed_gives_the_same_queries():
    first, again = three_swap_queries(10, 7), three_swap_queries(10, 7)
    assert [(q.hunter, q.hand, q.position.tiles) for q in first] == [
        (q.hunter, q.hand, q.position.tiles) for q in again]
    other = three_swap_queries(10, 8)
    assert [q.hand for q in first] != [q.hand for q in other]
