// Mille Sabords page: a card, eight dice, optional scores -> what to hold; the turn's rolls
// and the game's turns kept (turns.js).
import { $, advise, el, loadSettings, markDice, named, number, onLanguage, options, percent,
  post, saveSettings, settingsToggle, showAllButton, startLanguage, status, t, variantBoxes,
  winPercent } from "./common.js";
import { Dice } from "./dice.js";
import { card as cardPicture, chest } from "./icons.js";
import { reviewPanel } from "./review.js";
import { Turns, gamePanel } from "./turns.js";

const SETTINGS_KEY = "treasure.sabords.settings";
const SHOWN_OPTIONS = 8;
const settings = loadSettings(SETTINGS_KEY, { target: 6000, variants: [] });
const game = new Turns("treasure.sabords.game", "sabords", {
  fields: { card: "none", sudden_death: false },
  carried: (turn) => ({ sudden_death: turn.sudden_death }),
  kept: ["card", "sudden_death"],
});
const state = { cards: [], sabords: null, showAll: false, shown: null, trigger: null };
let dice = null;
const cardName = (name) => named("sabords", "cards", name);

/* ---------- inputs ---------- */

function drawCards() {
  $("#cards").replaceChildren(...state.cards.map((c) => el("button", {
    type: "button", class: "card", role: "radio", "data-card": c.name, title: c.title || false,
    "aria-checked": String(c.name === game.current.card),
    onclick: () => { game.update({ card: c.name }); drawCardChoice(); changed(); },
  }, el("span", { class: "picture", html: cardPicture(c.name, cardName(c.name)) }),
  el("span", {}, cardName(c.name)))));
}

function drawCardChoice() {
  for (const button of document.querySelectorAll("#cards .card")) {
    button.setAttribute("aria-checked", String(button.dataset.card === game.current.card));
  }
  $("#sorceress-flag").hidden = game.current.card !== "sorceress";
  $("#rerolled-flag").hidden = game.current.card !== "after-the-storm";
}

function drawSettings() {
  const sabords = state.sabords;
  const targets = [...new Set([...sabords.targets, Number(settings.target)])]
    .sort((a, b) => a - b);
  $("#target").replaceChildren(...targets.map((target) =>
    el("option", { value: target, selected: target === Number(settings.target) },
      number(target))));
  const keep = () => { saveSettings(SETTINGS_KEY, settings); drawPhase(); changed(); };
  $("#target").onchange = () => { settings.target = Number($("#target").value); keep(); };
  variantBoxes(sabords.variants, settings, keep);
}

/* ---------- the score box: 2 to 5 players, mine first, the others in playing order ---- */

const MIN_PLAYERS = 2;
const MAX_PLAYERS = 5;
/** The score box of position i (0: me, 1: the next player...). */
const boxId = (i) => (i === 0 ? "#me" : i === 1 ? "#opponent" : `#player-${i + 1}`);
const boxName = (i, n) => (i === 0 ? t("sabords.me")
  : n === 2 ? t("sabords.opponent") : t("sabords.player", { n: i + 1 }));
const playerCount = () => game.current.players ?? MIN_PLAYERS;

/** The boxes for the players at the table (kept values where the box stays). */
function drawBoxes() {
  const n = playerCount();
  const old = [...document.querySelectorAll("#players input")].map((input) => input.value);
  $("#players").replaceChildren(...Array.from({ length: n }, (_, i) => el("label", {},
    el("span", {}, boxName(i, n)),
    el("input", { id: boxId(i).slice(1), type: "number", inputmode: "numeric", step: "100",
                  placeholder: "—", value: old[i] ?? "",
                  oninput: () => { keepScores(); drawPhase(); changed(400); } }))));
  $("#add-player").disabled = n >= MAX_PLAYERS;
  $("#remove-player").disabled = n <= MIN_PLAYERS;
}

