"""The cards played between players (solver/dragon/table.py), each on hand-built hands: what
is legal when, what each card does to the hands and piles, and how the readings change it."""

from __future__ import annotations

import random

import pytest

from solver.dragon.cards import parse_card, parse_hand
from solver.dragon.rules import table_readings
from solver.dragon.table import (
    Moment,
    Play,
    Table,
    answered,
    apply,
    claim,
    legal_plays,
    would_stand,
)


def _table(*hands: str, draws: int = 1, seed: int = 0, **readings: str) -> Table:
    """Seats with the given hands (comma-separated names), a draw pile of terrain cards."""
    chosen = {k.replace("_", "-"): v for k, v in readings.items()}
    pile = [parse_card("water")] * 20
    return Table(random.Random(seed), list(pile), [parse_hand(h) if h else [] for h in hands],
                 6, table_readings(chosen), draws)


def _names(cards) -> list[str]:
    return sorted(c.name for c in cards)


def victim_answers(play: Play, m: Moment) -> bool:
    return play.seat in m.against


def test_ambush_takes_one_card_from_the_chosen_player():
    t = _table("ambush,water", "forest,desert", "volcano")
    plays = [p for p in legal_plays(t, Moment("turn-start", 0)) if p.kind == "ambush"]
    assert sorted(p.target for p in plays) == [1, 2]  # any other player holding cards
    stood, taken = apply(t, Play("ambush", 0, "ambush", target=2), victim_answers)
    assert stood and _names(taken) == ["volcano"]
    assert _names(t.hands[0]) == ["volcano", "water"] and t.hands[2] == []
    assert _names(t.discard) == ["ambush"]
    # a player with no cards cannot be robbed
    assert not any(p.target == 2 for p in legal_plays(t, Moment("turn-start", 0)))


def test_counterspell_cancels_an_ambush_and_both_cards_are_spent():
    t = _table("ambush,water", "counterspell,forest")
    stood, taken = apply(t, Play("ambush", 0, "ambush", target=1), victim_answers)
    assert not stood and taken == []
    assert _names(t.hands[0]) == ["water"] and _names(t.hands[1]) == ["forest"]
    assert _names(t.discard) == ["ambush", "counterspell"]


@pytest.mark.parametrize(("chain", "stands"), [("no", False), ("allowed", True)])
def test_counterspell_chain_reading(chain, stands):
    """The robbed player answers; only under counterspell-chain=allowed may the mover answer
    that Gegenzauber with its own, which restores the Angriff."""
    t = _table("ambush,counterspell", "counterspell,forest", counterspell_chain=chain)
    play = Play("ambush", 0, "ambush", target=1)
    assert would_stand(t, play, victim_answers) is stands
    assert len(t.discard) == 0  # the dry run took no card
    stood, taken = apply(t, play, victim_answers)
    assert stood is stands and _names(taken) == (["forest"] if stands else [])


def test_curse_discards_the_hand_and_draws_from_every_other_player():
    t = _table("curse,water,volcano", "forest,desert", "mountain", "", draws=2)
    stood, taken = apply(t, Play("curse", 0, "curse"), victim_answers)
    assert stood
    assert _names(taken) == ["desert", "forest", "mountain"]  # two, one (all it has), none
    assert _names(t.hands[0]) == _names(taken)
    assert _names(t.discard) == ["curse", "volcano", "water"]


@pytest.mark.parametrize(("reading", "stands"), [("no", True), ("allowed", False)])
def test_counterspell_curse_reading(reading, stands):
    t = _table("curse,water", "counterspell,forest", draws=2, counterspell_curse=reading)
    stood, _ = apply(t, Play("curse", 0, "curse"), victim_answers)
    assert stood is stands
    assert _names(t.hands[0]) == (["counterspell", "forest"] if stands else ["water"])


def test_slumber_moments():
    t = _table("water", "slumber", "slumber")
    step = legal_plays(t, Moment("action", 0))
    assert sorted(p.seat for p in step) == [1, 2] and all(p.target == 0 for p in step)
    assert legal_plays(t, Moment("action", 0, leaving=True)) == []  # 002:537-539
    assert len(legal_plays(t, Moment("action", 0, delivery=True))) == 2
    t2 = _table("water", "slumber", slumber_delivery="forbidden")
    assert legal_plays(t2, Moment("action", 0, delivery=True)) == []
    assert len(legal_plays(t2, Moment("action", 0))) == 1
    assert legal_plays(_table("slumber", "water"), Moment("action", 0)) == []  # never the mover


def test_slumber_can_be_answered_by_the_mover():
    t = _table("counterspell", "slumber")
    play = legal_plays(t, Moment("action", 0))[0]
    assert apply(t, play, victim_answers)[0] is False
    assert answered(_table("water", "slumber"), "slumber", 1, (0,), victim_answers)


def test_betrayal_fight():
    """The owner starts, the two answer card for card, the last Untreue takes both coins."""
    yes = lambda p, m: True  # noqa: E731
    assert claim(_table("betrayal,betrayal", "betrayal"), 0, 1, yes) == 0
    assert claim(_table("betrayal", "betrayal"), 0, 1, yes) == 1
    assert claim(_table("water", "betrayal,betrayal"), 0, 1, yes) is None  # shared
    t = _table("betrayal", "water")
    assert claim(t, 0, 1, lambda p, m: False) is None and _names(t.hands[0]) == ["betrayal"]
    # the partner may never start the fight
    assert legal_plays(_table("water", "betrayal"), Moment("claim", 0, owner=0, partner=1)) == []
    # a two-action card shows Untreue too
    assert claim(_table("curse+betrayal", "water"), 0, 1, yes) == 0


def test_pass_after_a_slumber_that_left_nothing_done():
    t = _table("flight,water,forest")
    assert [p.kind for p in legal_plays(t, Moment("idle", 0))] == ["pass"]
    no = _table("flight,water", slumber_ends_turn="no-pass")
    assert legal_plays(no, Moment("idle", 0)) == []
    _, drawn = apply(t, Play("pass", 0, lay_down=("flight", "forest")))
    assert len(t.hands[0]) == 6 and len(drawn) == 5 and _names(t.discard) == ["flight", "forest"]


def test_a_refill_reshuffles_the_discard_pile():
    t = Table(random.Random(1), [], [[]], 6, table_readings(), 1)
    t.discard = parse_hand("water,forest,desert")
    t.refill(0)
    assert _names(t.hands[0]) == ["desert", "forest", "water"] and t.discard == []


def test_unknown_game_reading_is_refused():
    from solver.errors import InputError

    with pytest.raises(InputError, match="unknown game reading"):
        table_readings({"counterspell-chain": "sometimes"})
