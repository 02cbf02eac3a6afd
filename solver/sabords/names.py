"""Every spelling of a Mille Sabords card or die face the command line accepts.

Names are matched case-insensitively, with accents and umlauts folded and any run of spaces
or punctuation read as one hyphen (``Kapitän``, ``KAPITAEN`` and ``kapitan`` are one name).
Besides the English names of ``models/sabords/rules.toml``, the French names of Mille Sabords
and the German names of Piraten Kapern (AMIGO) are accepted. The project's sources hold no
German rulebook, so the German card names are the ones printed on the AMIGO cards as far as
known here; the face names are plain German words.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from solver.names import lookup_name, normalise_name

CARD_ALIASES: dict[str, tuple[str, ...]] = {
    "none": ("no-card", "keine", "keine-karte", "aucune", "aucune-carte"),
    "treasure-island": ("treasure", "schatzinsel", "ile-au-tresor", "l-ile-au-tresor"),
    "captain": ("kapitaen", "kapitan", "pirate"),
    "sorceress": ("zauberin", "waechterin", "hexe", "gardienne", "sorciere"),
    "gold": ("gold-coin", "coin", "goldmuenze", "muenze", "piece-d-or"),
    "diamond": ("diamant",),
    "monkey-business": ("affen-und-papageien", "affenbande", "animaux"),
    "sea-battle-2": ("piratenschiff-2", "seeschlacht-2", "bateau-pirate-2"),
    "sea-battle-3": ("piratenschiff-3", "seeschlacht-3", "bateau-pirate-3"),
    "sea-battle-4": ("piratenschiff-4", "seeschlacht-4", "bateau-pirate-4"),
    "skulls-1": ("skull-1", "totenkopf-1", "totenkoepfe-1", "tete-de-mort-1"),
    "skulls-2": ("skull-2", "totenkopf-2", "totenkoepfe-2", "tete-de-mort-2"),
    "after-the-storm": ("nach-dem-sturm", "apres-la-tempete"),
    "truce": ("waffenstillstand", "treve"),
}

FACE_ALIASES: dict[str, tuple[str, ...]] = {
    "coin": ("coins", "gold", "muenze", "muenzen", "goldmuenze", "goldmuenzen", "piece",
             "pieces", "piece-d-or", "pieces-d-or"),
    "diamond": ("diamonds", "diamant", "diamanten", "diamants"),
    "monkey": ("monkeys", "affe", "affen", "singe", "singes"),
    "parrot": ("parrots", "papagei", "papageien", "perroquet", "perroquets"),
    "sabre": ("sabres", "saber", "sabers", "sword", "swords", "saebel", "sabel", "sabre"),
    "skull": ("skulls", "totenkopf", "totenkoepfe", "tete-de-mort", "tetes-de-mort"),
}


@cache
def _spellings(canonical: tuple[str, ...], kind: str) -> Mapping[str, str]:
    """Normalised spelling -> canonical name, for the names in ``canonical`` (``kind``:
    ``card`` or ``face``, whose aliases count). Kept, read-only: every card and dice string
    a request names is looked up here (folding every spelling again for each answer would
    cost a warm ``hold`` more than its answer)."""
    aliases = CARD_ALIASES if kind == "card" else FACE_ALIASES
    out = {normalise_name(name): name for name in canonical}
    for name in canonical:
        for alias in aliases.get(name, ()):
            out.setdefault(normalise_name(alias), name)
    return MappingProxyType(out)


def card_name(text: str, known: list[str]) -> str:
    """The card ``text`` names (English, German or French, any case)."""
    return lookup_name(text, _spellings(tuple(known), "card"), "card", known)


def face_spellings(known: list[str]) -> Mapping[str, str]:
    """Normalised word -> die face, for every face word accepted (English, German, French)."""
    return _spellings(tuple(known), "face")


def face_name(text: str, known: list[str]) -> str | None:
    """The die face ``text`` names (English, German or French word, any case), or None."""
    return face_spellings(known).get(normalise_name(text))