/** Every score (mine first), or null when a box is empty. */
function scores() {
  const texts = Array.from({ length: playerCount() }, (_, i) => $(boxId(i)).value.trim());
  if (texts.some((text) => text === "")) return null;
  const list = texts.map(Number);
  return { me: list[0], opponent: list[1], list };
}

/** The turn's scores (by player) from the boxes, kept with the turn. */
function keepScores() {
  const s = scores();
  const { player } = game.current;
  const n = playerCount();
  const byPlayer = s && Array.from({ length: n }, (_, p) => s.list[(p - player + n) % n]);
  game.update({ scores: byPlayer, sudden_death: $("#sudden-death").checked });
}

/** The boxes from the turn in play (me: the player to play). */
function showScores() {
  const { scores: byPlayer, player } = game.current;
  const n = playerCount();
  drawBoxes();
  for (let i = 0; i < n; i += 1) $(boxId(i)).value = byPlayer ? byPlayer[(player + i) % n] : "";
  $("#sudden-death").checked = Boolean(game.current.sudden_death);
  state.trigger = null;
}

/** A player more or fewer at the table (a new player's score: empty). */
function seat(delta) {
  const n = Math.min(MAX_PLAYERS, Math.max(MIN_PLAYERS, playerCount() + delta));
  const { player } = game.current;
  const shown = Array.from({ length: playerCount() }, (_, i) => $(boxId(i)).value);
  game.update({ players: n, player: Math.min(player, n - 1) });
  drawBoxes();
  for (let i = 0; i < n; i += 1) $(boxId(i)).value = shown[i] ?? "";
  keepScores();
  state.trigger = null;
  drawPhase();
  changed();
}

/**
 * The final round's trigger (the position in the list, 2 to N) or null: with three players
 * or more, the one chosen, else the first other at or above the target.
 */
function trigger(s) {
  if (!s || s.list.length <= MIN_PLAYERS || $("#sudden-death").checked) return null;
  if (state.trigger !== null) return state.trigger || null;
  const above = s.list.findIndex((score, i) => i > 0 && score >= settings.target);
  return above > 0 ? above + 1 : null;
}

function drawTrigger(s) {
  const n = playerCount();
  $("#trigger-row").hidden = n <= MIN_PLAYERS || $("#sudden-death").checked;
  const chosen = trigger(s);
  $("#trigger").replaceChildren(el("option", { value: "", selected: chosen === null },
    t("sabords.trigger.none")), ...Array.from({ length: n - 1 }, (_, k) => el("option", {
    value: k + 2, selected: chosen === k + 2 }, boxName(k + 1, n))));
}

function drawPhase() {
  const s = scores();
  drawTrigger(s);
  let text = t("sabords.phase.points");
  if (s && $("#sudden-death").checked) text = t("sabords.phase.sudden");
  else if (s && s.list.length > MIN_PLAYERS && trigger(s) !== null) {
    text = t("sabords.phase.final", { target: number(settings.target) });
  } else if (s && s.list.length === MIN_PLAYERS && s.opponent >= settings.target) {
    text = t("sabords.phase.last");
  } else if (s) text = t("sabords.phase.win", { target: number(settings.target) });
  $("#phase").textContent = text;
}

/* ---------- the turn and the game ---------- */

/** The points the dice showing would bank (the points answer's stop), or "". */
function bankable() {
  const shown = state.shown;
  if (!shown || $("#advice").dataset.dice !== dice.text() || !$("#verdict")) return "";
  const points = shown.withScores ? shown.points : shown.answer;
  const stop = points?.options.find((o) => o.action === "stop");
  return stop ? Math.round(stop.value) : "";
}

