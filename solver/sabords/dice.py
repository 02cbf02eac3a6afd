"""Reading and writing Mille Sabords dice: letters (``CCDMPSSX``, order free) or words
(``coin,coin,skull``)."""

from __future__ import annotations

from solver.sabords.rules import Rules
from solver.util import InputError

WORDS = {
    "coin": "C", "coins": "C", "gold": "C",
    "diamond": "D", "diamonds": "D",
    "monkey": "M", "monkeys": "M",
    "parrot": "P", "parrots": "P",
    "sabre": "S", "sabres": "S", "saber": "S", "sabers": "S", "sword": "S", "swords": "S",
    "skull": "X", "skulls": "X",
}


def parse_dice(text: str, rules: Rules, count: int | None = None) -> tuple[int, ...]:
    """Face counts of a dice string; ``count`` dice exactly (default: all the game's dice)."""
    count = rules.dice if count is None else count
    raw = text.strip()
    if not raw:
        raise InputError("no dice given: write them as letters, e.g. CCDMPSSX")
    if any(sep in raw for sep in ",; ") or raw.lower() in WORDS:
        letters = []
        for word in raw.replace(";", ",").replace(" ", ",").split(","):
            if not word:
                continue
            letter = WORDS.get(word.lower())
            if letter is None:
                raise InputError(f"unknown die face {word!r}; faces: {', '.join(rules.faces)}")
            letters.append(letter)
    else:
        letters = list(raw.upper())
    counts = [0] * len(rules.faces)
    for letter in letters:
        if letter not in rules.letters:
            known = " ".join(f"{a}={b}" for a, b in zip(rules.letters, rules.faces, strict=True))
            raise InputError(f"unknown die face {letter!r}; letters: {known}")
        counts[rules.letters.index(letter)] += 1
    if sum(counts) != count:
        raise InputError(f"expected {count} dice, got {sum(counts)} in {text!r}")
    return tuple(counts)


def format_dice(counts, rules: Rules) -> str:
    """Letters in the rules' face order, e.g. ``CCDSX``."""
    return "".join(letter * int(n) for letter, n in zip(rules.letters, counts, strict=True))
