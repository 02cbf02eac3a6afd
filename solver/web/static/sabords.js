// Mille Sabords page: a card, eight dice, optional scores -> what to hold.
import { $, advise, el, loadSettings, markDice, options, percent, post, saveSettings,
  settingsToggle, showAllButton, status, variantBoxes, winPercent } from "./common.js";
import { Dice } from "./dice.js";
import { card as cardPicture, chest } from "./icons.js";

const SETTINGS_KEY = "treasure.sabords.settings";
const SHOWN_OPTIONS = 8;
const settings = loadSettings(SETTINGS_KEY, { target: 6000, variants: [] });
const state = { card: "none", showAll: false, shown: null };
let dice = null;

/* ---------- inputs ---------- */

function drawCards(cards) {
  $("#cards").replaceChildren(...cards.map((c) => el("button", {
    type: "button", class: "card", role: "radio", "data-card": c.name, title: c.title || false,
    "aria-checked": String(c.name === state.card),
    onclick: () => { state.card = c.name; drawCardChoice(); changed(); },
  }, el("span", { class: "picture", html: cardPicture(c.name) }), el("span", {}, c.label))));
}

function drawCardChoice() {
  for (const button of document.querySelectorAll("#cards .card")) {
    button.setAttribute("aria-checked", String(button.dataset.card === state.card));
  }
  $("#sorceress-flag").hidden = state.card !== "sorceress";
  $("#rerolled-flag").hidden = state.card !== "after-the-storm";
}

function drawSettings(sabords) {
  const targets = [...new Set([...sabords.targets, Number(settings.target)])]
    .sort((a, b) => a - b);
  $("#target").replaceChildren(...targets.map((t) =>
    el("option", { value: t, selected: t === Number(settings.target) }, t)));
  const keep = () => { saveSettings(SETTINGS_KEY, settings); drawPhase(); changed(); };
  $("#target").onchange = () => { settings.target = Number($("#target").value); keep(); };
  variantBoxes(sabords.variants, settings, keep);
}

/** Both scores, or null when either is missing. */
function scores() {
  const me = $("#me").value.trim();
  const opponent = $("#opponent").value.trim();
  if (me === "" || opponent === "") return null;
  return { me: Number(me), opponent: Number(opponent) };
}

function drawPhase() {
  const s = scores();
  let text = "Without both scores the values are expected points this turn.";
  if (s && $("#sudden-death").checked) text = "Sudden death: first to reach the target wins.";
  else if (s && s.opponent >= settings.target) text = "Opponent at the target: my last turn.";
  else if (s) text = `Values are P(win), target ${settings.target}.`;
  $("#phase").textContent = text;
}

/* ---------- the query ---------- */

function request(withScores) {
  const s = withScores ? scores() : null;
  return {
    card: state.card, dice: dice.text(),
    me: s ? s.me : null, opponent: s ? s.opponent : null,
    sudden_death: Boolean(s) && $("#sudden-death").checked,
    sorceress_used: state.card === "sorceress" && $("#sorceress-used").checked,
    rerolled: state.card === "after-the-storm" && $("#rerolled").checked,
    objective: "points", variants: settings.variants, target: settings.target, all: true,
  };
}

let timer = null;
function changed(delay = 0) {
  clearTimeout(timer);
  timer = setTimeout(ask, delay);
}

function ask() {
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
                opponent: body.opponent ?? "", target: body.target },
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
  const verdict = best.action === "stop" ? "STOP"
    : best.action === "island" ? "ISLAND OF SKULLS: ROLL" : "ROLL AGAIN";
  const parts = [
    el("p", { id: "verdict", class: `verdict ${best.action}`, "data-action": best.action,
              "data-reroll": best.reroll || "", "data-protect": best.protect || "" }, verdict),
    dice.marked(marks),
    legend(best),
    el("p", { id: "best-value", class: "value", "data-value": answer.value },
      withScores ? `P(win) ${winPercent(answer.value)}`
        : answer.island ? "no points for me on the Island"
        : `expected points ${answer.value.toFixed(1)}`),
  ];
  if (answer.island) parts.push(...island(answer));
  else parts.push(bustLine(bestOption, bustOf(bestOption), withScores));
  if (answer.points_differs) parts.push(differs(answer.points_best));
  if (answer.options.length > 0) parts.push(...optionsTable(answer, withScores, bustOf));
  $("#advice").replaceChildren(...parts);
}