const gamePage = {
  showing: () => dice?.text() ?? "",
  show: (roll) => dice.set([...roll]),
  rollText: (roll) => roll,
  row: (turn) => t("game.turn.row", { turn: turn.turn, player: turn.player,
    card: cardName(turn.card), points: number(turn.points),
    score: number(turn.scores_after[turn.player - 1]) }),
  openNext: () => {
    $("#turn-points").value = bankable();
    $("#turn-loss").value = 0;
  },
  endTurn: () => {
    const loss = Number($("#turn-loss").value);
    game.next(Number($("#turn-points").value), loss, { opponents_lose: loss });
  },
  newTurn: () => {  // its scores, no card, no dice (and nothing to undo)
    showScores();
    drawCardChoice();
    dice.set([]);
    dice.forget();
    drawPhase();
    changed();
  },
  file: "sabords-game.json",
  settings: () => ({ target: settings.target, variants: [...settings.variants] }),
  // the game record (review.js): the header's target and variants, a turn's card and rolls
  header: () => [`target ${settings.target}`, ...settings.variants.map((v) => `variant ${v}`)],
  line: (turn) => `${turn.card} ${turn.rolls.join(", ")}`.trim(),
  load: (doc) => {  // an imported record's turns, scores and settings, from its review
    for (const turn of doc.turns) {
      game.update({ card: turn.card, player: turn.player, sudden_death: turn.phase === "race",
                    scores: turn.scores_before ?? game.current.scores });
      game.next(turn.points, turn.opponents_lose,
        { opponents_lose: turn.opponents_lose, imported: true }, turn.scores_after ?? null);
    }
    if (doc.target !== null) settings.target = doc.target;
    settings.variants = [...doc.variants];
    saveSettings(SETTINGS_KEY, settings);
    drawSettings();
  },
};
const drawGame = gamePanel(game, gamePage);
reviewPanel(game, gamePage, () => { gamePage.newTurn(); drawGame(); });

/* ---------- the query ---------- */

/** The hold query: two players as me and opponent, three or more as scores. */
function request(withScores) {
  const s = withScores ? scores() : null;
  const card = game.current.card;
  const table = s && s.list.length > MIN_PLAYERS;
  const race = Boolean(s) && $("#sudden-death").checked;
  return {
    card, dice: dice.text(),
    me: s && !table ? s.me : null, opponent: s && !table ? s.opponent : null,
    sudden_death: race && !table,
    ...(table ? { scores: s.list, trigger: trigger(s), race } : {}),
    sorceress_used: card === "sorceress" && $("#sorceress-used").checked,
    rerolled: card === "after-the-storm" && $("#rerolled").checked,
    objective: "points", variants: settings.variants, target: settings.target, all: true,
  };
}

let timer = null;
function changed(delay = 0) {
  clearTimeout(timer);
  timer = setTimeout(ask, delay);
}

function ask() {
  if (dice.full()) game.enter(dice.text());
  drawGame();
  const withScores = scores() !== null;
  return advise(dice, async (signal) => {
    const body = request(withScores);
    // with the scoreboard the answer carries P(win); the chance to bust on the next roll
    // (the same whatever is aimed at) comes from the points answer for the same dice
    const [answer, points] = await Promise.all([
      post("/api/sabords/hold", body, signal),
      withScores ? post("/api/sabords/hold", request(false), signal) : null,
    ]);
    return {
      answer: { answer, points, withScores },
      fields: { card: body.card, dice: body.dice, me: body.me ?? "",
                opponent: body.opponent ?? "", target: body.target,
                scores: body.scores?.join(",") ?? "", trigger: body.trigger ?? "",
                race: body.race ?? "" },
    };
  }, drawAdvice);
}

/* ---------- the advice ---------- */

const sameMove = (a, b) => a.action === b.action && (a.reroll || "") === (b.reroll || "")
  && (a.protect || "") === (b.protect || "");

