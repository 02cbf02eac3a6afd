"""The names the pages show for cards, dice faces, piers, terrains and hunters' colours in
English, French and German.

The pages' own words (buttons, headings, verdicts) are JSON tables in ``static/i18n/``; the
names of the games' things are kept here, beside the command line's spellings, and written to
``static/i18n/names.json`` by ``python -m solver.web.i18n`` (a test checks that the file is this
module's document and that the command line accepts every French and German name shown; for
Die Dracheninsel, every German and English name: its French words are translations shown
beside the printed German name, not names of their own).

Where the names come from (the rulebooks are in ``../shared/seeds``):

- Mille Sabords, French: the Gigamic rulebook (003) prints the cards L'île au Trésor, Pirate,
  Gardienne, Pièce d'or, Diamant, Animaux, Bateau pirate, Tête de Mort and the faces pièce
  d'or, diamant, singe, perroquet, sabre, tête de mort. The promo cards (After the Storm,
  Truce) are not in it: their French names are translations.
- Piraten Kapern, German: no German rulebook is in the sources. Wächterin (the Sorceress) is
  from ``research.md``; the other card names are the ones the command line has accepted as
  the AMIGO names (``solver/sabords/names.py``), the faces plain German words.
- Gold Armada: the multilingual rulebook (004) prints the barrel (tonneaux, Fässer) and the
  special combinations (Brelan, Full, Carré, Yam's; Drilling, Full House (printed "Fall
  House", a slip), Vierling, Fünfling). The other symbols are pictures in the rulebook; their
  names are plain words, as is the shipped board itself a reconstruction.
- Die Dracheninsel, German: the AMIGO rulebook (002) prints the terrains (Wasser, Vulkan, Berg,
  Acker, Wald, Wüste), the hunters' colours (rot, blau, grau, braun, grün, gelb) and the action
  cards (Tollkühner Flug, Weite Reise, ...); they are read from the rules file, which quotes it.
  There is no French edition in the sources: the page keeps the printed German card name in
  every language, and the French words beside it are translations, as are the French terrain
  and colour names. English is the command line's spelling.
"""

from __future__ import annotations

import sys
from pathlib import Path

from solver.errors import InputError
from solver.io import dumps_json, output_path, write_output

LANGUAGES = ("en", "fr", "de")
NAMES_FILE = Path(__file__).parent / "static" / "i18n" / "names.json"

# name -> (French, German); English comes from the rules files.
SABORDS_CARDS: dict[str, tuple[str, str]] = {
    "none": ("Aucune carte", "Keine Karte"),
    "treasure-island": ("L'île au Trésor", "Schatzinsel"),
    "captain": ("Pirate", "Kapitän"),
    "sorceress": ("Gardienne", "Wächterin"),
    "gold": ("Pièce d'or", "Goldmünze"),
    "diamond": ("Diamant", "Diamant"),
    "monkey-business": ("Animaux", "Affen und Papageien"),
    "sea-battle-2": ("Bateau pirate 2", "Piratenschiff 2"),
    "sea-battle-3": ("Bateau pirate 3", "Piratenschiff 3"),
    "sea-battle-4": ("Bateau pirate 4", "Piratenschiff 4"),
    "skulls-1": ("Tête de mort 1", "Totenkopf 1"),
    "skulls-2": ("Tête de mort 2", "Totenkopf 2"),
    "after-the-storm": ("Après la tempête", "Nach dem Sturm"),
    "truce": ("Trêve", "Waffenstillstand"),
}

SABORDS_FACES: dict[str, tuple[str, str]] = {
    "coin": ("Pièce d'or", "Goldmünze"),
    "diamond": ("Diamant", "Diamant"),
    "monkey": ("Singe", "Affe"),
    "parrot": ("Perroquet", "Papagei"),
    "sabre": ("Sabre", "Säbel"),
    "skull": ("Tête de mort", "Totenkopf"),
}

ARMADA_FACES: dict[str, tuple[str, str]] = {
    "barrel": ("Tonneau", "Fass"),
    "bottle": ("Bouteille", "Flasche"),
    "parrot": ("Perroquet", "Papagei"),
    "anchor": ("Ancre", "Anker"),
    "cannon": ("Canon", "Kanone"),
    "map": ("Carte", "Karte"),
}

