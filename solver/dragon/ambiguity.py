"""Every Die Dracheninsel variant measured by solving each reading.

A variant of this game is a reading of one turn's rules, so it is measured on turns: for each
variant, ``SITUATIONS`` seeded random situations in which the point can arise (described in
``models/dracheninsel/variants.toml`` under ``[NAME.situation]``: where the mover stands, what
else is on the island, which cards the hand must hold; the rest of the six-card hand is drawn
from the deck). Each situation is solved exactly under the default and under the variant; the
rows report the share of turns that reach the goal, the mean cards still needed and the mean
cards spent, how many situations change their optimal value, and how many change their best
action (the default's optimal plan is illegal or no longer optimal under the variant).

A claim "changes" carries a witness: one situation whose optimum differs, solved under both
readings by CP-SAT and by the independent exhaustive search, which ``make check`` solves again.
When the sample shows no change, up to ``WITNESS_SEARCH`` further situations are tried for a
witness; nothing found is reported as "no change seen", never as proved.

How often each point arises in a game, and how often it decides the turn, is measured by
simulated play (``play.py``): every row carries ``in_play`` (counts over the simulated turns,
shares and standard errors), and ``make check`` plays the first stored game again.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tomllib
from pathlib import Path

from solver.dragon.board import Island, default_island
from solver.dragon.cards import deck, holds_swap, parse_hand
from solver.dragon.play import play_game, simulate_play
from solver.dragon.playcount import game_rows, in_play, play_markdown
from solver.dragon.position import position_from_data, position_toml
from solver.dragon.randgen import random_hand, random_position
from solver.dragon.route import INF, RouteQuery, RouteResult
from solver.dragon.route_method import best_route
from solver.dragon.rules import rule_variants, rules, variant_names
from solver.dragon.situation import fits, plan_still_best, with_reading
from solver.io import atomic_write_text, dumps_json
from solver.paths import PROOFS_DIR
from solver.rules.claims import verify_stored, write_claims

SITUATIONS = 40
SEED = 5151
SPOT_CHECK = 5  # situations per variant that ``make check`` solves again, besides the witness
WITNESS_SEARCH = 300  # further situations tried for a witness when the sample shows no change
CLAIMS_FILE = Path("dracheninsel") / "variants.json"
PLAY_FILE = Path("dracheninsel") / "play.json"  # simulated games: how often each point arises
PLAY_CHECK = 1  # simulated games that ``make check`` plays again
OBJECTIVES = ("goal reached (share of turns)", "cards still needed (mean)",
              "cards spent (mean)")


def _must_cards(spec: dict, own: str, rng: random.Random) -> list[str]:
    out = []
    for name in spec.get("cards", []):
        if name == "own-double":
            doubles = sorted({c.name for c in deck() if len(c.terrains) == 2 and own in c.terrains})
            out.append(rng.choice(doubles))
        else:
            out.append(name)
    return out


def situations(name: str, n: int = SITUATIONS, island: Island | None = None,
               start: int = 0) -> list[RouteQuery]:
    """Situations ``start`` .. ``start + n - 1`` of the variant's kind, under the default
    reading; each has its own seed, so any range gives the same situations."""
    island = island or default_island()
    spec = rule_variants()[name].get("situation", {})
    return [_situation(name, i, spec, island) for i in range(start, start + n)]


def _situation(name: str, i: int, spec: dict, island: Island) -> RouteQuery:
    carrying = {"carrying": True, "boat": False, "lone": False}.get(spec.get("mover", "any"))
    rng = random.Random(f"{SEED}:{name}:{i}")
    for _ in range(100_000):
        pos, mover = random_position(island, rng, carrying=carrying)
        if fits(pos, mover, spec):
            break
    else:
        raise RuntimeError(f"no situation found for variant {name}")
    own = island.model.terrain_of(mover)
    hand = random_hand(rng, island.model.hand_size, must=_must_cards(spec, own, rng))
    return RouteQuery(pos, mover, hand)


def _value(result: RouteResult) -> list[int | None]:
    return [result.remaining, result.cards_used]


def _situation_record(q: RouteQuery) -> dict:
    return {"position": position_toml(q.position), "hunter": q.hunter,
            "hand": [c.name for c in q.hand]}


def _query(record: dict, island: Island) -> RouteQuery:
    pos = position_from_data(tomllib.loads(record["position"]), island, "stored situation")
    return RouteQuery(pos, record["hunter"], parse_hand(record["hand"], island.model))


def _witness_values(q: RouteQuery, variant: str) -> dict:
    """Both readings solved by both route finders (they must agree)."""
    out = {}
    for reading, query in (("default", q), ("variant", with_reading(q, variant))):
        cp, search = best_route(query, "cp-sat"), best_route(query, "search")
        if cp.value != search.value:
            raise RuntimeError(f"{variant}: route finders disagree on the witness "
                               f"({cp.value} vs {search.value})")
        out[reading] = _value(cp)
    return out


def measure(variant: str, n: int = SITUATIONS) -> list[dict]:
    """The rows for one reading NAME=CHOICE (none for defaults and data choices)."""
    name, _, choice = variant.partition("=")
    spec = rule_variants().get(name)
    if spec is None or choice == spec["default"]:
        return []
    print(f"  dracheninsel ambiguity: {variant} ({n} situations)", file=sys.stderr, flush=True)
    pairs, decisions, witness = [], 0, None
    for i, q in enumerate(situations(name, n)):
        qv = with_reading(q, variant)
        a, b = best_route(q), best_route(qv)
        pairs.append((_value(a), _value(b)))
        if a.value != b.value and (witness is None or (holds_swap(witness[1].hand)
                                                      and not holds_swap(q.hand))):
            witness = (i, q)
        decisions += not plan_still_best(qv, a.plan, b.value)
    if witness is None:
        witness = _find_witness(name, variant, n)
    changed = sum(a != b for a, b in pairs)
    label = spec.get("situation", {}).get("label", "random situations")
    card = f"{n} situations: {label}"
    values = [{"default": a, "variant": b} for a, b in pairs]
    rows = []
    for objective in OBJECTIVES:
        d, v = (_summary(objective, [p[k] for p in pairs]) for k in (0, 1))
        rows.append({"variant": variant, "card": card, "objective": objective,
                     "default": round(d, 6), "value": round(v, 6), "delta": round(v - d, 6),
                     "changed_states": decisions, "values_changed": changed})
    if witness is not None:
        i, q = witness
        claim, proof = "changes", (f"witness: situation {i} solved exactly under both readings "
                                   "by CP-SAT and by the exhaustive search")
        extra = {"witness": {"index": i, **_situation_record(q),
                             **_witness_values(q, variant)}}
    else:
        claim, proof = "no change seen", (f"{n} random situations, each solved exactly; "
                                          "a sample, not a proof")
        extra = {}
    for row in rows:
        row.update(claim=claim, proof=proof)
    rows[0].update(extra, situations=values)
    return rows


def _find_witness(name: str, variant: str, start: int) -> tuple[int, RouteQuery] | None:
    """The first situation after the sample (hands without swap cards only, as they solve
    fast) whose optimum changes."""
    for i, q in enumerate(situations(name, WITNESS_SEARCH, start=start), start):
        if holds_swap(q.hand):
            continue
        if best_route(q).value != best_route(with_reading(q, variant)).value:
            return i, q
    return None


def _summary(objective: str, values: list[list[int | None]]) -> float:
    if objective.startswith("goal reached"):
        return statistics.fmean(rem == 0 for rem, _ in values)
    if objective.startswith("cards still needed"):
        return statistics.fmean(INF if rem is None else rem for rem, _ in values)
    return statistics.fmean(spent for _, spent in values)


def measure_all(proofs_dir: Path = PROOFS_DIR) -> list[dict]:
    """Measure every route reading on sampled situations, and how often each point arises in
    simulated play (``play.py``; stored in ``PLAY_FILE``, summarised on each row); a reading
    of the cards between players or of the game's end (``kind = "game"``) is measured on the
    simulated games alone (``playcount.game_rows``)."""
    sim = simulate_play()
    atomic_write_text(proofs_dir / PLAY_FILE, dumps_json(sim))
    games = {n: s for n, s in rules().variants.items() if s.get("kind") == "game"}
    atomic_write_text(proofs_dir.parent / "reports" / "dracheninsel" / "play.md",
                      play_markdown(sim, games))

    def measured(variant: str) -> list[dict]:
        name = variant.partition("=")[0]
        spec = rules().variants.get(name, {})
        if spec.get("kind") == "game":
            return game_rows(sim, variant, spec)
        rows = measure(variant)
        summary = in_play(sim, name)
        for row in rows:
            row["in_play"] = summary
        return rows

    return write_claims(proofs_dir / CLAIMS_FILE, variant_names(rules()), measured)


def verify_play(proofs_dir: Path = PROOFS_DIR) -> list[str]:
    """Play the first ``PLAY_CHECK`` stored games again: their counts must be the stored ones."""
    try:
        sim = json.loads((proofs_dir / PLAY_FILE).read_text(encoding="utf-8"))
        stored = sim["per_game"]
    except (OSError, ValueError, KeyError) as err:
        return [f"dracheninsel: simulated play {PLAY_FILE.name} unreadable: {err}"]
    errors = []
    for i in range(min(PLAY_CHECK, len(stored))):
        got = play_game(stored[i]["index"], stored[i]["players"], sim["seed"]).to_json()
        if got != stored[i]:
            errors.append(f"dracheninsel: simulated game {i} now counts {got}, recorded "
                          f"{stored[i]}")
    return errors


def verify_claims(proofs_dir: Path = PROOFS_DIR) -> list[str]:
    """Solve each witness again under both readings, and the first ``SPOT_CHECK`` situations of
    every variant, and compare with the stored claims."""
    return (verify_stored(proofs_dir / CLAIMS_FILE, "dracheninsel", _check_rows)
            + verify_play(proofs_dir))


def _check_rows(stored: list[dict]) -> list[str]:
    errors = []
    island = default_island()
    for row in stored:
        if "situations" not in row:
            continue
        variant = row["variant"]
        name = variant.partition("=")[0]
        fresh = situations(name, SPOT_CHECK, island)
        for i, q in enumerate(fresh):
            want = row["situations"][i]
            got = {"default": _value(best_route(q)),
                   "variant": _value(best_route(with_reading(q, variant)))}
            if got != want:
                errors.append(f"dracheninsel {variant}: situation {i} now solves to {got}, "
                              f"recorded {want}")
        w = row.get("witness")
        if row["claim"] == "changes":
            if not w:
                errors.append(f"dracheninsel {variant}: claims a change but has no witness")
                continue
            got = _witness_values(_query(w, island), variant)
            if got["default"] == got["variant"] or got != {k: w[k] for k in got}:
                errors.append(f"dracheninsel {variant}: the witness no longer shows the change")
    return errors