function drawAdvice(shown) {
  state.shown = shown;
  const { answer, points, withScores } = shown;
  const best = answer.best;
  const bestOption = answer.options.find((o) => sameMove(o, best)) || best;
  const bustOf = (option) => {
    const source = withScores ? points?.options.find((o) => sameMove(o, option)) : option;
    return source ? source.bust_next : null;
  };
  const marks = markDice(dice.letters, { protect: best.protect || "", reroll: best.reroll || "" });
  const verdict = t(`sabords.verdict.${best.action}`);
  const parts = [
    el("p", { id: "verdict", class: `verdict ${best.action}`, "data-action": best.action,
              "data-reroll": best.reroll || "", "data-protect": best.protect || "" }, verdict),
    dice.marked(marks),
    legend(best),
    el("p", { id: "best-value", class: "value", "data-value": answer.value },
      withScores ? t("sabords.value.win", { p: winPercent(answer.value) })
        : answer.island ? t("sabords.value.island")
        : t("sabords.value.points", { v: number(answer.value, 1) })),
  ];
  if (withScores && answer.exact !== undefined) parts.push(exactness(answer));
  if (answer.island) parts.push(...island(answer));
  else parts.push(bustLine(bestOption, bustOf(bestOption), withScores));
  if (answer.points_differs) parts.push(differs(answer.points_best));
  if (answer.options.length > 0) parts.push(...optionsTable(answer, withScores, bustOf));
  $("#advice").replaceChildren(...parts);
}

/** Whether the P(win) is exact or the advice rule's, with a link to the rule's measured
 * cost (reports/sabords/game.md). */
function exactness(answer) {
  if (answer.exact && answer.settled === false) {
    return el("p", { id: "exactness", class: "hint", "data-exact": "true",
                     "data-settled": "false" },
    t("sabords.unsettled", { regret: answer.regret.toExponential(1) }));
  }
  if (answer.exact) {
    return el("p", { id: "exactness", class: "hint", "data-exact": "true" }, t("sabords.exact"));
  }
  return el("p", { id: "exactness", class: "hint", "data-exact": "false",
                   "data-rule": answer.rule },
  t("sabords.rule", { title: answer.rule_title, players: answer.players }), " ",
  ...(answer.beyond_exact
    ? [el("span", { id: "beyond-exact", title: answer.beyond_exact }, t("sabords.rule.beyond")),
       " "]
    : []),
  el("a", { href: "reports/sabords/game.md", target: "_blank" }, t("sabords.rule.cost")));
}

function legend(best) {
  const items = [];
  if (best.reroll) items.push(el("span", { class: "key reroll" }, t("sabords.legend.reroll")));
  if (best.protect) {
    items.push(el("span", { class: "key protect" }, el("span", { class: "chest", html: chest() }),
      t("sabords.legend.chest")));
  }
  return el("p", { class: "legend" }, items);
}

function bustLine(option, next, withScores) {
  if (option.action === "stop") {
    return el("p", { id: "best-bust", "data-bust-next": 0 }, t("sabords.bust.none"));
  }
  let text = t("sabords.bust.now", { p: next === null ? "?" : percent(next) });
  if (!withScores && option.bust !== undefined) {
    text += t("sabords.bust.end", { p: percent(option.bust) });
  }
  return el("p", { id: "best-bust", "data-bust-next": next ?? "", "data-bust": option.bust ?? "" },
    text);
}

function island(answer) {
  const rows = Object.entries(answer.loss_distribution || {}).map(([loss, p]) =>
    el("li", {}, `${number(Number(loss))}: ${percent(p)}`));
  return [
    el("p", { id: "island-loss", "data-loss": answer.opponents_loss },
      t("sabords.island.loss", { n: number(answer.opponents_loss, 1) })),
    el("ul", { class: "distribution" }, rows),
  ];
}

function differs(pointsBest) {
  const what = pointsBest.action === "reroll"
    ? t("sabords.differs.reroll", { dice: pointsBest.reroll })
    : t(`sabords.differs.${pointsBest.action}`);
  const win = pointsBest.win !== undefined
    ? t("sabords.differs.win", { p: winPercent(pointsBest.win) }) : "";
  return el("p", { id: "differs", class: "differs", "data-action": pointsBest.action },
    t("sabords.differs", { what, win }));
}

