"""Every spelling of a Mille Sabords card or die face the command line accepts.

Names are matched case-insensitively, with accents and umlauts folded and any run of spaces
or punctuation read as one hyphen (``Kapitän``, ``KAPITAEN`` and ``kapitan`` are one name).
Besides the English names of ``models/sabords/rules.toml``, the French names of Mille Sabords
and the German names of Piraten Kapern (AMIGO) are accepted. The project's sources hold no
German rulebook, so the German card names are the ones printed on the AMIGO cards as far as
known here; the face names are plain German words.
"""

from __future__ import annotations

from solver.util import lookup_name, normalise_name

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


def _spellings(canonical: list[str], aliases: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """Normalised spelling -> canonical name, for the names in ``canonical``."""
    out = {normalise_name(name): name for name in canonical}
    for name in canonical:
        for alias in aliases.get(name, ()):
            out.setdefault(normalise_name(alias), name)
    return out


def card_name(text: str, known: list[str]) -> str:
    """The card ``text`` names (English, German or French, any case)."""
    return lookup_name(text, _spellings(known, CARD_ALIASES), "card", known)


def face_spellings(known: list[str]) -> dict[str, str]:
    """Normalised word -> die face, for every face word accepted (English, German, French)."""
    return _spellings(known, FACE_ALIASES)


def face_name(text: str, known: list[str]) -> str | None:
    """The die face ``text`` names (English, German or French word, any case), or None."""
    return face_spellings(known).get(normalise_name(text))
