// Die Dracheninsel page: set up the island by tapping, the hand and the hunter to move ->
// the best route drawn on the board move by move, and the Drachenpatrouille suggestion.
// The position is kept as a position file's data (solver/dragon/position.py), so what is
// exported is what `treasure dragon route --position FILE` reads. Its words are the word
// tables' dragon.* keys; a card keeps its printed German name in every language, with the
// page's language beside it (names.json: dragon.terrains, dragon.colours, dragon.actions).
import { $, el, language, latestOnly, loadSettings, named, number, onLanguage, post,
  saveSettings, settingsToggle, stamp, startLanguage, status, t, translate,
  variantBoxes } from "./common.js";

const SETTINGS_KEY = "treasure.dragon.settings";
const settings = loadSettings(SETTINGS_KEY, { variants: [] });
// what a tap does; words: dragon.tool.NAME and dragon.tool.NAME.hint
const TOOLS = ["hunter", "dragon", "swap", "remove"];
const state = {
  opts: null, position: null, tool: "hunter", colour: "red", swapFrom: null, hand: [],
  mover: "red", answer: null, step: null, patrol: null,
};

/* ---------- the position, changed by taps ---------- */

const hunters = () => state.position.hunters;
const isBoat = (name) => name.startsWith("boat:");
const isTreasureField = (name) => name === state.opts.treasure_field;

/** Where a hunter's place is shown on the board ("boat" is its own boat). */
const nodeOf = (colour) => {
  const at = hunters()[colour]?.at;
  return at === "boat" ? `boat:${colour}` : at;
};

function leavePair(colour) {
  const me = hunters()[colour];
  if (me?.with && hunters()[me.with]) delete hunters()[me.with].with;
  if (me) { delete me.with; delete me.guarding; }
}

function placeHunter(colour, name) {
  const others = Object.keys(hunters()).filter((c) => c !== colour && nodeOf(c) === name);
  leavePair(colour);
  const at = name === `boat:${colour}` ? "boat" : name;
  hunters()[colour] = { at };
  const alone = others.length === 1 && !hunters()[others[0]].with;
  if (!isBoat(name) && !isTreasureField(name) && alone) {
    hunters()[colour].with = others[0];
    hunters()[others[0]] = { at, with: colour };
  }
}

function tap(name) {
  const pos = state.position;
  if (state.tool === "hunter") {
    placeHunter(state.colour, name);
  } else if (state.tool === "remove") {
    for (const c of Object.keys(hunters()).filter((c) => nodeOf(c) === name)) {
      leavePair(c);
      delete hunters()[c];
    }
  } else if (state.tool === "dragon") {
    if (isBoat(name) || isTreasureField(name)) return;
    pos.dragons = pos.dragons.includes(name)
      ? pos.dragons.filter((d) => d !== name) : [...pos.dragons, name].sort();
  } else if (state.tool === "swap") {
    if (isBoat(name) || isTreasureField(name)) return;
    if (state.swapFrom === null) {
      state.swapFrom = name;
      markSwap();
      return;
    }
    const a = state.swapFrom;
    state.swapFrom = null;
    [pos.tiles[a], pos.tiles[name]] = [pos.tiles[name], pos.tiles[a]];
  }
  positionChanged();
}

function markSwap() {
  for (const node of document.querySelectorAll("#board [data-field]")) {
    node.classList.toggle("chosen", node.dataset.field === state.swapFrom);
  }
}

/* ---------- names in the page's language ---------- */

const colourName = (colour) => named("dragon", "colours", colour);
const terrainName = (terrain) => named("dragon", "terrains", terrain);

/** A field's name ("3,1"), or a boat's in words ("boat:red" -> "red boat"). */
const place = (name) => (name && isBoat(name)
  ? t("dragon.place.boat", { hunter: colourName(name.slice(5)) }) : name);

// a route query's deadline, as the server gives it (the wait and answer lines say it), in
// the fewest decimals that show it, up to three
function deadline() {
  const seconds = state.opts.route_deadline;
  const digits = [0, 1, 2].find((d) => Number(seconds.toFixed(d)) === seconds) ?? 3;
  return { seconds: number(seconds, digits) };
}
const cardInfo = (name) => state.opts.cards.find((c) => c.name === name);

/** A card's name in the page's language ("flight", "vol téméraire"; "water+volcano"); none
 * in German, where the printed name says it. */
function besideName(card) {
  if (language() === "de") return "";
  const kind = card.kind === "terrain" ? "terrains" : "actions";
  return card.name.split("+").map((part) => named("dragon", kind, part)).join("+");
}

