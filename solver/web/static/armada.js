// Gold Armada page: the board, five dice, the rolls left -> what to keep, which pier to take.
import { $, advise, el, english, loadSettings, markDice, named, number, onLanguage, options,
  percent, post, saveSettings, settingsToggle, showAllButton, startLanguage, status, t, translate,
  variantBoxes } from "./common.js";
import { Dice } from "./dice.js";
import { reviewPanel } from "./review.js";
import { Turns, gamePanel } from "./turns.js";

const SETTINGS_KEY = "treasure.armada.settings";
const SHOWN_OPTIONS = 8;
const settings = loadSettings(SETTINGS_KEY, { objective: "solo", variants: [] });
const state = {
  piers: [], taken: [], skulls: 0, maxSkulls: 6, rolls: 3, rollsLeft: 2, showAll: false,
  shown: null, objectives: [],
};
let dice = null;
const boardState = () => `${state.taken.join("")}/${state.skulls}`;
const game = new Turns("treasure.armada.game", "armada", {
  fields: { board: "" },  // the board when the turn starts ("" until the page knows it)
  carried: (turn) => ({ board: turn.board_after }),
  kept: ["board"],
});
const pierName = (name) => named("armada", "piers", name);
const symbolName = (name) => named("armada", "faces", name);
const KINDS = { 3: "three-of-a-kind", 4: "four-of-a-kind", 5: "five-of-a-kind" };

/** What a pier's doubloon at level needs, in the page's language ("2 × Tonneau"). */
function need(pier, level) {
  const { count, symbols } = pier.needs[level];
  if (pier.kind === "count") {
    return t("armada.need.count", { n: count, symbol: symbolName(symbols[0]) });
  }
  const kind = pier.kind === "full-house" ? "full-house" : KINDS[count];
  return t("armada.need.kind", {
    kind: kind ? pierName(kind) : `${count}`,
    symbols: symbols.length ? symbols.map(symbolName).join("/") : t("armada.need.any"),
  });
}

/* ---------- inputs ---------- */

/** Buttons for values in #id, the one equal to current() pressed; choose(k) on a tap. */
function segments(id, values, current, choose, label) {
  $(id).replaceChildren(...values.map((k) => el("button", {
    type: "button", class: "segment", "data-value": k, "aria-pressed": String(k === current()),
    "aria-label": label(k),
    onclick: () => { choose(k); segments(id, values, current, choose, label); },
  }, String(k))));
}

function drawPiers() {
  $("#piers").replaceChildren(...state.piers.map((pier, i) => {
    const taken = state.taken[i];
    const next = taken < pier.values.length
      ? t("armada.pier.next", { need: need(pier, taken) }) : t("armada.pier.done");
    return el("button", {
      type: "button", class: "pier", "data-pier": pier.name, "data-taken": taken,
      "aria-label": t("armada.pier.label", { pier: pierName(pier.name), n: taken }),
      onclick: () => {
        state.taken[i] = (state.taken[i] + 1) % (pier.values.length + 1);
        boardChanged();
      },
    }, el("span", { class: "name" }, el("b", {}, pierName(pier.name)), el("br"),
      el("span", { class: "hint" }, next)),
    el("span", { class: "doubloons" }, pier.values.map((value, level) =>
      el("span", { class: `doubloon ${level < taken ? "taken" : ""}` }, value))));
  }));
  $("#board-state").textContent = boardState();
}

function drawSkulls() {
  const values = Array.from({ length: state.maxSkulls + 1 }, (_, k) => k);
  segments("#skulls", values, () => state.skulls,
    (k) => { state.skulls = k; boardChanged(); },
    (k) => t("armada.skulls.label", { n: k }));
}

function drawRolls() {
  const values = Array.from({ length: state.rolls }, (_, k) => state.rolls - 1 - k);
  segments("#rolls", values, () => state.rollsLeft,
    (k) => { state.rollsLeft = k; state.rollsChosen = true; changed(); },
    (k) => t("armada.rolls.label", { n: k }));
}

