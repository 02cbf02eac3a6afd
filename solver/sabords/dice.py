"""Reading and writing Mille Sabords dice: letters (``CCDMPSSX``, order free, any case, spaces
allowed) or words (``coin,coin,skull``; German and French words too: ``Totenkopf``)."""

from __future__ import annotations

import re

from solver.errors import InputError
from solver.names import known_names
from solver.sabords.names import face_name, face_spellings
from solver.sabords.rules import Rules


def _letters_of(token: str, rules: Rules) -> list[str] | None:
    """The letters one token of a dice string stands for: a face word, or a run of letters;
    None when it is neither."""
    face = face_name(token, list(rules.faces))
    if face is not None:
        return [rules.letters[rules.faces.index(face)]]
    if all(ch in rules.letters for ch in token.upper()):
        return list(token.upper())
    return None


def parse_dice(text: str, rules: Rules, count: int | None = None) -> tuple[int, ...]:
    """Face counts of a dice string; ``count`` dice exactly (default: all the game's dice)."""
    count = rules.dice if count is None else count
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    if not tokens:
        raise InputError("no dice given: write them as letters, e.g. CCDMPSSX")
    letters = []
    for token in tokens:
        found = _letters_of(token, rules)
        if found is None:
            known = " ".join(f"{a}={b}" for a, b in zip(rules.letters, rules.faces, strict=True))
            bad = next((ch for ch in token.upper() if ch not in rules.letters), token)
            what = f"letter {bad!r} in {token!r}" if len(tokens) == 1 else f"word {token!r}"
            words = known_names(face_spellings(list(rules.faces)), rules.faces)
            raise InputError(f"unknown die face: {what}; write letters ({known}) or face "
                             f"words ({words})")
        letters += found
    counts = [0] * len(rules.faces)
    for letter in letters:
        counts[rules.letters.index(letter)] += 1
    if sum(counts) != count:
        raise InputError(f"expected {count} dice, got {sum(counts)} in {text!r}")
    return tuple(counts)


def format_dice(counts, rules: Rules) -> str:
    """Letters in the rules' face order, e.g. ``CCDSX`` (``counts``: integers, or a NumPy
    array of them, read as Python integers at once: a hold answer writes two hundred)."""
    if hasattr(counts, "tolist"):
        counts = counts.tolist()
    return "".join(letter * int(n) for letter, n in zip(rules.letters, counts, strict=True))