function optionsTable(answer, withScores, bustOf) {
  const shown = state.showAll ? answer.options : answer.options.slice(0, SHOWN_OPTIONS);
  const head = el("tr", {}, el("th", {}, t("sabords.col.option")),
    el("th", { class: "num" }, withScores ? t("sabords.col.win") : t("sabords.col.points")),
    el("th", { class: "num" }, t("sabords.col.bust-now")),
    withScores ? null : el("th", { class: "num" }, t("sabords.col.bust-end")));
  const rows = shown.map((o) => {
    const next = bustOf(o);
    const move = o.action === "stop" ? el("b", {}, t("sabords.option.stop"))
      : el("span", {}, t("sabords.option.roll"), dice.mini(o.reroll),
        o.protect ? el("span", { class: "chest", html: chest() }) : null,
        o.protect ? dice.mini(o.protect) : null);
    return el("tr", { class: sameMove(o, answer.best) ? "best" : "", "data-action": o.action,
                      "data-reroll": o.reroll || "", "data-protect": o.protect || "",
                      "data-value": o.value, "data-bust-next": next ?? "" },
      el("td", {}, move),
      el("td", { class: "num" }, withScores ? winPercent(o.value) : number(o.value, 1)),
      el("td", { class: "num" }, next === null ? "?" : percent(next)),
      withScores ? null : el("td", { class: "num" }, percent(o.bust)));
  });
  return [
    el("table", { id: "options", class: "options" }, el("thead", {}, head), el("tbody", {}, rows)),
    showAllButton(answer.options.length, SHOWN_OPTIONS, state.showAll,
      () => { state.showAll = !state.showAll; drawAdvice(state.shown); }),
  ].filter(Boolean);
}

/** Everything drawn from data, again in the language just chosen. */
function redraw() {
  if (!dice) return;
  drawCards();
  drawSettings();
  dice.draw();
  drawBoxes();
  drawPhase();
  drawGame();
  if (state.shown && $("#verdict")) drawAdvice(state.shown);
  else changed();
}

/* ---------- start ---------- */

async function start() {
  settingsToggle();
  $("#clear-scores").onclick = () => {
    for (const input of document.querySelectorAll("#players input")) input.value = "";
    $("#sudden-death").checked = false;
    state.trigger = null;
    keepScores(); drawPhase(); changed();
  };
  $("#add-player").onclick = () => seat(1);
  $("#remove-player").onclick = () => seat(-1);
  $("#trigger").onchange = () => {
    state.trigger = Number($("#trigger").value) || 0;  // 0: nobody yet (chosen)
    drawPhase();
    changed();
  };
  $("#sudden-death").addEventListener("change", () => { keepScores(); drawPhase(); changed(); });
  for (const id of ["#sorceress-used", "#rerolled"]) {
    $(id).addEventListener("change", () => {
      game.update({ sorceress_used: $("#sorceress-used").checked,
                    rerolled: $("#rerolled").checked });
      changed();
    });
  }
  try {
    await startLanguage();
    state.sabords = (await options()).sabords;
    state.cards = state.sabords.cards;
    dice = new Dice(state.sabords.faces, state.sabords.dice || 8, () => changed(), "sabords");
    $("#sorceress-used").checked = Boolean(game.current.sorceress_used);
    $("#rerolled").checked = Boolean(game.current.rerolled);
    showScores();
    drawCards();
    drawCardChoice();
    drawSettings();
    drawPhase();
    drawGame();
    if (game.shown()) {
      dice.set([...game.shown()]);
      dice.forget();
    }
    onLanguage(redraw);
    document.body.dataset.ready = "true";
  } catch (error) {
    status.error(t("status.unreachable", { error: error.message }));
  }
}

start();