/** The board tapped in: the turn's board, drawn. */
function boardChanged() {
  game.update({ board: boardState() });
  drawPiers();
  drawSkulls();
  changed();
}

/** The board a state ("0100000000/1") gives, or false when it is not one of this board. */
function readBoard(text) {
  const match = /^(\d+)\/(\d+)$/.exec(text || "");
  if (!match || match[1].length !== state.piers.length) return false;
  const taken = [...match[1]].map(Number);
  if (taken.some((k, i) => k > state.piers[i].values.length)) return false;
  if (Number(match[2]) > state.maxSkulls) return false;
  Object.assign(state, { taken, skulls: Number(match[2]) });
  return true;
}

/* ---------- the turn and the game ---------- */

/**
 * New dice: one roll fewer left than the roll before in the turn, unless the player chose the
 * rolls left since.
 */
function diceChanged() {
  const before = game.shown();
  if (dice.full() && before && before.dice !== dice.text() && !state.rollsChosen) {
    state.rollsLeft = Math.max(0, before.rolls_left - 1);
    drawRolls();
  }
  changed();
}

/** What can be taken, best first: the answer's targets when it is about these dice with no
 * roll left, else every pier with a doubloon left, and a skull. */
function takeable() {
  const shown = state.shown;
  if (shown?.rolls_left === 0 && $("#advice").dataset.dice === dice.text() && $("#verdict")) {
    return [...shown.targets].sort((a, b) => (a.pier === shown.best.take ? -1
      : b.pier === shown.best.take ? 1 : 0)).map((x) => ({ take: x.pier, value: x.doubloon }));
  }
  const piers = state.piers.filter((p, i) => state.taken[i] < p.values.length)
    .map((p) => ({ take: p.name, value: p.values[state.taken[state.piers.indexOf(p)]] }));
  return [...piers, { take: "skull", value: state.skullValue }];
}

const gamePage = {
  showing: () => ({ dice: dice?.text() ?? "", rolls_left: state.rollsLeft }),
  show: (roll) => {
    Object.assign(state, { rollsLeft: roll.rolls_left, rollsChosen: false });
    drawRolls();
    dice.set([...roll.dice]);
    changed();
  },
  rollText: (roll) => `${roll.dice}:${roll.rolls_left}`,
  row: (turn) => t("game.turn.row", { turn: turn.turn, player: turn.player,
    card: pierName(turn.take), points: number(turn.points),
    score: number(turn.scores_after[turn.player - 1]) }),
  openNext: () => {
    $("#turn-take").replaceChildren(...takeable().map((x) => el("option", { value: x.take,
      "data-value": x.value }, t("armada.take.option", { pier: pierName(x.take),
      v: number(x.value) }))));
  },
  endTurn: () => {
    const option = $("#turn-take").selectedOptions[0];
    const i = state.piers.findIndex((p) => p.name === option.value);
    if (i >= 0) state.taken[i] += 1; else state.skulls += 1;
    game.next(Number(option.dataset.value), 0, { take: option.value, board_after: boardState() });
  },
  newTurn: () => {  // the board carried over, no dice, every roll left
    if (!readBoard(game.current.board)) {
      Object.assign(state, { taken: state.piers.map(() => 0), skulls: 0 });
    }
    game.update({ board: boardState() });
    Object.assign(state, { rollsLeft: state.rolls - 1, rollsChosen: false });
    drawRolls(); drawPiers(); drawSkulls();
    dice.set([]);
    dice.forget();
    changed();
  },
  file: "armada-game.json",
  settings: () => ({ objective: settings.objective, variants: [...settings.variants] }),
  // the game record (review.js): the header's variants, a turn's rolls and its take
  header: () => settings.variants.map((v) => `variant ${v}`),
  line: (turn) => [...turn.rolls.map((roll) => roll.dice), `take ${turn.take}`].join(", "),
  load: (doc) => {  // an imported record's turns and boards, from its review
    for (const turn of doc.turns) {
      game.update({ board: turn.state, player: turn.player });
      game.next(turn.token, 0, { take: turn.take, board_after: turn.state_after,
                                 imported: true });
    }
    settings.variants = [...doc.variants];
    saveSettings(SETTINGS_KEY, settings);
    drawSettings(state.armada);
  },
};
const drawGame = gamePanel(game, gamePage);
reviewPanel(game, gamePage, () => { gamePage.newTurn(); drawGame(); });