function legend(best) {
  const items = [];
  if (best.reroll) items.push(el("span", { class: "key reroll" }, "roll again"));
  if (best.protect) {
    items.push(el("span", { class: "key protect" }, el("span", { class: "chest", html: chest() }),
      "on the chest"));
  }
  return el("p", { class: "legend" }, items);
}

function bustLine(option, next, withScores) {
  if (option.action === "stop") {
    return el("p", { id: "best-bust", "data-bust-next": 0 }, "No risk: the points are banked.");
  }
  let text = `Chance to bust: this roll ${next === null ? "?" : percent(next)}`;
  if (!withScores && option.bust !== undefined) {
    text += ` · by the turn's end ${percent(option.bust)}`;
  }
  return el("p", { id: "best-bust", "data-bust-next": next ?? "", "data-bust": option.bust ?? "" },
    text);
}

function island(answer) {
  const rows = Object.entries(answer.loss_distribution || {}).map(([loss, p]) =>
    el("li", {}, `${loss}: ${percent(p)}`));
  return [
    el("p", { id: "island-loss", "data-loss": answer.opponents_loss },
      `Each opponent loses ${answer.opponents_loss.toFixed(1)} points on average; how likely`
      + " each loss is:"),
    el("ul", { class: "distribution" }, rows),
  ];
}

function differs(pointsBest) {
  const what = pointsBest.action === "stop" ? "stop"
    : pointsBest.action === "island" ? "roll for the Island"
    : `roll ${pointsBest.reroll} again`;
  const win = pointsBest.win !== undefined ? ` (P(win) ${winPercent(pointsBest.win)})` : "";
  return el("p", { id: "differs", class: "differs", "data-action": pointsBest.action },
    `Maximising points would ${what} instead${win}.`);
}

function optionsTable(answer, withScores, bustOf) {
  const shown = state.showAll ? answer.options : answer.options.slice(0, SHOWN_OPTIONS);
  const head = el("tr", {}, el("th", {}, "Option"),
    el("th", { class: "num" }, withScores ? "P(win)" : "Points"),
    el("th", { class: "num" }, "Bust now"),
    withScores ? null : el("th", { class: "num" }, "Bust by end"));
  const rows = shown.map((o) => {
    const next = bustOf(o);
    const move = o.action === "stop" ? el("b", {}, "Stop")
      : el("span", {}, "Roll ", dice.mini(o.reroll),
        o.protect ? el("span", { class: "chest", html: chest() }) : null,
        o.protect ? dice.mini(o.protect) : null);
    return el("tr", { class: sameMove(o, answer.best) ? "best" : "", "data-action": o.action,
                      "data-reroll": o.reroll || "", "data-protect": o.protect || "",
                      "data-value": o.value, "data-bust-next": next ?? "" },
      el("td", {}, move),
      el("td", { class: "num" }, withScores ? winPercent(o.value) : o.value.toFixed(1)),
      el("td", { class: "num" }, next === null ? "?" : percent(next)),
      withScores ? null : el("td", { class: "num" }, percent(o.bust)));
  });
  return [
    el("table", { id: "options", class: "options" }, el("thead", {}, head), el("tbody", {}, rows)),
    showAllButton(answer.options.length, SHOWN_OPTIONS, state.showAll,
      () => { state.showAll = !state.showAll; drawAdvice(state.shown); }),
  ].filter(Boolean);
}

/* ---------- start ---------- */

async function start() {
  settingsToggle();
  $("#clear-scores").onclick = () => {
    $("#me").value = ""; $("#opponent").value = ""; $("#sudden-death").checked = false;
    drawPhase(); changed();
  };
  for (const id of ["#me", "#opponent"]) {
    $(id).addEventListener("input", () => { drawPhase(); changed(400); });
  }
  for (const id of ["#sudden-death", "#sorceress-used", "#rerolled"]) {
    $(id).addEventListener("change", () => { drawPhase(); changed(); });
  }
  try {
    const sabords = (await options()).sabords;
    dice = new Dice(sabords.faces, sabords.dice || 8, () => changed());
    drawCards(sabords.cards);
    drawCardChoice();
    drawSettings(sabords);
    drawPhase();
    document.body.dataset.ready = "true";
  } catch (error) {
    status.error(`cannot reach the solver: ${error.message}`);
  }
}

start();
