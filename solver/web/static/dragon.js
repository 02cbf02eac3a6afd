// Die Dracheninsel page: set up the island by tapping, the hand and the hunter to move ->
// the best route drawn on the board move by move, and the Drachenpatrouille suggestion.
// The position is kept as a position file's data (solver/dragon/position.py), so what is
// exported is what `treasure dragon route --position FILE` reads.
import { $, el, latestOnly, loadSettings, post, saveSettings, settingsToggle, stamp, status,
  variantBoxes } from "./common.js";

const SETTINGS_KEY = "treasure.dragon.settings";
const settings = loadSettings(SETTINGS_KEY, { variants: [] });
const TOOLS = [
  { name: "hunter", label: "Hunter",
    hint: "Tap a boat, a field or the treasure field to put the chosen hunter there; tap a " +
          "field where another hunter stands alone and the two carry a treasure together." },
  { name: "dragon", label: "Dragon", hint: "Tap a field to set or take away a dragon." },
  { name: "swap", label: "Swap tiles", hint: "Tap two fields to swap their tiles." },
  { name: "remove", label: "Remove",
    hint: "Tap a field or boat to take its hunters out of the game." },
];
const state = {
  opts: null, position: null, tool: "hunter", colour: "red", swapFrom: null, hand: [],
  mover: "red", answer: null, step: null,
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

/* ---------- controls ---------- */

function segments(id, items, current, choose) {
  $(id).replaceChildren(...items.map((item) => el("button", {
    type: "button", class: `segment ${item.class || ""}`, "data-value": item.value,
    "aria-pressed": String(item.value === current), title: item.title || false,
    onclick: () => choose(item.value),
  }, item.label)));
}

function drawTools() {
  segments("#tools", TOOLS.map((t) => ({ value: t.name, label: t.label })), state.tool,
    (tool) => { state.tool = tool; state.swapFrom = null; drawTools(); markSwap(); });
  $("#tool-hint").textContent = TOOLS.find((t) => t.name === state.tool).hint;
  $("#colours").hidden = state.tool !== "hunter";
  segments("#colours", state.opts.hunters.map((h) => ({
    value: h.colour, label: h.colour, class: `hunter-${h.colour}`,
    title: `${h.colour} (${h.german}), ${h.terrain}` })), state.colour,
  (colour) => { state.colour = colour; drawTools(); });
}

function drawTreasure() {
  const values = [...state.opts.coins, 0];
  segments("#treasure", values.map((v) => ({ value: v, label: v ? String(v) : "none" })),
    state.position.treasure, (v) => { state.position.treasure = v; positionChanged(); });
}

function drawMover() {
  const inPlay = state.opts.hunters.filter((h) => hunters()[h.colour]);
  if (!hunters()[state.mover]) state.mover = inPlay[0]?.colour ?? null;
  segments("#mover", inPlay.map((h) => ({ value: h.colour, label: h.colour,
    class: `hunter-${h.colour}` })), state.mover,
  (colour) => { state.mover = colour; drawMover(); ask(); });
}

const cardInfo = (name) => state.opts.cards.find((c) => c.name === name);
const cardLabel = (name) => {
  const card = cardInfo(name);
  return card ? `${card.german} (${card.name})` : name;
};

function cardButton(card, attrs) {
  return el("button", { type: "button", class: `dcard ${card.kind}`, ...attrs },
    el("b", {}, card.german), el("span", { class: "hint" }, card.name));
}

function drawHand() {
  $("#hand-count").textContent = `(${state.hand.length} of ${state.opts.hand_size})`;
  $("#hand").replaceChildren(...state.hand.map((name, i) => cardButton(cardInfo(name), {
    "data-card": name, "aria-label": `remove ${name}`,
    onclick: () => { state.hand.splice(i, 1); drawHand(); ask(); },
  })));
  $("#card-palette").replaceChildren(...state.opts.cards.map((card) => cardButton(card, {
    "data-card": card.name, "aria-label": `add ${card.name}`,
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

/** Redraw the board, then (with a hand and a mover) ask for the route and draw it over. */
async function ask() {
  const advice = $("#advice");
  stamp(advice, null);
  state.answer = null;
  state.step = null;
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
    advice.replaceChildren(el("p", { class: "hint" },
      "Choose the hand and the hunter to move."));
    return;
  }
  const body = { position: state.position, hunter: state.mover, hand: [...state.hand],
                 variants: settings.variants };
  const swaps = state.hand.filter((n) => n.split("+").some((a) => a.startsWith("swap-"))).length;
  status.working(swaps >= 3 ? "working… (three swap cards: this may take a minute or more)"
    : "working…");
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
  if (m.over) parts.push(`over ${m.over}`);
  if (m.pay) parts.push(`landing on ${m.use} paid with ${cardLabel(m.pay)}`);
  else if (m.use) parts.push(`pays ${m.use}`);
  if (m.with) parts.push(`with ${cardLabel(m.with)}: ${m.terrain} free this turn`);
  if (m.swap) parts.push(`swaps ${m.swap.join(" and ")}`);
  if (m.dragon) parts.push(`moves the dragon from ${m.dragon}`);
  if (m.place) parts.push(`dragon to ${m.place}`);
  if (m.target) parts.push(`sends ${m.target} home`);
  if (m.join) parts.push(`joins ${m.join}: the two carry the treasure`);
  if (m.raid) parts.push(`raid: ${m.raid} goes home`);
  if (m.leave) parts.push("leaves the treasure field with the pair");
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

function drawAnswer(answer, hand) {
  const goal = answer.goal === "boat" ? "a boat" : "the treasure field";
  const verdict = answer.reachable
    ? `Reaches ${goal} with ${answer.cards_used} card${answer.cards_used === 1 ? "" : "s"}`
    : answer.remaining === null ? `Cannot reach ${goal}, not even in later turns`
      : `Not this turn: ends ${answer.remaining} terrain card(s) from ${goal}`;
  const used = played(answer.plan);
  const rows = answer.plan.map((m, i) => el("tr", {
    "data-step": i + 1, "data-action": m.action, "data-to": m.to, "data-card": m.card ?? "",
    onclick: () => { state.step = i + 1; showStep(); },
  }, el("td", { class: "num" }, i + 1), el("td", {}, m.action),
  el("td", {}, m.card ? cardLabel(m.card) : "–"), el("td", {}, m.to),
  el("td", {}, details(m))));
  $("#advice").replaceChildren(
    el("p", { id: "verdict", class: `verdict ${answer.reachable ? "stop" : "reroll"}`,
              "data-reachable": String(answer.reachable), "data-cards-used": answer.cards_used,
              "data-remaining": answer.remaining ?? "none" }, verdict),
    el("p", { id: "optimal", "data-optimal": String(answer.optimal) },
      answer.optimal ? "Proved optimal." : "Not proved optimal: the solver's work limit was " +
        "reached; this is the best route found."),
    el("p", { id: "cards-used", "data-cards": used.join(",") },
      el("b", {}, "Cards played: "), used.length ? used.map(cardLabel).join(", ") : "none"),
    el("p", { id: "cards-left", "data-cards": leftOf(hand, used).join(",") },
      el("b", {}, "Cards left: "), leftOf(hand, used).map(cardLabel).join(", ") || "none"),
    answer.plan.length ? el("table", { id: "plan", class: "options" },
      el("thead", {}, el("tr", {}, ["#", "action", "card", "to", "details"].map((h) =>
        el("th", {}, h)))), el("tbody", {}, rows))
      : el("p", { class: "hint" }, "No move helps this turn."));
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
  $("#step-label").textContent = n ? `move ${upTo} of ${n}` : "";
  $("#board").dataset.step = String(upTo);
}

function drawPatrol(patrol) {
  if (!patrol) return;
  const what = patrol.moved_from
    ? `move the dragon from ${patrol.moved_from} to ${patrol.to}` : `set a dragon on ${patrol.to}`;
  $("#patrol").replaceChildren(el("h3", {}, "Drachenpatrouille (dragon patrol)"),
    el("p", { id: "patrol-advice", "data-to": patrol.to,
              "data-moved-from": patrol.moved_from ?? "", "data-increase": patrol.increase },
    `${what}: +${patrol.increase} card(s) for the opponents`,
    el("span", { class: "hint" }, ` (${patrol.options} placements)`)));
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

async function start() {
  settingsToggle();
  try {
    const response = await fetch("/api/dragon/options");
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    state.opts = await response.json();
  } catch (error) {
    status.error(`cannot reach the solver: ${error.message}`);
    return;
  }
  state.position = structuredClone(state.opts.opening);
  if (state.opts.reconstruction) {
    $("#board-warning").textContent = "Board: the reconstructed layout, not the printed one " +
      "(the printed start layout is lost).";
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
  await ask();
  document.body.dataset.ready = "true";
}

start();