# The shipped board's piers (and the skull token a turn may end with).
ARMADA_PIERS: dict[str, tuple[str, str, str]] = {
    "barrels": ("Barrels", "Tonneaux", "Fässer"),
    "bottles": ("Bottles", "Bouteilles", "Flaschen"),
    "parrots": ("Parrots", "Perroquets", "Papageien"),
    "anchors": ("Anchors", "Ancres", "Anker"),
    "cannons": ("Cannons", "Canons", "Kanonen"),
    "maps": ("Maps", "Cartes", "Karten"),
    "three-of-a-kind": ("Three of a kind", "Brelan", "Drilling"),
    "full-house": ("Full house", "Full", "Full House"),
    "four-of-a-kind": ("Four of a kind", "Carré", "Vierling"),
    "five-of-a-kind": ("Five of a kind", "Yam's", "Fünfling"),
    "skull": ("Skull", "Crâne", "Totenkopf"),
}


# Die Dracheninsel: name -> French (a translation: no French edition is in the sources); the
# German is the rulebook's, from the rules file.
DRAGON_TERRAINS: dict[str, str] = {
    "water": "eau", "volcano": "volcan", "mountain": "montagne", "farmland": "champ",
    "forest": "forêt", "desert": "désert",
}
DRAGON_COLOURS: dict[str, str] = {
    "blue": "bleu", "red": "rouge", "grey": "gris", "brown": "marron", "green": "vert",
    "yellow": "jaune",
}
DRAGON_ACTIONS: dict[str, str] = {
    "flight": "vol téméraire",
    "long-journey": "long voyage",
    "swap-adjacent": "forces destructrices",
    "swap-any": "éléments déchaînés",
    "dragon-patrol": "patrouille du dragon",
    "curse": "mauvais sort",
    "fright": "peur et effroi",
    "ambush": "attaque sournoise",
    "slumber": "doux sommeil",
    "counterspell": "contre-sort",
    "betrayal": "trahison",
}


def _by_language(english: str, other: tuple[str, ...]) -> dict[str, str]:
    return dict(zip(LANGUAGES, (english, *other), strict=True))


def names_document() -> dict:
    """``{game: {kind: {name: {language: shown name}}}}`` for the pages, English names read
    from the rules and board files (so the page shows what the options list names), and Die
    Dracheninsel's German names from its rules file (the rulebook's words)."""
    from solver.armada.game import Game
    from solver.dragon.rules import rules as dragon_rules
    from solver.sabords.rules import load_rules
    from solver.web.options import card_label

    rules = load_rules(())
    symbols = Game.load(None, ()).board.symbols
    dragon = dragon_rules()
    return {
        "sabords": {
            "cards": {name: _by_language(card_label(card.title), SABORDS_CARDS[name])
                      for name, card in rules.cards.items()},
            "faces": {name: _by_language(name.capitalize(), SABORDS_FACES[name])
                      for name in rules.faces},
        },
        "armada": {
            "faces": {name: _by_language(name.capitalize(), ARMADA_FACES[name])
                      for name in symbols},
            "piers": {name: dict(zip(LANGUAGES, names, strict=True))
                      for name, names in ARMADA_PIERS.items()},
        },
        "dragon": {
            "terrains": {t: _by_language(t, (DRAGON_TERRAINS[t], dragon.terrain_german[t]))
                         for t in dragon.terrains},
            "colours": {c: _by_language(c, (DRAGON_COLOURS[c], dragon.colour_german[c]))
                        for c in dragon.colour_german},
            "actions": {a: _by_language(a, (DRAGON_ACTIONS[a], action.german))
                        for a, action in dragon.actions.items()},
        },
    }


def main() -> None:
    """Write ``static/i18n/names.json`` (or the file named on the command line); a file that
    cannot be written is one line on stderr and exit status 2."""
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else NAMES_FILE
    try:
        write_output(output_path(path, "names file"), dumps_json(names_document()), "names file")
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