/** The printed German name, the page's language beside it: "Tollkühner Flug (flight)". */
const cardLabel = (name) => {
  const card = cardInfo(name);
  if (!card) return name;
  const beside = besideName(card);
  return beside ? `${card.german} (${beside})` : card.german;
};

/* ---------- controls ---------- */

function segments(id, items, current, choose) {
  $(id).replaceChildren(...items.map((item) => el("button", {
    type: "button", class: `segment ${item.class || ""}`, "data-value": item.value,
    "aria-pressed": String(item.value === current), title: item.title || false,
    onclick: () => choose(item.value),
  }, item.label)));
}

function drawTools() {
  segments("#tools", TOOLS.map((name) => ({ value: name, label: t(`dragon.tool.${name}`) })),
    state.tool, (tool) => { state.tool = tool; state.swapFrom = null; drawTools(); markSwap(); });
  $("#tool-hint").textContent = t(`dragon.tool.${state.tool}.hint`);
  $("#colours").hidden = state.tool !== "hunter";
  segments("#colours", state.opts.hunters.map((h) => ({
    value: h.colour, label: colourName(h.colour), class: `hunter-${h.colour}`,
    title: t("dragon.hunter.title", { colour: colourName(h.colour),
                                      terrain: terrainName(h.terrain) }) })), state.colour,
  (colour) => { state.colour = colour; drawTools(); });
}

function drawTreasure() {
  const values = [...state.opts.coins, 0];
  segments("#treasure", values.map((v) => ({ value: v,
    label: v ? number(v) : t("dragon.treasure.none") })),
  state.position.treasure, (v) => { state.position.treasure = v; positionChanged(); });
}

function drawMover() {
  const inPlay = state.opts.hunters.filter((h) => hunters()[h.colour]);
  if (!hunters()[state.mover]) state.mover = inPlay[0]?.colour ?? null;
  segments("#mover", inPlay.map((h) => ({ value: h.colour, label: colourName(h.colour),
    class: `hunter-${h.colour}` })), state.mover,
  (colour) => { state.mover = colour; drawMover(); ask(); });
}

function cardButton(card, attrs) {
  const beside = besideName(card);
  return el("button", { type: "button", class: `dcard ${card.kind}`, ...attrs },
    el("b", {}, card.german), beside ? el("span", { class: "hint" }, beside) : null);
}

function drawHand() {
  $("#hand-count").textContent = t("dragon.hand.count", { n: number(state.hand.length),
    size: number(state.opts.hand_size) });
  $("#hand").replaceChildren(...state.hand.map((name, i) => cardButton(cardInfo(name), {
    "data-card": name, "aria-label": t("dragon.card.remove", { card: cardLabel(name) }),
    onclick: () => { state.hand.splice(i, 1); drawHand(); ask(); },
  })));
  $("#card-palette").replaceChildren(...state.opts.cards.map((card) => cardButton(card, {
    "data-card": card.name, "aria-label": t("dragon.card.add", { card: cardLabel(card.name) }),
    disabled: state.hand.length >= state.opts.hand_size,
    onclick: () => { state.hand.push(card.name); drawHand(); ask(); },
  })));
}

/* ---------- talking to the solver ---------- */

const runBoard = latestOnly();
const runRoute = latestOnly();

async function drawBoard(route) {
  const { svg } = await runBoard((signal) =>
    post("/api/dragon/board", { position: state.position, route }, signal));
  $("#board").innerHTML = svg;
  translate($("#board"));  // the drawing's words: data-i18n on its text
  delete $("#board").dataset.drawn;  // (a test marks the old board to wait for the new one)
  markSwap();
  showStep();
}

function positionChanged() {
  drawMover();
  drawTreasure();
  $("#download").hidden = true;
  ask();
}

const startHint = () => el("p", { class: "hint" }, t("dragon.start"));

/** Redraw the board, then (with a hand and a mover) ask for the route and draw it over. */
async function ask() {
  const advice = $("#advice");
  stamp(advice, null);
  state.answer = null;
  state.step = null;
  state.patrol = null;
  $("#patrol").replaceChildren();
  try {
    await drawBoard(null);
  } catch (error) {
    if (error.name === "AbortError") return;
    status.error(error.message);
    advice.replaceChildren();
    $("#steps").hidden = true;
    return;
  }
  if (!state.hand.length || !state.mover) {
    runRoute(async () => {});
    status.clear();
    $("#steps").hidden = true;
    advice.replaceChildren(startHint());
    return;
  }
  const body = { position: state.position, hunter: state.mover, hand: [...state.hand],
                 variants: settings.variants };
  const swaps = state.hand.filter((n) => n.split("+").some((a) => a.startsWith("swap-"))).length;
  status.working(swaps >= 3 ? t("dragon.working.swaps", deadline())
                           : t("status.working"));
  try {
    await runRoute(async (signal) => {
      const answer = await post("/api/dragon/route", body, signal);
      const patrol = state.hand.some((n) => n.split("+").includes("dragon-patrol"))
        ? await post("/api/dragon/patrol", { position: body.position, hunter: body.hunter,
                                              variants: body.variants }, signal)
        : null;
      state.answer = answer;
      await drawBoard(answer);
      status.clear();
      state.patrol = patrol;
      drawAnswer(answer, body.hand);
      drawPatrol(patrol);
      stamp(advice, { hunter: body.hunter, hand: body.hand.join(",") });
    });
  } catch (error) {
    if (error.name === "AbortError") return;
    status.error(error.message);
    advice.replaceChildren();
  }
}

