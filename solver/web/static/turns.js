// The game at the table: the turns played, the rolls of the turn in play (to step back
// through), the scores carried from turn to turn, and the record of it all to export.
// Kept in localStorage, so a reload or a locked phone loses nothing.
import { loadSettings, saveSettings } from "./common.js";

/** The exported record's format name and version (documented in the README). */
export const FORMAT = "treasure-solver/sabords-game";
export const VERSION = 1;
const PLAYERS = 2;

/** A turn about to be played: player (0-based), scores by player or null (not kept). */
function newTurn(number, player, scores, suddenDeath) {
  return { turn: number, player, scores, sudden_death: suddenDeath, card: "none", rolls: [],
           at: -1, sorceress_used: false, rerolled: false };
}

export class Turns {
  /** The game saved under key in localStorage, or a new one. */
  constructor(key) {
    this.key = key;
    const saved = loadSettings(key, {});
    const ok = saved.version === VERSION && Array.isArray(saved.turns) && saved.current;
    this.turns = ok ? saved.turns : [];
    this.current = ok ? saved.current : newTurn(1, 0, null, false);
  }

  save() {
    saveSettings(this.key, { version: VERSION, turns: this.turns, current: this.current });
  }

  /** Forget everything: a new game. */
  reset() {
    this.turns = [];
    this.current = newTurn(1, 0, null, false);
    this.save();
  }

  /** The roll shown now, or "" before the first. */
  shown() { return this.current.rolls[this.current.at] ?? ""; }

  /**
   * A full set of dice entered: a new roll of the turn, unless it is the roll shown. Entered
   * after stepping back, it replaces the rolls that came after.
   */
  enter(dice) {
    const c = this.current;
    if (c.rolls[c.at] === dice) return;
    c.rolls = [...c.rolls.slice(0, c.at + 1), dice];
    c.at = c.rolls.length - 1;
    this.save();
  }

  /** The roll to show on a step back (the shown roll first when other dice are showing),
   * or null at the turn's start. */
  back(showing) {
    const c = this.current;
    const to = showing === c.rolls[c.at] ? c.at - 1 : c.at;
    if (to < 0) return null;
    c.at = to;
    this.save();
    return c.rolls[to];
  }

  /** The next roll of the turn after the shown one, or null. */
  forward() {
    const c = this.current;
    if (c.at + 1 >= c.rolls.length) return null;
    c.at += 1;
    this.save();
    return c.rolls[c.at];
  }

  /** Set fields of the turn in play (card, scores, flags). */
  update(fields) {
    Object.assign(this.current, fields);
    this.save();
  }

  /**
   * The turn ends: the player scores points (negative: a loss) and each opponent loses loss;
   * the next player's turn starts with the scores carried over (missing scores count as 0).
   */
  next(points, loss) {
    const c = this.current;
    const before = c.scores ?? Array(PLAYERS).fill(0);
    const after = before.map((score, i) => (i === c.player ? score + points : score - loss));
    this.turns.push({ turn: c.turn, player: c.player + 1, card: c.card,
                      sudden_death: c.sudden_death, scores_before: before,
                      rolls: c.rolls.slice(0, c.at + 1), points, opponents_lose: loss,
                      scores_after: after });
    this.current = newTurn(c.turn + 1, (c.player + 1) % PLAYERS, after, c.sudden_death);
    this.save();
  }

  /** The game so far as the exported record (see the README's companion section). */
  record(settings) {
    const c = this.current;
    return {
      format: FORMAT, version: VERSION, game: "sabords", players: PLAYERS,
      target: settings.target, variants: [...settings.variants], turns: this.turns,
      current: { turn: c.turn, player: c.player + 1, card: c.card, scores: c.scores,
                 sudden_death: c.sudden_death, rolls: c.rolls.slice(0, c.at + 1) },
    };
  }
}

/** JSON as the command line writes it: keys sorted, two-space indent, a final newline. */
export function sortedJson(value) {
  const sort = (_, v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v);
  return `${JSON.stringify(value, sort, 2)}\n`;
}

/** Offer text as a file to save (the browser's download). */
export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
