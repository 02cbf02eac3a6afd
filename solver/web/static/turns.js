// The game at the table: the turns played, the rolls of the turn in play (to step back
// through), the scores carried from turn to turn, and the record of it all to export.
// Kept in localStorage, so a reload or a locked phone loses nothing.
import { $, el, loadSettings, saveSettings, t } from "./common.js";

/** The exported records' version (their format is documented in the README). */
export const VERSION = 1;
const PLAYERS = 2;  // at the table unless the page says otherwise (current.players)
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export class Turns {
  /**
   * The game of game ("sabords", "armada") saved under key in localStorage, or a new one.
   * fields: a turn's own fields and their values at a game's start (card, board...);
   * carried(turn): those the next turn starts with (turn: the fields of the turn that ended
   * and what next() was told of its end); kept: those a played turn records.
   */
  constructor(key, game, { fields, carried, kept }) {
    Object.assign(this, { key, game, fields, carried, kept });
    const saved = loadSettings(key, {});
    const ok = saved.version === VERSION && Array.isArray(saved.turns) && saved.current;
    this.turns = ok ? saved.turns : [];
    this.current = ok ? saved.current : this.newTurn(1, 0, null, fields);
    this.names = (ok && saved.names) || null;  // an imported record's players (review.js)
    this.imported = (ok && saved.imported) || null;  // its text, which the turns start with
  }

  /** A turn about to be played: player (0-based), scores by player or null (not kept). */
  newTurn(number, player, scores, fields) {
    return { ...this.fields, ...fields, turn: number, player, scores, rolls: [], at: -1 };
  }

  save() {
    saveSettings(this.key, { version: VERSION, turns: this.turns, current: this.current,
                             names: this.names, imported: this.imported });
  }

  /** Forget everything: a new game. */
  reset(n = this.players()) {
    this.turns = [];
    this.names = null;
    this.imported = null;
    this.current = this.newTurn(1, 0, null, n === PLAYERS ? this.fields
      : { ...this.fields, players: n });  // the same table
    this.save();
  }

  /**
   * A new game that starts with an imported record: its text and its players' names; the
   * page then replays its turns with update() and next(), marked imported.
   */
  startImported(text, names) {
    this.reset(names.length);
    Object.assign(this, { names, imported: text });
    this.save();
  }

  /** The roll shown now, or null before the first. */
  shown() { return this.current.rolls[this.current.at] ?? null; }

  /**
   * A roll entered: a new roll of the turn, unless it is the roll shown. Entered after
   * stepping back, it replaces the rolls that came after.
   */
  enter(roll) {
    const c = this.current;
    if (same(c.rolls[c.at], roll)) return;
    c.rolls = [...c.rolls.slice(0, c.at + 1), roll];
    c.at = c.rolls.length - 1;
    this.save();
  }

  /** The roll to show on a step back (the shown roll first when another is showing), or
   * null at the turn's start. */
  back(showing) {
    const c = this.current;
    const to = same(showing, c.rolls[c.at]) ? c.at - 1 : c.at;
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

  /** How many players are at the table (the page may set current.players, 2 to 5). */
  players() { return this.current.players ?? PLAYERS; }

  /**
   * The turn ends: the player scores points (negative: a loss) and each opponent loses loss;
   * ended holds what else the record says of it. The next player's turn starts with the
   * scores carried over (missing scores count as 0), or with scores (a review's, which knows
   * the rules' floors).
   */
  next(points, loss = 0, ended = {}, scores = null) {
    const c = this.current;
    const n = this.players();
    const before = c.scores ?? Array(n).fill(0);
    const after = scores ?? before.map((score, i) => (i === c.player ? score + points
      : score - loss));
    const kept = Object.fromEntries(this.kept.map((name) => [name, c[name]]));
    this.turns.push({ turn: c.turn, player: c.player + 1, ...kept, scores_before: before,
                      rolls: c.rolls.slice(0, c.at + 1), points, ...ended,
                      scores_after: after });
    const players = n === PLAYERS ? {} : { players: n };  // two: the record as before
    this.current = this.newTurn(c.turn + 1, (c.player + 1) % n, after,
      { ...players, ...this.carried({ ...c, ...ended }) });
    this.save();
  }

  /** The game so far as the exported record (see the README's companion section). */
  record(settings) {
    const c = this.current;
    const fields = Object.fromEntries(Object.keys(this.fields).map((name) => [name, c[name]]));
    return {
      format: `treasure-solver/${this.game}-game`, version: VERSION, game: this.game,
      players: this.players(), ...settings, turns: this.turns,
      current: { ...fields, turn: c.turn, player: c.player + 1, scores: c.scores,
                 rolls: c.rolls.slice(0, c.at + 1) },
    };
  }
}

/**
 * The Game panel of a page, drawn around the page's #next-turn form (the fields that end a
 * turn; the panel adds #confirm-turn and #cancel-turn): #turn-line, #roll-position, #step-back, #step-forward,
 * #next-player, #export-game, #new-game and the #turns played, for game.
 * The page says how: showing() is the roll on the page, show(roll) puts one there,
 * rollText(roll) writes one, row(turn) words a played turn, openNext() fills the form,
 * endTurn() ends the turn from it, newTurn() draws the turn that starts, file and settings()
 * name the export. Returns draw(), which redraws the panel.
 */
export function gamePanel(game, page) {
  const button = (id, key) => el("button", { id, class: "small", type: "button",
                                            "data-i18n": key }, t(key));
  const form = $("#next-turn");
  form.before(el("h2", { "data-i18n": "game" }, t("game")), el("p", { id: "turn-line" }),
    el("div", { class: "row" }, button("step-back", "game.back"),
      el("span", { id: "roll-position", class: "hint" }), button("step-forward", "game.forward")),
    el("div", { class: "row" }, button("next-player", "game.next"),
      button("export-game", "game.export"), button("new-game", "game.new")));
  form.append(el("div", { class: "row" },
    el("button", { id: "confirm-turn", class: "small", type: "submit",
                   "data-i18n": "game.confirm" }, t("game.confirm")),
    button("cancel-turn", "game.cancel")));
  form.after(el("h3", { "data-i18n": "game.history" }, t("game.history")),
    el("ol", { id: "turns", class: "turns" }));
  const draw = () => {
    const c = game.current;
    $("#turn-line").textContent = t("game.turn", { turn: c.turn, player: c.player + 1 });
    const position = $("#roll-position");
    position.textContent = c.rolls.length === 0 ? t("game.no-roll")
      : t("game.roll", { i: c.at + 1, n: c.rolls.length });
    position.dataset.at = c.at;
    position.dataset.rolls = c.rolls.map(page.rollText).join(" ");
    $("#step-back").disabled = c.at < 0 || (c.at === 0 && same(page.showing(), game.shown()));
    $("#step-forward").disabled = c.at + 1 >= c.rolls.length;
    $("#turns").replaceChildren(...game.turns.map((turn) => el("li", {
      "data-player": turn.player, "data-points": turn.points }, page.row(turn))));
  };
  const step = (roll) => {
    if (roll !== null) page.show(roll);
    draw();
  };
  $("#step-back").onclick = () => step(game.back(page.showing()));
  $("#step-forward").onclick = () => step(game.forward());
  $("#next-player").onclick = () => {
    page.openNext();
    $("#next-turn").hidden = false;
  };
  $("#cancel-turn").onclick = () => { $("#next-turn").hidden = true; };
  $("#next-turn").onsubmit = (event) => {
    event.preventDefault();
    page.endTurn();
    $("#next-turn").hidden = true;
    page.newTurn();
    draw();
  };
  $("#export-game").onclick = () => download(page.file, sortedJson(game.record(page.settings())),
    "application/json");
  $("#new-game").onclick = () => {
    if (!window.confirm(t("game.new.confirm"))) return;
    game.reset();
    page.newTurn();
    draw();
  };
  return draw;
}

/** JSON as the command line writes it: keys sorted, two-space indent, a final newline. */
export function sortedJson(value) {
  const sort = (_, v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v);
  return `${JSON.stringify(value, sort, 2)}\n`;
}

/** Offer text as a file to save (the browser's download), of the media type. */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