/* ---------- the answer ---------- */

/** What a move does besides its card and field, in words (the CLI's details column). */
function details(m) {
  const parts = [];
  if (m.over) parts.push(t("dragon.detail.over", { field: place(m.over) }));
  if (m.pay) {
    parts.push(t("dragon.detail.landing", { terrain: terrainName(m.use),
                                            card: cardLabel(m.pay) }));
  } else if (m.use) parts.push(t("dragon.detail.pays", { terrain: terrainName(m.use) }));
  if (m.with) {
    parts.push(t("dragon.detail.with", { card: cardLabel(m.with),
                                         terrain: terrainName(m.terrain) }));
  }
  if (m.swap) parts.push(t("dragon.detail.swap", { a: place(m.swap[0]), b: place(m.swap[1]) }));
  if (m.dragon) parts.push(t("dragon.detail.dragon", { field: place(m.dragon) }));
  if (m.place) parts.push(t("dragon.detail.place", { field: place(m.place) }));
  if (m.target) parts.push(t("dragon.detail.target", { hunter: colourName(m.target) }));
  if (m.join) parts.push(t("dragon.detail.join", { hunter: colourName(m.join) }));
  if (m.raid) parts.push(t("dragon.detail.raid", { hunter: colourName(m.raid) }));
  if (m.leave) parts.push(t("dragon.detail.leave"));
  return parts.join("; ");
}

const played = (plan) => plan.flatMap((m) => [m.card, m.pay, m.with].filter(Boolean));

