"""Names typed on the command line: spelt one way (case, umlauts, accents and punctuation
aside), looked up, and listed with every accepted spelling when unknown."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from solver.errors import InputError


def normalise_name(name: str) -> str:
    """A name as the command line compares it: lower case, German umlauts spelt out (ä -> ae,
    ß -> ss), other accents dropped, every run of other characters one hyphen."""
    text = str(name).strip().lower()
    for umlaut, spelt in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(umlaut, spelt)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def lookup_name(text: str, names: dict[str, str], what: str, known: list[str]) -> str:
    """The canonical name ``text`` stands for, matched after :func:`normalise_name` against
    ``names`` (normalised spelling -> canonical name); an unknown one is an InputError listing
    ``known``."""
    found = names.get(normalise_name(text))
    if found is None:
        raise InputError(f"unknown {what} {text!r}; known: {known_names(names, known)}")
    return found


def known_names(names: dict[str, str], known: Iterable[str] = ()) -> str:
    """Every accepted spelling, grouped under its canonical name (``captain (kapitaen,
    pirate), ...``), so an unknown-name error lists the English, French and German names."""
    others: dict[str, list[str]] = {name: [] for name in known}
    for spelling, name in names.items():
        group = others.setdefault(name, [])
        if spelling != normalise_name(name) and spelling not in group:
            group.append(spelling)
    return ", ".join(f"{name} ({', '.join(words)})" if words else name
                     for name, words in others.items())
