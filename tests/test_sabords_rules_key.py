"""The Mille Sabords rules' identity in certificates and cache keys (Rules.key): a digest of
the rule values in effect, so that editing rules.toml without changing them (a comment, a new
variant's definition, a printed title) keeps the shipped certificates valid, while any value
that changes a solve changes the key."""

from __future__ import annotations

from dataclasses import replace

from solver.sabords.rules import load_rules, variant_names


def test_the_key_follows_the_values_in_effect() -> None:
    base = load_rules(())
    assert base.key() == load_rules(()).key()
    digests = {name: load_rules((name,)).digest() for name in variant_names()}
    # every variant changes some value in effect, so each has its own digest
    assert len(set(digests.values()) | {base.digest()}) == len(digests) + 1
    assert base.with_dice(3).digest() != base.digest()
    assert replace(base, target=base.target + 100).digest() != base.digest()


def test_titles_and_variant_names_alone_do_not_change_the_digest() -> None:
    base = load_rules(())
    cards = {name: replace(card, title=card.title.upper()) for name, card in base.cards.items()}
    retitled = replace(base, cards=cards, variants=("a-name-with-no-effect",))
    assert retitled.digest() == base.digest()
    changed = dict(base.cards)
    changed["captain"] = replace(changed["captain"], multiplier=3)
    assert replace(base, cards=changed, variants=("captain-triples",)).digest() != base.digest()


def test_a_new_rule_field_at_its_old_behaviour_keeps_the_digest() -> None:
    """A field added later with a default (the old behaviour) changes no existing digest;
    set to another value, it does."""
    from dataclasses import field, fields, make_dataclass

    from solver.sabords.rules import Rules

    base = load_rules(())
    extended = make_dataclass("Extended", [("new_rule", bool, field(default=False))],
                              bases=(Rules,), frozen=True)
    values = {f.name: getattr(base, f.name) for f in fields(base)}
    assert extended(**values).digest() == base.digest()
    assert extended(**values, new_rule=True).digest() != base.digest()