/** An objective's meaning in the page's language (the server's English if unknown here). */
const meaning = (objective) => {
  const text = t(`armada.meaning.${objective.name}`);
  return text === `armada.meaning.${objective.name}` ? objective.meaning : text;
};

function drawSettings(armada) {
  $("#objective").replaceChildren(...armada.objectives.map((o) =>
    el("option", { value: o.name, selected: o.name === settings.objective },
      t(`armada.objective.${o.name}`))));
  const explain = () => {
    const objective = armada.objectives.find((o) => o.name === $("#objective").value);
    $("#objective-meaning").textContent = objective ? meaning(objective) : "";
  };
  const keep = () => { saveSettings(SETTINGS_KEY, settings); changed(); };
  explain();
  $("#objective").onchange = () => {
    settings.objective = $("#objective").value; explain(); keep();
  };
  variantBoxes(armada.variants, settings, keep);
}

/* ---------- the query ---------- */

let timer = null;
function changed() {
  clearTimeout(timer);
  timer = setTimeout(ask, 0);
}

function ask() {
  const roll = { dice: dice.text(), rolls_left: state.rollsLeft };
  if (dice.full() && game.shown()?.dice !== roll.dice) {
    game.enter(roll);  // a new roll (the rolls left alone changed: the same roll)
    state.rollsChosen = false;
  }
  drawGame();
  return advise(dice, async (signal) => {
    const body = {
      dice: dice.text(), board_state: boardState(), rolls_left: state.rollsLeft,
      objective: settings.objective, variants: settings.variants, all: true,
    };
    return {
      answer: await post("/api/armada/hold", body, signal),
      fields: { dice: body.dice, boardState: body.board_state, rollsLeft: body.rolls_left,
                objective: body.objective },
    };
  }, drawAdvice);
}

/* ---------- the advice ---------- */

const value = (x) => number(x, 3);

function drawAdvice(answer) {
  state.shown = answer;
  const parts = answer.rolls_left === 0 ? takeAdvice(answer) : keepAdvice(answer);
  const objective = state.objectives.find((o) => o.name === answer.objective);
  parts.push(el("p", { class: "hint", id: "meaning" },
    t("armada.values", { meaning: objective ? meaning(objective) : answer.meaning })));
  $("#advice").replaceChildren(...parts.filter(Boolean));
}

function keepAdvice(answer) {
  const best = answer.best;
  return [
    el("p", { id: "verdict", class: "verdict reroll", "data-keep": best.keep,
              "data-reroll": best.reroll }, best.reroll ? t("armada.keep") : t("armada.keep-all"),
    best.reroll ? el("span", { class: "hint" }, t("armada.roll-marked")) : null),
    dice.marked(markDice(dice.letters, { reroll: best.reroll })),
    el("p", { id: "best-value", class: "value", "data-value": best.value },
      t("armada.value", { v: value(best.value) })),
    el("h3", {}, t("armada.likeliest")),
    bars(best.reach),
    optionsTable(answer, [t("armada.col.keep"), t("armada.col.roll"), t("armada.col.value")],
      (o) => [
      o.keep ? dice.mini(o.keep) : "—", o.reroll ? dice.mini(o.reroll) : "—", value(o.value)],
    (o) => o.keep === best.keep),
  ];
}