function leftOf(hand, used) {
  const left = [...hand];
  for (const name of used) {
    const i = left.indexOf(name);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/** The verdict in words: dragon.verdict.{reach,reach-one,later,never}.{boat,treasure}. */
function verdictText(answer) {
  const goal = answer.goal === "boat" ? "boat" : "treasure";
  if (answer.reachable) {
    const kind = answer.cards_used === 1 ? "reach-one" : "reach";
    return t(`dragon.verdict.${kind}.${goal}`, { n: number(answer.cards_used) });
  }
  if (answer.remaining === null) return t(`dragon.verdict.never.${goal}`);
  return t(`dragon.verdict.later.${goal}`, { n: number(answer.remaining) });
}

function drawAnswer(answer, hand) {
  const used = played(answer.plan);
  const left = leftOf(hand, used);
  const rows = answer.plan.map((m, i) => el("tr", {
    "data-step": i + 1, "data-action": m.action, "data-to": m.to, "data-card": m.card ?? "",
    onclick: () => { state.step = i + 1; showStep(); },
  }, el("td", { class: "num" }, number(i + 1)), el("td", {}, t(`dragon.action.${m.action}`)),
  el("td", {}, m.card ? cardLabel(m.card) : "–"), el("td", {}, place(m.to)),
  el("td", {}, details(m))));
  const columns = ["move", "action", "card", "to", "details"];
  $("#advice").replaceChildren(
    el("p", { id: "verdict", class: `verdict ${answer.reachable ? "stop" : "reroll"}`,
              "data-reachable": String(answer.reachable), "data-cards-used": answer.cards_used,
              "data-remaining": answer.remaining ?? "none" }, verdictText(answer)),
    el("p", { id: "optimal", "data-optimal": String(answer.optimal) },
      answer.optimal ? t("dragon.optimal")
        : t(answer.deadline_reached ? "dragon.not-optimal-deadline" : "dragon.not-optimal",
          deadline())),
    el("p", { id: "cards-used", "data-cards": used.join(",") },
      el("b", {}, t("dragon.played")), " ",
      used.length ? used.map(cardLabel).join(", ") : t("dragon.none")),
    el("p", { id: "cards-left", "data-cards": left.join(",") },
      el("b", {}, t("dragon.left")), " ",
      left.length ? left.map(cardLabel).join(", ") : t("dragon.none")),
    answer.plan.length ? el("table", { id: "plan", class: "options" },
      el("thead", {}, el("tr", {}, columns.map((c) => el("th", {}, t(`dragon.col.${c}`))))),
      el("tbody", {}, rows))
      : el("p", { class: "hint" }, t("dragon.no-move")));
  $("#steps").hidden = !answer.plan.length;
  showStep();
}

/** Show the route up to state.step (null: all of it) on the board and in the table. */
function showStep() {
  const n = state.answer?.plan.length ?? 0;
  const upTo = state.step ?? n;
  for (const node of document.querySelectorAll("#board [data-step]")) {
    node.style.display = Number(node.dataset.step) <= upTo ? "" : "none";
  }
  for (const row of document.querySelectorAll("#plan tbody tr")) {
    row.classList.toggle("best", state.step !== null && Number(row.dataset.step) === upTo);
  }
  $("#step-label").textContent = n ? t("dragon.step.label", { n: number(upTo),
                                                              count: number(n) }) : "";
  $("#board").dataset.step = String(upTo);
}

function drawPatrol(patrol) {
  if (!patrol) return;
  const what = patrol.moved_from
    ? t("dragon.patrol.move", { from: place(patrol.moved_from), to: place(patrol.to) })
    : t("dragon.patrol.set", { to: place(patrol.to) });
  $("#patrol").replaceChildren(el("h3", {}, t("dragon.patrol.title")),
    el("p", { id: "patrol-advice", "data-to": patrol.to,
              "data-moved-from": patrol.moved_from ?? "", "data-increase": patrol.increase },
    t("dragon.patrol.gain", { what, n: number(patrol.increase) }),
    el("span", { class: "hint" }, " ", t("dragon.patrol.options",
                                          { n: number(patrol.options) }))));
}

/* ---------- the position file ---------- */

async function exportPosition() {
  try {
    const { toml } = await post("/api/dragon/position", { position: state.position });
    $("#position-file").value = toml;
    const link = $("#download");
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([toml], { type: "text/plain" }));
    link.hidden = false;
    status.clear();
  } catch (error) {
    status.error(error.message);
  }
}

async function importPosition() {
  try {
    const { position } = await post("/api/dragon/position", { toml: $("#position-file").value });
    state.position = position;
    positionChanged();
  } catch (error) {
    status.error(error.message);
  }
}

/* ---------- start ---------- */

/** Everything drawn from data, again in the language just chosen (no new query). */
function redraw() {
  drawTools();
  drawHand();
  drawMover();
  drawTreasure();
  if (state.answer && $("#verdict")) {
    drawAnswer(state.answer, state.hand);
    $("#patrol").replaceChildren();
    drawPatrol(state.patrol);
  } else if (!$("#status.working") && !$("#status.error")) {
    $("#advice").replaceChildren(startHint());
  }
}

async function start() {
  settingsToggle();
  try {
    await startLanguage();
    const response = await fetch("/api/dragon/options");
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    state.opts = await response.json();
  } catch (error) {
    status.error(t("status.unreachable", { error: error.message }));
    return;
  }
  state.position = structuredClone(state.opts.opening);
  if (state.opts.reconstruction) {
    $("#board-warning").dataset.i18n = "dragon.reconstruction";
    $("#board-warning").textContent = t("dragon.reconstruction");
    $("#board-warning").hidden = false;
  }
  $("#board").addEventListener("click", (event) => {
    const node = event.target.closest("[data-field]");
    if (node) tap(node.dataset.field);
  });
  $("#clear-hand").onclick = () => { state.hand = []; drawHand(); ask(); };
  $("#step-prev").onclick = () => {
    state.step = Math.max(1, (state.step ?? state.answer.plan.length) - 1); showStep();
  };
  $("#step-next").onclick = () => {
    state.step = Math.min(state.answer.plan.length, (state.step ?? 0) + 1); showStep();
  };
  $("#step-all").onclick = () => { state.step = null; showStep(); };
  $("#export").onclick = exportPosition;
  $("#import").onclick = importPosition;
  $("#import-file").onchange = async (event) => {
    const file = event.target.files?.[0];
    if (file) { $("#position-file").value = await file.text(); importPosition(); }
  };
  $("#opening").onclick = () => {
    state.position = structuredClone(state.opts.opening); positionChanged();
  };
  variantBoxes(state.opts.variants, settings, () => { saveSettings(SETTINGS_KEY, settings); ask(); });
  drawTools();
  drawHand();
  drawMover();
  drawTreasure();
  onLanguage(redraw);
  await ask();
  document.body.dataset.ready = "true";
}

start();