function takeAdvice(answer) {
  const best = answer.best;
  const target = answer.targets?.find((t) => t.pier === best.take);
  const what = best.take === "skull" ? t("armada.take.skull")
    : t("armada.take.pier", { pier: pierName(best.take) });
  const pier = state.piers.find((p) => p.name === best.take);
  return [
    el("p", { id: "verdict", class: "verdict take", "data-take": best.take },
      t("armada.take", { what })),
    target && pier ? el("p", {}, t("armada.worth", { v: number(target.doubloon),
      need: need(pier, state.taken[state.piers.indexOf(pier)]) })) : null,
    el("p", { id: "best-value", class: "value", "data-value": best.value },
      t("armada.value", { v: value(best.value) })),
    optionsTable(answer, [t("armada.col.take"), t("armada.col.value")],
      (o) => [el("b", {}, pierName(o.take)), value(o.value)],
      (o) => o.take === best.take),
  ];
}

/** Outcome chances, likeliest first, as bars. */
function bars(reach) {
  const rows = Object.entries(reach || {}).sort((a, b) => b[1] - a[1]).slice(0, 6);
  return el("ul", { id: "reach", class: "bars" }, rows.map(([name, p]) =>
    el("li", { "data-outcome": name, "data-p": p }, el("span", {}, pierName(name)),
      el("span", { class: "bar", style: `width: ${(100 * p).toFixed(1)}%` }),
      el("span", { class: "num" }, percent(p)))));
}

function optionsTable(answer, headers, cells, isBest) {
  const shown = state.showAll ? answer.options : answer.options.slice(0, SHOWN_OPTIONS);
  const last = headers.length - 1;
  const table = el("table", { id: "options", class: "options" },
    el("thead", {}, el("tr", {}, headers.map((h, i) =>
      el("th", { class: i === last ? "num" : false }, h)))),
    el("tbody", {}, shown.map((o) => el("tr", {
      class: isBest(o) ? "best" : false, "data-keep": o.keep ?? false,
      "data-take": o.take ?? false, "data-value": o.value,
    }, cells(o).map((cell, i) => el("td", { class: i === last ? "num" : false }, cell))))));
  return el("div", {}, table, showAllButton(answer.options.length, SHOWN_OPTIONS, state.showAll,
    () => { state.showAll = !state.showAll; drawAdvice(state.shown); }));
}

/* ---------- start ---------- */

async function start() {
  settingsToggle();
  $("#clear-board").onclick = () => {
    state.taken = state.piers.map(() => 0); state.skulls = 0;
    boardChanged();
  };
  try {
    await startLanguage();
    const armada = (await options()).armada;
    state.armada = armada;
    Object.assign(state, {
      piers: armada.piers, taken: armada.piers.map(() => 0), maxSkulls: armada.skulls ?? 6,
      rolls: armada.rolls ?? 3, skullValue: armada.skull_value,
    });
    readBoard(game.current.board);
    const roll = game.shown();
    state.rollsLeft = roll ? roll.rolls_left : state.rolls - 1;
    state.objectives = armada.objectives;
    if (armada.board_warning) {
      // the shipped board's warning in the page's language; another board's own words
      if (armada.board_warning === english("armada.reconstruction")) {
        $("#board-warning").dataset.i18n = "armada.reconstruction";
      }
      $("#board-warning").textContent = armada.board_warning;
      $("#board-warning").hidden = false;
    }
    dice = new Dice(armada.faces, armada.dice ?? 5, diceChanged, "armada");
    game.update({ board: boardState() });
    drawRolls();
    drawPiers();
    drawSkulls();
    drawSettings(armada);
    drawGame();
    if (roll) {
      dice.set([...roll.dice]);
      dice.forget();
    }
    translate();
    onLanguage(() => {
      drawRolls(); drawPiers(); drawSkulls(); drawSettings(armada); dice.draw(); drawGame();
      if (state.shown && $("#verdict")) drawAdvice(state.shown); else changed();
    });
    document.body.dataset.ready = "true";
  } catch (error) {
    status.error(t("status.unreachable", { error: error.message }));
  }
}

start();
